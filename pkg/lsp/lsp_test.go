package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/toolctl/toolctl/internal/testhook"
)

// client is an LSP client over an in-process pipe.
type client struct {
	t      testing.TB
	conn   *jsonrpc2.Conn
	diags  chan published
	served chan error
	// registered receives client/registerCapability's params
	registered chan string
	// others are the URIs of diagnostics diagnostics(uri) passed over
	others []string
	// timeout bounds each call and each wait for diagnostics; 0 is 20s
	timeout time.Duration
}

func (c *client) wait() time.Duration {
	if c.timeout > 0 {
		return c.timeout
	}
	return 20 * time.Second
}

func startServer(t *testing.T, root string) *client {
	t.Helper()
	return startServerOpts(t, root, Options{Debounce: 5 * time.Millisecond, Version: "test"})
}

// startServerOpts starts a server with opts; caps are the client's
// capabilities (none when nil).
func startServerOpts(t testing.TB, root string, opts Options, caps ...map[string]any) *client {
	t.Helper()
	srv := New(opts)
	a, b := net.Pipe()
	c := &client{t: t, diags: make(chan published, 100), served: make(chan error, 1), registered: make(chan string, 10)}
	go func() { c.served <- srv.Serve(context.Background(), a) }()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			if req.Method == protocol.ServerClientRegisterCapability {
				c.registered <- string(*req.Params)
			}
			if req.Method == protocol.ServerTextDocumentPublishDiagnostics {
				var p published
				if err := json.Unmarshal(*req.Params, &p); err != nil {
					t.Errorf("publishDiagnostics: %v", err)
				}
				c.diags <- p
			}
			return nil, nil
		}))
	t.Cleanup(func() { c.conn.Close() })
	var init json.RawMessage
	clientCaps := map[string]any{}
	if len(caps) > 0 {
		clientCaps = caps[0]
	}
	c.call("initialize", map[string]any{"processId": nil, "rootUri": uriOf(root), "capabilities": clientCaps}, &init)
	c.notify("initialized", map[string]any{})
	return c
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), c.wait())
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// published is publishDiagnostics's params as sent (glsp's types do not
// decode a diagnostic's code).
type published struct {
	URI         string            `json:"uri"`
	Diagnostics []json.RawMessage `json:"diagnostics"`
}

// diagnostic is what the tests read of a diagnostic.
type diagnostic struct {
	Severity int    `json:"severity"`
	Code     string `json:"code"`
}

func decodeDiags(t *testing.T, raw []json.RawMessage) []diagnostic {
	t.Helper()
	out := make([]diagnostic, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// diagnostics waits for the next diagnostics published for uri.
func (c *client) diagnostics(uri string) []json.RawMessage {
	c.t.Helper()
	deadline := time.After(c.wait())
	for {
		select {
		case p := <-c.diags:
			if p.URI == uri {
				return p.Diagnostics
			}
			c.others = append(c.others, p.URI)
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s", uri)
		}
	}
}

func (c *client) open(path, text string) string {
	uri := uriOf(path)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
	return uri
}

func (c *client) shutdown() {
	c.t.Helper()
	var r json.RawMessage
	c.call("shutdown", nil, &r)
	c.notify("exit", nil)
	select {
	case err := <-c.served:
		if err != nil {
			c.t.Errorf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(20 * time.Second):
		c.t.Fatal("the server did not stop after exit")
	}
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

const weather = `name: get_weather
description: Returns the current weather for a city, in metric units. Use it when the user asks about the weather.
category: http
entry:
  type: http
  method: GET
  url: https://api.example.com/weather?q={city}
parameters:
  - name: city
    type: string
    description: City name
    required: true
related_tools:
  - name: get_forecast
`

const forecast = `name: get_forecast
description: Returns the weather forecast for a city for the next days. Use it when the user asks about the coming days.
category: http
entry:
  type: http
  method: GET
  url: https://api.example.com/forecast?q={city}
parameters:
  - name: city
    type: string
    description: City name
    required: true
`

func workspace(t *testing.T) (root, weatherPath, forecastPath string) {
	t.Helper()
	root = t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	weatherPath = filepath.Join(root, "tools", "get_weather.yaml")
	forecastPath = filepath.Join(root, "tools", "get_forecast.yaml")
	for p, text := range map[string]string{weatherPath: weather, forecastPath: forecast} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, weatherPath, forecastPath
}

// TestDiagnosticsFollowTheBuffer: the findings are the open buffer's, not
// the file's on disk; with the same positions, rule IDs and severities as
// toolctl lint; and a rename in one document republishes the findings of
// another that refers to it.
func TestDiagnosticsFollowTheBuffer(t *testing.T) {
	root, weatherPath, forecastPath := workspace(t)
	c := startServer(t, root)

	// on disk the reference resolves; the buffer has a typo
	uri := c.open(weatherPath, strings.Replace(weather, "  - name: get_forecast", "  - name: get_forcast", 1))
	got := asJSON(t, c.diagnostics(uri))
	want := `[{"code":"reference-unknown","data":"reference-unknown","message":"related tool \"get_forcast\" is not a tool in the linted set; did you mean \"get_forecast\"?","range":{"end":{"character":21,"line":13},"start":{"character":10,"line":13}},"severity":1,"source":"toolctl"}]`
	if got != want {
		t.Fatalf("diagnostics:\n got %s\nwant %s", got, want)
	}

	// fixed in the buffer (incremental change)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 13, "character": 14}, "end": map[string]any{"line": 13, "character": 21}}, "text": "forecast"}},
	})
	if got := asJSON(t, c.diagnostics(uri)); got != "[]" {
		t.Fatalf("after the fix: %s", got)
	}

	// renaming get_forecast in its own buffer: get_weather's reference
	// now dangles, and its diagnostics are published again
	furi := c.open(forecastPath, forecast)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": furi, "version": 2},
		"contentChanges": []any{map[string]any{"text": strings.Replace(forecast, "name: get_forecast", "name: get_forecast_days", 1)}},
	})
	got = asJSON(t, c.diagnostics(uri))
	want = `[{"code":"reference-unknown","data":"reference-unknown","message":"related tool \"get_forecast\" is not a tool in the linted set; fix the name, or lint the directory that holds it","range":{"end":{"character":22,"line":13},"start":{"character":10,"line":13}},"severity":1,"source":"toolctl"}]`
	if got != want {
		t.Fatalf("after the rename in the other file:\n got %s\nwant %s", got, want)
	}
	c.shutdown()
}

// TestParseErrorAndConfig: a document that does not parse gets its
// parse error; the .toolctl.yaml found above the file sets severities.
func TestParseErrorAndConfig(t *testing.T) {
	root, weatherPath, _ := workspace(t)
	cfg := "lint:\n  rules:\n    reference-unknown: warning\n"
	if err := os.WriteFile(filepath.Join(root, ".toolctl.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, root)
	uri := c.open(weatherPath, strings.Replace(weather, "get_forecast", "nope", 1))
	ds := decodeDiags(t, c.diagnostics(uri))
	if len(ds) != 1 || ds[0].Severity != 2 || ds[0].Code != "reference-unknown" {
		t.Fatalf("with reference-unknown: warning in .toolctl.yaml: %s", asJSON(t, ds))
	}
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": "name: [unclosed\n"}},
	})
	ds = decodeDiags(t, c.diagnostics(uri))
	if len(ds) != 1 || ds[0].Code != "parse-error" || ds[0].Severity != 1 {
		t.Fatalf("a file that does not parse: %s", asJSON(t, ds))
	}

	// a config file toolctl lint refuses: its error, at its position, on
	// every document
	if err := os.WriteFile(filepath.Join(root, ".toolctl.yaml"), []byte("lint:\n  rulez: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 3},
		"contentChanges": []any{map[string]any{"text": weather}},
	})
	raw := c.diagnostics(uri)
	var msg struct {
		Message string `json:"message"`
	}
	if len(raw) != 1 || json.Unmarshal(raw[0], &msg) != nil || !strings.Contains(msg.Message, ".toolctl.yaml:2:3: ") || !strings.Contains(msg.Message, "rulez") {
		t.Fatalf("a broken config file: %s", asJSON(t, raw))
	}
	t.Log(msg.Message)
	c.shutdown()
}

// pos is an LSP position at the first occurrence of marker in text (plus
// delta characters).
func pos(t *testing.T, text, marker string, delta int) map[string]any {
	t.Helper()
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("%q not in the text", marker)
	}
	starts := lineStarts(text)
	p := position(text, starts, i+delta)
	return map[string]any{"line": p.Line, "character": p.Character}
}

func rawCall(c *client, method string, params any) string {
	c.t.Helper()
	var r json.RawMessage
	c.call(method, params, &r)
	return string(r)
}

// TestFeatures drives hover, completion, definition, references, code
// actions and formatting and checks the exact responses.
func TestFeatures(t *testing.T) {
	root, weatherPath, forecastPath := workspace(t)
	c := startServer(t, root)
	uri := c.open(weatherPath, weather)
	c.diagnostics(uri)
	at := func(marker string, delta int) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos(t, weather, marker, delta)}
	}

	// a field's documentation from the file-format schema
	got := rawCall(c, "textDocument/hover", at("entry:", 1))
	want := `{"contents":{"kind":"markdown","value":"**entry** (object)\n\nHow the tool is executed. A definition-only tool omits it and cannot be run."},"range":{"start":{"line":3,"character":0},"end":{"line":3,"character":5}}}`
	if got != want {
		t.Errorf("hover on entry:\n got %s\nwant %s", got, want)
	}
	// a parameter: type, required, description
	got = rawCall(c, "textDocument/hover", at("name: city", 7))
	want = `{"contents":{"kind":"markdown","value":"**city** (string, required) — parameter of ` + "`get_weather`" + `\n\nCity name"},"range":{"start":{"line":8,"character":10},"end":{"line":8,"character":14}}}`
	if got != want {
		t.Errorf("hover on a parameter:\n got %s\nwant %s", got, want)
	}
	// a referenced tool: its description and where it is
	got = rawCall(c, "textDocument/hover", at("name: get_forecast", 8))
	want = `{"contents":{"kind":"markdown","value":"**get_forecast** — tool (http)\n\nReturns the weather forecast for a city for the next days. Use it when the user asks about the coming days.\n\ntools/get_forecast.yaml:1"},"range":{"start":{"line":13,"character":10},"end":{"line":13,"character":22}}}`
	if got != want {
		t.Errorf("hover on a related tool:\n got %s\nwant %s", got, want)
	}

	// definition and references of a tool name
	got = rawCall(c, "textDocument/definition", at("name: get_forecast", 8))
	want = `[{"uri":"` + uriOf(forecastPath) + `","range":{"start":{"line":0,"character":6},"end":{"line":0,"character":18}}}]`
	if got != want {
		t.Errorf("definition:\n got %s\nwant %s", got, want)
	}
	params := at("name: get_forecast", 8)
	params["context"] = map[string]any{"includeDeclaration": true}
	got = rawCall(c, "textDocument/references", params)
	want = `[{"uri":"` + uriOf(forecastPath) + `","range":{"start":{"line":0,"character":6},"end":{"line":0,"character":18}}},{"uri":"` + uri + `","range":{"start":{"line":13,"character":10},"end":{"line":13,"character":22}}}]`
	if got != want {
		t.Errorf("references:\n got %s\nwant %s", got, want)
	}
	c.shutdown()
}

// TestCompletion: field names for the cursor's mapping, enum values, tool
// names in references, parameter names in {placeholders}.
func TestCompletion(t *testing.T) {
	root, weatherPath, _ := workspace(t)
	c := startServer(t, root)
	labels := func(text, marker string, delta int) string {
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uriOf(weatherPath), "version": 9},
			"contentChanges": []any{map[string]any{"text": text}},
		})
		var list protocol.CompletionList
		c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uriOf(weatherPath)}, "position": pos(t, text, marker, delta)}, &list)
		var out []string
		for _, it := range list.Items {
			out = append(out, it.Label)
		}
		return strings.Join(out, ",")
	}
	c.open(weatherPath, weather)

	// entry.type's values
	text := strings.Replace(weather, "  type: http\n", "  type: \n", 1)
	if got, want := labels(text, "  type: \n", 8), "builtin,command,http,javascript,mcp,native,python,rest"; got != want {
		t.Errorf("entry type values: got %s, want %s", got, want)
	}
	// entry's fields, less those written
	text = strings.Replace(weather, "  method: GET\n", "  me\n", 1)
	if got := labels(text, "  me\n", 4); !strings.Contains(got, "method") || strings.Contains(got, "url,") || strings.Contains(got, "description") {
		t.Errorf("entry fields: got %s", got)
	}
	// top-level fields: parameters is written, so no other spelling of it
	text = strings.Replace(weather, "category: http\n", "category: http\nti\n", 1)
	if got := labels(text, "ti\n", 2); !strings.Contains(got, "title") || strings.Contains(got, "input_schema") || strings.Contains(got, "entry") {
		t.Errorf("top-level fields: got %s", got)
	}
	// a related tool: the other tools' names
	text = strings.Replace(weather, "  - name: get_forecast\n", "  - name: \n", 1)
	if got, want := labels(text, "  - name: \n", 10), "get_forecast"; got != want {
		t.Errorf("related tool names: got %s, want %s", got, want)
	}
	// a {placeholder}
	text = strings.Replace(weather, "q={city}", "q={", 1)
	if got, want := labels(text, "q={", 3), "city"; got != want {
		t.Errorf("placeholder: got %s, want %s", got, want)
	}
	// a flow mapping is no placeholder
	text = strings.Replace(weather, "related_tools:\n  - name: get_forecast\n", "annotations: {", 1)
	if got := labels(text, "annotations: {", 14); strings.Contains(got, "city") {
		t.Errorf("a flow mapping completed as a placeholder: %s", got)
	}

	// a parameter's schema: JSON Schema keywords and types
	schemaDoc := "name: get_weather\ndescription: d\ninput_schema:\n  type: object\n  properties:\n    city:\n      type: string\n      mi\n"
	if got := labels(schemaDoc, "      mi\n", 8); !strings.Contains(got, "minLength") || strings.Contains(got, ",type,") || strings.Contains(got, "entry") {
		t.Errorf("schema keywords: got %s", got)
	}
	schemaDoc = strings.Replace(schemaDoc, "      type: string\n      mi\n", "      type: \n", 1)
	if got, want := labels(schemaDoc, "      type: \n", 12), "array,boolean,integer,null,number,object,string"; got != want {
		t.Errorf("schema types: got %s, want %s", got, want)
	}

	// JSON, as it is being typed (after it parsed once)
	jsonPath := filepath.Join(root, "tools", "get_weather2.json")
	c.open(jsonPath, `{"name": "get_weather2", "description": "d", "entry": {"type": "http", "method": "GET"}, "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}`)
	c.diagnostics(uriOf(jsonPath))
	weatherPath = jsonPath
	js := `{"name": "get_weather", "description": "d", "entry": {"type": "", "method": "GET"}, "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["`
	if got, want := labels(js, `"type": ""`, 9), "builtin,command,http,javascript,mcp,native,python,rest"; got != want {
		t.Errorf("JSON entry type values: got %s, want %s", got, want)
	}
	if got, want := labels(js, `"required": ["`, 14), "city"; got != want {
		t.Errorf("JSON required: got %s, want %s", got, want)
	}
	js2 := `{"name": "get_weather", "descr`
	if got := labels(js2, `"descr`, 6); !strings.Contains(got, "description") || strings.Contains(got, "name") {
		t.Errorf("JSON keys: got %s", got)
	}
	c.shutdown()
}

// TestCodeActionsAndFormatting: lint's did-you-mean as a quick fix, and
// fmt's output as a whole-document edit that keeps comments.
func TestCodeActionsAndFormatting(t *testing.T) {
	root, weatherPath, _ := workspace(t)
	c := startServer(t, root)
	text := strings.Replace(weather, "  - name: get_forecast", "  - name: get_forcast", 1)
	text = strings.Replace(text, "  method: GET\n", "  methd: GET\n", 1)
	uri := c.open(weatherPath, text)
	diags := c.diagnostics(uri)
	got := rawCall(c, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 14, "character": 0}},
		"context":      map[string]any{"diagnostics": diags},
	})
	var actions []struct {
		Title string `json:"title"`
		Edit  struct {
			Changes map[string][]struct {
				Range   protocol.Range `json:"range"`
				NewText string         `json:"newText"`
			} `json:"changes"`
		} `json:"edit"`
	}
	if err := json.Unmarshal([]byte(got), &actions); err != nil {
		t.Fatal(err)
	}
	var summary []string
	for _, a := range actions {
		for _, e := range a.Edit.Changes[uri] {
			summary = append(summary, fmt.Sprintf("%s: %d:%d-%d:%d %s", a.Title, e.Range.Start.Line, e.Range.Start.Character, e.Range.End.Line, e.Range.End.Character, e.NewText))
		}
	}
	want := `Change to "method": 5:2-5:7 method
Change to "get_forecast": 13:10-13:21 get_forecast`
	if strings.Join(summary, "\n") != want {
		t.Errorf("code actions (%d diagnostics):\n got %s\nwant %s\nraw %s", len(diags), strings.Join(summary, "\n"), want, got)
	}

	// formatting: canonical order, the comment kept
	messy := "# the weather\ndescription: Returns the current weather for a city. Use it when asked.\nname: get_weather # its name\n"
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 3},
		"contentChanges": []any{map[string]any{"text": messy}},
	})
	got = rawCall(c, "textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "options": map[string]any{"tabSize": 2, "insertSpaces": true}})
	want = `[{"range":{"start":{"line":0,"character":0},"end":{"line":3,"character":0}},"newText":"# the weather\nname: get_weather # its name\ndescription: Returns the current weather for a city. Use it when asked.\n"}]`
	if got != want {
		t.Errorf("formatting:\n got %s\nwant %s", got, want)
	}
	c.shutdown()
}

const gitLog = `name: git_log
description: Shows the commit log of a git reference. Use it when the user asks what changed.
category: custom
entry:
  type: command
  command:
    - git
    - log
    - "{ref}"
input_schema:
  type: object
  properties:
    ref:
      type: string
      description: The reference.
    opts:
      type: object
      description: Options.
      default: {}
  required: [ref]
`

// actionEdits asks for the code actions of every diagnostic of uri and
// returns them as "title: line:col-line:col newText" lines.
func actionEdits(t *testing.T, c *client, uri string, diags []json.RawMessage) string {
	t.Helper()
	got := rawCall(c, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}},
		"context":      map[string]any{"diagnostics": diags},
	})
	var actions []struct {
		Title string `json:"title"`
		Edit  struct {
			Changes map[string][]struct {
				Range   protocol.Range `json:"range"`
				NewText string         `json:"newText"`
			} `json:"changes"`
			DocumentChanges []map[string]any `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal([]byte(got), &actions); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, a := range actions {
		for _, e := range a.Edit.Changes[uri] {
			lines = append(lines, fmt.Sprintf("%s: %d:%d-%d:%d %q", a.Title, e.Range.Start.Line, e.Range.Start.Character, e.Range.End.Line, e.Range.End.Character, e.NewText))
		}
		for _, dc := range a.Edit.DocumentChanges {
			lines = append(lines, fmt.Sprintf("%s: %s %s -> %s", a.Title, dc["kind"], filepath.Base(fmt.Sprint(dc["oldUri"])), filepath.Base(fmt.Sprint(dc["newUri"]))))
		}
	}
	return strings.Join(lines, "\n")
}

// TestQuickFixes: "--" before a command placeholder, strict: false, a
// snake_case name, the tool's name from its file or the file's from the
// tool's.
func TestQuickFixes(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".toolctl.yaml"), []byte("lint:\n  targets: [openai]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, root)
	uri := c.open(filepath.Join(root, "tools", "git_log.yaml"), strings.Replace(gitLog, "      default: {}\n", "", 1))
	got := actionEdits(t, c, uri, c.diagnostics(uri))
	want := `Put "--" before it in entry.command: 8:0-8:0 "    - \"--\"\n"
Set strict: false on this tool: 1:0-1:0 "strict: false\n"`
	if got != want {
		t.Errorf("quick fixes:\n got %s\nwant %s", got, want)
	}

	// a flow list, and a tool that has strict: true already
	flow := strings.Replace(gitLog, "  command:\n    - git\n    - log\n    - \"{ref}\"\n", "  command: [git, log, \"{ref}\"]\n", 1)
	flow = strings.Replace(flow, "      default: {}\n", "", 1)
	flow = strings.Replace(flow, "category: custom\n", "category: custom\nstrict: true\n", 1)
	uri = c.open(filepath.Join(root, "tools", "git_log2.yaml"), strings.Replace(flow, "name: git_log", "name: GitLog", 1))
	got = actionEdits(t, c, uri, c.diagnostics(uri))
	want = `Rename the tool to "git_log": 0:6-0:12 "git_log"
Put "--" before it in entry.command: 6:22-6:22 "\"--\", "
Set strict: false on this tool: 3:8-3:12 "false"`
	if got != want {
		t.Errorf("quick fixes in flow style:\n got %s\nwant %s", got, want)
	}

	// a name that is not its file's
	uri = c.open(filepath.Join(root, "tools", "git_history.yaml"), strings.Replace(gitLog, "\"{ref}\"", "\"--\"\n    - \"{ref}\"", 1))
	got = actionEdits(t, c, uri, c.diagnostics(uri))
	want = `Rename the tool to "git_history" (its file's name): 0:6-0:13 "git_history"
Rename the file to git_log.yaml: rename git_history.yaml -> git_log.yaml
Set strict: false on this tool: 1:0-1:0 "strict: false\n"`
	if got != want {
		t.Errorf("name-matches-file fixes:\n got %s\nwant %s", got, want)
	}
	c.shutdown()
}

// TestPanicIsAnError: a bug in a request's handler fails that request
// with an internal error; the session goes on.
func TestPanicIsAnError(t *testing.T) {
	root, weatherPath, _ := workspace(t)
	c := startServer(t, root)
	uri := c.open(weatherPath, weather)
	c.diagnostics(uri)
	restore := testhook.Set(func(stage, name string) {
		if stage == "lsp" && name == "textDocument/hover" {
			panic("injected")
		}
	})
	defer restore()
	var r json.RawMessage
	err := c.conn.Call(context.Background(), "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 0, "character": 1}}, &r)
	if err == nil || !strings.Contains(err.Error(), "toolctl lsp: internal error in textDocument/hover: injected") {
		t.Fatalf("hover with a panic: %v", err)
	}
	restore()
	if got := rawCall(c, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 0, "character": 1}}); !strings.Contains(got, "**name**") {
		t.Errorf("hover after the panic: %s", got)
	}
	c.shutdown()
}

// TestWatchedFiles: a client that can watch files is asked to; a tool
// renamed on disk (not in an open buffer) changes the findings of the
// open files that refer to it.
func TestWatchedFiles(t *testing.T) {
	root, weatherPath, forecastPath := workspace(t)
	c := startServerOpts(t, root, Options{Debounce: 5 * time.Millisecond}, map[string]any{
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}},
	})
	select {
	case got := <-c.registered:
		want := `{"registrations":[{"id":"toolctl-files","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":"**/*.{yaml,yml,json}"}]}}]}`
		if got != want {
			t.Errorf("registration:\n got %s\nwant %s", got, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no client/registerCapability")
	}
	uri := c.open(weatherPath, weather)
	if got := asJSON(t, c.diagnostics(uri)); got != "[]" {
		t.Fatalf("diagnostics: %s", got)
	}
	renamed := strings.Replace(forecast, "name: get_forecast", "name: get_forecast_days", 1)
	if err := os.WriteFile(forecastPath, []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": uriOf(forecastPath), "type": 2}}})
	if ds := decodeDiags(t, c.diagnostics(uri)); len(ds) != 1 || ds[0].Code != "reference-unknown" {
		t.Fatalf("after the rename on disk: %s", asJSON(t, ds))
	}
	c.shutdown()
}

// TestOnlyToolFiles: outside the tools directory only files that read as
// tool definitions are linted (an editor sends every YAML file: a
// workflow gets no findings); a tool file there is linted alone, and
// keeps its parse error while it does not parse.
func TestOnlyToolFiles(t *testing.T) {
	root, _, _ := workspace(t)
	c := startServer(t, root)
	wf := c.open(filepath.Join(root, ".github", "workflows", "ci.yml"), "name: ci\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n")
	cfg := c.open(filepath.Join(root, ".toolctl.yaml"), "lint:\n  profile: default\n")
	other := filepath.Join(root, "examples", "get_weather.yaml")
	tool := c.open(other, strings.Replace(weather, "related_tools:\n  - name: get_forecast\n", "", 1))
	// published for the tool only; then for the tool again once broken
	if got := asJSON(t, c.diagnostics(tool)); got != "[]" {
		t.Fatalf("a tool file outside the tools directory: %s", got)
	}
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": tool, "version": 2},
		"contentChanges": []any{map[string]any{"text": "name: [get_weather\n"}},
	})
	if ds := decodeDiags(t, c.diagnostics(tool)); len(ds) != 1 || ds[0].Code != "parse-error" {
		t.Fatalf("the tool file broken: %s", asJSON(t, ds))
	}
	c.shutdown()
	for _, u := range c.others {
		if u == wf || u == cfg {
			t.Errorf("diagnostics published for %s", u)
		}
	}
	select {
	case p := <-c.diags:
		t.Errorf("diagnostics published for %s: %v", p.URI, p.Diagnostics)
	default:
	}
}

// TestConfigPythonPathIgnored: opening a file must not run a program a
// repository's config names by path (run.python, the interpreter
// entry-python-drift reads modules with).
func TestConfigPythonPathIgnored(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script as the interpreter")
	}
	root, _, _ := workspace(t)
	marker := filepath.Join(root, "ran")
	evil := filepath.Join(root, "evil.sh")
	if err := os.WriteFile(evil, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".toolctl.yaml"), []byte("run:\n  python: "+evil+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "tools", "weather.py"), []byte("def forecast(city):\n    # "+root+" (no cached read)\n    return city\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, root)
	text := "name: forecast\ndescription: Returns the forecast of a city. Use it when asked about the weather.\ncategory: custom\nentry: {type: python, module: weather, function: forecast}\ninput_schema:\n  type: object\n  properties:\n    city: {type: string, description: The city.}\n    days: {type: integer, description: Days., default: 1}\n  required: [city]\n"
	uri := c.open(filepath.Join(root, "tools", "forecast.yaml"), text)
	c.diagnostics(uri)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("opening a tool file ran the run.python of .toolctl.yaml")
	}
	c.shutdown()
}
