package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// frame writes LSP messages with their Content-Length headers.
func frame(msgs ...map[string]any) string {
	var b strings.Builder
	for _, m := range msgs {
		m["jsonrpc"] = "2.0"
		data, _ := json.Marshal(m)
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(data), data)
	}
	return b.String()
}

func runLspWith(t *testing.T, in string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := &App{IO: &IOStreams{In: strings.NewReader(in), Out: &out, ErrOut: &errOut}, Getenv: func(string) string { return "" }}
	code := Run(app, append([]string{"lsp"}, args...))
	return code, out.String(), errOut.String()
}

// TestLspCommand: toolctl lsp over stdin/stdout, its exit codes.
func TestLspCommand(t *testing.T) {
	in := frame(
		map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}},
		map[string]any{"method": "initialized", "params": map[string]any{}},
		map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{"uri": "untitled:Untitled-1", "languageId": "yaml", "version": 1, "text": "name: get_weather\ndescription: Returns the weather. Use it when asked about the weather.\n"}}},
		map[string]any{"id": 2, "method": "textDocument/hover", "params": map[string]any{"textDocument": map[string]any{"uri": "untitled:Untitled-1"}, "position": map[string]any{"line": 0, "character": 1}}},
		map[string]any{"id": 3, "method": "shutdown"},
		map[string]any{"method": "exit"},
	)
	code, out, errOut := runLspWith(t, in)
	if code != 0 {
		t.Fatalf("exit %d after shutdown and exit\n%s", code, errOut)
	}
	for _, want := range []string{
		`"serverInfo":{"name":"toolctl","version":"dev"}`,
		`{"id":2,"result":{"contents":{"kind":"markdown","value":"**name** (string)`,
		`{"id":3,"result":null,"jsonrpc":"2.0"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout has no %s:\n%s", want, out)
		}
	}

	// the client goes away without shutdown: exit 1, and why
	code, _, errOut = runLspWith(t, "")
	if code != ExitProblems || !strings.Contains(errOut, "the client closed the connection without shutdown and exit") {
		t.Errorf("without shutdown: exit %d, %s", code, errOut)
	}
	code, _, errOut = runLspWith(t, "", "--debounce", "-1s")
	if code != ExitUsage || !strings.Contains(errOut, "--debounce -1s: give a duration of 0 or more") {
		t.Errorf("--debounce -1s: exit %d, %s", code, errOut)
	}
}

// TestLspBudgetAndCost: toolctl lsp's lint has the budget rules'
// counter, as toolctl lint's, and hover on a tool's name says its cost.
func TestLspBudgetAndCost(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll("tools", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(".toolctl.yaml", []byte("lint:\n  budget:\n    tool: 20\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path, _ := filepath.Abs(filepath.Join("tools", "get_weather.yaml"))
	uri := "file://" + filepath.ToSlash(path)
	text := "name: get_weather\ndescription: Returns the current weather for a city, in metric units. Use it when the user asks about the weather.\ncategory: http\nentry: {type: http, method: GET, url: \"https://api.example.com/weather?q={city}\"}\ninput_schema:\n  type: object\n  properties:\n    city: {type: string, description: City name}\n  required: [city]\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	in := frame(
		map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": "file://" + filepath.ToSlash(dir), "capabilities": map[string]any{}}},
		map[string]any{"method": "initialized", "params": map[string]any{}},
		map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}}},
		map[string]any{"id": 2, "method": "textDocument/hover", "params": map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 0, "character": 8}}},
	)
	// the diagnostics come after the debounce: the client waits for
	// them before it shuts down
	r, w := io.Pipe()
	out := &watchWriter{marker: "publishDiagnostics", seen: make(chan struct{})}
	go func() {
		io.WriteString(w, in)
		select {
		case <-out.seen:
		case <-time.After(time.Minute): // a hang: the test fails below
		}
		io.WriteString(w, frame(map[string]any{"id": 3, "method": "shutdown"}, map[string]any{"method": "exit"}))
		w.Close()
	}()
	var errOut bytes.Buffer
	app := &App{IO: &IOStreams{In: r, Out: out, ErrOut: &errOut}, Getenv: func(string) string { return "" }}
	if code := Run(app, []string{"lsp", "--debounce", "1ms"}); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	for _, want := range []string{
		`"code":"budget-tool-tokens"`,
		`more than lint.budget.tool (20)`,
		`Context cost: `,
		` tokens as an OpenAI function (`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout has no %s:\n%s", want, out.String())
		}
	}
}

// watchWriter is a buffer that closes seen once marker was written.
type watchWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
	seen   chan struct{}
	closed bool
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if !w.closed && strings.Contains(w.buf.String(), w.marker) {
		w.closed = true
		close(w.seen)
	}
	return n, err
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
