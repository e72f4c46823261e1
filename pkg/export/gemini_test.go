package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Gemini's OpenAPI Schema has one type per schema: a JSON Schema type list
// becomes an anyOf whose ARRAY and OBJECT members carry their own items and
// properties (the keywords apply to that type only), and an array without
// items, which the API rejects ("items: missing field"), is warned about.
func TestGeminiLegacyTypeListsAndArrays(t *testing.T) {
	tool := parseTool(t, `{"name": "f", "description": "Does f. Use when testing.", "input_schema": {"type": "object", "properties": {
	  "tags": {"type": ["string", "array", "null"], "description": "One tag or several.", "items": {"type": "string"}, "minItems": 1, "maxLength": 20},
	  "spec": {"type": ["object", "integer"], "properties": {"a": {"type": "string"}}, "required": ["a"], "minimum": 0},
	  "bare": {"type": "array", "description": "No items."}}}}`)
	doc, ws, err := Export([]*spec.Tool{tool}, Options{Format: Gemini, Legacy: true})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		FunctionDeclarations []struct {
			Parameters struct {
				Properties map[string]json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(doc, &got); err != nil {
		t.Fatal(err)
	}
	props := got.FunctionDeclarations[0].Parameters.Properties
	for key, want := range map[string]string{
		"tags": `{"description":"One tag or several.","anyOf":[{"type":"STRING","maxLength":"20"},{"type":"ARRAY","items":{"type":"STRING"},"minItems":"1"}],"nullable":true}`,
		"spec": `{"anyOf":[{"type":"OBJECT","properties":{"a":{"type":"STRING"}},"required":["a"]},{"type":"INTEGER","minimum":0}]}`,
		"bare": `{"type":"ARRAY","description":"No items."}`,
	} {
		var b bytes.Buffer
		if err := json.Compact(&b, props[key]); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("%s:\ngot  %s\nwant %s", key, b.String(), want)
		}
	}
	if !strings.Contains(fmt.Sprint(ws), `parameter "bare" is an array without items, which Gemini's OpenAPI schema rejects`) {
		t.Errorf("no warning about the array without items: %v", ws)
	}
}
