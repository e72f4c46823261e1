package export

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

func parseTool(t *testing.T, src string) *spec.Tool {
	t.Helper()
	f := spec.ParseFile("tool.json", []byte(src))
	if len(f.Errors) > 0 || len(f.Tools) != 1 {
		t.Fatalf("parse: %v", f.Errors)
	}
	return f.Tools[0]
}

// A $ref that goes through an optional property must follow it into its
// nullable wrapper, however deep the wrappers nest.
func TestStrictRewritesRefsThroughWrappers(t *testing.T) {
	tool := parseTool(t, `{"name": "tree", "description": "d", "input_schema": {"type": "object", "properties": {
	  "data": {"type": "object", "properties": {
	    "children": {"type": "array", "items": {"type": "object", "properties": {
	      "name": {"type": "string"},
	      "children": {"type": "array", "items": {"$ref": "#/properties/data/properties/children/items"}}}}}}}}}}`)
	m, _, err := OpenAITool(tool, true)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := spec.MarshalJSONIndent(m)
	want := `"$ref": "#/properties/data/anyOf/0/properties/children/anyOf/0/items"`
	if !strings.Contains(string(doc), want) {
		t.Fatalf("want %s in\n%s", want, doc)
	}
	if errs := checkDocument("openai", append([]byte("["), append(doc, ']')...)); len(errs) > 0 {
		t.Errorf("checker: %v", errs)
	}
}

// A problem inside an optional (wrapped) parameter points at the source.
func TestStrictProblemPointsAtSource(t *testing.T) {
	tool := parseTool(t, `{"name": "p", "description": "d", "input_schema": {"type": "object", "properties": {
	  "opts": {"type": "object", "properties": {"h": {"type": "object", "additionalProperties": {"type": "string"}}}}}}}`)
	_, _, err := OpenAITool(tool, true)
	var refused *Error
	if !errors.As(err, &refused) {
		t.Fatalf("err %v, want a refusal", err)
	}
	if got := refused.Problems[0].Pointer; got != "/input_schema/properties/opts/properties/h/additionalProperties" {
		t.Errorf("pointer %s", got)
	}
}

// Transforming an already strict schema changes nothing (an import of a
// strict OpenAI tool exports back the same).
func TestStrictIdempotent(t *testing.T) {
	for _, tool := range loadTools(t, casesDir) {
		first, _, err := OpenAITool(tool, true)
		if err != nil {
			continue
		}
		fn, _ := first.GetMap("function")
		if v, _ := fn.Get("strict"); v != true {
			continue // strict: false in the file
		}
		params, _ := fn.GetMap("parameters")
		again, _ := strictSchema(strictOpenAI, params)
		a, _ := spec.MarshalJSONIndent(params)
		b, _ := spec.MarshalJSONIndent(again)
		if string(a) != string(b) {
			t.Errorf("%s: a second transform changed the schema:\n%s\nvs\n%s", tool.Name, a, b)
		}
	}
}

func TestExclusive(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{`[{"type": "string"}, {"type": "integer"}]`, true},
		{`[{"type": "number"}, {"type": "integer"}]`, false},
		{`[{"type": "string"}, {"description": "anything"}]`, false},
		{`[{"const": "a"}, {"const": "b"}]`, true},
		{`[{"enum": ["a", "b"]}, {"enum": ["b"]}]`, false},
		{`[{"type": "object", "properties": {"k": {"const": 1}}, "required": ["k"]}, {"type": "object", "properties": {"k": {"const": 2}}, "required": ["k"]}]`, true},
		{`[{"type": "object", "properties": {"k": {"const": 1}}}, {"type": "object", "properties": {"k": {"const": 2}}, "required": ["k"]}]`, false},
	} {
		v, err := spec.DecodeJSON([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := exclusive(v.([]any), spec.NewMap(0)); got != tc.want {
			t.Errorf("%s: exclusive %v, want %v", tc.src, got, tc.want)
		}
	}
}
