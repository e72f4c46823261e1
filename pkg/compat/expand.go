package compat

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// StrictMaxNodes and StrictMaxDepth bound export --strict's transform
// (pkg/export), which refuses a schema past either; the strict-schema
// rules report the same schemas (strictGrowth), so that lint --target
// says what export will refuse.
const (
	StrictMaxNodes = 20000
	StrictMaxDepth = 64
)

// growth is a schema as export --strict makes it: every $ref that has
// sibling keys replaced by its target (Merge), so that definitions that
// each use the next twice grow exponentially.
type growth struct {
	root   *spec.Map
	memo   map[string]grown
	active map[string]bool
	// recursive is the pointer of a schema whose $ref (with sibling keys) leads back
	// to a definition being inlined: inlined without end.
	recursive string
}

// grown is what a subschema becomes: how many subschemas it holds (at
// most StrictMaxNodes+1) and how many levels it nests (properties, items).
type grown struct{ nodes, depth int }

// strictGrowth is schema's size and depth once its $refs with sibling keys
// are inlined (an upper bound of what the transform visits: it counts
// every subschema), and the pointer of a $ref that would be inlined
// without end ("" if none). bound parameters are left out.
func strictGrowth(schema *spec.Map, bound map[string]bool) (grown, string) {
	if schema == nil {
		return grown{}, ""
	}
	g := &growth{root: schema, memo: map[string]grown{}, active: map[string]bool{}}
	out := g.expand(schema, "", bound, false, 0)
	return out, g.recursive
}

func (g *growth) expand(s *spec.Map, ptr string, bound map[string]bool, viaRef bool, level int) grown {
	out := grown{nodes: 1}
	if level > 4*StrictMaxDepth {
		return out // a cyclic YAML alias; the walk bounds it too
	}
	if ref, ok := s.GetString("$ref"); ok && s.Len() > 1 && strings.HasPrefix(ref, "#") {
		if g.active[ref] {
			if g.recursive == "" {
				g.recursive = ptr
			}
		} else if t, ok := ResolveRef(g.root, ref); ok {
			r, seen := g.memo[ref]
			if !seen {
				g.active[ref] = true
				r = g.expand(t, ref[1:], nil, true, level+1)
				delete(g.active, ref)
				g.memo[ref] = r
			}
			out.nodes += r.nodes - 1 // the target's own node is this one
			out.depth = max(out.depth, r.depth)
		}
	}
	add := func(c *spec.Map, cptr, kw string) {
		r := g.expand(c, cptr, nil, false, level+1)
		out.nodes = min(out.nodes+r.nodes, StrictMaxNodes+1)
		if nestKws[kw] {
			r.depth++
		}
		out.depth = max(out.depth, r.depth)
	}
	for i := range s.Len() {
		kw, v := s.At(i)
		if viaRef && (kw == "$defs" || kw == "definitions") {
			continue // inlining copies no definitions
		}
		switch {
		case slices.Contains(mapKws, kw):
			m, ok := v.(*spec.Map)
			if !ok {
				continue
			}
			for j := range m.Len() {
				key, cv := m.At(j)
				if cs, ok := cv.(*spec.Map); ok && !(kw == "properties" && bound[key]) {
					add(cs, ptr+"/"+escape(kw)+"/"+escape(key), kw)
				}
			}
		case slices.Contains(oneKws, kw) || slices.Contains(listKws, kw):
			switch cv := v.(type) {
			case *spec.Map:
				add(cv, ptr+"/"+kw, kw)
			case []any:
				for j, x := range cv {
					if cs, ok := x.(*spec.Map); ok {
						add(cs, ptr+"/"+kw+"/"+strconv.Itoa(j), kw)
					}
				}
			}
		}
	}
	return out
}

// strictGrowthProblems reports a schema that export --strict would refuse
// once it inlines the $refs with sibling keys: one that grows past
// StrictMaxNodes, one nested deeper than maxDepth (OpenAI's limit, or the
// transform's: depthWhy says which), and, unless recursion is reported
// already, a $ref inlined without end.
func strictGrowthProblems(c *collector, schema *spec.Map, bound map[string]bool, maxDepth int, depthWhy string, depthReported, recursionReported bool) {
	g, rec := strictGrowth(schema, bound)
	switch {
	case rec != "" && !recursionReported:
		c.at(rec, "this $ref has sibling keys and leads back to a definition that holds it; strict mode replaces such a $ref by a copy of its definition at every use, so the copies never end: keep the $ref bare (move its description into the definition), or set strict: false on the tool")
	case rec != "":
	case g.nodes > StrictMaxNodes:
		c.at("", "the input schema grows past %d subschemas in strict mode, where each $ref with sibling keys (a description beside it) is replaced by a copy of its definition: keep such $refs bare (move the description into the definition), or set strict: false on the tool", StrictMaxNodes)
	case g.depth > maxDepth && !depthReported:
		c.at("", "the input schema nests deeper than %d levels (%d, with the copies strict mode makes of each $ref that has sibling keys), %s: flatten the schema, keep such $refs bare, or set strict: false on the tool", maxDepth, g.depth, depthWhy)
	}
}
