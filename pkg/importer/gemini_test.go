package importer

import "testing"

func TestGeminiOpenAPIParameters(t *testing.T) {
	res := mustImport(t, Gemini, `{
  "contents": [],
  "tools": [
    {"functionDeclarations": [
      {"name": "find_movies", "description": "Finds movies playing in a city. Use when asked what is on.",
       "parameters": {"type": "OBJECT", "properties": {
         "location": {"type": "STRING", "description": "City", "example": "Berlin"},
         "genre": {"type": "STRING", "enum": ["comedy", "drama"], "nullable": true},
         "limit": {"type": "INTEGER", "format": "int32", "minimum": 1},
         "tags": {"type": "ARRAY", "items": {"type": "STRING"}, "minItems": "1", "maxItems": "5"},
         "any": {"type": "TYPE_UNSPECIFIED"},
         "when": {"anyOf": [{"type": "STRING"}, {"type": "NUMBER"}]}},
         "required": ["location"], "propertyOrdering": ["location", "genre"]},
       "response": {"type": "OBJECT", "properties": {"titles": {"type": "ARRAY", "items": {"type": "STRING"}}}},
       "behavior": "BLOCKING"}
    ]},
    {"googleSearch": {}}
  ]}`)
	if len(res.Tools) != 1 {
		t.Fatalf("%d tools", len(res.Tools))
	}
	yamlEq(t, canonical(t, res.Tools[0]), `
		name: find_movies
		description: Finds movies playing in a city. Use when asked what is on.
		input_schema:
		  type: object
		  properties:
		    location:
		      type: string
		      description: City
		      examples:
		        - Berlin
		    genre:
		      type:
		        - string
		        - "null"
		      enum:
		        - comedy
		        - drama
		    limit:
		      type: integer
		      format: int32
		      minimum: 1
		    tags:
		      type: array
		      items:
		        type: string
		      minItems: 1
		      maxItems: 5
		    any: {}
		    when:
		      anyOf:
		        - type: string
		        - type: number
		  required:
		    - location
		  propertyOrdering:
		    - location
		    - genre
		output_schema:
		  type: object
		  properties:
		    titles:
		      type: array
		      items:
		        type: string
		`)
	wantContains(t, warningsText(res),
		`tool "find_movies": field "behavior" is not kept`,
		`in.json:17:5: skipped the "googleSearch" tool: it is built into Gemini`)
}

func TestGeminiShapes(t *testing.T) {
	want := `
		name: f
		description: d
		input_schema:
		  type: object
		  properties:
		    a:
		      type: string
		`
	for _, tc := range []struct{ name, in string }{
		{"tool", `{"functionDeclarations": [{"name": "f", "description": "d", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}}]}`},
		{"snake case", `{"function_declarations": [{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}]}`},
		{"json schema", `[{"name": "f", "description": "d", "parametersJsonSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}]`},
		{"list of tools", `[{"functionDeclarations": [{"name": "f", "description": "d", "parametersJsonSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}]}]`},
		{"sdk config", `{"model": "gemini-2.5-flash", "config": {"tools": [{"functionDeclarations": [{"name": "f", "description": "d", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}}]}]}}`},
		{"one declaration", `{"name": "f", "description": "d", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := mustImport(t, Gemini, tc.in)
			if len(res.Tools) != 1 {
				t.Fatalf("%d tools", len(res.Tools))
			}
			yamlEq(t, canonical(t, res.Tools[0]), want)
		})
	}
}

// The JSON Schema forms are kept exactly, Gemini's keywords included.
func TestGeminiJSONSchemaKept(t *testing.T) {
	res := mustImport(t, Gemini, `{"name": "f", "description": "d",
	  "parametersJsonSchema": {"type": "object", "properties": {"a": {"type": "STRING", "nullable": true}}, "propertyOrdering": ["a"]},
	  "responseJsonSchema": {"type": "string"}}`)
	yamlEq(t, canonical(t, res.Tools[0]), `
		name: f
		description: d
		input_schema:
		  type: object
		  properties:
		    a:
		      type: STRING
		      nullable: true
		  propertyOrdering:
		    - a
		output_schema:
		  type: string
		`)
}

func TestGeminiErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"both parameter forms", `{"name": "f", "parameters": {"type": "OBJECT"}, "parametersJsonSchema": {"type": "object"}}`,
			`in.json:1:73: both "parameters" and "parametersJsonSchema" are set; Gemini takes one of them`},
		{"declarations not a list", `{"functionDeclarations": {"name": "f"}}`,
			`in.json:1:26: functionDeclarations: expected a JSON array, got an object`},
		{"not a declaration", `{"description": "d"}`,
			`in.json:1:1: not a Gemini function declaration: there is no "name" nor "functionDeclarations" (keys here: description)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantContains(t, importErr(t, Gemini, tc.in), tc.want)
		})
	}
}

// nullable: true on a union (what export --legacy writes for
// anyOf [..., {type: null}]) still lets null through, and a
// propertyOrdering of every property becomes the properties' order.
func TestGeminiNullableUnionAndOrdering(t *testing.T) {
	res := mustImport(t, Gemini, `{"name": "f", "description": "d", "parameters": {"type": "OBJECT",
	  "properties": {
	    "b": {"anyOf": [{"type": "STRING"}, {"type": "ARRAY", "items": {"type": "STRING"}}], "nullable": true},
	    "a": {"type": "OBJECT", "properties": {"y": {"type": "STRING"}, "x": {"type": "NUMBER"}}, "propertyOrdering": ["x", "y"]},
	    "c": {"type": "STRING", "nullable": false}},
	  "propertyOrdering": ["a", "b", "c"]}}`)
	yamlEq(t, canonical(t, res.Tools[0]), `
		name: f
		description: d
		input_schema:
		  type: object
		  properties:
		    a:
		      type: object
		      properties:
		        x:
		          type: number
		        y:
		          type: string
		    b:
		      anyOf:
		        - type: string
		        - type: array
		          items:
		            type: string
		        - type: "null"
		    c:
		      type: string
		`)
}
