package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// This file holds what the --target schema rules share: a walk over every
// subschema of an input schema (with canonical pointers, so findings land on
// the offending keyword in any dialect, list-form parameters included), and
// small checks several providers need.

// tgtNode is one subschema met by tgtWalk.
type tgtNode struct {
	// Ptr is the canonical pointer, e.g. /input_schema/properties/q.
	Ptr    string
	Schema *spec.Map
	// Name is the dotted path of the parameter (or definition member) the
	// node describes: "filter.limit", "tags[]"; "" at the root.
	Name string
	// Def is set inside $defs / definitions; Name is then relative to the
	// definition ("node.next").
	Def bool
	// Depth counts the properties / items steps from the root (or from the
	// definition holding the node): the root's parameters are at depth 1.
	Depth int
	// Prop tells the node was reached as a property, i.e. it is a
	// parameter (or a member of an object parameter); Key is its name and
	// Required whether its parent's required lists it.
	Prop     bool
	Key      string
	Required bool
	// Kw is the keyword the node was reached through ("properties",
	// "$defs", "anyOf", "items", ...; "" at the root). Under a keyword
	// that maps names to schemas, Key is the name.
	Kw string
}

// label names the node in a message.
func (n *tgtNode) label() string {
	switch {
	case n.Name == "" && !n.Def:
		return "the input schema"
	case n.Def:
		return fmt.Sprintf("definition %q", n.Name)
	}
	return fmt.Sprintf("parameter %q", n.Name)
}

// tgtMaps are keywords whose value maps names to subschemas; tgtOne
// and tgtLists hold one subschema or a list of them. tgtNests tells which
// keywords descend a level of the instance (nesting depth).
var (
	tgtMaps  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	tgtOne   = []string{"items", "additionalProperties", "additionalItems", "unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else"}
	tgtLists = []string{"anyOf", "oneOf", "allOf", "prefixItems", "items"}
	tgtNests = map[string]bool{"properties": true, "patternProperties": true, "items": true, "prefixItems": true, "additionalProperties": true, "additionalItems": true, "unevaluatedProperties": true, "unevaluatedItems": true, "contains": true}
)

// tgtMaxWalk bounds the walk over pathological (or cyclic YAML alias)
// schemas.
const tgtMaxWalk = 64

// tgtWalk calls visit for every subschema of t's input schema, depth
// first in source order, the root first. Bound top-level parameters are
// skipped with everything under them.
func tgtWalk(t *spec.Tool, visit func(n *tgtNode)) {
	if t.InputSchema == nil {
		return
	}
	tgtWalkNode(&tgtNode{Ptr: "/input_schema", Schema: t.InputSchema}, validate.BoundParams(t), 0, visit)
}

func tgtWalkNode(n *tgtNode, bound map[string]bool, level int, visit func(n *tgtNode)) {
	if level > tgtMaxWalk {
		return
	}
	visit(n)
	s := n.Schema
	for i := range s.Len() {
		kw, v := s.At(i)
		switch {
		case slices.Contains(tgtMaps, kw):
			m, ok := v.(*spec.Map)
			if !ok {
				continue
			}
			req := map[string]bool{}
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
				c := &tgtNode{Ptr: n.Ptr + "/" + kw + "/" + escape(key), Schema: cs, Name: n.Name, Def: n.Def, Depth: n.Depth, Kw: kw, Key: key}
				switch kw {
				case "properties":
					c.Name, c.Prop, c.Required = tgtJoin(n.Name, key), true, req[key]
				case "$defs", "definitions":
					c.Name, c.Def, c.Depth = key, true, 0
				}
				if tgtNests[kw] {
					c.Depth++
				}
				tgtWalkNode(c, bound, level+1, visit)
			}
		case slices.Contains(tgtOne, kw) || slices.Contains(tgtLists, kw):
			switch cv := v.(type) {
			case *spec.Map:
				c := &tgtNode{Ptr: n.Ptr + "/" + kw, Schema: cv, Name: n.Name, Def: n.Def, Depth: n.Depth, Kw: kw}
				if kw == "items" {
					c.Name = n.Name + "[]"
				}
				if tgtNests[kw] {
					c.Depth++
				}
				tgtWalkNode(c, bound, level+1, visit)
			case []any:
				for j, x := range cv {
					cs, ok := x.(*spec.Map)
					if !ok {
						continue
					}
					c := &tgtNode{Ptr: fmt.Sprintf("%s/%s/%d", n.Ptr, kw, j), Schema: cs, Name: n.Name, Def: n.Def, Depth: n.Depth, Kw: kw}
					if kw == "items" || kw == "prefixItems" {
						c.Name = fmt.Sprintf("%s[%d]", n.Name, j)
					}
					if tgtNests[kw] {
						c.Depth++
					}
					tgtWalkNode(c, bound, level+1, visit)
				}
			}
		}
	}
}

func tgtJoin(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// tgtRegexProblem names the first feature of a pattern that grammar-based
// strict modes cannot compile (Anthropic: lookaround, backreferences, word
// boundaries), or returns "".
func tgtRegexProblem(p string) string {
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

// tgtRef is one $ref met in an input schema.
type tgtRef struct {
	Node   *tgtNode
	Ref    string
	Target string // canonical pointer of a local reference, "" otherwise
}

// tgtRefs lists the $refs of t's input schema in source order.
func tgtRefs(t *spec.Tool) []tgtRef {
	var out []tgtRef
	tgtWalk(t, func(n *tgtNode) {
		ref, ok := n.Schema.GetString("$ref")
		if !ok {
			return
		}
		out = append(out, tgtRef{Node: n, Ref: ref, Target: tgtRefTarget(ref)})
	})
	return out
}

// tgtRefTarget maps a local reference (#, #/$defs/x) to its canonical
// pointer under /input_schema; other references give "".
func tgtRefTarget(ref string) string {
	if ref != "#" && !strings.HasPrefix(ref, "#/") {
		return ""
	}
	return "/input_schema" + strings.TrimPrefix(ref, "#")
}

func tgtWithin(ptr, root string) bool {
	return ptr == root || strings.HasPrefix(ptr, root+"/")
}

// tgtRecursive returns the indexes of the refs whose expansion never ends:
// following the reference (and those its target holds, transitively) leads
// back to a schema that encloses the reference itself.
func tgtRecursive(refs []tgtRef) map[int]bool {
	out := map[int]bool{}
	for i, r := range refs {
		if r.Target == "" {
			continue
		}
		seen := map[string]bool{r.Target: true}
		queue := []string{r.Target}
		for len(queue) > 0 && !out[i] {
			target := queue[0]
			queue = queue[1:]
			if tgtWithin(r.Node.Ptr, target) {
				out[i] = true
				break
			}
			for _, o := range refs {
				if o.Target != "" && !seen[o.Target] && tgtWithin(o.Node.Ptr, target) {
					seen[o.Target] = true
					queue = append(queue, o.Target)
				}
			}
		}
	}
	return out
}

// tgtIsFalse tells whether v is the JSON value false.
func tgtIsFalse(v any) bool {
	b, ok := v.(bool)
	return ok && !b
}

// tgtOrList renders a list of names for a message: a, b or c.
func tgtOrList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
