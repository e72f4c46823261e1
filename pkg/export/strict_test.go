package export

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

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

// Problems compat finds in what the transform moved point at the source:
// inside a merged allOf, an inlined $ref target (once, named after the
// definition), a oneOf renamed anyOf, a const turned enum.
func TestStrictProblemPointers(t *testing.T) {
	tool := parseTool(t, `{"name": "p", "description": "d", "input_schema": {"type": "object", "properties": {
	  "a": {"description": "A.", "allOf": [{"type": "integer", "not": {"const": 1}}]},
	  "b": {"$ref": "#/$defs/x", "description": "B."},
	  "c": {"$ref": "#/$defs/x", "title": "C"},
	  "f": {"oneOf": [{"type": "integer"}, {"type": "object", "additionalProperties": true}]},
	  "h": {"const": {"k": 1}}},
	  "$defs": {"x": {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}}}}`)
	for _, c := range []struct {
		strict func(*spec.Tool, bool) (*spec.Map, []Warning, error)
		want   []string
	}{
		// In source order, as refusals are listed.
		{OpenAITool, []string{
			"/input_schema/properties/a/allOf/0/not uses not",
			"/input_schema/properties/f/oneOf/1/additionalProperties allows",
			"/input_schema/properties/h has no type",
			"/input_schema/$defs/x/properties/m/additionalProperties definition \"x.m\" allows",
		}},
		{AnthropicTool, []string{
			"/input_schema/properties/f/oneOf/1/additionalProperties allows",
			"/input_schema/properties/h/const is an object",
			"/input_schema/$defs/x/properties/m/additionalProperties definition \"x.m\" allows",
		}},
	} {
		_, _, err := c.strict(tool, true)
		var refused *Error
		if !errors.As(err, &refused) {
			t.Fatalf("err %v, want a refusal", err)
		}
		if len(refused.Problems) != len(c.want) {
			t.Errorf("problems %v, want %d", refused.Problems, len(c.want))
			continue
		}
		for i, w := range c.want {
			ptr, msg, _ := strings.Cut(w, " ")
			if p := refused.Problems[i]; p.Pointer != ptr || !strings.Contains(p.Message, msg) {
				t.Errorf("problem %d: %s %q, want %s %q", i, p.Pointer, p.Message, ptr, msg)
			}
		}
	}
}

// refDAG is a tool of n definitions that each use the next twice through
// a $ref with a description beside it: inlined at every use (as strict
// mode and Gemini's OpenAPI form do), it has 2^n schemas.
func refDAG(t *testing.T, n int) *spec.Tool {
	var defs []string
	for i := range n {
		child := `{"type": "string", "description": "Leaf."}`
		if i < n-1 {
			child = fmt.Sprintf(`{"$ref": "#/$defs/d%d", "description": "Half."}`, i+1)
		}
		defs = append(defs, fmt.Sprintf(`"d%d": {"type": "object", "properties": {"l": %s, "r": %s}, "required": ["l", "r"], "additionalProperties": false}`, i, child, child))
	}
	return parseTool(t, `{"name": "dag", "description": "A DAG of references. Use when testing.", "input_schema": {"type": "object",
	  "properties": {"root": {"$ref": "#/$defs/d0", "description": "Root."}}, "required": ["root"], "additionalProperties": false,
	  "$defs": {`+strings.Join(defs, ", ")+`}}}`)
}

// Inlining $refs is bounded: a small file whose references double at each
// level is refused in strict mode and cut for Gemini's OpenAPI form, in
// bounded time and memory, instead of growing exponentially.
func TestInliningRefsIsBounded(t *testing.T) {
	tool := refDAG(t, 14)
	for _, opts := range []Options{{Format: OpenAI, Strict: true}, {Format: Anthropic, Strict: true}, {Format: Gemini, Legacy: true}} {
		type result struct {
			doc []byte
			ws  []Warning
			err error
		}
		done := make(chan result, 1)
		go func() {
			doc, ws, err := Export([]*spec.Tool{tool}, opts)
			done <- result{doc, ws, err}
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(2 * time.Minute): // it takes well under a second
			t.Fatalf("%+v: the export does not finish", opts)
		}
		if opts.Strict {
			var refused *Error
			if !errors.As(r.err, &refused) || !strings.Contains(refused.Error(), "grows past 20000 subschemas in strict mode") {
				t.Errorf("%+v: err %v, want a refusal that the schema grows too large", opts, r.err)
			}
			continue
		}
		if r.err != nil {
			t.Fatalf("%+v: %v", opts, r.err)
		}
		if len(r.doc) > 64<<20 {
			t.Errorf("%+v: %d bytes exported", opts, len(r.doc))
		}
		if !strings.Contains(fmt.Sprint(r.ws), "grows past 20000 subschemas with its $refs inlined") {
			t.Errorf("%+v: warnings %v, want the cut", opts, r.ws)
		}
	}
	// A DAG that stays small is exported whole.
	if _, _, err := Export([]*spec.Tool{refDAG(t, 6)}, Options{Format: Anthropic, Strict: true}); err != nil {
		t.Errorf("6 levels: %v", err)
	}
}

// A schema nested deeper than the transform goes is refused in strict
// mode, not exported with its deep objects left non-strict (Anthropic has
// no nesting limit of its own to refuse it).
func TestStrictTooDeepRefused(t *testing.T) {
	nest := func(levels int) *spec.Tool {
		s := `{"type": "string", "description": "Leaf."}`
		for range levels {
			s = `{"type": "object", "description": "Level.", "properties": {"a": ` + s + `}, "required": ["a"]}`
		}
		return parseTool(t, `{"name": "deep", "description": "A deep schema. Use when testing.", "input_schema": `+s+`}`)
	}
	_, _, err := Export([]*spec.Tool{nest(100)}, Options{Format: Anthropic, Strict: true})
	var refused *Error
	if !errors.As(err, &refused) || !strings.Contains(refused.Error(), "nests deeper than 64 levels") {
		t.Errorf("100 levels: err %v, want a refusal", err)
	}
	doc, _, err := Export([]*spec.Tool{nest(60)}, Options{Format: Anthropic, Strict: true})
	if err != nil {
		t.Fatalf("60 levels: %v", err)
	}
	if errs := checkDocument("anthropic", doc); len(errs) > 0 {
		t.Errorf("60 levels: %v", errs[:min(3, len(errs))])
	}
}
