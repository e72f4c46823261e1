package export

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Gemini function declarations, as one Tool object {functionDeclarations:
// [...]} (https://ai.google.dev/api/caching#Tool). A FunctionDeclaration
// has name, description and either parameters (an OpenAPI-subset Schema)
// or parametersJsonSchema ("Describes the parameters to the function in
// JSON Schema format ... This field is mutually exclusive with parameters",
// https://ai.google.dev/api/caching#FunctionDeclaration). parametersJsonSchema
// is the default; --legacy emits parameters for endpoints and SDKs that
// only know the older form. Both are left out for a tool without
// parameters: "For function with no parameters, this can be left unset."
func geminiTool(t *spec.Tool, name string, opts Options) (any, []Warning, []Problem) {
	var ws []Warning
	m := spec.NewMap(3)
	m.Set("name", name)
	// "description: Required. A brief description of the function."
	m.Set("description", t.Description)
	if strings.TrimSpace(t.Description) == "" {
		ws = append(ws, Warning{Tool: t.Name, Message: "has no description, which Gemini requires; add one",
			Rule: "description-required", Source: t, Places: []Place{{Pointer: "/description"}}})
	}
	s := InputSchema(t)
	if noParameters(s) {
		return m, ws, nil
	}
	if !opts.Legacy {
		// Gemini ignores some keywords; compat says which (advisory).
		for _, p := range compat.SchemaProblems(compat.Gemini, s, nil) {
			ws = append(ws, problemWarning(t, p, "/input_schema"+p.Pointer))
		}
		m.Set("parametersJsonSchema", s)
		return m, ws, nil
	}
	l := &openAPI{root: s}
	m.Set("parameters", l.convert(s, "", 0, nil))
	if len(l.moved) > 0 {
		ws = append(ws, Warning{Tool: t.Name, Message: "Gemini's OpenAPI schema (--legacy) has no " + andList(l.moved) + "; moved into the description"})
	}
	for _, p := range l.problems {
		ws = append(ws, Warning{Tool: t.Name, Message: p})
	}
	return m, ws, nil
}

// geminiDocument wraps the declarations in one Tool object.
func geminiDocument(r *Result) ([]byte, error) {
	m := spec.NewMap(1)
	m.Set("functionDeclarations", r.values())
	return spec.MarshalJSONIndent(m)
}

// noParameters tells whether a schema is an object schema that declares
// nothing: no properties and no other constraint.
func noParameters(s *spec.Map) bool {
	if props, ok := s.GetMap("properties"); ok && props.Len() > 0 {
		return false
	}
	for _, k := range s.Keys() {
		switch k {
		case "type", "properties", "required", "additionalProperties", "$schema", "title", "description":
		default:
			return false
		}
	}
	t, _ := s.GetString("type")
	return t == "" || t == "object"
}

// openAPI converts a JSON Schema into Gemini's Schema object, "a select
// subset of an OpenAPI 3.0 schema object"
// (https://ai.google.dev/api/caching#Schema): type is an uppercase enum
// (STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT), null is nullable: true,
// enum holds strings only, and there is no additionalProperties, $ref,
// oneOf, allOf, const or exclusive bound. The fields kept are the Schema's
// own (type, format, title, description, nullable, enum, items, minItems,
// maxItems, properties, required, minProperties, maxProperties, minLength,
// maxLength, pattern, example, anyOf, propertyOrdering, default, minimum,
// maximum; the int64 ones minItems, maxItems, minLength, maxLength,
// minProperties and maxProperties as strings); $refs are inlined, oneOf becomes anyOf, a one-element allOf is
// flattened (several are merged), and every other constraint is written
// into the description so the model still reads it.
type openAPI struct {
	root     *spec.Map
	moved    []string
	problems []string
	// nodes counts the schemas converted; past maxTransformNodes (each
	// $ref is inlined at every use, which can grow exponentially) $refs
	// are cut as recursive ones are, with one problem (cut).
	nodes int
	cut   bool
}

// Keywords copied as they are.
var openAPIKept = []string{"title", "minimum", "maximum", "pattern", "default", "example"}

// Keywords of type int64 in the Schema (https://ai.google.dev/api/caching#Schema:
// "minItems: string (int64 format)"), copied as strings.
var openAPIInt64 = []string{"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"}

// Formats the Schema takes per type: "for NUMBER type: float, double for
// INTEGER type: int32, int64"
// (https://cloud.google.com/vertex-ai/docs/reference/rest/v1/Schema); for
// strings the API answers "format: only 'enum' and 'date-time' are supported
// for STRING type" (https://github.com/google-gemini/gemini-cli/issues/3178).
var openAPIFormats = map[string][]string{"NUMBER": {"float", "double"}, "INTEGER": {"int32", "int64"}, "STRING": {"enum", "date-time"}}

// Keywords that only annotate, or that the conversion itself resolves.
var openAPIDropped = []string{"$schema", "$id", "$comment", "$anchor", "$defs", "definitions", "examples", "readOnly", "writeOnly", "deprecated", "contentMediaType", "contentEncoding"}

func (l *openAPI) convert(src *spec.Map, name string, depth int, refs []string) *spec.Map {
	s := src.Clone()
	l.nodes++
	// Inline a local $ref (merged with its siblings, which win).
	if ref, ok := s.GetString("$ref"); ok {
		s.Delete("$ref")
		target, found := compat.ResolveRef(l.root, ref)
		recursive := slices.Contains(refs, ref) || depth > maxTransformDepth
		switch {
		case !found:
			l.problems = append(l.problems, fmt.Sprintf("%s refers to %q, which is not in the input schema; Gemini's OpenAPI schema has no $ref: inline it or drop --legacy", label(name), ref))
		case recursive || l.nodes > maxTransformNodes:
			if recursive {
				l.problems = append(l.problems, fmt.Sprintf("%s refers to %q recursively, which Gemini's OpenAPI schema cannot express; the recursion is cut there: drop --legacy to keep it", label(name), ref))
			} else if !l.cut {
				l.cut = true
				l.problems = append(l.problems, fmt.Sprintf("the input schema grows past %d subschemas with its $refs inlined (Gemini's OpenAPI schema has no $ref), so the $refs from %s on are cut; drop --legacy to keep them", maxTransformNodes, label(name)))
			}
			cut := spec.NewMap(2)
			cut.Set("type", "OBJECT")
			d, _ := s.GetString("description")
			cut.Set("description", strings.TrimSpace(d+" (same shape as "+ref+")"))
			return cut
		default:
			refs = append(slices.Clone(refs), ref)
			for i := range target.Len() {
				k, v := target.At(i)
				if !s.Has(k) {
					s.Set(k, spec.CloneValue(v))
				}
			}
		}
	}
	// allOf: flatten one schema, merge several.
	if v, ok := s.Get("allOf"); ok {
		s.Delete("allOf")
		list := asList(v)
		if len(list) > 1 {
			l.moved = append(l.moved, "allOf of "+label(name)+" (merged)")
		}
		for _, x := range list {
			if m, ok := x.(*spec.Map); ok {
				mergeInto(s, m)
			}
		}
		if ref, ok := s.GetString("$ref"); ok && ref != "" {
			return l.convert(s, name, depth+1, refs)
		}
	}
	if v, ok := s.Get("oneOf"); ok && !s.Has("anyOf") {
		s.Delete("oneOf")
		s.Set("anyOf", v)
	}
	inferType(s)
	s = splitTypes(s)

	out := spec.NewMap(s.Len() + 2)
	var notes []string
	fold := func(kw string, v any) {
		notes = append(notes, kw+": "+noteValue(v))
		l.moved = append(l.moved, kw+" of "+label(name))
	}
	// type: uppercase; null becomes nullable; several types an anyOf.
	types := compat.Types(s)
	nullableType := slices.Contains(types, "null")
	types = slices.DeleteFunc(slices.Clone(types), func(t string) bool { return t == "null" })
	var typ string
	switch len(types) {
	case 0:
	case 1:
		typ = strings.ToUpper(types[0])
		out.Set("type", typ)
	default:
		alts := make([]any, len(types))
		for i, t := range types {
			a := spec.NewMap(1)
			a.Set("type", strings.ToUpper(t))
			alts[i] = a
		}
		out.Set("anyOf", alts)
	}
	if d, ok := s.GetString("description"); ok {
		out.Set("description", d)
	}
	for i := range s.Len() {
		kw, v := s.At(i)
		switch {
		case kw == "type" || kw == "description" || slices.Contains(openAPIDropped, kw):
		case kw == "format":
			f, _ := v.(string)
			if slices.Contains(openAPIFormats[typ], f) {
				out.Set("format", f)
			} else {
				fold(kw, v)
			}
		case kw == "enum":
			list := asList(v)
			strs := make([]any, 0, len(list))
			other := false
			for _, x := range list {
				switch x := x.(type) {
				case string:
					strs = append(strs, x)
				case nil:
					nullableType = true
				default:
					other = true
				}
			}
			if other {
				// enum is string[] and "function declaration enum only
				// allowed for STRING type"
				// (https://github.com/decolua/9router/issues/359):
				// other values are dropped and kept as text.
				notes = append(notes, "one of: "+enumText(list))
				l.moved = append(l.moved, "non-string enum of "+label(name))
			} else if len(strs) > 0 {
				out.Set("enum", strs)
				if typ == "" {
					out.SetFirst("type", "STRING")
				}
			}
		case kw == "const":
			if str, ok := v.(string); ok {
				out.Set("enum", []any{str})
			} else {
				fold(kw, v)
			}
		case kw == "properties":
			props, ok := v.(*spec.Map)
			if !ok {
				continue
			}
			cp := spec.NewMap(props.Len())
			for j := range props.Len() {
				k, pv := props.At(j)
				if pm, ok := pv.(*spec.Map); ok {
					cp.Set(k, l.convert(pm, joinName(name, k), depth+1, refs))
				}
			}
			out.Set("properties", cp)
			if cp.Len() > 1 {
				// "propertyOrdering[]: The order of the properties": the
				// API's map does not keep the source order otherwise.
				order := make([]any, cp.Len())
				for j, k := range cp.Keys() {
					order[j] = k
				}
				out.Set("propertyOrdering", order)
			}
		case kw == "required":
			out.Set("required", v)
		case kw == "items":
			switch iv := v.(type) {
			case *spec.Map:
				out.Set("items", l.convert(iv, name+"[]", depth+1, refs))
			case []any:
				fold("items", v)
			}
		case kw == "anyOf":
			var alts []any
			for _, x := range asList(v) {
				if m, ok := x.(*spec.Map); ok {
					if len(m.Keys()) == 1 && slices.Contains(compat.Types(m), "null") {
						nullableType = true
						continue
					}
					alts = append(alts, l.convert(m, name, depth+1, refs))
				}
			}
			if len(alts) == 1 {
				for _, k := range alts[0].(*spec.Map).Keys() {
					av, _ := alts[0].(*spec.Map).Get(k)
					switch {
					case out.Has(k):
					case k == "type":
						// first, as for a schema typed itself: the
						// import of this ({type: [T, "null"]}) exports so
						out.SetFirst(k, av)
					default:
						out.Set(k, av)
					}
				}
			} else if len(alts) > 1 {
				out.Set("anyOf", alts)
			}
		case kw == "additionalProperties":
			if !isFalse(v) {
				fold(kw, v)
			}
		case slices.Contains(openAPIInt64, kw):
			// int64 fields, which the API's JSON (proto3) writes as
			// strings and the SDKs type so (@google/genai: minItems?:
			// string); import --from gemini reads them back as numbers.
			if n, ok := v.(json.Number); ok {
				if _, err := n.Int64(); err == nil {
					out.Set(kw, n.String())
					continue
				}
			}
			fold(kw, v)
		case slices.Contains(openAPIKept, kw):
			out.Set(kw, v)
		default:
			fold(kw, v)
		}
	}
	if nullableType {
		out.Set("nullable", true)
	}
	if len(notes) > 0 {
		noteDescription(out, "("+strings.Join(notes, "; ")+")")
	}
	if t, _ := out.GetString("type"); t == "OBJECT" && !out.Has("properties") {
		l.problems = append(l.problems, fmt.Sprintf("%s is an object without properties, which Gemini's OpenAPI schema rejects (properties must be non-empty for OBJECT); declare its keys, or drop --legacy", label(name)))
	} else if t == "ARRAY" && !out.Has("items") {
		l.problems = append(l.problems, fmt.Sprintf("%s is an array without items, which Gemini's OpenAPI schema rejects (\"items: missing field\"); add items, e.g. items: {type: string}, or drop --legacy", label(name)))
	}
	if !out.Has("type") && !out.Has("anyOf") {
		l.problems = append(l.problems, fmt.Sprintf("%s has no type, which Gemini's OpenAPI schema needs; give it one, or drop --legacy", label(name)))
	}
	return out
}

// typeKeywords are the keywords that apply to values of one JSON type
// only (JSON Schema 2020-12, validation vocabulary and applicators).
var typeKeywords = map[string][]string{
	"array":   {"items", "prefixItems", "additionalItems", "unevaluatedItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems"},
	"object":  {"properties", "required", "additionalProperties", "patternProperties", "propertyNames", "unevaluatedProperties", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "propertyOrdering"},
	"string":  {"minLength", "maxLength", "pattern", "format", "contentMediaType", "contentEncoding"},
	"number":  {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
	"integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
}

// splitTypes rewrites a schema with several types (type: [string, array],
// items: ...) as an anyOf of one schema per type, each with the keywords
// that apply to its type, since Gemini's Schema has one type: a list
// becomes anyOf, and an ARRAY or OBJECT member must carry its own items
// or properties. null stays a type of the whole ({type: null} member,
// which convert makes nullable). Other schemas are returned as they are.
func splitTypes(s *spec.Map) *spec.Map {
	types := compat.Types(s)
	nonNull := slices.DeleteFunc(slices.Clone(types), func(t string) bool { return t == "null" })
	if len(nonNull) < 2 || s.Has("anyOf") {
		return s
	}
	members := make([]any, 0, len(types))
	moved := map[string]bool{}
	for _, t := range nonNull {
		m := spec.NewMap(1)
		m.Set("type", t)
		for _, kw := range typeKeywords[t] {
			if kw == "format" && t != "string" {
				continue
			}
			if v, ok := s.Get(kw); ok {
				m.Set(kw, spec.CloneValue(v))
				moved[kw] = true
			}
		}
		members = append(members, m)
	}
	if len(nonNull) < len(types) {
		null := spec.NewMap(1)
		null.Set("type", "null")
		members = append(members, null)
	}
	out := spec.NewMap(s.Len())
	for i := range s.Len() {
		k, v := s.At(i)
		switch {
		case k == "type":
			out.Set("anyOf", members)
		case !moved[k]:
			out.Set(k, v)
		}
	}
	return out
}

// mergeInto adds m's keys to s: properties and required are merged, s
// keeps its own value of any other key.
func mergeInto(s, m *spec.Map) {
	for i := range m.Len() {
		k, v := m.At(i)
		switch k {
		case "properties":
			mp, ok := v.(*spec.Map)
			sp, has := s.GetMap("properties")
			if !ok {
				continue
			}
			if !has {
				s.Set("properties", mp.Clone())
				continue
			}
			for j := range mp.Len() {
				pk, pv := mp.At(j)
				if !sp.Has(pk) {
					sp.Set(pk, spec.CloneValue(pv))
				}
			}
		case "required":
			cur, _ := s.Get("required")
			list := slices.Clone(asList(cur))
			for _, x := range asList(v) {
				if !slices.Contains(list, x) {
					list = append(list, x)
				}
			}
			s.Set("required", list)
		default:
			if !s.Has(k) {
				s.Set(k, spec.CloneValue(v))
			}
		}
	}
}

func joinName(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// enumText lists enum values for a description: 1, 2 or 3.
func enumText(list []any) string {
	parts := make([]string, len(list))
	for i, v := range list {
		parts[i] = compactJSON(v)
	}
	return strings.Join(parts, ", ")
}
