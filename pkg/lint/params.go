package lint

import (
	"encoding/json"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// property is one property of an input schema, at any depth.
type property struct {
	Ptr      string // canonical pointer, e.g. /input_schema/properties/q
	Name     string // display name, e.g. "filter.limit"
	Schema   *spec.Map
	Required bool
	TopLevel bool
}

// maxPropertyDepth bounds the walk; deeper schemas are the meta-schema
// check's business (and rare).
const maxPropertyDepth = 32

// Properties lists t's input schema properties (see properties), computed
// once per tool for all the rules that walk them.
func (r *Reporter) Properties(t *spec.Tool) []property {
	st := r.tool
	if st == nil {
		return properties(t)
	}
	if !st.propsDone {
		st.propsDone = true
		st.props = properties(t)
	}
	return st.props
}

// properties lists the input schema's properties depth-first in source
// order: top level, then nested objects' properties and array items'
// properties.
func properties(t *spec.Tool) []property {
	var out []property
	if t.InputSchema != nil {
		walkProperties(t.InputSchema, "/input_schema", "", 0, &out)
	}
	return out
}

func walkProperties(s *spec.Map, ptr, prefix string, depth int, out *[]property) {
	if depth > maxPropertyDepth {
		return
	}
	props, _ := s.GetMap("properties")
	if props != nil {
		req := requiredSet(s)
		for i := range props.Len() {
			name, v := props.At(i)
			ps, ok := v.(*spec.Map)
			if !ok {
				continue
			}
			p := property{Ptr: ptr + "/properties/" + escape(name), Name: prefix + name, Schema: ps, Required: req[name], TopLevel: depth == 0}
			*out = append(*out, p)
			walkProperties(ps, p.Ptr, p.Name+".", depth+1, out)
		}
	}
	if items, ok := s.GetMap("items"); ok {
		walkProperties(items, ptr+"/items", strings.TrimSuffix(prefix, ".")+"[].", depth+1, out)
	}
}

func requiredSet(s *spec.Map) map[string]bool {
	v, _ := s.Get("required")
	list, _ := v.([]any)
	set := make(map[string]bool, len(list))
	for _, x := range list {
		if name, ok := x.(string); ok {
			set[name] = true
		}
	}
	return set
}

func escape(token string) string {
	if !strings.ContainsAny(token, "~/") {
		return token
	}
	return spec.Pointer(token)[1:]
}

// typeAllows tells whether a value fits one of the declared types (an
// integer is a number too). No types means anything goes.
func typeAllows(types []string, v any) bool {
	if len(types) == 0 {
		return true
	}
	got := spec.JSONType(v, spec.WholeValue)
	for _, t := range types {
		if t == got || (t == "number" && got == "integer") {
			return true
		}
	}
	return false
}

// valueText renders a value for a message, JSON style and short.
func valueText(v any) string {
	s := valueKey(v)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// valueKey is a value's JSON text, whole: equal keys mean equal values
// (numbers compare as written).
func valueKey(v any) string {
	var b []byte
	if m, ok := v.(*spec.Map); ok {
		b, _ = m.MarshalJSON()
	} else {
		b, _ = json.Marshal(spec.Plain(v))
	}
	return string(b)
}

// sameValue compares two values as valueKey does, without encoding the
// common scalar cases (enum checks run on every example).
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case string:
		s, ok := b.(string)
		return ok && a == s
	case json.Number:
		n, ok := b.(json.Number)
		return ok && a == n
	case bool:
		x, ok := b.(bool)
		return ok && a == x
	case nil:
		return b == nil
	}
	return valueKey(a) == valueKey(b)
}

func typeList(types []string) string {
	return strings.Join(types, " or ")
}
