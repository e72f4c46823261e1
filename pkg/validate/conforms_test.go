package validate

import (
	"encoding/json"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// TestConformsAgreesWithLibrary: whenever the fast check accepts a value,
// the JSON Schema library accepts it too; and it does accept the usual
// inputs and results, or it would save nothing.
func TestConformsAgreesWithLibrary(t *testing.T) {
	schemas := []string{
		`{"type":"object","properties":{"result":{"type":"number"},"expression":{"type":"string"}},"required":["result","expression"]}`,
		`{"type":"object","properties":{"n":{"type":"integer","minimum":0,"maximum":10}},"additionalProperties":false}`,
		`{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","minLength":2,"maxLength":3}},"mode":{"enum":["a","b",null]}}}`,
		`{"type":["object","null"],"properties":{"x":{"type":"number","exclusiveMinimum":1.5,"exclusiveMaximum":2}}}`,
		`{"type":"object","properties":{"p":{"pattern":"^a"}}}`,
		`{"type":"object","additionalProperties":{"type":"boolean"},"properties":{"k":{"type":"string"}}}`,
		`{"type":"array","minItems":1,"maxItems":2,"items":{"type":"integer"}}`,
		`{"type":"object","properties":{"big":{"type":"integer","maximum":9007199254740993}}}`,
	}
	values := []string{
		`{"result":14,"expression":"2*3"}`, `{"result":"14","expression":"2*3"}`, `{"result":1}`,
		`{"n":3}`, `{"n":11}`, `{"n":-1}`, `{"n":2.5}`, `{"n":3.0}`, `{"n":3,"extra":1}`,
		`{"tags":["ab","abc"],"mode":"a"}`, `{"tags":["a"]}`, `{"tags":["abcd"]}`, `{"mode":"c"}`, `{"mode":null}`, `{"tags":["åäö"]}`,
		`null`, `{"x":1.75}`, `{"x":1.5}`, `{"x":2}`, `[]`, `[1]`, `[1,2,3]`, `[1.5]`, `"s"`, `{"p":"abc"}`, `{"p":"b"}`,
		`{"k":"v","other":true}`, `{"k":"v","other":1}`, `{"big":9007199254740993}`, `{"big":1}`,
	}
	accepted := 0
	for _, sch := range schemas {
		var doc spec.Map
		if err := json.Unmarshal([]byte(sch), &doc); err != nil {
			t.Fatal(err)
		}
		compiled, err := Compile(&doc)
		if err != nil {
			t.Fatalf("%s: %v", sch, err)
		}
		for _, val := range values {
			for _, v := range decodings(t, val) {
				if !Conforms(&doc, v) {
					continue
				}
				accepted++
				if ps := Validate(compiled, v); len(ps) > 0 {
					t.Errorf("schema %s, value %s (%T): the fast check accepts what the library refuses: %v", sch, val, v, ps)
				}
			}
		}
	}
	if accepted < 20 {
		t.Errorf("the fast check accepted only %d values", accepted)
	}
	// The calculator's input and result are decided without the library.
	var calc spec.Map
	json.Unmarshal([]byte(schemas[0]), &calc)
	if !Conforms(&calc, map[string]any{"result": float64(14), "expression": "2*3"}) {
		t.Error("the calculator's result is not accepted by the fast check")
	}
	var in spec.Map
	json.Unmarshal([]byte(`{"type":"object","properties":{"expression":{"type":"string","description":"e.g. 2*3","minLength":1,"maxLength":4096},"precision":{"type":"integer","description":"Decimals.","default":10,"minimum":0,"maximum":15}},"required":["expression"]}`), &in)
	if !Conforms(&in, map[string]any{"expression": "2*(3+4)", "precision": json.Number("10")}) {
		t.Error("the calculator's input is not accepted by the fast check")
	}
}

// decodings returns val as the runner's values: with json.Number and with
// float64 numbers.
func decodings(t *testing.T, val string) []any {
	t.Helper()
	var asFloat any
	if err := json.Unmarshal([]byte(val), &asFloat); err != nil {
		t.Fatal(err)
	}
	asNumber, err := spec.DecodeJSON([]byte(val))
	if err != nil {
		t.Fatal(err)
	}
	return []any{asFloat, spec.Plain(asNumber)}
}

// TestConformsAsksTheLibrary: cases the library refuses that a fast check
// once accepted.
func TestConformsAsksTheLibrary(t *testing.T) {
	for _, c := range [][2]string{
		{`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"e":{"type":"string","format":"email"}}}`, `{"e":"nope"}`},
		{`{"type":"array","uniqueItems":true}`, `[1, 1.0]`},
		{`{"regexProperties":true}`, `{"(":1}`},
	} {
		var s spec.Map
		if err := json.Unmarshal([]byte(c[0]), &s); err != nil {
			t.Fatal(err)
		}
		v, err := spec.DecodeJSON([]byte(c[1]))
		if err != nil {
			t.Fatal(err)
		}
		if Conforms(&s, v) {
			t.Errorf("Conforms(%s, %s) = true; the library refuses it", c[0], c[1])
		}
	}
}
