package spec

import (
	"encoding/json"
	"strings"
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
		// plain values: as their model form
		{2.5, "number", "number"},
		{int64(3), "integer", "integer"},
		{3.0, "integer", "integer"},
		{map[string]any{}, "object", "object"},
		{struct{}{}, "", ""}, // no JSON value
	} {
		if got := JSONType(tc.v, WholeValue); got != tc.whole {
			t.Errorf("JSONType(%#v, WholeValue) = %q, want %q", tc.v, got, tc.whole)
		}
		if got := JSONType(tc.v, Int64Literal); got != tc.int64s {
			t.Errorf("JSONType(%#v, Int64Literal) = %q, want %q", tc.v, got, tc.int64s)
		}
		if want := map[string]string{"integer": "number"}[tc.whole]; want != "" {
			if got := JSONType(tc.v, AnyNumber); got != want {
				t.Errorf("JSONType(%#v, AnyNumber) = %q, want %q", tc.v, got, want)
			}
		}
	}
}

// FromPlain is Plain's inverse: maps become *Map with sorted keys,
// numbers json.Number.
func TestFromPlain(t *testing.T) {
	in := map[string]any{"b": 1, "a": []any{2.5, int64(-3), "x", nil, true}, "c": map[string]any{}}
	m, ok := FromPlain(in).(*Map)
	if !ok {
		t.Fatalf("FromPlain gave %T", FromPlain(in))
	}
	if got := strings.Join(m.Keys(), ","); got != "a,b,c" {
		t.Errorf("keys %s, want a,b,c", got)
	}
	raw, err := m.MarshalJSON()
	if err != nil || string(raw) != `{"a":[2.5,-3,"x",null,true],"b":1,"c":{}}` {
		t.Errorf("FromPlain: %s %v", raw, err)
	}
	back := Plain(m).(map[string]any)
	if back["b"] != json.Number("1") {
		t.Errorf("Plain(FromPlain): b is %#v", back["b"])
	}
}
