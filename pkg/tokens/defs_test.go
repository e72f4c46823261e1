package tokens

import (
	"testing"

	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/spec"
)

// TestUncountedDefs: the OpenAI prompt accounting leaves a schema's $defs
// out (how OpenAI renders them is not published); the JSON tokens of
// every $defs or definitions member are reported beside the count, in
// keyword positions only, so that the output can say the number is a
// floor. A schema without them reports 0.
func TestUncountedDefs(t *testing.T) {
	defs := `{"Order":{"type":"object","properties":{"id":{"type":"string","description":"The order id."}}}}`
	for _, c := range []struct {
		schema string
		want   int
	}{
		{`{"type":"object","properties":{"order":{"$ref":"#/$defs/Order"}},"$defs":` + defs + `}`, Count(O200kBase, `"$defs":`+defs)},
		{`{"type":"object","properties":{"order":{"$ref":"#/definitions/Order"}},"definitions":` + defs + `}`, Count(O200kBase, `"definitions":`+defs)},
		// nested, in a property's schema and in an anyOf branch
		{`{"type":"object","properties":{"a":{"type":"object","$defs":` + defs + `},"b":{"anyOf":[{"$defs":` + defs + `}]}}}`, 2 * Count(O200kBase, `"$defs":`+defs)},
		// a property named definitions is a property, not a keyword
		{`{"type":"object","properties":{"definitions":{"type":"object","properties":{"x":{"type":"string"}}}}}`, 0},
		{`{"type":"object","properties":{"x":{"type":"string"}}}`, 0},
	} {
		if got := uncountedDefs(O200kBase, mustMap(t, c.schema)); got != c.want {
			t.Errorf("%s: %d uncounted tokens, want %d", c.schema, got, c.want)
		}
	}

	// Through Measure: the openai formats carry it, the prompt count stays
	// the cookbook's.
	f := spec.ParseFile("refs.yaml", []byte(`name: place_order
description: Places an order.
input_schema:
  type: object
  properties:
    order: {$ref: "#/$defs/Order"}
  $defs:
    Order:
      type: object
      properties:
        id: {type: string, description: The order id.}
`))
	if len(f.Tools) != 1 {
		t.Fatalf("parse: %v", f.Errors)
	}
	r, err := Measure(f.Tools, Options{Formats: []export.Format{export.OpenAI, export.OpenAIResponses, export.Anthropic}})
	if err != nil {
		t.Fatal(err)
	}
	costs := r.Tools[0].Costs
	if costs[0].UncountedDefs <= 0 || costs[1].UncountedDefs <= 0 {
		t.Errorf("openai uncounted %d, openai-responses %d; want both > 0", costs[0].UncountedDefs, costs[1].UncountedDefs)
	}
	if costs[2].UncountedDefs != 0 {
		t.Errorf("anthropic (the whole JSON is counted) reports %d uncounted", costs[2].UncountedDefs)
	}
}
