package lint

import (
	"encoding/json"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// The JSON Schema library validates correctly but slowly (its compile step
// re-validates the schema against the meta-schema every time, ~0.3 ms a
// tool). Almost every schema and example is valid, so fast checks decide
// the common case on their own (fastMeta here for schemas,
// validate.Conforms for examples) and hand everything else — any
// problem, any keyword they do not model — to the library, which then
// produces the message. They are sound in one direction only: "valid" here
// implies valid there (TestFastSchemaAgreesWithLibrary checks it on every
// corpus).

// verdict of a fast check.
type verdict int

const (
	unsure verdict = iota // ask the library
	valid
)

var simpleTypes = map[string]bool{"array": true, "boolean": true, "integer": true, "null": true, "number": true, "object": true, "string": true}

// fastMeta checks a schema document against the 2020-12 meta-schema for
// the keywords it models.
func fastMeta(doc *spec.Map) verdict {
	if v, ok := doc.Get("$schema"); ok && !validate.IsDraft2020(v) {
		return unsure
	}
	if metaSchema(doc, 0) {
		return valid
	}
	return unsure
}

func metaSchema(v any, depth int) bool {
	if depth > 64 {
		return false
	}
	switch s := v.(type) {
	case bool:
		return true
	case *spec.Map:
		for i := range s.Len() {
			k, val := s.At(i)
			if !validate.IsKeyword(k) {
				continue // x-*, nullable, ...: unconstrained
			}
			if !metaKeyword(k, val, depth) { // false too for a keyword it does not model
				return false
			}
		}
		return true
	}
	return false
}

// metaKeyword checks one keyword of a schema against the meta-schema; it
// models some draft 2020-12 keywords and is false (unsure) for the others.
func metaKeyword(k string, v any, depth int) bool {
	switch k {
	case "type":
		switch t := v.(type) {
		case string:
			return simpleTypes[t]
		case []any:
			seen := map[string]bool{}
			for _, x := range t {
				s, ok := x.(string)
				if !ok || !simpleTypes[s] || seen[s] {
					return false
				}
				seen[s] = true
			}
			return len(t) > 0
		}
		return false
	case "properties", "$defs", "definitions":
		m, ok := v.(*spec.Map)
		if !ok {
			return false
		}
		for i := range m.Len() {
			if _, sub := m.At(i); !metaSchema(sub, depth+1) {
				return false
			}
		}
		return true
	case "required":
		list, ok := v.([]any)
		if !ok {
			return false
		}
		seen := map[string]bool{}
		for _, x := range list {
			s, ok := x.(string)
			if !ok || seen[s] {
				return false
			}
			seen[s] = true
		}
		return true
	case "enum", "examples":
		_, ok := v.([]any)
		return ok
	case "const", "default":
		return true
	case "title", "description", "format", "$comment", "$ref", "$id", "$schema":
		_, ok := v.(string)
		return ok
	case "pattern":
		s, ok := v.(string)
		if !ok {
			return false
		}
		_, compiles := validate.Pattern(s)
		return compiles
	case "deprecated", "readOnly", "writeOnly", "uniqueItems":
		_, ok := v.(bool)
		return ok
	case "items", "additionalProperties", "not":
		return metaSchema(v, depth+1)
	case "anyOf", "oneOf", "allOf":
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		for _, x := range list {
			if !metaSchema(x, depth+1) {
				return false
			}
		}
		return true
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		_, ok := v.(json.Number)
		return ok
	case "multipleOf":
		n, ok := v.(json.Number)
		f, err := n.Float64()
		return ok && err == nil && f > 0
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		return validate.NonNegativeInteger(v)
	}
	return false
}
