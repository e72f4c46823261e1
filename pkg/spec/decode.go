package spec

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"
)

// Limits that keep hostile input (alias bombs, absurd nesting) bounded.
// The importer applies them to its input too.
const (
	// MaxDepth is how deep values may nest: a value inside more than
	// MaxDepth collections is an error.
	MaxDepth = 256
	// MaxValues is how many values (scalars and collections, aliases
	// expanded) one file may hold.
	MaxValues = 2_000_000
)

// TooDeepMsg and TooManyValuesMsg say what is wrong with input beyond the
// limits, for every reader.
var (
	TooDeepMsg       = fmt.Sprintf("values are nested more than %d levels deep; flatten the structure", MaxDepth)
	TooManyValuesMsg = fmt.Sprintf("the file expands to more than %d values (a YAML alias bomb?); toolctl stops reading it here", MaxValues)
)

// decoder converts yaml.Nodes of one file into model values and collects
// positioned errors. It never panics on any input.
type decoder struct {
	file   *File
	errs   []*Error
	values int  // values produced, across aliases, against MaxValues
	broke  bool // the budget was exhausted: stop producing values
	// aliasing tracks alias targets being expanded, to catch cycles.
	aliasing map[*yaml.Node]bool
	// stream, when set, takes the tools of a large list one at a
	// time (LoadFilesStream).
	stream *streamer
}

func (d *decoder) errorf(n *yaml.Node, ptr string, format string, args ...any) {
	e := &Error{File: d.file.Path, Pointer: ptr, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Span = d.file.span(n)
	}
	d.errs = append(d.errs, e)
}

// resolve follows aliases to the node they name.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 1000; i++ {
		n = n.Alias
	}
	return n
}

// KindName describes a YAML node for error messages: "a list", "a mapping",
// "a string (\"x\")", "a number (3)", "null". Config readers use it too.
func KindName(n *yaml.Node) string {
	n = resolve(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "a boolean (" + n.Value + ")"
		case "!!int", "!!float":
			return "a number (" + n.Value + ")"
		}
		return fmt.Sprintf("a string (%q)", truncate(n.Value, 40))
	}
	return "an unexpected node"
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

type pair struct {
	key, value *yaml.Node
}

// pairs returns the key/value pairs of a mapping, with YAML merge keys
// (<<) expanded: explicit keys win over merged ones. Duplicate explicit keys
// are reported. Non-scalar keys are reported and skipped.
func (d *decoder) pairs(n *yaml.Node, ptr string) []pair {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]pair, 0, len(n.Content)/2)
	var merges []*yaml.Node
	var seen map[string]*yaml.Node
	if len(n.Content) > 16 {
		seen = make(map[string]*yaml.Node, len(n.Content)/2)
	}
	find := func(key string) *yaml.Node {
		if seen != nil {
			return seen[key]
		}
		for _, p := range out {
			if p.key.Value == key {
				return p.key
			}
		}
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		rk := resolve(k)
		if rk == nil || rk.Kind != yaml.ScalarNode {
			d.errorf(k, ptr, "mapping keys must be strings, got %s", KindName(k))
			continue
		}
		if rk.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if first := find(rk.Value); first != nil {
			d.errorf(k, Pointer(append(SplitPointer(ptr), rk.Value)...),
				"duplicate key %q (first defined at line %d); remove one of them", rk.Value, first.Line)
			continue
		}
		if seen != nil {
			seen[rk.Value] = rk
		}
		out = append(out, pair{rk, v})
	}
	for _, m := range merges {
		m = resolve(m)
		var sources []*yaml.Node
		switch {
		case m != nil && m.Kind == yaml.MappingNode:
			sources = []*yaml.Node{m}
		case m != nil && m.Kind == yaml.SequenceNode:
			sources = m.Content
		default:
			d.errorf(m, ptr, "the merge key << needs a mapping or a list of mappings, got %s", KindName(m))
			continue
		}
		for _, src := range sources {
			if d.aliasing[src] {
				continue
			}
			d.enter(src)
			for _, p := range d.pairs(src, ptr) {
				if find(p.key.Value) == nil {
					if seen != nil {
						seen[p.key.Value] = p.key
					}
					out = append(out, p)
				}
			}
			d.leave(src)
		}
	}
	return out
}

func (d *decoder) enter(n *yaml.Node) {
	if d.aliasing == nil {
		d.aliasing = make(map[*yaml.Node]bool)
	}
	d.aliasing[n] = true
}

func (d *decoder) leave(n *yaml.Node) { delete(d.aliasing, n) }

// value converts a node into a model value (*Map, []any, string,
// json.Number, bool, nil), keeping key order. Problems are reported and the
// offending part becomes nil.
func (d *decoder) value(n *yaml.Node, ptr string, depth int) any {
	if d.broke {
		return nil
	}
	d.values++
	if d.values > MaxValues {
		d.broke = true
		d.errorf(n, ptr, "%s", TooManyValuesMsg)
		return nil
	}
	if depth > MaxDepth {
		d.errorf(n, ptr, "%s", TooDeepMsg)
		d.broke = true
		return nil
	}
	if n.Kind == yaml.AliasNode {
		target := n.Alias
		if target == nil {
			d.errorf(n, ptr, "alias *%s names no anchor", n.Value)
			return nil
		}
		if d.aliasing[target] {
			d.errorf(n, ptr, "alias *%s refers to a value that contains it; a tool file cannot be recursive", n.Value)
			return nil
		}
		d.enter(target)
		v := d.value(target, ptr, depth+1)
		d.leave(target)
		return v
	}
	switch n.Kind {
	case yaml.MappingNode:
		ps := d.pairs(n, ptr)
		m := NewMap(len(ps))
		for _, p := range ps {
			m.add(p.key.Value, d.value(p.value, ptr+"/"+escapeToken(p.key.Value), depth+1))
		}
		return m
	case yaml.SequenceNode:
		list := make([]any, len(n.Content))
		for i, c := range n.Content {
			list[i] = d.value(c, ptr+"/"+strconv.Itoa(i), depth+1)
		}
		return list
	case yaml.ScalarNode:
		return d.scalar(n, ptr)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return d.value(n.Content[0], ptr, depth)
	}
	return nil
}

func escapeToken(t string) string {
	if len(t) == 0 {
		return t
	}
	for i := 0; i < len(t); i++ {
		if t[i] == '~' || t[i] == '/' {
			return Pointer(t)[1:]
		}
	}
	return t
}

// jsonNumber matches the JSON number grammar, so YAML numbers written that
// way keep their exact spelling (1.0 stays 1.0).
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func (d *decoder) scalar(n *yaml.Node, ptr string) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return n.Value
		}
		return b
	case "!!int", "!!float":
		if jsonNumber.MatchString(n.Value) {
			return json.Number(n.Value)
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return n.Value
		}
		switch x := v.(type) {
		case int:
			return json.Number(strconv.Itoa(x))
		case int64:
			return json.Number(strconv.FormatInt(x, 10))
		case uint64:
			return json.Number(strconv.FormatUint(x, 10))
		case float64:
			num, ok := numberFromFloat(x)
			if !ok {
				d.errorf(n, ptr, "%s has no JSON form; use a finite number or quote it as a string", n.Value)
				return nil
			}
			return num
		}
		return n.Value
	}
	// yaml.v3 (and the JSON reader, which agrees with it) tags a plain
	// number beyond float64's range as a string: say so, rather than let
	// "maximum: 1e400" be "expected number, but got string" later. The
	// number is kept as written (JSON has no limit), so that no check
	// reports it a second time as something else.
	if n.Style == 0 && n.ShortTag() == "!!str" && jsonNumber.MatchString(n.Value) {
		d.errorf(n, ptr, "%s is out of range: toolctl reads numbers as 64-bit floats (at most about ±1.8e308); use a smaller number, or quote it to mean a string", truncate(n.Value, 40))
		return json.Number(n.Value)
	}
	return n.Value
}
