package spec

import (
	"slices"
	"strings"
	"testing"
)

// dockerFile is a tools.json of Docker's MCP registry: the compact
// arguments list, desc for the description, optional for what is not
// required, items for an array's items.
const dockerFile = `[
  {
    "name": "search_docs",
    "description": "Searches the docs. Use when a question needs them.",
    "arguments": [
      {
        "name": "query",
        "type": "string",
        "desc": "Search query"
      },
      {
        "name": "tags",
        "type": "array",
        "items": {"type": "string"},
        "desc": "Tags to filter by",
        "optional": true
      },
      {"name": "limit", "type": "integer", "desc": "", "required": false, "default": 10}
    ]
  },
  {
    "name": "ping",
    "description": "Checks the server. Use when nothing else answers.",
    "arguments": []
  }
]
`

func TestDockerDialect(t *testing.T) {
	f := parse(t, "tools.json", dockerFile)
	if len(f.Errors) > 0 || len(f.Tools) != 2 {
		t.Fatalf("errors %v, %d tools", f.Errors, len(f.Tools))
	}
	search, ping := f.Tools[0], f.Tools[1]
	for _, tool := range f.Tools {
		if tool.Dialect != DialectDocker || !tool.InputFromList() || len(tool.UnknownFields) > 0 {
			t.Errorf("%s: dialect %s, from list %v, unknown %v", tool.Name, tool.Dialect, tool.InputFromList(), tool.UnknownFields)
		}
	}
	got, _ := search.InputSchema.MarshalJSON()
	want := `{"type":"object","properties":{"query":{"type":"string","description":"Search query"},"tags":{"type":"array","items":{"type":"string"},"description":"Tags to filter by"},"limit":{"type":"integer","description":"","default":10}},"required":["query"]}`
	if string(got) != want {
		t.Errorf("input schema\n got %s\nwant %s", got, want)
	}
	if got, _ := ping.InputSchema.MarshalJSON(); string(got) != `{"type":"object","properties":{}}` {
		t.Errorf("no arguments: %s", got)
	}
	// Positions land in the arguments items: desc for the description.
	for ptr, want := range map[string]Span{
		"/input_schema":                              {Start: Pos{Line: 5, Col: 18}, End: Pos{Line: 5, Col: 19}},
		"/input_schema/properties/query":             {Start: Pos{Line: 6, Col: 7}, End: Pos{Line: 6, Col: 8}},
		"/input_schema/properties/query/description": {Start: Pos{Line: 9, Col: 17}, End: Pos{Line: 9, Col: 31}},
		"/input_schema/properties/query/type":        {Start: Pos{Line: 8, Col: 17}, End: Pos{Line: 8, Col: 25}},
		"/input_schema/properties/tags/items/type":   {Start: Pos{Line: 14, Col: 27}, End: Pos{Line: 14, Col: 35}},
		"/input_schema/properties/tags/description":  {Start: Pos{Line: 15, Col: 17}, End: Pos{Line: 15, Col: 36}},
		"/input_schema/properties/limit/description": {Start: Pos{Line: 18, Col: 52}, End: Pos{Line: 18, Col: 54}},
		"/input_schema/properties/limit/default":     {Start: Pos{Line: 18, Col: 86}, End: Pos{Line: 18, Col: 88}},
		"/input_schema/required/0":                   {Start: Pos{Line: 6, Col: 7}, End: Pos{Line: 6, Col: 8}},
	} {
		if got := search.Span(ptr); got != want {
			t.Errorf("%s: span %v, want %v (line %q)", ptr, got, want, f.Line(want.Start.Line))
		}
	}
	if !search.Has("/input_schema/properties/query/description") || search.Has("/input_schema/properties/tags/default") {
		t.Error("Has: desc is the description; a default that is not written is not")
	}
}

// What is wrong in an arguments list is an error at the item or key; a
// key that is no argument key is kept and recorded for field-unknown.
func TestDockerArgumentsProblems(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		errs      []string
		unknown   []string
		props     []string
	}{
		{"not a list", `{"name": "a", "arguments": {"q": {"type": "string"}}}`,
			[]string{`t.json:1:28: arguments: expected a list of arguments [{name, type, desc, optional}] (Docker's MCP registry form), got a mapping`}, nil, nil},
		{"item not an object", `{"name": "a", "arguments": ["q", {"name": "r"}]}`,
			[]string{`t.json:1:29: arguments[0]: expected an argument {name, type, desc, optional}, got a string`}, nil, []string{"r"}},
		{"no name", "{\"name\": \"a\", \"arguments\": [\n {\"type\": \"string\"}]}",
			[]string{`t.json:2:2: arguments[0]: there is no "name"; every argument needs one`}, nil, []string{}},
		{"name not a string", `{"name": "a", "arguments": [{"name": 5}]}`,
			[]string{`t.json:1:38: arguments[0].name: expected a string, got a number`}, nil, []string{}},
		{"listed twice", `{"name": "a", "arguments": [{"name": "x"}, {"name": "x", "type": "string"}]}`,
			[]string{`t.json:1:53: arguments: "x" is listed twice; keep one`}, nil, []string{"x"}},
		{"optional not a boolean", `{"name": "a", "arguments": [{"name": "x", "optional": "yes"}]}`,
			[]string{`t.json:1:55: arguments[0].optional: expected true or false, got a string`}, nil, []string{"x"}},
		{"unknown key", `{"name": "a", "arguments": [{"name": "x", "optinal": true, "x-ui": 1, "format": "uri"}]}`,
			nil, []string{"/arguments/0/optinal"}, []string{"x"}},
		{"both inputSchema and arguments", `{"name": "a", "inputSchema": {"type": "object"}, "arguments": []}`,
			[]string{`t.json:1:50: both "inputSchema" (line 1) and "arguments" define the input; they mean the same thing, keep one`}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parse(t, "t.json", tc.src)
			var errs []string
			for _, e := range f.Errors {
				errs = append(errs, e.Error())
			}
			if !slices.Equal(errs, tc.errs) {
				t.Errorf("errors\n%s\nwant\n%s", strings.Join(errs, "\n"), strings.Join(tc.errs, "\n"))
			}
			if len(f.Tools) != 1 {
				t.Fatalf("%d tools", len(f.Tools))
			}
			tool := f.Tools[0]
			if !slices.Equal(tool.UnknownFields, tc.unknown) {
				t.Errorf("unknown fields %v, want %v", tool.UnknownFields, tc.unknown)
			}
			if tc.props != nil {
				props, _ := tool.InputSchema.GetMap("properties")
				if got := props.Keys(); !slices.Equal(got, tc.props) && !(len(got) == 0 && len(tc.props) == 0) {
					t.Errorf("properties %v, want %v", got, tc.props)
				}
			}
		})
	}
}

// The dialect is the registry's whatever the file's syntax: a YAML file
// with the same fields reads the same.
func TestDockerDialectYAML(t *testing.T) {
	tool := mustOne(t, "t.yaml", "name: a\ndescription: d\narguments:\n  - name: q\n    type: string\n    desc: Query\n    optional: true\n")
	if tool.Dialect != DialectDocker {
		t.Errorf("dialect %s", tool.Dialect)
	}
	if got := canonicalJSON(t, tool); got != `{"name":"a","description":"d","input_schema":{"type":"object","properties":{"q":{"type":"string","description":"Query"}}}}` {
		t.Errorf("canonical %s", got)
	}
	if got := tool.Span("/input_schema/properties/q/description"); got.Start != (Pos{Line: 6, Col: 11}) {
		t.Errorf("description at %v, want 6:11", got.Start)
	}
}
