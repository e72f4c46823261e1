package spec

import (
	"strings"
	"testing"
)

func parse(t *testing.T, path, src string) *File {
	t.Helper()
	return ParseFile(path, []byte(src))
}

func mustOne(t *testing.T, path, src string) *Tool {
	t.Helper()
	f := parse(t, path, src)
	for _, e := range f.Errors {
		t.Errorf("unexpected error: %v", e)
	}
	if len(f.Tools) != 1 {
		t.Fatalf("got %d tools, want 1", len(f.Tools))
	}
	return f.Tools[0]
}

func canonicalJSON(t *testing.T, tool *Tool) string {
	t.Helper()
	b, err := tool.ToMap().MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDialects(t *testing.T) {
	tests := []struct {
		name, path, src string
		dialect         Dialect
		entry           string
		want            string // canonical JSON
	}{
		{
			name: "feagent list form",
			path: "t.yaml",
			src: `name: http_request
description: Sends a request.
category: http
entry: {type: http, url: "https://x/{id}", method: GET}
parameters:
  - name: url
    type: string
    description: Target URL.
    required: true
  - name: body
    type: any
    description: Payload.
    required: false
    default: {}
  - name: mode
    type: string
    enum: [a, b]
    default: a
returns:
  status_code: number
  body: any
  meta:
    type: object
    description: Extra.
`,
			dialect: DialectFeagent, entry: "http",
			want: `{"name":"http_request","description":"Sends a request.","category":"http","entry":{"type":"http","url":"https://x/{id}","method":"GET"},` +
				`"input_schema":{"type":"object","properties":{"url":{"type":"string","description":"Target URL."},"body":{"description":"Payload.","default":{}},"mode":{"type":"string","enum":["a","b"],"default":"a"}},"required":["url"]},` +
				`"output_schema":{"type":"object","properties":{"status_code":{"type":"number"},"body":{},"meta":{"type":"object","description":"Extra."}}}}`,
		},
		{
			name: "feagent returns as a schema with type any",
			path: "t.yaml",
			src: `name: x
description: d
entry: {type: javascript, code: "function execute(i) { return i }"}
returns:
  type: any
  description: Transformed payload.
`,
			dialect: DialectFeagent, entry: "javascript",
			want: `{"name":"x","description":"d","entry":{"type":"javascript","code":"function execute(i) { return i }"},"output_schema":{"description":"Transformed payload."}}`,
		},
		{
			name: "sdk schema parameters without type object, metadata",
			path: "calc.json",
			src: `{"id": "calc", "name": "calculator", "type": "BUILTIN", "description": "Calculates.",
 "parameters": {"properties": {"expression": {"type": "string", "description": "Expr"}}, "required": ["expression"]},
 "metadata": {"category": "math", "tags": ["m"], "documentationUrl": "https://d"}}`,
			dialect: DialectSDK, entry: "builtin",
			want: `{"name":"calculator","description":"Calculates.","category":"math","tags":["m"],` +
				`"input_schema":{"type":"object","properties":{"expression":{"type":"string","description":"Expr"}},"required":["expression"]},` +
				`"id":"calc","type":"BUILTIN","documentation_url":"https://d"}`,
		},
		{
			name: "openakita",
			path: "nav.json",
			src: `{"name": "browser_navigate", "category": "Browser", "description": "Navigates.",
 "detail": "Long text", "triggers": ["When asked"], "prerequisites": ["Browser running", {"condition": "c", "check_tool": "browser_status", "action_if_not_met": "open"}],
 "examples": [{"scenario": "s", "params": {"url": "https://a"}, "expected": "ok"}],
 "warnings": ["w"], "related_tools": [{"name": "browser_status", "relation": "before"}],
 "workflow": {"name": "Flow", "steps": [{"step": 1, "action": "a", "tool": "t"}, {"step": 2, "action": "b", "tools": ["x", "y"], "condition": "if"}]},
 "input_schema": {"type": "object", "properties": {"url": {"type": "string", "description": "URL"}}, "required": ["url"]}}`,
			dialect: DialectOpenAkita,
			want: `{"name":"browser_navigate","description":"Navigates.","detail":"Long text","category":"Browser",` +
				`"input_schema":{"type":"object","properties":{"url":{"type":"string","description":"URL"}},"required":["url"]},` +
				`"triggers":["When asked"],"prerequisites":["Browser running",{"condition":"c","check_tool":"browser_status","action_if_not_met":"open"}],` +
				`"examples":[{"scenario":"s","params":{"url":"https://a"},"expected":"ok"}],"warnings":["w"],"related_tools":[{"name":"browser_status","relation":"before"}],` +
				`"workflow":{"name":"Flow","steps":[{"step":1,"action":"a","tool":"t"},{"step":2,"action":"b","tools":["x","y"],"condition":"if"}]}}`,
		},
		{
			name: "mcp",
			path: "fill.json",
			src: `{"name": "fill", "title": "Fill", "description": "Fills a field.",
 "inputSchema": {"type": "object", "properties": {"selector": {"type": "string"}}, "required": ["selector"]},
 "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
 "annotations": {"title": "Fill field", "readOnlyHint": false, "destructiveHint": true}, "_meta": {"k": 1}}`,
			dialect: DialectMCP,
			want: `{"name":"fill","title":"Fill","description":"Fills a field.",` +
				`"input_schema":{"type":"object","properties":{"selector":{"type":"string"}},"required":["selector"]},` +
				`"output_schema":{"type":"object","properties":{"ok":{"type":"boolean"}}},` +
				`"annotations":{"title":"Fill field","readOnlyHint":false,"destructiveHint":true},"_meta":{"k":1}}`,
		},
		{
			name: "openai chat completions wrapper",
			path: "o.json",
			src: `{"type": "function", "function": {"name": "get_weather", "description": "Gets weather.", "strict": true,
 "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false}}}`,
			dialect: DialectOpenAI,
			want: `{"name":"get_weather","description":"Gets weather.",` +
				`"input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"strict":true}`,
		},
		{
			name: "openai responses flat form",
			path: "o.yaml",
			src: `type: function
name: get_weather
description: Gets weather.
parameters: {type: object, properties: {}}
`,
			dialect: DialectOpenAI,
			want:    `{"name":"get_weather","description":"Gets weather.","input_schema":{"type":"object","properties":{}}}`,
		},
		{
			name: "canonical with bind, runtime and every entry field",
			path: "c.yaml",
			src: `name: run_it
description: Runs it.
entry:
  type: command
  command: [wc, -l, "{path}"]
bind:
  token: {env: API_TOKEN}
  region: {value: eu}
  base: {config: service.base_url}
runtime:
  timeout: 30
  memory: 512MB
  retries: 3
  retry_delay: 250ms
  backoff: fixed
  max_delay: 1m30s
  retry_non_idempotent: true
x-owner: team-a
`,
			dialect: DialectFeagent, entry: "command",
			want: `{"name":"run_it","description":"Runs it.","entry":{"type":"command","command":["wc","-l","{path}"]},` +
				`"bind":{"token":{"env":"API_TOKEN"},"region":{"value":"eu"},"base":{"config":"service.base_url"}},` +
				`"runtime":{"timeout":"30s","memory":"512MB","retries":3,"retry_delay":"250ms","backoff":"fixed","max_delay":"1m30s","retry_non_idempotent":true},"x-owner":"team-a"}`,
		},
		{
			name:    "plain tool",
			path:    "p.yaml",
			src:     "name: ping\ndescription: Pings.\n",
			dialect: DialectToolctl,
			want:    `{"name":"ping","description":"Pings."}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tool := mustOne(t, tc.path, tc.src)
			if tool.Dialect != tc.dialect {
				t.Errorf("dialect %q, want %q", tool.Dialect, tc.dialect)
			}
			if tool.EntryKind() != tc.entry {
				t.Errorf("entry kind %q, want %q", tool.EntryKind(), tc.entry)
			}
			if got := canonicalJSON(t, tool); got != tc.want {
				t.Errorf("canonical\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestEntryAliases(t *testing.T) {
	for typ, want := range map[string]string{"rest": "http", "REST": "http", "Native": "command", "HTTP": "http", "builtin": "builtin", "mcp": "mcp"} {
		e := &Entry{Type: typ}
		if e.Kind() != want {
			t.Errorf("Kind(%q) = %q, want %q", typ, e.Kind(), want)
		}
	}
	tool := mustOne(t, "t.yaml", "name: x\ndescription: d\ntype: NATIVE\n")
	if tool.Entry != nil || tool.EntryKind() != "command" {
		t.Errorf("SDK NATIVE without entry: entry=%v kind=%q", tool.Entry, tool.EntryKind())
	}
}

func TestFileShapes(t *testing.T) {
	tests := []struct {
		name, src string
		names     []string
	}{
		{"top-level list", "- {name: a, description: d}\n- {name: b, description: d}\n", []string{"a", "b"}},
		{"tools container", "tools:\n  - {name: a, description: d}\n  - type: function\n    function: {name: b, description: d}\n", []string{"a", "b"}},
		{"multi-document", "name: a\ndescription: d\n---\nname: b\ndescription: d\n---\n", []string{"a", "b"}},
		{"tool named tools is a tool", "name: t\ndescription: d\ntools: [x]\n", []string{"t"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := parse(t, "f.yaml", tc.src)
			if len(f.Errors) > 0 {
				t.Fatalf("errors: %v", f.Errors)
			}
			var got []string
			for i, tool := range f.Tools {
				got = append(got, tool.Name)
				if tool.Index != i {
					t.Errorf("tool %s index %d, want %d", tool.Name, tool.Index, i)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.names, ",") {
				t.Fatalf("tools %v, want %v", got, tc.names)
			}
		})
	}
}

func TestUnknownFieldsAreKept(t *testing.T) {
	tool := mustOne(t, "u.yaml", `name: x
descripton: typo
entry:
  type: http
  url: https://a
  verb: GET
runtime:
  timout: 3s
examples:
  - scenario: s
    params: {}
    note: extra
metadata:
  owner: me
`)
	want := []string{"/descripton", "/entry/verb", "/runtime/timout", "/examples/0/note", "/metadata/owner"}
	if strings.Join(tool.UnknownFields, " ") != strings.Join(want, " ") {
		t.Errorf("unknown fields %v, want %v", tool.UnknownFields, want)
	}
	if v, _ := tool.Unknown.GetString("descripton"); v != "typo" {
		t.Errorf("unknown value not kept: %v", tool.Unknown)
	}
	if v, _ := tool.Entry.Extra.GetString("verb"); v != "GET" {
		t.Errorf("unknown entry value not kept")
	}
}

func TestYAMLFeatures(t *testing.T) {
	// Anchors, aliases and merge keys resolve; numbers keep their spelling.
	tool := mustOne(t, "y.yaml", `name: x
description: d
input_schema:
  type: object
  properties:
    base: &base {type: number, description: A number, minimum: 0.0}
    other:
      <<: *base
      description: Overrides the merged one
    hex: {type: integer, default: 0x1F}
`)
	got, _ := tool.InputSchema.MarshalJSON()
	want := `{"type":"object","properties":{"base":{"type":"number","description":"A number","minimum":0.0},"other":{"description":"Overrides the merged one","type":"number","minimum":0.0},"hex":{"type":"integer","default":31}}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
