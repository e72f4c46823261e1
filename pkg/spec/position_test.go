package spec

import (
	"fmt"
	"testing"
)

func TestPositions(t *testing.T) {
	feagent := mustOne(t, "f.yaml", `name: http_request
description: "Sends a request."
category: http
parameters:
  - name: url
    type: string
    description: Target URL.
    required: true
  - name: body
    type: any
    default: {}
  - name: limit
    type: integer
    required: true
returns:
  status: number
  body:
    type: any
    description: Body.
examples:
  - params:
      url: https://example.org
      limit: "ten"
`)
	sdk := mustOne(t, "s.json", `{
  "name": "calc",
  "type": "BUILTIN",
  "parameters": {
    "properties": {
      "expression": {"type": "string"}
    }
  },
  "metadata": {"category": "math", "tags": ["m"]}
}`)
	mcp := mustOne(t, "m.yaml", `name: fill
inputSchema:
  type: object
  properties:
    selector: {type: string, description: CSS selector}
outputSchema:
  type: object
annotations: {readOnlyHint: true}
`)
	wrapped := mustOne(t, "o.yaml", `type: function
function:
  name: get_weather
  parameters:
    type: object
    properties:
      city: {type: string}
`)
	tests := []struct {
		tool *Tool
		ptr  string
		key  bool
		want string // "line:col-line:col"
	}{
		{feagent, "", false, "1:1-1:2"},
		{feagent, "/name", false, "1:7-1:19"},
		{feagent, "/name", true, "1:1-1:5"},
		{feagent, "/description", false, "2:14-2:32"},
		{feagent, "/input_schema", false, "5:3-5:4"},
		{feagent, "/input_schema/type", false, "5:3-5:4"},
		{feagent, "/input_schema/properties/url", false, "5:5-5:6"},
		{feagent, "/input_schema/properties/url/type", false, "6:11-6:17"},
		{feagent, "/input_schema/properties/url/description", false, "7:18-7:29"},
		{feagent, "/input_schema/properties/body/default", false, "11:14-11:15"},
		// the source still has "type: any" (dropped from the canonical schema).
		{feagent, "/input_schema/properties/body/type", false, "10:11-10:14"},
		{feagent, "/input_schema/required/0", false, "8:15-8:19"},
		{feagent, "/input_schema/required/1", false, "14:15-14:19"},
		{feagent, "/input_schema/properties/nope/type", false, "5:3-5:4"},
		{feagent, "/output_schema/properties/status", false, "16:11-16:17"},
		{feagent, "/output_schema/properties/status/type", false, "16:11-16:17"},
		{feagent, "/output_schema/properties/body/description", false, "19:18-19:23"},
		{feagent, "/examples/0/params/limit", false, "23:14-23:19"},
		{feagent, "/examples/0/params/limit", true, "23:7-23:12"},
		{feagent, "/examples/5/params", false, "21:3-21:4"},
		{sdk, "/input_schema/properties/expression/type", false, "6:30-6:38"},
		{sdk, "/input_schema/type", false, "4:17-4:18"},
		{sdk, "/category", false, "9:28-9:34"},
		{sdk, "/tags/0", false, "9:45-9:48"},
		{sdk, "/entry/type", false, "3:11-3:20"},
		{mcp, "/input_schema/properties/selector/description", false, "5:43-5:55"},
		{mcp, "/output_schema/type", false, "7:9-7:15"},
		{mcp, "/annotations/readOnlyHint", false, "8:29-8:33"},
		{wrapped, "/name", false, "3:9-3:20"},
		{wrapped, "/input_schema/properties/city/type", false, "7:20-7:26"},
	}
	for _, tc := range tests {
		span := tc.tool.Span(tc.ptr)
		if tc.key {
			span = tc.tool.KeySpan(tc.ptr)
		}
		got := fmt.Sprintf("%d:%d-%d:%d", span.Start.Line, span.Start.Col, span.End.Line, span.End.Col)
		if got != tc.want {
			t.Errorf("%s %s (key=%v): got %s, want %s", tc.tool.Path(), tc.ptr, tc.key, got, tc.want)
		}
	}
}

func TestPositionsCountCharacters(t *testing.T) {
	tool := mustOne(t, "w.yaml", "name: 中文工具\ndescription: \"ü ü\"\ntags: ['a''b']\n")
	for ptr, want := range map[string]string{
		"/name":        "1:7-1:11",
		"/description": "2:14-2:19",
		"/tags/0":      "3:8-3:14",
	} {
		s := tool.Span(ptr)
		if got := fmt.Sprintf("%d:%d-%d:%d", s.Start.Line, s.Start.Col, s.End.Line, s.End.Col); got != want {
			t.Errorf("%s: got %s, want %s", ptr, got, want)
		}
	}
}

func TestMultiToolPositions(t *testing.T) {
	f := parse(t, "many.yaml", "tools:\n  - name: a\n    description: d\n  - name: b\n    description: e\n")
	if len(f.Tools) != 2 {
		t.Fatalf("%d tools", len(f.Tools))
	}
	if p := f.Tools[1].Pos("/description"); p != (Pos{Line: 5, Col: 18}) {
		t.Errorf("second tool description at %v", p)
	}
	if line := f.Line(4); line != "  - name: b" {
		t.Errorf("Line(4) = %q", line)
	}
	if p := f.PosAt(len("tools:\n  - ")); p != (Pos{Line: 2, Col: 5}) {
		t.Errorf("PosAt = %v", p)
	}
}
