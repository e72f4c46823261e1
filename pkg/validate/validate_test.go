package validate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

func mustMap(t *testing.T, src string) *spec.Map {
	t.Helper()
	var m spec.Map
	if err := json.Unmarshal([]byte(src), &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

func TestValidateProblems(t *testing.T) {
	s, err := Compile(mustMap(t, `{"type": "object", "properties": {
		"n": {"type": "integer"},
		"v": {"anyOf": [{"type": "string"}, {"type": "number"}]},
		"list": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}
	}, "required": ["n"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var in any
	json.Unmarshal([]byte(`{"v": true, "list": [{"id": 1}]}`), &in)
	got := map[string]string{}
	for _, p := range Validate(s, in) {
		got[PointerLabel(p.Pointer)] = p.Message
	}
	want := map[string]string{
		"":           "missing properties: 'n'",
		"v":          "expected number or string, but got boolean", // anyOf merged into one problem
		"list[0].id": "expected string, but got number",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("at %q: got %q, want %q (all: %v)", k, got[k], w, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d problems, want %d: %v", len(got), len(want), got)
	}
}

func TestCompileRefusesRemoteRefs(t *testing.T) {
	_, err := Compile(mustMap(t, `{"$ref": "https://example.org/schema.json"}`))
	if err == nil || !strings.Contains(err.Error(), "does not fetch remote references") {
		t.Fatalf("got %v, want a refusal to fetch", err)
	}
}

func TestCallSchemaDropsBoundRequired(t *testing.T) {
	f := spec.ParseFile("t.yaml", []byte(`
name: t
description: A test tool. Use when testing.
category: custom
entry: {type: builtin, handler: calculator}
input_schema:
  type: object
  properties: {a: {type: string}, key: {type: string}}
  required: [a, key]
bind:
  key: {env: KEY}
`))
	if len(f.Tools) != 1 {
		t.Fatalf("parse: %v", f.Errors)
	}
	tool := f.Tools[0]
	req, _ := CallSchema(tool).Get("required")
	if raw, _ := json.Marshal(req); string(raw) != `["a"]` {
		t.Errorf("required = %s, want [\"a\"]", raw)
	}
	if orig, _ := tool.InputSchema.Get("required"); len(orig.([]any)) != 2 {
		t.Error("CallSchema changed the tool's own schema")
	}
}
