package breaking

import (
	"encoding/json"
	"math/big"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// mutation is one single change of a schema and the rule that must
// report it; apply returns false when it does not apply to the property.
type mutation struct {
	kind string
	rule string
	// output mutations change the output schema, the others the input
	output bool
	apply  func(root, prop *spec.Map, name string) bool
}

func types(m *spec.Map) []string {
	switch v, _ := m.Get("type"); t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func isType(m *spec.Map, t string) bool {
	ts := types(m)
	return len(ts) == 1 && ts[0] == t
}

func requiredList(root *spec.Map) []any {
	l, _ := root.Get("required")
	list, _ := l.([]any)
	return list
}

func isRequired(root *spec.Map, name string) bool {
	return slices.ContainsFunc(requiredList(root), func(v any) bool { return v == name })
}

var mutations = []mutation{
	{"remove parameter", "param-removed", false, func(root, prop *spec.Map, name string) bool {
		props, _ := root.GetMap("properties")
		props.Delete(name)
		return true
	}},
	{"make optional parameter required", "param-now-required", false, func(root, prop *spec.Map, name string) bool {
		if isRequired(root, name) || prop.Has("default") {
			return false
		}
		root.Set("required", append(requiredList(root), name))
		return true
	}},
	{"change type", "type-changed", false, func(root, prop *spec.Map, name string) bool {
		if isType(prop, "boolean") {
			prop.Set("type", "string")
		} else {
			prop.Set("type", "boolean")
		}
		return len(types(prop)) > 0 || !prop.Has("type")
	}},
	{"narrow number to integer", "type-changed", false, func(root, prop *spec.Map, name string) bool {
		if !isType(prop, "number") {
			return false
		}
		prop.Set("type", "integer")
		return true
	}},
	{"remove null from the type", "type-changed", false, func(root, prop *spec.Map, name string) bool {
		ts := types(prop)
		if len(ts) < 2 || !slices.Contains(ts, "null") {
			return false
		}
		var rest []any
		for _, t := range ts {
			if t != "null" {
				rest = append(rest, t)
			}
		}
		prop.Set("type", rest)
		return true
	}},
	{"remove an enum value", "enum-value-removed", false, func(root, prop *spec.Map, name string) bool {
		v, _ := prop.Get("enum")
		l, _ := v.([]any)
		if len(l) < 2 {
			return false
		}
		prop.Set("enum", slices.Clone(l[1:]))
		return true
	}},
	{"change the const", "const-changed", false, func(root, prop *spec.Map, name string) bool {
		if !prop.Has("const") {
			return false
		}
		prop.Set("const", "toolctl-mutated-const")
		return true
	}},
	{"tighten a bound", "constraint-tightened", false, func(root, prop *spec.Map, name string) bool {
		switch {
		case isType(prop, "string"):
			if v, ok := prop.Get("maxLength"); ok {
				if r, ok := toRat(v); ok && r.Sign() > 0 {
					prop.Set("maxLength", json.Number(ratString(r.Sub(r, ratOne()))))
					return true
				}
				return false
			}
			prop.Set("maxLength", json.Number("1"))
		case isType(prop, "integer") || isType(prop, "number"):
			if v, ok := prop.Get("minimum"); ok {
				if r, ok := toRat(v); ok {
					prop.Set("minimum", json.Number(ratString(r.Add(r, ratOne()))))
					return true
				}
				return false
			}
			prop.Set("minimum", json.Number("1000000007"))
		case isType(prop, "array"):
			prop.Set("minItems", json.Number("1000"))
		default:
			return false
		}
		return true
	}},
	{"add a pattern", "pattern-changed", false, func(root, prop *spec.Map, name string) bool {
		if !isType(prop, "string") || prop.Has("pattern") {
			return false
		}
		prop.Set("pattern", "^toolctl-mutated$")
		return true
	}},
	{"add a format", "format-changed", false, func(root, prop *spec.Map, name string) bool {
		if !isType(prop, "string") || prop.Has("format") {
			return false
		}
		prop.Set("format", "uuid")
		return true
	}},
	{"close the object", "additional-properties-closed", false, func(root, prop *spec.Map, name string) bool {
		if !firstProp(root, name) {
			return false // once per object
		}
		if v, ok := root.Get("additionalProperties"); ok && v == false {
			return false
		}
		root.Set("additionalProperties", false)
		return true
	}},
	{"add a required parameter", "param-required-added", false, func(root, prop *spec.Map, name string) bool {
		if !firstProp(root, name) {
			return false // once per object
		}
		props, _ := root.GetMap("properties")
		m := spec.NewMap(1)
		m.Set("type", "string")
		props.Set("toolctl_mutated_param", m)
		root.Set("required", append(requiredList(root), "toolctl_mutated_param"))
		return true
	}},
	{"remove an output field", "output-field-removed", true, func(root, prop *spec.Map, name string) bool {
		props, _ := root.GetMap("properties")
		props.Delete(name)
		return true
	}},
	{"change an output field's type", "output-type-changed", true, func(root, prop *spec.Map, name string) bool {
		ts := types(prop)
		if len(ts) == 0 {
			return false
		}
		for _, t := range []string{"boolean", "string", "integer", "object"} {
			if !accepts(sortTypes(slices.Clone(ts)), t) {
				prop.Set("type", t) // a type callers never got before
				return true
			}
		}
		return false
	}},
	{"make a required output field optional", "output-field-optional", true, func(root, prop *spec.Map, name string) bool {
		if !isRequired(root, name) {
			return false
		}
		root.Set("required", slices.DeleteFunc(slices.Clone(requiredList(root)), func(v any) bool { return v == name }))
		return true
	}},
}

// containers lists the JSON pointer token paths of the object schemas
// with properties in root: root itself, and those of plain properties that
// are objects or arrays of objects, down to depth levels.
func containers(root *spec.Map, depth int) [][]string {
	out := [][]string{nil}
	if depth == 0 {
		return out
	}
	props, ok := root.GetMap("properties")
	if !ok {
		return out
	}
	for _, name := range props.Keys() {
		v, _ := props.Get(name)
		prop, ok := v.(*spec.Map)
		if !ok || prop.Has("$ref") {
			continue
		}
		base := []string{"properties", name}
		if items, ok := prop.GetMap("items"); ok && !items.Has("$ref") {
			prop, base = items, append(base, "items")
		}
		if !prop.Has("properties") {
			continue
		}
		for _, sub := range containers(prop, depth-1) {
			out = append(out, append(slices.Clone(base), sub...))
		}
	}
	return out
}

func walk(root *spec.Map, path []string) *spec.Map {
	cur := root
	for _, tok := range path {
		v, _ := cur.Get(tok)
		m, ok := v.(*spec.Map)
		if !ok {
			return nil
		}
		cur = m
	}
	return cur
}

// deepClone copies a schema with every nested map.
func deepClone(m *spec.Map) *spec.Map {
	c, _ := spec.CloneValue(m).(*spec.Map)
	return c
}

// TestMutations: for every bundled and corpus tool, every single schema
// mutation of each kind on each plain parameter or output field, at the
// top level and inside nested objects and array items, is reported with
// its rule.
func TestMutations(t *testing.T) {
	files := sampleFiles(t)
	applied, missed := map[string]int{}, map[string]int{}
	tools, nested := 0, 0
	for _, f := range files {
		for _, st := range f.Tools {
			old := FromSpec(st)
			tools++
			for _, m := range mutations {
				base := st.Input()
				if m.output {
					if st.OutputSchema == nil {
						continue
					}
					base = st.OutputSchema
				}
				for _, cpath := range containers(base, 3) {
					props, ok := walk(base, cpath).GetMap("properties")
					if !ok {
						continue
					}
					for _, name := range props.Keys() {
						if !m.output && len(cpath) == 0 && old.bound(name) {
							continue
						}
						root := deepClone(base)
						container := walk(root, cpath)
						rp, _ := container.GetMap("properties")
						pv, _ := rp.Get(name)
						prop, ok := pv.(*spec.Map)
						if !ok || prop.Has("$ref") || prop.Has("anyOf") || prop.Has("oneOf") || prop.Has("allOf") {
							continue
						}
						if !m.apply(container, prop, name) {
							continue
						}
						nw := *old
						if m.output {
							nw.Output = Normalise(root, "/output_schema")
						} else {
							nw.Input = Normalise(root, "/input_schema")
						}
						applied[m.kind]++
						if len(cpath) > 0 {
							nested++
						}
						found := false
						for _, d := range Compare([]*Tool{old}, []*Tool{&nw}, Options{}) {
							found = found || d.Rule == m.rule
						}
						if !found {
							missed[m.kind]++
							if missed[m.kind] <= 3 {
								t.Errorf("%s: tool %s, %s %q in /%s: no %s finding", f.Path, st.Name, m.kind, name, strings.Join(cpath, "/"), m.rule)
							}
						}
					}
				}
			}
		}
	}
	kinds := make([]string, 0, len(applied))
	for k := range applied {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	total := 0
	for _, k := range kinds {
		total += applied[k]
		t.Logf("%-40s %6d mutations, %d missed", k, applied[k], missed[k])
	}
	t.Logf("%d tools, %d mutations of %d kinds (%d inside nested objects or items)", tools, total, len(kinds), nested)
	for _, m := range mutations {
		// no bundled or corpus tool has a const parameter: the golden
		// case const-changed covers it
		if applied[m.kind] == 0 && m.rule != "const-changed" {
			t.Errorf("mutation %q applied to no tool", m.kind)
		}
	}
}

func firstProp(container *spec.Map, name string) bool {
	props, _ := container.GetMap("properties")
	return props != nil && props.Len() > 0 && props.Keys()[0] == name
}

func ratOne() *big.Rat { return big.NewRat(1, 1) }
