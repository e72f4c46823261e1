package spec

import (
	"encoding/json"
	"testing"
)

func TestJSONType(t *testing.T) {
	for _, tc := range []struct {
		v             any
		whole, int64s string // by WholeValue, by Int64Literal
	}{
		{nil, "null", "null"},
		{true, "boolean", "boolean"},
		{"1", "string", "string"},
		{json.Number("1"), "integer", "integer"},
		{json.Number("-0"), "integer", "integer"},
		{json.Number("9223372036854775807"), "integer", "integer"},
		{json.Number("18446744073709551616"), "integer", "number"},
		{json.Number("1.0"), "integer", "number"},
		{json.Number("1e3"), "integer", "number"},
		{json.Number("1E-3"), "number", "number"},
		{json.Number("2.5"), "number", "number"},
		{json.Number("1e400"), "number", "number"},
		{NewMap(0), "object", "object"},
		{[]any{}, "array", "array"},
		{2.5, "", ""}, // no model value
		{map[string]any{}, "", ""},
	} {
		if got := JSONType(tc.v, WholeValue); got != tc.whole {
			t.Errorf("JSONType(%#v, WholeValue) = %q, want %q", tc.v, got, tc.whole)
		}
		if got := JSONType(tc.v, Int64Literal); got != tc.int64s {
			t.Errorf("JSONType(%#v, Int64Literal) = %q, want %q", tc.v, got, tc.int64s)
		}
	}
}
