package spec

import (
	"encoding/json"
	"strings"
)

// IntegerRule says when JSONType names a number "integer" rather than
// "number".
type IntegerRule int

const (
	// WholeValue: when its value is whole, as JSON Schema's integer type
	// takes it (1, 1.0, 1e3, 18446744073709551616). Lint checks defaults
	// and enum values against declared types by it.
	WholeValue IntegerRule = iota
	// Int64Literal: when it is written as an integer that fits int64 (1,
	// not 1.0, 1e3 or 18446744073709551616). compat infers a schema's
	// type from its enum or const values by it.
	Int64Literal
	// AnyNumber: never; every number is a "number". run names the type of
	// a value a caller gave by it.
	AnyNumber
)

// JSONType names the JSON Schema type of a model value (nil, bool,
// string, json.Number, *Map, []any) or a plain one (map[string]any,
// float64, int, int64): "null", "boolean", "string", "integer" or
// "number" (by rule), "object" or "array"; "" for any other value.
func JSONType(v any, rule IntegerRule) string {
	switch v.(type) {
	case float64, int, int64, uint64:
		v = FromPlain(v)
	case map[string]any:
		return "object"
	}
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if rule == AnyNumber {
			return "number"
		}
		if _, err := v.Int64(); err == nil {
			return "integer"
		}
		if rule == Int64Literal {
			return "number"
		}
		if !strings.ContainsAny(string(v), ".eE") {
			return "integer"
		}
		if f, err := v.Float64(); err == nil && f == float64(int64(f)) {
			return "integer"
		}
		return "number"
	case *Map:
		return "object"
	case []any:
		return "array"
	}
	return ""
}
