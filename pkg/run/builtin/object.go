package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/run"
)

// The object handler, and the dotted paths it shares with json_query.
//
// A path is a list of keys separated by dots: "user.address.city". A key
// that is a whole number indexes a list ("items.0.id", or "items[0].id");
// a negative one counts from the end ("items.-1"). A key holding a dot is
// written ["a.b"], or with the dot escaped: a\.b. "" (or "$") is the whole
// value. json_query also takes "*": every element of a list, every value of
// an object.

var objOperations = []string{"keys", "values", "entries", "from_entries", "get", "set", "delete", "has", "merge", "pick", "omit"}

// objSeg is one step of a path.
type objSeg struct {
	key  string
	wild bool // "*"
}

// objParsePath splits a path; param names the parameter for errors.
func objParsePath(param, path string) ([]objSeg, error) {
	bad := func(why string) error {
		return &run.Error{Kind: run.ValidationError, Param: param, Message: fmt.Sprintf("%s %q %s; write a dotted path such as user.address.city, items.0.id or items[0].id", param, path, why)}
	}
	p := strings.TrimSpace(path)
	p = strings.TrimPrefix(p, "$")
	p = strings.TrimPrefix(p, ".")
	var segs []objSeg
	var cur strings.Builder
	pending := false // cur holds a key (possibly empty, as in a..b)
	flush := func() {
		if pending {
			k := cur.String()
			segs = append(segs, objSeg{key: k, wild: k == "*"})
		}
		cur.Reset()
		pending = false
	}
	for i := 0; i < len(p); i++ {
		ch := p[i]
		switch ch {
		case '\\':
			if i+1 < len(p) {
				i++
			}
			cur.WriteByte(p[i])
			pending = true
		case '.':
			if !pending {
				if i == 0 || p[i-1] != ']' {
					return nil, bad("has an empty key")
				}
				continue
			}
			flush()
			if i == len(p)-1 {
				return nil, bad("ends with a dot")
			}
		case '[':
			flush()
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return nil, bad("has a [ without ]")
			}
			inner := p[i+1 : i+end]
			if len(inner) >= 2 && (inner[0] == '"' || inner[0] == '\'') && inner[len(inner)-1] == inner[0] {
				inner = inner[1 : len(inner)-1]
				segs = append(segs, objSeg{key: inner})
			} else {
				if inner != "*" {
					if _, err := strconv.Atoi(inner); err != nil {
						return nil, bad(fmt.Sprintf("has [%s]; brackets take an index, * or a quoted key", inner))
					}
				}
				segs = append(segs, objSeg{key: inner, wild: inner == "*"})
			}
			i += end
		default:
			cur.WriteByte(ch)
			pending = true
		}
	}
	flush()
	return segs, nil
}

// objIndex resolves a list index (negative from the end).
func objIndex(key string, n int) (int, bool) {
	i, err := strconv.Atoi(key)
	if err != nil {
		return 0, false
	}
	if i < 0 {
		i += n
	}
	return i, i >= 0 && i < n
}

// objGet follows a path without wildcards.
func objGet(v any, segs []objSeg) (any, bool) {
	for _, s := range segs {
		switch c := v.(type) {
		case map[string]any:
			x, ok := c[s.key]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			i, ok := objIndex(s.key, len(c))
			if !ok {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// objGetAll follows a path with wildcards: every value it reaches, in
// order (object keys sorted).
func objGetAll(v any, segs []objSeg, out []any) []any {
	if len(segs) == 0 {
		return append(out, v)
	}
	s := segs[0]
	if !s.wild {
		if x, ok := objGet(v, segs[:1]); ok {
			return objGetAll(x, segs[1:], out)
		}
		return out
	}
	switch c := v.(type) {
	case []any:
		for _, x := range c {
			out = objGetAll(x, segs[1:], out)
		}
	case map[string]any:
		for _, k := range objSortedKeys(c) {
			out = objGetAll(c[k], segs[1:], out)
		}
	}
	return out
}

func objHasWild(segs []objSeg) bool {
	for _, s := range segs {
		if s.wild {
			return true
		}
	}
	return false
}

func objSortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// objSet stores value at the path inside root (which it modifies) and
// returns the new root. Missing objects on the way are created; a list
// index may be one past the end, which appends.
func objSet(param string, root any, segs []objSeg, value any) (any, error) {
	if len(segs) == 0 {
		return value, nil
	}
	s := segs[0]
	if s.wild {
		return nil, &run.Error{Kind: run.ValidationError, Param: param, Message: fmt.Sprintf("%s: * cannot be used to set or delete; name the key", param)}
	}
	switch c := root.(type) {
	case nil:
		child, err := objSet(param, nil, segs[1:], value)
		if err != nil {
			return nil, err
		}
		return map[string]any{s.key: child}, nil
	case map[string]any:
		child, err := objSet(param, c[s.key], segs[1:], value)
		if err != nil {
			return nil, err
		}
		c[s.key] = child
		return c, nil
	case []any:
		i, err := strconv.Atoi(s.key)
		if err == nil && i < 0 {
			i += len(c)
		}
		if err != nil || i < 0 || i > len(c) {
			return nil, &run.Error{Kind: run.ValidationError, Param: param, Message: fmt.Sprintf("%s: %q is not an index of a list of length %d; use 0 to %d (negative counts from the end), or %d to append", param, s.key, len(c), len(c)-1, len(c))}
		}
		if i == len(c) {
			c = append(c, nil)
		}
		child, err := objSet(param, c[i], segs[1:], value)
		if err != nil {
			return nil, err
		}
		c[i] = child
		return c, nil
	}
	return nil, &run.Error{Kind: run.ValidationError, Param: param, Message: fmt.Sprintf("%s: cannot set %q inside a %s", param, s.key, run.JSONType(root))}
}

// objDelete removes the path from root (which it modifies); it reports
// whether something was there.
func objDelete(root any, segs []objSeg) (any, bool) {
	if len(segs) == 0 {
		return root, false
	}
	last := segs[len(segs)-1]
	parent, ok := objGet(root, segs[:len(segs)-1])
	if !ok {
		return root, false
	}
	switch c := parent.(type) {
	case map[string]any:
		if _, ok := c[last.key]; !ok {
			return root, false
		}
		delete(c, last.key)
		return root, true
	case []any:
		i, ok := objIndex(last.key, len(c))
		if !ok {
			return root, false
		}
		shorter := append(c[:i:i], c[i+1:]...)
		if len(segs) == 1 {
			return shorter, true
		}
		// A list cannot shrink in place: store the shorter copy back.
		r, _ := objSet("path", root, segs[:len(segs)-1], shorter)
		return r, true
	}
	return root, false
}

// objClone deep-copies a JSON value, so that set and delete leave the
// caller's input as it was.
func objClone(v any) any {
	switch c := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(c))
		for k, x := range c {
			m[k] = objClone(x)
		}
		return m
	case []any:
		l := make([]any, len(c))
		for i, x := range c {
			l[i] = objClone(x)
		}
		return l
	}
	return v
}

// objMerge merges src into dst (both objects, dst modified): nested
// objects merge key by key, anything else from src wins; lists are
// replaced or, with concat, appended.
func objMerge(dst, src map[string]any, concat bool) map[string]any {
	for k, sv := range src {
		dv, ok := dst[k]
		if !ok {
			dst[k] = objClone(sv)
			continue
		}
		dm, dok := dv.(map[string]any)
		sm, sok := sv.(map[string]any)
		if dok && sok {
			dst[k] = objMerge(dm, sm, concat)
			continue
		}
		dl, dok := dv.([]any)
		sl, sok := sv.([]any)
		if concat && dok && sok {
			dst[k] = append(dl, objClone(sl).([]any)...)
			continue
		}
		dst[k] = objClone(sv)
	}
	return dst
}

// objParam reads an object parameter.
func objParam(c *run.Call, name string) (map[string]any, error) {
	v, ok := c.Input[name]
	if !ok || v == nil {
		return map[string]any{}, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, run.ArgTypeError(name, "an object", v)
	}
	return objClone(m).(map[string]any), nil
}

// objList reads a list parameter.
func objList(c *run.Call, name string) ([]any, error) {
	v, ok := c.Input[name]
	if !ok || v == nil {
		return []any{}, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, run.ArgTypeError(name, "an array", v)
	}
	return l, nil
}

// objPaths reads a list of paths.
func objPaths(c *run.Call, name string) ([][]objSeg, []string, error) {
	list, err := objList(c, name)
	if err != nil {
		return nil, nil, err
	}
	var out [][]objSeg
	var names []string
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, nil, &run.Error{Kind: run.ValidationError, Param: fmt.Sprintf("%s/%d", name, i), Message: fmt.Sprintf("%s[%d] is a %s; give paths as strings", name, i, run.JSONType(x))}
		}
		segs, err := objParsePath(name, s)
		if err != nil {
			return nil, nil, err
		}
		if objHasWild(segs) {
			return nil, nil, &run.Error{Kind: run.ValidationError, Param: name, Message: fmt.Sprintf("%s: %q uses *, which object does not support; name each key (json_query supports *)", name, s)}
		}
		out = append(out, segs)
		names = append(names, s)
	}
	return out, names, nil
}

func objectHandler(_ context.Context, c *run.Call) (any, error) {
	op, err := c.String("operation", "")
	if err != nil {
		return nil, err
	}
	obj, err := objParam(c, "object")
	if err != nil {
		return nil, err
	}
	path := func() ([]objSeg, error) {
		p, err := c.String("path", "")
		if err != nil {
			return nil, err
		}
		segs, err := objParsePath("path", p)
		if err != nil {
			return nil, err
		}
		if objHasWild(segs) {
			return nil, &run.Error{Kind: run.ValidationError, Param: "path", Message: fmt.Sprintf("path %q uses *, which object does not support; name each key (json_query supports *)", p)}
		}
		if len(segs) == 0 && op != "get" && op != "has" {
			return nil, &run.Error{Kind: run.ValidationError, Param: "path", Message: fmt.Sprintf("operation %s needs path: the dotted path of the key, e.g. user.name", op)}
		}
		return segs, nil
	}

	switch op {
	case "keys":
		keys := objSortedKeys(obj)
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = k
		}
		return map[string]any{"result": out}, nil
	case "values":
		out := []any{}
		for _, k := range objSortedKeys(obj) {
			out = append(out, obj[k])
		}
		return map[string]any{"result": out}, nil
	case "entries":
		out := []any{}
		for _, k := range objSortedKeys(obj) {
			out = append(out, map[string]any{"key": k, "value": obj[k]})
		}
		return map[string]any{"result": out}, nil
	case "from_entries":
		entries, err := objList(c, "entries")
		if err != nil {
			return nil, err
		}
		out := map[string]any{}
		for i, e := range entries {
			k, v, err := objEntry(e, i)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return map[string]any{"result": out}, nil
	case "get", "has":
		segs, err := path()
		if err != nil {
			return nil, err
		}
		v, ok := objGet(obj, segs)
		if op == "has" {
			return map[string]any{"result": ok}, nil
		}
		return map[string]any{"result": v, "found": ok}, nil
	case "set":
		segs, err := path()
		if err != nil {
			return nil, err
		}
		r, err := objSet("path", obj, segs, objClone(c.Input["value"]))
		if err != nil {
			return nil, err
		}
		return map[string]any{"result": r}, nil
	case "delete":
		segs, err := path()
		if err != nil {
			return nil, err
		}
		r, ok := objDelete(obj, segs)
		return map[string]any{"result": r, "deleted": ok}, nil
	case "merge":
		other, err := objParam(c, "other")
		if err != nil {
			return nil, err
		}
		mode, err := c.String("array_merge", "replace")
		if err != nil {
			return nil, err
		}
		if mode != "replace" && mode != "concat" {
			return nil, &run.Error{Kind: run.ValidationError, Param: "array_merge", Message: fmt.Sprintf("array_merge %q is not known; use replace or concat", mode)}
		}
		return map[string]any{"result": objMerge(obj, other, mode == "concat")}, nil
	case "pick":
		paths, names, err := objPaths(c, "paths")
		if err != nil {
			return nil, err
		}
		var out any = map[string]any{}
		missing := []any{}
		for i, segs := range paths {
			v, ok := objGet(obj, segs)
			if !ok {
				missing = append(missing, names[i])
				continue
			}
			if out, err = objSet("paths", out, segs, v); err != nil {
				return nil, err
			}
		}
		return map[string]any{"result": out, "missing": missing}, nil
	case "omit":
		paths, _, err := objPaths(c, "paths")
		if err != nil {
			return nil, err
		}
		var out any = obj
		for _, segs := range paths {
			out, _ = objDelete(out, segs)
		}
		return map[string]any{"result": out}, nil
	}
	return nil, &run.Error{Kind: run.ValidationError, Param: "operation", Message: fmt.Sprintf("unknown operation %q; use one of %s", op, strings.Join(objOperations, ", "))}
}

// objEntry reads one entry of from_entries: {key, value} (also k/v or
// name/value) or a [key, value] pair.
func objEntry(e any, i int) (string, any, error) {
	bad := func(why string) error {
		return &run.Error{Kind: run.ValidationError, Param: fmt.Sprintf("entries/%d", i), Message: fmt.Sprintf("entries[%d] %s; give {\"key\": ..., \"value\": ...} or [key, value]", i, why)}
	}
	var k, v any
	switch x := e.(type) {
	case map[string]any:
		var ok bool
		for _, name := range []string{"key", "k", "name"} {
			if k, ok = x[name]; ok {
				break
			}
		}
		if !ok {
			return "", nil, bad("has no key")
		}
		v = x["value"]
		if _, has := x["value"]; !has {
			v = x["v"]
		}
	case []any:
		if len(x) != 2 {
			return "", nil, bad(fmt.Sprintf("is a list of %d items, not a [key, value] pair", len(x)))
		}
		k, v = x[0], x[1]
	default:
		return "", nil, bad("is a " + run.JSONType(e))
	}
	switch key := k.(type) {
	case string:
		return key, v, nil
	case json.Number:
		return key.String(), v, nil
	case bool:
		return strconv.FormatBool(key), v, nil
	}
	return "", nil, bad("has a " + run.JSONType(k) + " key; keys are strings or numbers")
}
