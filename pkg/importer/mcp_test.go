package importer

import "testing"

func TestMCPToolsListResult(t *testing.T) {
	res := mustImport(t, MCP, `{"jsonrpc": "2.0", "id": 2, "result": {"tools": [
  {"name": "get_weather", "title": "Weather", "description": "Gets the weather. Use when asked about weather.",
   "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
     "properties": {"location": {"type": "string"}}, "required": ["location"], "additionalProperties": false},
   "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}}},
   "annotations": {"title": "Weather lookup", "readOnlyHint": true, "openWorldHint": false},
   "icons": [{"src": "https://example.org/w.png", "mimeType": "image/png"}],
   "_meta": {"example.org/owner": "team-a"}}
 ], "nextCursor": "abc"}}`)
	if len(res.Tools) != 1 {
		t.Fatalf("%d tools", len(res.Tools))
	}
	yamlEq(t, canonical(t, res.Tools[0]), `
		name: get_weather
		title: Weather
		description: Gets the weather. Use when asked about weather.
		icon: https://example.org/w.png
		input_schema:
		  $schema: http://json-schema.org/draft-07/schema#
		  type: object
		  properties:
		    location:
		      type: string
		  required:
		    - location
		  additionalProperties: false
		output_schema:
		  type: object
		  properties:
		    temperature:
		      type: number
		annotations:
		  title: Weather lookup
		  readOnlyHint: true
		  openWorldHint: false
		_meta:
		  example.org/owner: team-a
		`)
	wantContains(t, warningsText(res), `tool "get_weather": only the first icon's src is kept`)
}

func TestMCPShapes(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
	}{
		{"list", `[{"name": "a", "description": "d", "inputSchema": {"type": "object"}}, {"name": "b", "description": "d", "inputSchema": {"type": "object"}}]`, 2},
		{"one tool", `{"name": "a", "description": "d", "inputSchema": {"type": "object"}}`, 1},
		{"result", `{"tools": [{"name": "a", "description": "d", "inputSchema": {"type": "object"}}]}`, 1},
		{"annotations null", `[{"name": "a", "description": "d", "inputSchema": {"type": "object"}, "annotations": null}]`, 1},
		{"name only", `[{"name": "a", "description": "d"}]`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := mustImport(t, MCP, tc.in)
			if len(res.Tools) != tc.n || len(res.Warnings) != 0 {
				t.Fatalf("%d tools (want %d), warnings %s", len(res.Tools), tc.n, warningsText(res))
			}
			if a := res.Tools[0].Tool.Annotations; a != nil {
				t.Errorf("annotations %+v, want none", a)
			}
		})
	}
}

// Docker's MCP registry lists parameters in a compact form.
func TestMCPDockerArguments(t *testing.T) {
	res := mustImport(t, MCP, `[{"name": "create_build", "description": "Triggers a build.",
  "arguments": [
    {"name": "branch", "type": "string", "desc": "The branch to build"},
    {"name": "env", "type": "array", "items": {"type": "object"}, "desc": "Variables", "optional": true},
    {"name": "query", "type": "string", "desc": "Query", "required": true}
  ],
  "annotations": {"title": "Create build", "destructiveHint": false}}]`)
	yamlEq(t, canonical(t, res.Tools[0]), `
		name: create_build
		description: Triggers a build.
		input_schema:
		  type: object
		  properties:
		    branch:
		      type: string
		      description: The branch to build
		    env:
		      type: array
		      items:
		        type: object
		      description: Variables
		    query:
		      type: string
		      description: Query
		  required:
		    - branch
		    - query
		annotations:
		  title: Create build
		  destructiveHint: false
		`)
}

func TestMCPWarnings(t *testing.T) {
	res := mustImport(t, MCP, `[{"name": "a", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true, "costHint": "low"}, "execution": {"taskSupport": "optional"}}]`)
	wantContains(t, warningsText(res),
		`tool "a" has no description; add one`,
		`tool "a": annotation "costHint" is not kept`,
		`tool "a": field "execution" is not kept`)
}

func TestMCPErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"json-rpc error", `{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}`,
			`in.json:1:38: this is a JSON-RPC error response, not a tools/list result: {"code":-32601,"message":"Method not found"}`},
		{"hint not a bool", `{"name": "a", "annotations": {"readOnlyHint": "yes"}}`,
			`in.json:1:47: readOnlyHint: expected true or false, got the string "yes"`},
		{"both input forms", `{"name": "a", "inputSchema": {}, "arguments": []}`,
			`in.json:1:47: tool "a" has both inputSchema and arguments; keep one`},
		{"argument without name", `{"name": "a", "arguments": [{"type": "string"}]}`,
			`in.json:1:29: arguments[0]: there is no "name"; every argument needs one`},
		{"argument twice", `{"name": "a", "arguments": [{"name": "x"}, {"name": "x"}]}`,
			`in.json:1:53: arguments: "x" is listed twice; keep one`},
		{"tools not a list", `{"tools": {"name": "a"}}`,
			`in.json:1:11: tools: expected a JSON array, got an object`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantContains(t, importErr(t, MCP, tc.in), tc.want)
		})
	}
}
