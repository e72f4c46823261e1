package lsp

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// client is an LSP client over an in-process pipe.
type client struct {
	t      *testing.T
	conn   *jsonrpc2.Conn
	diags  chan published
	served chan error
}

func startServer(t *testing.T, root string) *client {
	t.Helper()
	srv := New(Options{Debounce: 5 * time.Millisecond, Version: "test"})
	a, b := net.Pipe()
	c := &client{t: t, diags: make(chan published, 100), served: make(chan error, 1)}
	go func() { c.served <- srv.Serve(context.Background(), a) }()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
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
	c.call("initialize", map[string]any{"processId": nil, "rootUri": uriOf(root), "capabilities": map[string]any{}}, &init)
	c.notify("initialized", map[string]any{})
	return c
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
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
	deadline := time.After(20 * time.Second)
	for {
		select {
		case p := <-c.diags:
			if p.URI == uri {
				return p.Diagnostics
			}
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
	c.shutdown()
}
