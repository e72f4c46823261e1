package compat

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// This file holds what the schema checks share: a walk over every subschema
// of an input schema (with pointers relative to its root), and small checks
// several providers need.

// node is one subschema met by walk.
type node struct {
	// ptr is the pointer from the schema's root, e.g. /properties/q.
	ptr    string
	schema *spec.Map
	// name is the dotted path of the parameter (or definition member) the
	// node describes: "filter.limit", "tags[]"; "" at the root.
	name string
	// def is set inside $defs / definitions; name is then relative to the
	// definition ("node.next").
	def bool
	// depth counts the properties / items steps from the root (or from the
	// definition holding the node): the root's parameters are at depth 1.
	depth int
	// prop tells the node was reached as a property, i.e. it is a parameter
	// (or a member of an object parameter); key is its name and required
	// whether its parent's required lists it.
	prop     bool
	key      string
	required bool
	// kw is the keyword the node was reached through ("properties",
	// "$defs", "anyOf", "items", ...; "" at the root). Under a keyword that
	// maps names to schemas, key is the name.
	kw string
	// merged tells the node is the only schema of an allOf, which export
	// --strict merges into the parent (Merge): the parent is checked as
	// the whole.
	merged bool
}

// label names the node in a message.
func (n *node) label() string {
	switch {
	case n.name == "" && !n.def:
		return "the input schema"
	case n.def:
		return fmt.Sprintf("definition %q", n.name)
	}
	return fmt.Sprintf("parameter %q", n.name)
}

// mapKws are keywords whose value maps names to subschemas; oneKws and
// listKws hold one subschema or a list of them. nestKws tells which
// keywords descend a level of the instance (nesting depth).
var (
	mapKws  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	oneKws  = []string{"items", "additionalProperties", "additionalItems", "unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else"}
	listKws = []string{"anyOf", "oneOf", "allOf", "prefixItems", "items"}
	nestKws = map[string]bool{"properties": true, "patternProperties": true, "items": true, "prefixItems": true, "additionalProperties": true, "additionalItems": true, "unevaluatedProperties": true, "unevaluatedItems": true, "contains": true}
)

// maxWalk bounds the walk over pathological (or cyclic YAML alias)
// schemas.
const maxWalk = 64

// walk calls visit for every subschema of schema, depth first in source
// order, the root first. Bound top-level parameters are skipped with
// everything under them.
func walk(schema *spec.Map, bound map[string]bool, visit func(n *node)) {
	if schema == nil {
		return
	}
	walkNode(&node{schema: schema}, bound, 0, visit)
}

func walkNode(n *node, bound map[string]bool, level int, visit func(n *node)) {
	if level > maxWalk {
		return
	}
	visit(n)
	s := n.schema
	for i := range s.Len() {
		kw, v := s.At(i)
		switch {
		case slices.Contains(mapKws, kw):
			m, ok := v.(*spec.Map)
			if !ok {
				continue
			}
			var req map[string]bool
			if kw == "properties" {
				req = requiredSet(s)
			}
			for j := range m.Len() {
				key, cv := m.At(j)
				cs, ok := cv.(*spec.Map)
				if !ok {
					continue
				}
				if kw == "properties" && level == 0 && bound[key] {
					continue
				}
				c := &node{ptr: n.ptr + "/" + escape(kw) + "/" + escape(key), schema: cs, name: n.name, def: n.def, depth: n.depth, kw: kw, key: key}
				switch kw {
				case "properties":
					c.name, c.prop, c.required = join(n.name, key), true, req[key]
				case "$defs", "definitions":
					c.name, c.def, c.depth = key, true, 0
				}
				if nestKws[kw] {
					c.depth++
				}
				walkNode(c, bound, level+1, visit)
			}
		case slices.Contains(oneKws, kw) || slices.Contains(listKws, kw):
			switch cv := v.(type) {
			case *spec.Map:
				c := &node{ptr: n.ptr + "/" + kw, schema: cv, name: n.name, def: n.def, depth: n.depth, kw: kw}
				if kw == "items" {
					c.name = n.name + "[]"
				}
				if nestKws[kw] {
					c.depth++
				}
				walkNode(c, bound, level+1, visit)
			case []any:
				for j, x := range cv {
					cs, ok := x.(*spec.Map)
					if !ok {
						continue
					}
					c := &node{ptr: fmt.Sprintf("%s/%s/%d", n.ptr, kw, j), schema: cs, name: n.name, def: n.def, depth: n.depth, kw: kw, merged: kw == "allOf" && len(cv) == 1}
					if kw == "items" || kw == "prefixItems" {
						c.name = fmt.Sprintf("%s[%d]", n.name, j)
					}
					if nestKws[kw] {
						c.depth++
					}
					walkNode(c, bound, level+1, visit)
				}
			}
		}
	}
}

// keywords calls f for each keyword of the node's schema in source order,
// with the keyword's pointer.
func (n *node) keywords(f func(kw string, v any, ptr string)) {
	for i := range n.schema.Len() {
		kw, v := n.schema.At(i)
		f(kw, v, n.ptr+"/"+escape(kw))
	}
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// escape escapes one pointer token (~ and /).
func escape(token string) string { return spec.Pointer(token)[1:] }

// requiredSet returns the names a schema's required lists.
func requiredSet(s *spec.Map) map[string]bool {
	list, _ := s.Get("required")
	set := map[string]bool{}
	for _, x := range asList(list) {
		if name, ok := x.(string); ok {
			set[name] = true
		}
	}
	return set
}

func asList(v any) []any {
	list, _ := v.([]any)
	return list
}

// regexProblem names the first feature of a pattern that grammar-based
// strict modes cannot compile (Anthropic: lookaround, backreferences, word
// boundaries), or returns "".
func regexProblem(p string) string {
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			n := p[i+1]
			if !inClass {
				switch {
				case n >= '1' && n <= '9':
					return `a backreference (\` + string(n) + `)`
				case n == 'k' && i+2 < len(p) && strings.ContainsRune("<{'", rune(p[i+2])):
					return `a named backreference (\k)`
				case n == 'b' || n == 'B':
					return `a word boundary (\` + string(n) + `)`
				}
			}
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			if i+1 < len(p) && p[i+1] == '^' {
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				i++ // a ] first in a class is literal
			}
		case c == '(':
			rest := p[i:]
			switch {
			case strings.HasPrefix(rest, "(?="):
				return "a lookahead ((?=...))"
			case strings.HasPrefix(rest, "(?!"):
				return "a negative lookahead ((?!...))"
			case strings.HasPrefix(rest, "(?<="):
				return "a lookbehind ((?<=...))"
			case strings.HasPrefix(rest, "(?<!"):
				return "a negative lookbehind ((?<!...))"
			}
		}
	}
	return ""
}

// ref is one $ref met in an input schema.
type ref struct {
	node   *node
	ref    string
	target string // pointer of a local reference ("" for #), see local
	local  bool
}

// refs lists the $refs of a schema in source order.
func refs(schema *spec.Map, bound map[string]bool) []ref {
	var out []ref
	walk(schema, bound, func(n *node) {
		r, ok := n.schema.GetString("$ref")
		if !ok {
			return
		}
		local := r == "#" || strings.HasPrefix(r, "#/")
		out = append(out, ref{node: n, ref: r, target: strings.TrimPrefix(r, "#"), local: local})
	})
	return out
}

func within(ptr, root string) bool {
	return ptr == root || strings.HasPrefix(ptr, root+"/")
}

// recursive returns the indexes of the refs whose expansion never ends:
// following the reference (and those its target holds, transitively) leads
// back to a schema that encloses the reference itself.
func recursive(refs []ref) map[int]bool {
	out := map[int]bool{}
	for i, r := range refs {
		if !r.local {
			continue
		}
		seen := map[string]bool{r.target: true}
		queue := []string{r.target}
		for len(queue) > 0 && !out[i] {
			target := queue[0]
			queue = queue[1:]
			if within(r.node.ptr, target) {
				out[i] = true
				break
			}
			for _, o := range refs {
				if o.local && !seen[o.target] && within(o.node.ptr, target) {
					seen[o.target] = true
					queue = append(queue, o.target)
				}
			}
		}
	}
	return out
}

// isFalse tells whether v is the JSON value false.
func isFalse(v any) bool {
	b, ok := v.(bool)
	return ok && !b
}

// orList renders a list of names for a message: a, b or c.
func orList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// valueText renders a value for a message, JSON style and cut at 60 bytes
// (as lint's other messages do: maps in key order, other values via Plain).
func valueText(v any) string {
	b, _ := json.Marshal(spec.Plain(v))
	if m, ok := v.(*spec.Map); ok {
		b, _ = m.MarshalJSON()
	}
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}
