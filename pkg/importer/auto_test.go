package importer

import (
	"strings"
	"testing"
)

func TestAutoDetect(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Format
	}{
		{`{"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]}`, OpenAI},
		{`[{"type": "function", "name": "f", "parameters": {"type": "object"}}]`, OpenAI},
		{`{"functions": [{"name": "f", "parameters": {"type": "object"}}]}`, OpenAI},
		{`{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {}}}`, OpenAI},
		{`{"tools": [{"name": "f", "input_schema": {"type": "object"}}, {"type": "web_search_20250305", "name": "web_search"}]}`, Anthropic},
		{`{"tools": [{"functionDeclarations": [{"name": "f"}]}]}`, Gemini},
		{`{"function_declarations": [{"name": "f"}]}`, Gemini},
		{`[{"name": "f", "parameters": {"type": "OBJECT", "properties": {}}}]`, Gemini},
		{`[{"name": "f", "parametersJsonSchema": {"type": "object"}}]`, Gemini},
		{`{"tools": [{"name": "f", "inputSchema": {"type": "object"}}]}`, MCP},
		{`{"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}`, MCP},
		{`[{"name": "f", "arguments": [{"name": "a", "type": "string", "desc": "x"}]}]`, MCP},
		{`[{"name": "f", "description": "only a name"}]`, MCP},
		{"{\"name\": \"a.b\", \"parameters\": {\"type\": \"dict\", \"properties\": {}}}\n{\"name\": \"c\", \"parameters\": {\"type\": \"dict\", \"properties\": {}}}\n", BFCL},
		{`{"id": "q1", "question": [], "function": [{"name": "f", "parameters": {"type": "dict"}}]}`, BFCL},
	} {
		t.Run(string(tc.want), func(t *testing.T) {
			src, err := decodeSource("in.json", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			got, why, err := detect(src)
			if err != nil || got != tc.want || why == "" {
				t.Errorf("detect(%s) = %q (%s), %v; want %q", tc.in, got, why, err, tc.want)
			}
		})
	}
}

func TestAutoImport(t *testing.T) {
	res := mustImport(t, Auto, `[{"name": "f", "description": "d", "input_schema": {"type": "object"}, "input_examples": [{}]}]`)
	if res.Format != Anthropic || !strings.Contains(res.Detected, "input_schema") || len(res.Tools[0].Tool.Examples) != 1 {
		t.Errorf("format %q (%s), tool %v", res.Format, res.Detected, res.Tools[0].Tool.ToMap())
	}
}

func TestAutoConflict(t *testing.T) {
	got := importErr(t, Auto, "[\n{\"name\": \"a\", \"inputSchema\": {}},\n{\"name\": \"b\", \"input_schema\": {}}\n]")
	wantContains(t, got, `in.json: cannot tell the format: the input has tools that look like anthropic at line 3 (input_schema) and mcp at line 2 (inputSchema); pass --from with the format to read`)
}
