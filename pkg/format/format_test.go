package format

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

func mustFormat(t *testing.T, path, src string, opts Options) string {
	t.Helper()
	out, err := formatTwice(t, path, []byte(src), opts)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return string(out)
}

func formatErr(t *testing.T, path, src string, opts Options) *Error {
	t.Helper()
	_, err := Source(path, []byte(src), opts)
	var es Errors
	if !errors.As(err, &es) || len(es) == 0 {
		t.Fatalf("%s: want an error, got %v", path, err)
	}
	return es[0]
}

func TestCanonicalLayout(t *testing.T) {
	src := `# yaml-language-server: $schema=../schema/tool.schema.json
# Header comment about the file.

description: "Fetches a page. Use when the user gives a URL.\nSecond line."   # desc
entry: {type: http, url: "https://example.org/{path}", method: GET}
name: fetch_page    # the name
examples:
    -   params: {path: a}
        scenario: first
        expected: ok

    -   scenario: second   # s2
        params:
            path: b
parameters:
    # the path
    - type: string
      name: path
      description: >
          Path of the page,
          relative to the site.
      required: true
runtime:
  retries: 2
  timeout: 10s
x-team: core
category: http
annotations: {"readOnlyHint": true, "openWorldHint": true}
tags: ["a", b]
# trailing comment
`
	want := `# yaml-language-server: $schema=../schema/tool.schema.json
# Header comment about the file.

name: fetch_page # the name
description: |- # desc
  Fetches a page. Use when the user gives a URL.
  Second line.
category: http
tags: ["a", b]
entry:
  type: http
  url: "https://example.org/{path}"
  method: GET
parameters:
  # the path
  - name: path
    type: string
    description: |
      Path of the page, relative to the site.
    required: true
examples:
  - scenario: first
    params: {path: a}
    expected: ok

  - scenario: second # s2
    params:
      path: b
annotations: {readOnlyHint: true, openWorldHint: true}
runtime:
  timeout: 10s
  retries: 2
x-team: core
# trailing comment
`
	if got := mustFormat(t, "fetch_page.yaml", src, Options{}); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// The modeline stays on the first line even when the field under it moves.
func TestModelineStaysFirst(t *testing.T) {
	src := "# yaml-language-server: $schema=x.json\ndescription: Does things. Use when needed.\nname: a\n"
	want := "# yaml-language-server: $schema=x.json\nname: a\ndescription: Does things. Use when needed.\n"
	if got := mustFormat(t, "a.yaml", src, Options{}); got != want {
		t.Errorf("got:\n%s", got)
	}
}

func TestUnknownFieldsKeepTheirOrderAtTheEnd(t *testing.T) {
	src := "zeta: 1\nname: a\nalpha: 2\nx-b: 3\ndescription: d\n_meta: {k: v}\n"
	want := "name: a\ndescription: d\nx-b: 3\n_meta: {k: v}\nzeta: 1\nalpha: 2\n"
	if got := mustFormat(t, "a.yaml", src, Options{}); got != want {
		t.Errorf("got:\n%s", got)
	}
}

// Schemas, example params and bindings keep the author's key order.
func TestSchemaKeyOrderKept(t *testing.T) {
	src := `name: a
description: d
input_schema:
  required: [z]
  properties:
    z: {type: string, description: last letter}
    a: {description: first letter, type: string}
  type: object
examples:
  - expected: 1
    params: {z: x, a: y}
bind:
  z: {env: Z}
  a: {value: 1}
`
	want := `name: a
description: d
input_schema:
  required: [z]
  properties:
    z: {type: string, description: last letter}
    a: {description: first letter, type: string}
  type: object
examples:
  - params: {z: x, a: y}
    expected: 1
bind:
  z: {env: Z}
  a: {value: 1}
`
	if got := mustFormat(t, "a.yaml", src, Options{}); got != want {
		t.Errorf("got:\n%s", got)
	}
}

func TestFlowCollections(t *testing.T) {
	src := `name: a
description: d
tags: [alpha, beta, gamma, delta, epsilon, zeta, eta, theta, iota, kappa]
entry: {type: command, command: [du, -sk, "{path}"]}
input_schema: {"type": "object", "properties": {"path": {"type": "string", "description": "Where."}}}
`
	want := `name: a
description: d
tags:
  - alpha
  - beta
  - gamma
  - delta
  - epsilon
  - zeta
  - eta
  - theta
  - iota
  - kappa
entry:
  type: command
  command: [du, -sk, "{path}"]
input_schema:
  type: "object"
  properties:
    path: {type: "string", description: "Where."}
`
	if got := mustFormat(t, "a.yaml", src, Options{}); got != want {
		t.Errorf("got:\n%s", got)
	}
}

func TestBlankLinesKept(t *testing.T) {
	src := "name: a\n\n\n# about it\ndescription: d\n\ntags:\n  - x\n\n  - y\n"
	want := "name: a\n\n# about it\ndescription: d\n\ntags:\n  - x\n\n  - y\n"
	if got := mustFormat(t, "a.yaml", src, Options{}); got != want {
		t.Errorf("got:\n%q", got)
	}
}

// A blank line before an entry that the layout or a conversion moves to
// the front of its block is dropped in the first run, not the second:
// input_schema loses the list item's name key, and entry's fields are
// reordered (FuzzSource).
func TestBlankLineBeforeWhatBecomesFirst(t *testing.T) {
	for _, c := range []struct {
		src, want string
		to        Target
	}{
		{"name: a\ndescription: d\nparameters:\n  - name: x\n\n    type: string\n",
			"name: a\ndescription: d\ninput_schema:\n  type: object\n  properties:\n    x:\n      type: string\n", Schema},
		{"name: a\ndescription: d\nentry:\n  handler: h\n\n  type: python\n",
			"name: a\ndescription: d\nentry:\n  type: python\n  handler: h\n", Keep},
	} {
		if got := mustFormat(t, "a.yaml", c.src, Options{To: c.to}); got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.src, got, c.want)
		}
	}
}

// A last comment without a line break after it lands where the same
// comment with one does, so the output formats the same again; a block
// scalar that ends the file keeps its value (FuzzSource).
func TestNoFinalNewline(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"name: a\ndescription: d\nx:\n  y:\n#c", "name: a\ndescription: d\nx:\n  y:\n#c\n"},
		{"name: a\ndescription: |\n  text", "name: a\ndescription: |-\n  text\n"},
	} {
		got := mustFormat(t, "a.yaml", c.src, Options{})
		if got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.src, got, c.want)
		}
		if again := mustFormat(t, "a.yaml", got, Options{}); again != got {
			t.Errorf("%q: not idempotent: %q", c.src, again)
		}
	}
}

// A comment on the line of a flow collection fmt writes as a block moves
// to the first entry's line; yaml.v3 would drop it (FuzzSource).
func TestFlowLineCommentKept(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"- {name: a, description: d} # why\n", "- name: a # why\n  description: d\n"},
		{"[{name: a, description: d}] # all\n", "# all\n- name: a\n  description: d\n"},
		{"name: a\ndescription: d\nexamples: [{scenario: s, params: {}}] # c\n", "name: a\ndescription: d\nexamples:\n  # c\n  - scenario: s\n    params: {}\n"},
	} {
		if got := mustFormat(t, "a.yaml", c.src, Options{}); got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.src, got, c.want)
		}
	}
}

// "|#c" (no space before #) is a comment to yaml.v3 but not to the lexer
// that counts comments: fmt writes it as a proper comment, and the safety
// net, which checks that no comment is lost, lets it pass (FuzzSource).
func TestCommentOnlyYAMLv3Sees(t *testing.T) {
	if got, want := mustFormat(t, "a.yaml", "name: a\ndescription: d\ndetail: |#c\n", Options{}), "name: a\ndescription: d\ndetail: \"\" #c\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, c := range []struct {
		before, after []string
		ok            bool
	}{
		{nil, nil, true}, {nil, []string{"#a"}, true}, {[]string{"#a"}, nil, false},
		{[]string{"#a", "#a"}, []string{"#a"}, false}, {[]string{"#a", "#b"}, []string{"#a", "#b", "#c"}, true},
		{[]string{"#b"}, []string{"#a", "#c"}, false},
	} {
		if subset(c.before, c.after) != c.ok {
			t.Errorf("subset(%q, %q) = %v", c.before, c.after, !c.ok)
		}
	}
}

func TestTextStyles(t *testing.T) {
	src := "name: a\ndescription: \"one\\ntwo\"\ndetail: \"trailing  \\nspace\"\nicon: 🔗\ntitle: \"Quoted title\"\n"
	want := "name: a\ntitle: \"Quoted title\"\ndescription: |-\n  one\n  two\ndetail: \"trailing  \\nspace\"\nicon: 🔗\n"
	if got := mustFormat(t, "a.yaml", src, Options{}); got != want {
		t.Errorf("got:\n%s", got)
	}
}

func TestCRLFKept(t *testing.T) {
	src := "description: d\r\nname: a\r\n"
	if got := mustFormat(t, "a.yaml", src, Options{}); got != "name: a\r\ndescription: d\r\n" {
		t.Errorf("got %q", got)
	}
}

func TestMultipleToolsAndDocuments(t *testing.T) {
	list := "- description: d\n  name: a\n- {description: e, name: b}\n"
	if got := mustFormat(t, "l.yaml", list, Options{}); got != "- name: a\n  description: d\n- name: b\n  description: e\n" {
		t.Errorf("list:\n%s", got)
	}
	container := "tools:\n- description: d\n  name: a\n"
	if got := mustFormat(t, "c.yaml", container, Options{}); got != "tools:\n  - name: a\n    description: d\n" {
		t.Errorf("container:\n%s", got)
	}
	stream := "description: d\nname: a\n---\ndescription: e\nname: b\n"
	if got := mustFormat(t, "s.yaml", stream, Options{}); got != "name: a\ndescription: d\n---\nname: b\ndescription: e\n" {
		t.Errorf("stream:\n%s", got)
	}
	// empty documents go, their comments stay
	stream = "---\nname: a\ndescription: d\n...\n---\n# only a comment\n---\nname: b\ndescription: e\n---\n"
	if got := mustFormat(t, "s.yaml", stream, Options{}); got != "name: a\ndescription: d\n\n# only a comment\n---\nname: b\ndescription: e\n" {
		t.Errorf("stream with empty documents:\n%s", got)
	}
}

func TestOpenAI(t *testing.T) {
	src := "function:\n  parameters: {type: object}\n  description: d\n  name: a\ntype: function\n"
	want := "type: function\nfunction:\n  name: a\n  description: d\n  parameters: {type: object}\n"
	if got := mustFormat(t, "o.yaml", src, Options{}); got != want {
		t.Errorf("wrapper:\n%s", got)
	}
	flat := "name: a\nparameters: {type: object}\ntype: function\ndescription: d\n"
	want = "type: function\nname: a\ndescription: d\nparameters: {type: object}\n"
	if got := mustFormat(t, "o.yaml", flat, Options{}); got != want {
		t.Errorf("flat:\n%s", got)
	}
	e := formatErr(t, "o.yaml", src, Options{To: Feagent})
	if !strings.Contains(e.Message, "OpenAI's {type: function, function: {...}} format requires a JSON Schema") {
		t.Errorf("%v", e)
	}
}

func TestJSON(t *testing.T) {
	src := `{"description": "d <b> & é \u00e9", "name": "a", "x-n": [1.50, 1e3, -0], "input_schema": {"type": "object", "properties": {}}, "$schema": "s.json"}`
	want := `{
  "$schema": "s.json",
  "name": "a",
  "description": "d <b> & é é",
  "input_schema": {
    "type": "object",
    "properties": {}
  },
  "x-n": [
    1.50,
    1e3,
    -0
  ]
}
`
	if got := mustFormat(t, "a.json", src, Options{}); got != want {
		t.Errorf("got:\n%s", got)
	}
	// a duplicate key is the spec parser's error, with its position
	e := formatErr(t, "a.json", "{\n  \"name\": \"a\",\n  \"description\": \"d\",\n  \"name\": \"b\"\n}\n", Options{})
	if e.Span.Start.Line != 4 || e.Span.Start.Col != 3 || !strings.Contains(e.Message, `"name"`) {
		t.Errorf("duplicate key: %v", e)
	}
}

// The JSON reader's own duplicate-key check, which the spec parser's
// catches first: it still stops a file if it gets there.
func TestJSONReaderDuplicateKey(t *testing.T) {
	f := &file{path: "a.json"}
	src := []byte("{\n  \"name\": \"a\",\n  \"description\": \"d\",\n  \"name\": \"b\"\n}\n")
	_, err := f.formatJSON(src, spec.ParseFile("a.json", src))
	var es Errors
	if !errors.As(err, &es) || es[0].Span.Start != (spec.Pos{Line: 4, Col: 3}) || !strings.Contains(es[0].Message, `key "name" appears twice`) {
		t.Errorf("duplicate key: %v", err)
	}
}

// A file the spec parser reports errors for (toolctl lint's parse-error)
// is refused with every error and its position, whatever the options,
// even when yaml.v3 alone would read it; lint findings of other rules do
// not stop fmt.
func TestSpecParseErrorsRefused(t *testing.T) {
	type pos struct {
		line, col int
		msg       string
	}
	for _, tc := range []struct {
		path, src string
		want      []pos
	}{
		{"d.yaml", "name: dup\ndescription: One. Use when testing.\ndescription: Two.\n",
			[]pos{{3, 1, `duplicate key "description"`}}},
		{"d.json", "{\"name\": \"dup\", \"description\": \"One.\", \"description\": \"Two.\"}\n",
			[]pos{{1, 40, `duplicate key "description"`}}},
		{"arr.json", `[{"name":"a","description":"A. Use when testing."}, 42, "str"]` + "\n",
			[]pos{{1, 53, "got a number (42)"}, {1, 57, `got a string ("str")`}}},
		{"arr.yaml", "- name: a\n  description: A.\n- 42\n- [x]\n",
			[]pos{{3, 3, "expected a tool"}, {4, 3, "expected a tool"}}},
		{"tags.yaml", "name: a\ndescription: A.\ntags: {x: 1}\n",
			[]pos{{3, 7, "tags: expected a list"}}},
		{"params.yaml", "name: a\ndescription: A.\nparameters:\n  - name: x\n  - name: x\n",
			[]pos{{5, 5, `parameter "x" is already defined`}}},
	} {
		for _, to := range []Target{Keep, Feagent, Schema} {
			out, err := Source(tc.path, []byte(tc.src), Options{To: to})
			var es Errors
			if !errors.As(err, &es) || out != nil {
				t.Errorf("%s (--to %q): want refused, got %v\n%s", tc.path, to, err, out)
				continue
			}
			if len(es) != len(tc.want) {
				t.Errorf("%s (--to %q): %d errors, want %d: %v", tc.path, to, len(es), len(tc.want), err)
				continue
			}
			for i, w := range tc.want {
				e := es[i]
				if e.File != tc.path || e.Span.Start != (spec.Pos{Line: w.line, Col: w.col}) || !strings.Contains(e.Message, w.msg) {
					t.Errorf("%s (--to %q): got %v; want %d:%d ...%s...", tc.path, to, e, w.line, w.col, w.msg)
				}
			}
		}
		// the same set lint reports as parse-error
		if pf := spec.ParseFile(tc.path, []byte(tc.src)); len(pf.Errors) != len(tc.want) {
			t.Errorf("%s: spec reports %d errors, want %d", tc.path, len(pf.Errors), len(tc.want))
		}
	}
	// lint findings that are not parse errors: no description, a name
	// that does not match the file, no "Use when"
	got := mustFormat(t, "other.yaml", "tags: [x]\nname: a\n", Options{})
	if got != "name: a\ntags: [x]\n" {
		t.Errorf("got:\n%s", got)
	}
}

func TestParseErrorsArePositioned(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		line, col int
		msg       string
	}{
		{"a.yaml", "name: a\ndescription: [d\n", 2, 14, "YAML syntax error"},
		{"a.yaml", "name: a\n\tdescription: d\n", 2, 1, "tabs"},
		{"a.json", "{\"name\": \"a\",}\n", 1, 14, "JSON syntax error"},
		{"a.yaml", "just text\n", 1, 1, "expected a tool definition"},
		{"a.yaml", "", 1, 1, "no tool in this file"},
		{"a.yaml", "\xff\xfe", 1, 1, "UTF-16"},
	} {
		e := formatErr(t, tc.path, tc.src, Options{})
		if e.Span.Start.Line != tc.line || e.Span.Start.Col != tc.col || !strings.Contains(e.Message, tc.msg) {
			t.Errorf("%q: got %d:%d %s; want %d:%d ...%s...", tc.src, e.Span.Start.Line, e.Span.Start.Col, e.Message, tc.line, tc.col, tc.msg)
		}
	}
}

func TestToSchema(t *testing.T) {
	src := `name: a
description: d
parameters:
  # the city
  - name: city # where
    type: string
    description: City name.
    required: true # always
  - name: days
    type: integer
    description: How many days.
    required: false
    default: 3
    minimum: 1
  - name: extra
    type: any
    description: Anything.
    default: null
`
	want := `name: a
description: d
input_schema:
  type: object
  properties:
    # the city
    # always
    city: # where
      type: string
      description: City name.
    days:
      type: integer
      description: How many days.
      default: 3
      minimum: 1
    extra:
      description: Anything.
      default: null
  required: [city]
`
	if got := mustFormat(t, "a.yaml", src, Options{To: Schema}); got != want {
		t.Errorf("got:\n%s", got)
	}
	// and back: the list again (type: any for the untyped property)
	back := mustFormat(t, "a.yaml", want, Options{To: Feagent})
	for _, line := range []string{"parameters:", "  - name: city # where", "    required: true", "    type: any", "    required: false"} {
		if !strings.Contains(back, line+"\n") {
			t.Errorf("--to feagent lacks %q:\n%s", line, back)
		}
	}
	// already in the form: unchanged
	if got := mustFormat(t, "a.yaml", want, Options{To: Schema}); got != want {
		t.Errorf("schema --to schema changed:\n%s", got)
	}
}

func TestToFeagentRefusals(t *testing.T) {
	for _, tc := range []struct{ src, msg string }{
		{"name: a\ndescription: d\ninputSchema: {type: object, additionalProperties: false, properties: {x: {type: string}}}\n",
			"inputSchema has additionalProperties, which the list form cannot hold"},
		{"name: a\ndescription: d\ninput_schema: {type: object, properties: {x: {type: [string, \"null\"]}}}\n",
			`property "x" has type [string, null]`},
		{"name: a\ndescription: d\ninput_schema: {type: object, properties: {o: {type: object, properties: {k: {type: string}}, required: [k]}}}\n",
			`property "o" has its own required list`},
		{"name: a\ndescription: d\ninput_schema: {type: object, properties: {x: {type: string}}, required: [y]}\n",
			`required names "y", which is not a property`},
		{"name: a\ndescription: d\ninput_schema: {type: array}\n",
			`input_schema has type "array"`},
		{"name: a\ndescription: d\ninput_schema: &s {type: object}\noutput_schema: *s\n",
			"uses YAML anchors"},
	} {
		e := formatErr(t, "a.yaml", tc.src, Options{To: Feagent})
		if !strings.Contains(e.Message, "cannot convert tool \"a\"") || !strings.Contains(e.Message, tc.msg) || !e.Span.Start.IsValid() {
			t.Errorf("%s: %v", tc.src, e)
		}
	}
	// a parameter named twice is a parse error, refused before converting
	e := formatErr(t, "a.yaml", "name: a\ndescription: d\nparameters:\n  - name: x\n  - name: x\n", Options{To: Schema})
	if !strings.Contains(e.Message, `parameter "x"`) || e.Span.Start.Line != 5 {
		t.Errorf("duplicate: %v", e)
	}
}

// convert's own check for a parameter named twice, behind the spec
// parser's (which refuses the file first): still a refusal, positioned.
func TestConvertRefusesDuplicateParameter(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("name: a\ndescription: d\nparameters:\n  - name: x\n  - name: x\n"), &doc); err != nil {
		t.Fatal(err)
	}
	f := &file{path: "a.yaml", opts: Options{To: Schema}}
	e := f.convert(doc.Content[0])
	if e == nil || !strings.Contains(e.Message, `parameter "x" is defined twice`) || e.Span.Start.Line != 5 {
		t.Errorf("duplicate: %v", e)
	}
}

func TestJSONConversion(t *testing.T) {
	src := `{"name": "a", "description": "d", "parameters": [{"name": "x", "type": "string", "description": "X.", "required": true}]}`
	want := `{
  "name": "a",
  "description": "d",
  "input_schema": {
    "type": "object",
    "properties": {
      "x": {
        "type": "string",
        "description": "X."
      }
    },
    "required": [
      "x"
    ]
  }
}
`
	if got := mustFormat(t, "a.json", src, Options{To: Schema}); got != want {
		t.Errorf("got:\n%s", got)
	}
}

func TestParseTarget(t *testing.T) {
	if _, err := ParseTarget("list"); err == nil || !strings.Contains(err.Error(), "feagent") {
		t.Errorf("%v", err)
	}
	if to, err := ParseTarget("schema"); err != nil || to != Schema {
		t.Errorf("%v %v", to, err)
	}
}

// Reordering may put an alias before its anchor; the anchor moves to the
// first use, so the file still means the same.
func TestAnchorsFollowTheOrder(t *testing.T) {
	src := "description: &d Does things. Use when needed.\nname: a\ntitle: *d\n"
	want := "name: a\ntitle: &d Does things. Use when needed.\ndescription: *d\n"
	if got := mustFormat(t, "a.yaml", src, Options{}); got != want {
		t.Errorf("got:\n%s", got)
	}
	merge := "x-base: &b {category: http}\nname: a\ndescription: d\n<<: *b\n"
	want = "<<: &b {category: http}\nname: a\ndescription: d\nx-base: *b\n"
	if got := mustFormat(t, "a.yaml", merge, Options{}); got != want {
		t.Errorf("merge:\n%s", got)
	}
}

// Comments inside a flow mapping (JSON-like YAML) are kept when it becomes
// a block.
func TestCommentsInFlow(t *testing.T) {
	src := "{\n  # the name\n  \"name\": \"a\", # inline\n  \"description\": \"d\" # end\n}\n"
	want := "# the name\nname: \"a\" # inline\ndescription: \"d\" # end\n"
	if got := mustFormat(t, "a.yaml", src, Options{}); got != want {
		t.Errorf("got:\n%s", got)
	}
}

// Docker's arguments list converts to either form as spec reads it: desc
// is the description, an argument is required unless optional: true (or
// required: false); a comment stays with its argument.
func TestDockerArgumentsConversion(t *testing.T) {
	src := `name: a
description: d
arguments:
  # the city
  - name: city
    type: string
    desc: City name.
  - name: days
    type: integer
    desc: How many days.
    optional: true # may be left out
    default: 3
  - {name: units, type: string, required: false}
`
	want := `name: a
description: d
input_schema:
  type: object
  properties:
    # the city
    city:
      type: string
      description: City name.
    # may be left out
    days:
      type: integer
      description: How many days.
      default: 3
    units:
      type: string
  required: [city]
`
	if got := mustFormat(t, "a.yaml", src, Options{To: Schema}); got != want {
		t.Errorf("--to schema got:\n%s", got)
	}
	back := mustFormat(t, "a.yaml", src, Options{To: Feagent})
	for _, line := range []string{"parameters:", "  - name: city", "    description: City name.", "    required: true", "  - name: days", "    required: false", "    default: 3"} {
		if !strings.Contains(back, line+"\n") {
			t.Errorf("--to feagent lacks %q:\n%s", line, back)
		}
	}
	e := formatErr(t, "a.yaml", "name: a\ndescription: d\narguments:\n  - {name: x, optional: maybe}\n", Options{To: Schema})
	if e == nil || !e.Span.Start.IsValid() {
		t.Errorf("optional: maybe: %v", e)
	}
}
