package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// editCaps are the workspace-edit capabilities of a client that takes
// versioned document changes, with file renames when files is true.
func editCaps(files bool) map[string]any {
	we := map[string]any{"documentChanges": true}
	if files {
		we["resourceOperations"] = []string{"create", "rename", "delete"}
	}
	return map[string]any{"workspace": map[string]any{"workspaceEdit": we}}
}

// TestRename: prepareRename gives the tool name under the cursor (null
// elsewhere); rename changes the definition on disk and the reference in
// the open buffer (with its version), and renames the file named after
// the tool when the client can; a name that is no tool name, or another
// tool's, is refused with a message saying why.
func TestRename(t *testing.T) {
	root, weatherPath, forecastPath := workspace(t)
	c := startServerOpts(t, root, Options{Debounce: 5 * time.Millisecond}, editCaps(true))
	uri := c.open(weatherPath, weather)
	c.diagnostics(uri)
	at := func(marker string, delta int) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos(t, weather, marker, delta)}
	}

	if got, want := rawCall(c, "textDocument/prepareRename", at("name: get_forecast", 9)), `{"range":{"start":{"line":13,"character":10},"end":{"line":13,"character":22}},"placeholder":"get_forecast"}`; got != want {
		t.Errorf("prepareRename on a reference:\n got %s\nwant %s", got, want)
	}
	if got, want := rawCall(c, "textDocument/prepareRename", at("name: get_weather", 7)), `{"range":{"start":{"line":0,"character":6},"end":{"line":0,"character":17}},"placeholder":"get_weather"}`; got != want {
		t.Errorf("prepareRename on the tool's name:\n got %s\nwant %s", got, want)
	}
	for _, m := range []string{"entry:", "method: GET", "name: city"} {
		if got := rawCall(c, "textDocument/prepareRename", at(m, 8)); got != "null" {
			t.Errorf("prepareRename on %q: %s, want null", m, got)
		}
	}

	params := at("name: get_forecast", 9)
	params["newName"] = "get_outlook"
	got := rawCall(c, "textDocument/rename", params)
	want := `{"documentChanges":[` +
		`{"textDocument":{"uri":"` + uriOf(forecastPath) + `","version":null},"edits":[{"range":{"start":{"line":0,"character":6},"end":{"line":0,"character":18}},"newText":"get_outlook"}]},` +
		`{"textDocument":{"uri":"` + uri + `","version":1},"edits":[{"range":{"start":{"line":13,"character":10},"end":{"line":13,"character":22}},"newText":"get_outlook"}]},` +
		`{"kind":"rename","oldUri":"` + uriOf(forecastPath) + `","newUri":"` + uriOf(strings.Replace(forecastPath, "get_forecast.yaml", "get_outlook.yaml", 1)) + `"}]}`
	if got != want {
		t.Errorf("rename:\n got %s\nwant %s", got, want)
	}

	refused := func(newName, want string) {
		t.Helper()
		p := at("name: get_weather", 7)
		p["newName"] = newName
		var r json.RawMessage
		err := c.conn.Call(context.Background(), "textDocument/rename", p, &r)
		if err == nil || err.Error() != want {
			t.Errorf("rename to %q: %v (result %s)\nwant error %s", newName, err, r, want)
		}
	}
	refused("Get-Weather", `jsonrpc2: code -32803 message: cannot rename "get_weather" to "Get-Weather": a tool name is snake_case (^[a-z][a-z0-9_]*$); did you mean "get_weather"?`)
	refused("get_forecast", `jsonrpc2: code -32803 message: cannot rename "get_weather" to "get_forecast": tools/get_forecast.yaml:1 defines a tool named "get_forecast" already; choose another name`)
	refused(strings.Repeat("a", 65), `jsonrpc2: code -32803 message: cannot rename "get_weather" to "`+strings.Repeat("a", 65)+`": the name is 65 characters, more than 64 (lint.limits.name_max)`)
	c.shutdown()
}

// TestRenameClientCapabilities: a client that cannot rename files gets
// the text edits only (the file keeps its name); one without versioned
// document changes gets them as changes by URI; one that lists resource
// operations but not documentChanges (Neovim 0.7) gets document changes
// with the file's rename.
func TestRenameClientCapabilities(t *testing.T) {
	root, weatherPath, forecastPath := workspace(t)
	for _, tc := range []struct {
		caps map[string]any
		want string
	}{
		{editCaps(false), `{"documentChanges":[` +
			`{"textDocument":{"uri":"` + uriOf(forecastPath) + `","version":1},"edits":[{"range":{"start":{"line":0,"character":6},"end":{"line":0,"character":18}},"newText":"get_outlook"}]},` +
			`{"textDocument":{"uri":"` + uriOf(weatherPath) + `","version":null},"edits":[{"range":{"start":{"line":13,"character":10},"end":{"line":13,"character":22}},"newText":"get_outlook"}]}]}`},
		{map[string]any{}, `{"changes":{"` + uriOf(forecastPath) + `":[{"range":{"start":{"line":0,"character":6},"end":{"line":0,"character":18}},"newText":"get_outlook"}],"` +
			uriOf(weatherPath) + `":[{"range":{"start":{"line":13,"character":10},"end":{"line":13,"character":22}},"newText":"get_outlook"}]}}`},
		{map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"resourceOperations": []string{"rename"}}}}, `{"documentChanges":[` +
			`{"textDocument":{"uri":"` + uriOf(forecastPath) + `","version":1},"edits":[{"range":{"start":{"line":0,"character":6},"end":{"line":0,"character":18}},"newText":"get_outlook"}]},` +
			`{"textDocument":{"uri":"` + uriOf(weatherPath) + `","version":null},"edits":[{"range":{"start":{"line":13,"character":10},"end":{"line":13,"character":22}},"newText":"get_outlook"}]},` +
			`{"kind":"rename","oldUri":"` + uriOf(forecastPath) + `","newUri":"` + uriOf(filepath.Join(filepath.Dir(forecastPath), "get_outlook.yaml")) + `"}]}`},
	} {
		c := startServerOpts(t, root, Options{Debounce: 5 * time.Millisecond}, tc.caps)
		uri := c.open(forecastPath, forecast)
		c.diagnostics(uri)
		got := rawCall(c, "textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos(t, forecast, "get_forecast", 3), "newName": "get_outlook"})
		if got != tc.want {
			t.Errorf("rename with client capabilities %v:\n got %s\nwant %s", tc.caps, got, tc.want)
		}
		c.shutdown()
	}
}

// TestRenameJSON: in JSON the quotes stay; the file is not renamed when
// it holds several tools.
func TestRenameJSON(t *testing.T) {
	root, _, _ := workspace(t)
	text := `[
  {"name": "list_files", "description": "Lists the files of a directory. Use it to see what a folder holds.", "related_tools": [{"name": "read_file"}]},
  {"name": "read_file", "description": "Reads a file and returns its text. Use it to see what a file says."}
]
`
	c := startServerOpts(t, root, Options{Debounce: 5 * time.Millisecond}, editCaps(true))
	uri := c.open(root+"/tools/read_file.json", text)
	c.diagnostics(uri)
	at := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos(t, text, `"read_file"}`, 3)}
	if got, want := rawCall(c, "textDocument/prepareRename", at), `{"range":{"start":{"line":1,"character":138},"end":{"line":1,"character":147}},"placeholder":"read_file"}`; got != want {
		t.Errorf("prepareRename in JSON:\n got %s\nwant %s", got, want)
	}
	at["newName"] = "cat_file"
	got := rawCall(c, "textDocument/rename", at)
	want := `{"documentChanges":[{"textDocument":{"uri":"` + uri + `","version":1},"edits":[` +
		`{"range":{"start":{"line":1,"character":138},"end":{"line":1,"character":147}},"newText":"cat_file"},` +
		`{"range":{"start":{"line":2,"character":12},"end":{"line":2,"character":21}},"newText":"cat_file"}]}]}`
	if got != want {
		t.Errorf("rename in JSON:\n got %s\nwant %s", got, want)
	}
	c.shutdown()
}
