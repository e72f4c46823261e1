package builtin

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

// json_transformer: reshape JSON with the dotted paths of builtin_object.go
// (which here may use * for every element). Its bundled tool file is
// tools/json_query.yaml: tools/json_transformer.yaml is a JavaScript tool
// with the handler's name.

var jqOperations = []string{"get", "pick", "flatten", "unflatten"}

func jsonTransformerHandler(_ context.Context, c *run.Call) (any, error) {
	op, err := c.String("operation", "pick")
	if err != nil {
		return nil, err
	}
	data := c.Input["data"]
	switch op {
	case "get":
		p, err := c.String("path", "")
		if err != nil {
			return nil, err
		}
		segs, err := objParsePath("path", p)
		if err != nil {
			return nil, err
		}
		if objHasWild(segs) {
			all := objGetAll(data, segs, []any{})
			return map[string]any{"result": all, "found": len(all) > 0}, nil
		}
		v, ok := objGet(data, segs)
		return map[string]any{"result": v, "found": ok}, nil
	case "pick":
		return jqPick(c, data)
	case "flatten":
		sep, err := jqSeparator(c)
		if err != nil {
			return nil, err
		}
		switch data.(type) {
		case map[string]any, []any:
		default:
			return nil, &run.Error{Kind: run.ValidationError, Param: "data", Message: fmt.Sprintf("flatten needs data to be an object or an array, got %s", run.JSONType(data))}
		}
		out := map[string]any{}
		jqFlatten(out, "", sep, data)
		return map[string]any{"result": out}, nil
	case "unflatten":
		sep, err := jqSeparator(c)
		if err != nil {
			return nil, err
		}
		m, ok := data.(map[string]any)
		if !ok {
			return nil, &run.Error{Kind: run.ValidationError, Param: "data", Message: fmt.Sprintf("unflatten needs data to be an object of flat keys such as {\"a.b\": 1}, got %s", run.JSONType(data))}
		}
		out, err := jqUnflatten(m, sep)
		if err != nil {
			return nil, err
		}
		return map[string]any{"result": out}, nil
	}
	return nil, &run.Error{Kind: run.ValidationError, Param: "operation", Message: fmt.Sprintf("unknown operation %q; use one of %s", op, strings.Join(jqOperations, ", "))}
}

func jqSeparator(c *run.Call) (string, error) {
	sep, err := c.String("separator", ".")
	if err == nil && sep == "" {
		err = &run.Error{Kind: run.ValidationError, Param: "separator", Message: "separator is empty; use e.g. \".\" or \"/\""}
	}
	return sep, err
}

// jqPick builds {field: value at path} from mapping; fields whose path
// does not exist are listed in missing (and set to null with keep_missing).
// A path with * gives the list of everything it reaches.
func jqPick(c *run.Call, data any) (any, error) {
	mapping, err := objParam(c, "mapping")
	if err != nil {
		return nil, err
	}
	if len(mapping) == 0 {
		return nil, &run.Error{Kind: run.ValidationError, Param: "mapping", Message: "pick needs mapping: output field names mapped to paths, e.g. {\"city\": \"user.address.city\"}"}
	}
	keep, err := c.Bool("keep_missing", false)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	missing := []any{}
	fields := objSortedKeys(mapping)
	for _, field := range fields {
		param := "mapping" + spec.Pointer(field)
		p, ok := mapping[field].(string)
		if !ok {
			return nil, &run.Error{Kind: run.ValidationError, Param: param, Message: fmt.Sprintf("mapping.%s is a %s; map each field to a path string such as \"user.name\"", field, run.JSONType(mapping[field]))}
		}
		segs, err := objParsePath(param, p)
		if err != nil {
			return nil, err
		}
		if objHasWild(segs) {
			out[field] = objGetAll(data, segs, []any{})
			continue
		}
		v, ok := objGet(data, segs)
		if !ok {
			missing = append(missing, field)
			if keep {
				out[field] = nil
			}
			continue
		}
		out[field] = v
	}
	return map[string]any{"result": out, "missing": missing}, nil
}

// jqFlatten writes every leaf of v under its joined path. Empty objects
// and lists are leaves, so that unflatten gives them back.
func jqFlatten(out map[string]any, prefix, sep string, v any) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + sep + k
	}
	switch c := v.(type) {
	case map[string]any:
		if len(c) == 0 && prefix != "" {
			out[prefix] = map[string]any{}
		}
		for k, x := range c {
			jqFlatten(out, join(k), sep, x)
		}
	case []any:
		if len(c) == 0 && prefix != "" {
			out[prefix] = []any{}
		}
		for i, x := range c {
			jqFlatten(out, join(strconv.Itoa(i)), sep, x)
		}
	default:
		out[prefix] = v
	}
}

// jqUnflatten nests {"a.b": 1, "l.0": 2} back into {"a": {"b": 1}, "l":
// [2]}: an object whose keys are exactly 0..n-1 becomes a list.
func jqUnflatten(flat map[string]any, sep string) (any, error) {
	root := map[string]any{}
	keys := objSortedKeys(flat)
	for _, key := range keys {
		parts := strings.Split(key, sep)
		cur := root
		for i, p := range parts[:len(parts)-1] {
			next, exists := cur[p]
			if !exists {
				m := map[string]any{}
				cur[p] = m
				cur = m
				continue
			}
			m, ok := next.(map[string]any)
			if !ok {
				return nil, jqConflict(key, strings.Join(parts[:i+1], sep))
			}
			cur = m
		}
		last := parts[len(parts)-1]
		if _, exists := cur[last]; exists {
			return nil, jqConflict(key, key)
		}
		cur[last] = objClone(flat[key])
	}
	return jqLists(root), nil
}

func jqConflict(key, prefix string) error {
	return &run.Error{Kind: run.ValidationError, Param: "data" + spec.Pointer(key), Message: fmt.Sprintf("key %q conflicts with key %q: one value cannot be both a leaf and a parent", key, prefix)}
}

// jqLists turns objects keyed 0..n-1 into lists, bottom up.
func jqLists(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for k, x := range m {
		m[k] = jqLists(x)
	}
	if len(m) == 0 {
		return m
	}
	idx := make([]int, 0, len(m))
	for k := range m {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || strconv.Itoa(i) != k {
			return m
		}
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for n, i := range idx {
		if i != n {
			return m
		}
	}
	l := make([]any, len(idx))
	for _, i := range idx {
		l[i] = m[strconv.Itoa(i)]
	}
	return l
}
