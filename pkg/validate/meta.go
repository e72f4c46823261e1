package validate

import (
	"encoding/json"
	"strings"

	"github.com/toolctl/toolctl/internal/jsonschema"
	"github.com/toolctl/toolctl/pkg/spec"
)

// MetaValid tells whether doc surely satisfies the draft 2020-12
// meta-schema, for the keywords simple schemas use. Like Conforms it is
// sound in one direction only: true means the library's meta-schema check
// passes too (lint's TestFastSchemaAgreesWithLibrary, on every corpus);
// false means "ask the library". Compile skips the library's own check
// of a document MetaValid vouches for: that check needs the meta-schema
// compiled, a millisecond that toolctl run paid for each call.
func MetaValid(doc *spec.Map) bool {
	if v, ok := doc.Get("$schema"); ok && !IsDraft2020(v) {
		return false
	}
	return metaSchema(doc, 0)
}

var simpleTypes = map[string]bool{"array": true, "boolean": true, "integer": true, "null": true, "number": true, "object": true, "string": true}

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
			if !IsKeyword(k) {
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
	case "title", "description", "format", "$comment", "$schema":
		_, ok := v.(string)
		return ok
	case "$ref", "$id":
		// format uri-reference, which the meta-schemas assert; an $id
		// has no fragment but an empty one (pattern ^[^#]*#?$).
		s, ok := v.(string)
		if !ok || !jsonschema.Formats["uri-reference"](s) {
			return false
		}
		hash := strings.IndexByte(s, '#')
		return k == "$ref" || hash < 0 || hash == len(s)-1
	case "pattern":
		s, ok := v.(string)
		if !ok {
			return false
		}
		_, compiles := Pattern(s)
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
		return NonNegativeInteger(v)
	}
	return false
}
