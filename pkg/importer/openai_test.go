package importer

import "testing"

func TestOpenAIChatRequestBody(t *testing.T) {
	res := mustImport(t, OpenAI, `{
  "model": "gpt-5",
  "messages": [],
  "tools": [
    {"type": "function", "function": {
      "name": "get_weather",
      "description": "Gets the weather for a city. Use when asked about weather.",
      "parameters": {"type": "object", "properties": {
        "unit": {"type": ["string", "null"], "enum": ["c", "f", null]},
        "city": {"type": "string", "description": "City name"}},
        "required": ["unit", "city"], "additionalProperties": false},
      "strict": true}},
    {"type": "web_search"}
  ]}`)
	if len(res.Tools) != 1 {
		t.Fatalf("%d tools, want 1", len(res.Tools))
	}
	yamlEq(t, canonical(t, res.Tools[0]), `
		name: get_weather
		description: Gets the weather for a city. Use when asked about weather.
		input_schema:
		  type: object
		  properties:
		    unit:
		      type:
		        - string
		        - "null"
		      enum:
		        - c
		        - f
		        - null
		    city:
		      type: string
		      description: City name
		  required:
		    - unit
		    - city
		  additionalProperties: false
		strict: true
		`)
	wantContains(t, warningsText(res), `in.json:13:5: skipped "web_search": OpenAI tools of type "web_search" are built in`)
}

func TestOpenAIShapes(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"responses list", `[{"type": "function", "name": "f", "description": "d", "parameters": {"type": "object"}, "strict": false}]`},
		{"one wrapped tool", `{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object"}, "strict": false}}`},
		{"legacy functions", `{"model": "gpt-4", "functions": [{"name": "f", "description": "d", "parameters": {"type": "object"}, "strict": false}]}`},
		{"bare function", `{"name": "f", "description": "d", "parameters": {"type": "object"}, "strict": false}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := mustImport(t, OpenAI, tc.in)
			if len(res.Tools) != 1 || len(res.Warnings) != 0 {
				t.Fatalf("tools %d, warnings %v", len(res.Tools), warningsText(res))
			}
			yamlEq(t, canonical(t, res.Tools[0]), `
				name: f
				description: d
				input_schema:
				  type: object
				strict: false
				`)
		})
	}
}

func TestOpenAINoParameters(t *testing.T) {
	res := mustImport(t, OpenAI, `[{"type": "function", "function": {"name": "ping", "description": "Checks the service."}}]`)
	if res.Tools[0].Tool.InputSchema != nil || res.Tools[0].Tool.Strict != nil {
		t.Errorf("want no input schema and no strict, got %v", res.Tools[0].Tool.ToMap())
	}
}

func TestOpenAIUnknownFieldWarns(t *testing.T) {
	res := mustImport(t, OpenAI, `{"type": "function", "function": {"name": "f", "description": "d", "cache": 1}, "extra": true}`)
	wantContains(t, warningsText(res),
		`in.json:1:90: tool "f": field "extra" is not kept`,
		`in.json:1:77: tool "f": field "cache" is not kept (OpenAI function tools have name, description, parameters and strict)`)
}

func TestOpenAIErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"parameters not an object", `[{"type": "function", "function": {"name": "f", "parameters": []}}]`,
			`in.json:1:63: parameters: expected a JSON Schema object, got an array`},
		{"no name", "[\n  {\"type\": \"function\", \"function\": {\"description\": \"d\"}}\n]",
			`in.json:2:36: not a tool: there is no "name" (keys here: description); every tool needs a name`},
		{"name not a string", `{"type": "function", "function": {"name": 3}}`,
			`in.json:1:43: name: expected a non-empty string, got the number 3`},
		{"strict not a bool", `{"type": "function", "name": "f", "strict": "yes"}`,
			`in.json:1:45: strict: expected true or false, got the string "yes"`},
		{"not a tool list", `"tools"`, `in.json:1:1: expected an OpenAI tool`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantContains(t, importErr(t, OpenAI, tc.in), tc.want)
		})
	}
}
