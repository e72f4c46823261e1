package importer

import "testing"

func TestBFCLJSONLines(t *testing.T) {
	res := mustImport(t, BFCL, `{"name": "math.factorial", "description": "Calculate the factorial of a given number.", "parameters": {"type": "dict", "properties": {"number": {"type": "integer", "description": "The number."}}, "required": ["number"]}}
{"name": "calculate_distance", "description": "Calculate the distance between two GPS coordinates.", "parameters": {"type": "dict", "properties": {"coord1": {"type": "tuple", "description": "(lat, lon)", "items": {"type": "float"}}, "unit": {"type": "string", "enum": ["miles", "km"], "default": "km", "optional": true}, "extra": {"type": "any"}}, "required": ["coord1", "unit"], "optional": ["extra"]}, "response": {"type": "dict", "properties": {"distance": {"type": "float"}}}}
`)
	if len(res.Tools) != 2 {
		t.Fatalf("%d tools", len(res.Tools))
	}
	yamlEq(t, canonical(t, res.Tools[0]), `
		name: math_factorial
		description: Calculate the factorial of a given number.
		input_schema:
		  type: object
		  properties:
		    number:
		      type: integer
		      description: The number.
		  required:
		    - number
		`)
	yamlEq(t, canonical(t, res.Tools[1]), `
		name: calculate_distance
		description: Calculate the distance between two GPS coordinates.
		input_schema:
		  type: object
		  properties:
		    coord1:
		      type: array
		      description: (lat, lon)
		      items:
		        type: number
		    unit:
		      type: string
		      enum:
		        - miles
		        - km
		      default: km
		    extra: {}
		  required:
		    - coord1
		output_schema:
		  type: object
		  properties:
		    distance:
		      type: number
		`)
	wantContains(t, warningsText(res), `in.json:1:1: tool "math.factorial" is imported as "math_factorial": toolctl names are snake_case`)
	if res.Tools[0].SourceName != "math.factorial" {
		t.Errorf("SourceName %q", res.Tools[0].SourceName)
	}
}

func TestBFCLJavaTypes(t *testing.T) {
	res := mustImport(t, BFCL, `[{"name": "createAuthToken", "description": "d", "parameters": {"type": "dict", "properties": {
  "username": {"type": "String"}, "validity": {"type": "long"}, "ok": {"type": "Boolean"}, "c": {"type": "char"},
  "list": {"type": "ArrayList", "items": {"type": "String"}}, "map": {"type": "HashMap"}, "d": {"type": "double"},
  "issuer": {"type": ""}, "odd": {"type": "Set"}}}}]`)
	yamlEq(t, canonical(t, res.Tools[0]), `
		name: create_auth_token
		description: d
		input_schema:
		  type: object
		  properties:
		    username:
		      type: string
		    validity:
		      type: integer
		    ok:
		      type: boolean
		    c:
		      type: string
		    list:
		      type: array
		      items:
		        type: string
		    map:
		      type: object
		    d:
		      type: number
		    issuer: {}
		    odd: {}
		`)
	wantContains(t, warningsText(res), `in.json:4:43: tool "createAuthToken": type "Set" is not a BFCL type toolctl knows; it is dropped`)
}

func TestBFCLQuestionRecord(t *testing.T) {
	res := mustImport(t, BFCL, `{"id": "simple_0", "question": [[{"role": "user", "content": "?"}]], "function": [{"name": "f", "description": "d", "parameters": {"type": "dict", "properties": {}}}]}`)
	if len(res.Tools) != 1 || res.Tools[0].Tool.Name != "f" {
		t.Fatalf("tools %v", res.Tools)
	}
}

func TestBFCLSameNameTwice(t *testing.T) {
	got := importErr(t, BFCL, `{"name": "calculate_BMI", "description": "a", "parameters": {"type": "dict", "properties": {}}}
{"name": "calculate_bmi", "description": "b", "parameters": {"type": "dict", "properties": {}}}
{"name": "calculate_bmi", "description": "c", "parameters": {"type": "dict", "properties": {}}}`)
	wantContains(t, got, `in.json:1:1: tool "calculate_BMI" has the same toolctl name "calculate_bmi" as "calculate_bmi" (line 2) and "calculate_bmi" (line 3); every tool needs its own name: rename or remove one in the input`)
}
