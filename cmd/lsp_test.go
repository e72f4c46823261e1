package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
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
