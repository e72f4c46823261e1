package lint

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// The JSON Schema library validates correctly but slowly (its compile step
// re-validates the schema against the meta-schema every time, ~0.3 ms a
// tool). Almost every schema and example is valid, so these fast checks
// decide the common case on their own and hand everything else — any
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

// metaSchemaKeywords are the draft 2020-12 keywords the fast meta check
// models. Any other keyword of the meta-schema makes it unsure; keywords
// outside the meta-schema (x-*, nullable, ...) are unconstrained there.
var metaSchemaKeywords = map[string]bool{
	// Modelled below.
	"type": true, "properties": true, "required": true, "enum": true, "const": true,
	"title": true, "description": true, "default": true, "examples": true, "deprecated": true,
	"readOnly": true, "writeOnly": true, "format": true, "items": true, "additionalProperties": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"multipleOf": true, "minLength": true, "maxLength": true, "minItems": true, "maxItems": true,
	"uniqueItems": true, "minProperties": true, "maxProperties": true, "pattern": true,
	"anyOf": true, "oneOf": true, "allOf": true, "not": true, "$ref": true, "$defs": true,
	"definitions": true, "$comment": true, "$id": true, "$schema": true,
}

// metaKeywordsNotModelled are in the 2020-12 meta-schema but not checked
// here.
var metaKeywordsNotModelled = map[string]bool{
	"prefixItems": true, "contains": true, "patternProperties": true, "dependentSchemas": true,
	"propertyNames": true, "if": true, "then": true, "else": true, "unevaluatedItems": true,
	"unevaluatedProperties": true, "dependentRequired": true, "dependencies": true, "$anchor": true,
	"$dynamicRef": true, "$dynamicAnchor": true, "$vocabulary": true, "$recursiveRef": true,
	"$recursiveAnchor": true, "contentEncoding": true, "contentMediaType": true, "contentSchema": true,
	"maxContains": true, "minContains": true,
}

var simpleTypes = map[string]bool{"array": true, "boolean": true, "integer": true, "null": true, "number": true, "object": true, "string": true}

// fastMeta checks a schema document against the 2020-12 meta-schema for
// the keywords it models.
func fastMeta(doc *spec.Map) verdict {
	if v, ok := doc.Get("$schema"); ok {
		if s, _ := v.(string); strings.TrimSuffix(s, "#") != "https://json-schema.org/draft/2020-12/schema" {
			return unsure
		}
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
			if metaKeywordsNotModelled[k] {
				return false
			}
			if !metaSchemaKeywords[k] {
				continue
			}
			if !metaKeyword(k, val, depth) {
				return false
			}
		}
		return true
	}
	return false
}

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
		return ok && goRegexp(s)
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
		return nonNegativeInteger(v)
	}
	return false
}

func nonNegativeInteger(v any) bool {
	n, ok := v.(json.Number)
	if !ok || n == "" {
		return false
	}
	for _, c := range string(n) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

var regexpCache syncMap[string, *regexp.Regexp]

// goRegexp tells whether a pattern compiles as the library will compile it
// (Go's regexp); lookarounds and other ECMA-only syntax go to the library.
func goRegexp(p string) bool {
	_, ok := compiledRegexp(p)
	return ok
}

func compiledRegexp(p string) (*regexp.Regexp, bool) {
	if re, ok := regexpCache.Load(p); ok {
		return re, re != nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil
	}
	regexpCache.Store(p, re)
	return re, re != nil
}

// --- instances ------------------------------------------------------------

// fastValidate checks a value (spec form: *spec.Map, []any, json.Number, ...)
// against a schema for the keywords it models; anything else is unsure.
func fastValidate(schema any, v any, depth int) verdict {
	if depth > 64 {
		return unsure
	}
	switch s := schema.(type) {
	case bool:
		if s {
			return valid
		}
		return unsure
	case *spec.Map:
		for i := range s.Len() {
			k, kv := s.At(i)
			if !instanceKeyword(s, k, kv, v, depth) {
				return unsure
			}
		}
		return valid
	}
	return unsure
}

// annotations constrain nothing.
var annotations = map[string]bool{"title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true, "format": true, "$schema": true,
	"$id": true, "$defs": true, "definitions": true}

func instanceKeyword(s *spec.Map, k string, kv, v any, depth int) bool {
	if annotations[k] {
		return true
	}
	if !metaSchemaKeywords[k] && !metaKeywordsNotModelled[k] {
		return true // not a keyword of the vocabulary: ignored by validators
	}
	switch k {
	case "type":
		switch t := kv.(type) {
		case string:
			return instanceType(t, v)
		case []any:
			for _, x := range t {
				if s, ok := x.(string); ok && instanceType(s, v) {
					return true
				}
			}
		}
		return false
	case "properties":
		obj, ok := v.(*spec.Map)
		if !ok {
			return true
		}
		props, ok := kv.(*spec.Map)
		if !ok {
			return false
		}
		for i := range obj.Len() {
			name, val := obj.At(i)
			if sub, ok := props.Get(name); ok && fastValidate(sub, val, depth+1) != valid {
				return false
			}
		}
		return true
	case "additionalProperties":
		obj, ok := v.(*spec.Map)
		if !ok {
			return true
		}
		props, _ := s.GetMap("properties")
		if s.Has("patternProperties") {
			return false
		}
		for i := range obj.Len() {
			name, val := obj.At(i)
			if props != nil && props.Has(name) {
				continue
			}
			if fastValidate(kv, val, depth+1) != valid {
				return false
			}
		}
		return true
	case "required":
		obj, ok := v.(*spec.Map)
		if !ok {
			return true
		}
		list, _ := kv.([]any)
		for _, x := range list {
			if name, ok := x.(string); !ok || !obj.Has(name) {
				return false
			}
		}
		return true
	case "items":
		arr, ok := v.([]any)
		if !ok {
			return true
		}
		for _, x := range arr {
			if fastValidate(kv, x, depth+1) != valid {
				return false
			}
		}
		return true
	case "enum":
		list, _ := kv.([]any)
		return inEnum(list, v)
	case "const":
		return sameValue(kv, v)
	case "minLength", "maxLength":
		str, ok := v.(string)
		if !ok {
			return true
		}
		n, ok := smallInt(kv)
		l := len([]rune(str))
		return ok && (k == "minLength" && l >= n || k == "maxLength" && l <= n)
	case "minProperties", "maxProperties":
		obj, ok := v.(*spec.Map)
		if !ok {
			return true
		}
		n, ok := smallInt(kv)
		return ok && (k == "minProperties" && obj.Len() >= n || k == "maxProperties" && obj.Len() <= n)
	case "minItems", "maxItems":
		arr, ok := v.([]any)
		if !ok {
			return true
		}
		n, ok := smallInt(kv)
		return ok && (k == "minItems" && len(arr) >= n || k == "maxItems" && len(arr) <= n)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		num, ok := v.(json.Number)
		if !ok {
			return true
		}
		bound, _ := kv.(json.Number)
		if len(num) > 15 || len(bound) > 15 {
			return false // beyond float64's exact range: the library compares exactly
		}
		x, err1 := num.Float64()
		b, err2 := bound.Float64()
		if err1 != nil || err2 != nil {
			return false
		}
		switch k {
		case "minimum":
			return x >= b
		case "maximum":
			return x <= b
		case "exclusiveMinimum":
			return x > b
		default:
			return x < b
		}
	case "pattern":
		str, ok := v.(string)
		if !ok {
			return true
		}
		p, _ := kv.(string)
		re, ok := compiledRegexp(p)
		return ok && re.MatchString(str)
	case "uniqueItems":
		b, _ := kv.(bool)
		if arr, ok := v.([]any); ok && b {
			seen := map[string]bool{}
			for _, x := range arr {
				key := valueKey(x)
				if seen[key] {
					return false
				}
				seen[key] = true
			}
		}
		return true
	}
	return false // an assertion keyword not modelled here
}

func instanceType(t string, v any) bool {
	switch v := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case *spec.Map:
		return t == "object"
	case []any:
		return t == "array"
	case json.Number:
		if t == "number" {
			return true
		}
		return t == "integer" && nonNegativeInteger(json.Number(strings.TrimPrefix(string(v), "-")))
	}
	return false
}

func smallInt(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok || !nonNegativeInteger(n) || len(n) > 9 {
		return 0, false
	}
	i, err := n.Int64()
	return int(i), err == nil
}
