package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tliron/glsp"
)

// hugeTool is a tool file with n parameters written as a list
// (parameters: [{name: ..., type: ...}, ...]), about 95 bytes each: 60000
// make a 5.7 MB file, the size the language server was measured slow on.
// Every 1000th parameter (and the middle one) is a block mapping instead
// of a flow one, every 10th is required, every 7th an integer.
func hugeTool(n int) string {
	var b strings.Builder
	b.Grow(n * 100)
	b.WriteString("name: huge_tool\n")
	b.WriteString("description: Searches a catalog by any of its many fields and returns the matching rows. Use it when the user looks for a row.\n")
	b.WriteString("category: http\nentry:\n  type: http\n  method: GET\n  url: https://api.example.com/search\n")
	b.WriteString("parameters:\n")
	for i := range n {
		typ := "string"
		if i%7 == 3 {
			typ = "integer"
		}
		req := ""
		if i%10 == 0 {
			req = ", required: true"
		}
		if i%1000 == 500 || i == n/2 {
			fmt.Fprintf(&b, "  - name: param_%06d\n    type: %s\n    description: Filter number %d on the catalog, optional.\n", i, typ, i)
			if req != "" {
				b.WriteString("    required: true\n")
			}
			continue
		}
		fmt.Fprintf(&b, "  - {name: param_%06d, type: %s, description: \"Filter number %d on the catalog, optional.\"%s}\n", i, typ, i, req)
	}
	b.WriteString("related_tools:\n  - name: small_tool\n")
	return b.String()
}

// smallTool refers to huge_tool, so that references and rename have a
// second file to find.
const smallTool = `name: small_tool
description: Returns one row of the catalog by its id. Use it when the user names a row.
category: http
entry:
  type: http
  method: GET
  url: https://api.example.com/rows/{id}
parameters:
  - name: id
    type: string
    description: The row's id.
    required: true
related_tools:
  - name: huge_tool
`

// hugeSession is a server with the huge file open in its tools
// directory, its first diagnostics received. Its requests go through a
// client connection (c), or straight to the server's handler (srv),
// which leaves out the transport and the client's side of it: the
// parameters are encoded outside a benchmark's timer, the answer is
// encoded in it (the server does that), and the lint runs when the
// diagnostics are asked for.
type hugeSession struct {
	tb    testing.TB
	c     *client
	srv   *Server
	text  string
	path  string
	uri   string
	diags []json.RawMessage
	typo  bool // didChange left a typo in the buffer
	edits int  // didChange's count, for the versions
}

func openHuge(tb testing.TB, n int, timeout time.Duration) *hugeSession {
	return openHugeVia(tb, n, timeout, false)
}

func openHugeVia(tb testing.TB, n int, timeout time.Duration, direct bool) *hugeSession {
	tb.Helper()
	root := tb.TempDir()
	tools := filepath.Join(root, "tools")
	if err := os.MkdirAll(tools, 0o755); err != nil {
		tb.Fatal(err)
	}
	text := hugeTool(n)
	path := filepath.Join(tools, "huge_tool.yaml")
	for p, data := range map[string]string{path: text, filepath.Join(tools, "small_tool.yaml"): smallTool} {
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	hier := map[string]any{"textDocument": map[string]any{"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}}}
	h := &hugeSession{tb: tb, text: text, path: path, uri: uriOf(path)}
	if direct {
		// the lint runs when diagnostics are asked for, never on a timer
		h.srv = New(Options{Debounce: time.Hour})
		h.call("initialize", map[string]any{"processId": nil, "rootUri": uriOf(root), "capabilities": hier})
		h.notify("initialized", map[string]any{})
	} else {
		h.c = startServerOpts(tb, root, Options{Debounce: time.Nanosecond}, hier)
		h.c.timeout = timeout
	}
	h.open()
	h.diags = h.diagnostics()
	return h
}

// handle sends a request or a notification straight to h.srv: the
// answer encoded as JSON.
func (h *hugeSession) handle(method string, params any) string {
	h.tb.Helper()
	b, _ := h.tb.(*testing.B)
	if b != nil {
		b.StopTimer()
	}
	raw, err := json.Marshal(params)
	if b != nil {
		b.StartTimer()
	}
	if err != nil {
		h.tb.Fatal(err)
	}
	ctx := &glsp.Context{Method: method, Params: raw, Notify: func(string, any) {}, Call: func(string, any, any) {}}
	r, validMethod, validParams, err := h.srv.handler.Handle(ctx)
	if !validMethod || !validParams || err != nil {
		h.tb.Fatalf("%s: %t %t %v", method, validMethod, validParams, err)
	}
	out, err := json.Marshal(r)
	if err != nil {
		h.tb.Fatal(err)
	}
	return string(out)
}

func (h *hugeSession) call(method string, params any) string {
	h.tb.Helper()
	if h.srv != nil {
		return h.handle(method, params)
	}
	var r json.RawMessage
	h.c.call(method, params, &r)
	return string(r)
}

func (h *hugeSession) notify(method string, params any) {
	h.tb.Helper()
	if h.srv != nil {
		h.handle(method, params)
		return
	}
	h.c.notify(method, params)
}

func (h *hugeSession) open() {
	h.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": h.uri, "languageId": "yaml", "version": 1, "text": h.text}})
}

// diagnostics are the next diagnostics published for the huge file; sent
// straight to the server, the lint runs now and they are the last ones.
func (h *hugeSession) diagnostics() []json.RawMessage {
	h.tb.Helper()
	if h.srv == nil {
		return h.c.diagnostics(h.uri)
	}
	h.srv.lintDirty()
	h.srv.mu.Lock()
	body := h.srv.published[h.uri]
	h.srv.mu.Unlock()
	var out []json.RawMessage
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		h.tb.Fatalf("diagnostics %.100q: %v", body, err)
	}
	return out
}

func (h *hugeSession) shutdown() {
	if h.c != nil {
		h.c.shutdown()
	}
}

// at is the position params of the byte delta after the first marker.
func (h *hugeSession) at(tb testing.TB, marker string, delta int) map[string]any {
	tb.Helper()
	i := strings.Index(h.text, marker)
	if i < 0 {
		tb.Fatalf("%q not in the text", marker)
	}
	p := position(h.text, lineStarts(h.text), i+delta)
	return map[string]any{"textDocument": map[string]any{"uri": h.uri}, "position": map[string]any{"line": p.Line, "character": p.Character}}
}

// toggleTypo writes "tpye" for the type of parameter mid with an
// incremental change, or back, and returns the diagnostics published.
func (h *hugeSession) toggleTypo(tb testing.TB, mid string) []json.RawMessage {
	tb.Helper()
	p := h.at(tb, "name: "+mid+"\n    type:", len("name: "+mid+"\n    "))["position"].(map[string]any)
	end := map[string]any{"line": p["line"], "character": p["character"].(uint32) + 4}
	word := "tpye"
	if h.typo {
		word = "type"
	}
	h.typo = !h.typo
	h.edits++
	h.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": h.uri, "version": h.edits + 1},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": p, "end": end}, "text": word}},
	})
	return h.diagnostics()
}

// hugeRequest is one request kind run against the huge file: it returns
// the response (for the hang guard to check it is not empty).
type hugeRequest struct {
	name string
	run  func(tb testing.TB, h *hugeSession, i int) string
}

func hugeRequests(n int) []hugeRequest {
	mid := fmt.Sprintf("param_%06d", n/2)
	call := func(method string, params func(tb testing.TB, h *hugeSession) any) func(tb testing.TB, h *hugeSession, i int) string {
		return func(tb testing.TB, h *hugeSession, _ int) string {
			return h.call(method, params(tb, h))
		}
	}
	return []hugeRequest{
		{"didOpen", func(tb testing.TB, h *hugeSession, _ int) string {
			h.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": h.uri}})
			if h.srv == nil {
				h.diagnostics() // the close clears them
			}
			h.open()
			return fmt.Sprint(len(h.diagnostics()))
		}},
		{"didChange", func(tb testing.TB, h *hugeSession, _ int) string {
			// a typo in the middle parameter and back, so that each
			// change publishes new diagnostics
			return fmt.Sprint(len(h.toggleTypo(tb, mid)))
		}},
		{"hoverParam", call("textDocument/hover", func(tb testing.TB, h *hugeSession) any { return h.at(tb, "name: "+mid, 8) })},
		{"hoverField", call("textDocument/hover", func(tb testing.TB, h *hugeSession) any {
			return h.at(tb, "\n    description: Filter number "+fmt.Sprint(n/2), 6)
		})},
		{"hoverTool", call("textDocument/hover", func(tb testing.TB, h *hugeSession) any { return h.at(tb, "name: small_tool", 8) })},
		{"completion", call("textDocument/completion", func(tb testing.TB, h *hugeSession) any {
			return h.at(tb, "name: "+mid+"\n    type: ", len("name: "+mid+"\n    type: "))
		})},
		{"definition", call("textDocument/definition", func(tb testing.TB, h *hugeSession) any { return h.at(tb, "name: small_tool", 8) })},
		{"references", call("textDocument/references", func(tb testing.TB, h *hugeSession) any {
			p := h.at(tb, "name: huge_tool", 8)
			p["context"] = map[string]any{"includeDeclaration": true}
			return p
		})},
		{"prepareRename", call("textDocument/prepareRename", func(tb testing.TB, h *hugeSession) any { return h.at(tb, "name: huge_tool", 8) })},
		{"rename", call("textDocument/rename", func(tb testing.TB, h *hugeSession) any {
			p := h.at(tb, "name: huge_tool", 8)
			p["newName"] = "giant_tool"
			return p
		})},
		{"documentSymbol", call("textDocument/documentSymbol", func(tb testing.TB, h *hugeSession) any {
			return map[string]any{"textDocument": map[string]any{"uri": h.uri}}
		})},
		{"codeAction", call("textDocument/codeAction", func(tb testing.TB, h *hugeSession) any {
			return map[string]any{"textDocument": map[string]any{"uri": h.uri},
				"range":   map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}},
				"context": map[string]any{"diagnostics": h.diags}}
		})},
		{"formatting", call("textDocument/formatting", func(tb testing.TB, h *hugeSession) any {
			return map[string]any{"textDocument": map[string]any{"uri": h.uri}, "options": map[string]any{"tabSize": 2, "insertSpaces": true}}
		})},
	}
}

// BenchmarkLSPHugeFile measures each request the server answers on a
// tool file of 10000, 30000 and 60000 list-form parameters (60000 is
// 5.7 MB), e.g.
//
//	go test ./pkg/lsp -run - -bench Huge -benchtime 3x
//
// didOpen and didChange are the time to the diagnostics published.
func BenchmarkLSPHugeFile(b *testing.B) { benchmarkHuge(b, false) }

// BenchmarkLSPHugeFileServer is BenchmarkLSPHugeFile with the requests
// sent straight to the server's handler: the server's own time, the
// transport and the client's decoding left out (see hugeSession).
func BenchmarkLSPHugeFileServer(b *testing.B) { benchmarkHuge(b, true) }

func benchmarkHuge(b *testing.B, direct bool) {
	for _, n := range []int{10000, 30000, 60000} {
		b.Run(fmt.Sprintf("params=%d", n), func(b *testing.B) {
			h := openHugeVia(b, n, 10*time.Minute, direct)
			for _, r := range hugeRequests(n) {
				b.Run(r.name, func(b *testing.B) {
					h.tb = b
					for i := range b.N {
						r.run(b, h, i)
					}
					b.StopTimer()
					if h.typo {
						h.toggleTypo(b, fmt.Sprintf("param_%06d", n/2))
					}
				})
			}
			h.tb = b
			h.shutdown()
		})
	}
}

// TestHugeFileAnswers: on a file of 30000 list-form parameters (2.9 MB)
// every request kind answers, and in time: the bound (a minute for each,
// where they take well under a second) only catches the quadratic cost
// they had, when the outline or the code actions took minutes.
func TestHugeFileAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2.9 MB file: not with -short")
	}
	const n = 30000
	h := openHuge(t, n, time.Minute)
	if len(h.diags) < n/2 {
		t.Fatalf("%d diagnostics, want one for each optional parameter", len(h.diags))
	}
	mid := fmt.Sprintf("param_%06d", n/2)
	want := map[string]string{
		"hoverParam":     "**" + mid + "** (string, required)",
		"hoverField":     "**description** (string)",
		"hoverTool":      "**small_tool** — tool (http)",
		"completion":     `"label":"integer"`,
		"definition":     "small_tool.yaml",
		"references":     "small_tool.yaml",
		"prepareRename":  `"placeholder":"huge_tool"`,
		"rename":         `"newText":"giant_tool"`,
		"documentSymbol": `"name":"` + mid + `","detail":"string"`,
		"codeAction":     "[]",
		"formatting":     `"newText":"name: huge_tool\n`,
	}
	for _, r := range hugeRequests(n) {
		got := r.run(t, h, 0)
		switch r.name {
		case "didOpen":
			if got != fmt.Sprint(len(h.diags)) {
				t.Errorf("%s: %s diagnostics, want %d", r.name, got, len(h.diags))
			}
		case "didChange":
			if got == fmt.Sprint(len(h.diags)) {
				t.Errorf("%s: %s diagnostics, want the typo's too", r.name, got)
			}
			h.toggleTypo(t, mid) // back
		case "documentSymbol":
			if c := strings.Count(got, `"kind":7`); c != n {
				t.Errorf("the outline has %d parameters, want %d", c, n)
			}
			fallthrough
		default:
			if !strings.Contains(got, want[r.name]) {
				t.Errorf("%s: %.300s\nwant %s in it", r.name, got, want[r.name])
			}
		}
	}
	h.shutdown()
}
