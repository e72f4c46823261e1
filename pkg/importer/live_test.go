package importer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/spec"
)

// The stdio tests start this test binary as the MCP server: with
// importTestMode set, TestImportServerProcess becomes the server.
const importTestMode = "TOOLCTL_TEST_IMPORT_SERVER"

func TestImportServerProcess(t *testing.T) {
	switch os.Getenv(importTestMode) {
	case "":
		t.Skip("helper process for the live import tests")
	case "serve":
		fmt.Fprintln(os.Stderr, "import test server ready")
		if err := newImportTestServer(2).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "import test server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal: no API key")
		os.Exit(3)
	case "notools":
		s := mcp.NewServer(&mcp.Implementation{Name: "empty", Version: "1"}, nil)
		_ = s.Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	}
	os.Exit(2)
}

// serverCommand is the command line that starts this binary as the
// server.
func serverCommand() string {
	return "'" + strings.ReplaceAll(os.Args[0], "'", `'\''`) + "' -test.run=^TestImportServerProcess$"
}

// newImportTestServer serves five tools, pageSize per tools/list page.
// The schemas are raw JSON whose keys are not in alphabetical order, so a
// detour through Go maps would show.
func newImportTestServer(pageSize int) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "import-test", Version: "1.0.0"}, &mcp.ServerOptions{PageSize: pageSize})
	noop := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	}
	readOnly := true
	s.AddTool(&mcp.Tool{
		Name: "search", Title: "Search", Description: "Searches the index. Use when looking something up.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"zeta":{"type":"string","description":"query"},"alpha":{"type":"integer","default":10}},"required":["zeta"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"hits":{"type":"array"}}}`),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: readOnly, Title: "Index search"},
	}, noop)
	for _, name := range []string{"a.one", "b_two", "c_three", "dFour"} {
		s.AddTool(&mcp.Tool{Name: name, Description: "Tool " + name + ".", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}, noop)
	}
	return s
}

func TestImportServerHTTP(t *testing.T) {
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newImportTestServer(2) }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	env := map[string]string{"TOKEN": "s3cret"}
	res, err := ImportServer(context.Background(), ServerOptions{
		URL: srv.URL, Headers: []string{"Authorization: Bearer ${TOKEN}"},
		Getenv: func(k string) string { return env[k] }, Timeout: 10 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.SourceName+"="+tool.Tool.Name)
	}
	if got := strings.Join(names, " "); got != "a.one=a_one b_two=b_two c_three=c_three dFour=d_four search=search" {
		t.Errorf("tools (all pages, mapped): %s", got)
	}
	search := res.Tools[4]
	yamlEq(t, canonical(t, search), fmt.Sprintf(`
		name: search
		title: Search
		description: Searches the index. Use when looking something up.
		entry:
		  type: mcp
		  headers:
		    Authorization: Bearer ${TOKEN}
		  server: %s
		  tool: search
		input_schema:
		  type: object
		  properties:
		    zeta:
		      type: string
		      description: query
		    alpha:
		      type: integer
		      default: 10
		  required:
		    - zeta
		output_schema:
		  type: object
		  properties:
		    hits:
		      type: array
		annotations:
		  title: Index search
		  readOnlyHint: true
		  idempotentHint: false
		`, srv.URL))
	if e := res.Tools[0].Tool.Entry; e == nil || e.Tool != "a.one" {
		t.Errorf("a.one's entry %+v: the entry calls the server's name", e)
	}
	wantContains(t, warningsText(res), `tool "a.one" is imported as "a_one"`)

	// Without the token: a 401 explained.
	_, err = ImportServer(context.Background(), ServerOptions{URL: srv.URL, Timeout: 10 * time.Second})
	wantContains(t, fmt.Sprint(err), "the MCP server at "+srv.URL+" refused the initialize handshake (HTTP 401); pass its credentials, e.g. --header 'Authorization: Bearer ${TOKEN}'")
	// A literal header works but is not written into the entries.
	res, err = ImportServer(context.Background(), ServerOptions{URL: srv.URL, Headers: []string{"Authorization: Bearer s3cret"}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tools[0].Tool.Entry.Headers != nil {
		t.Errorf("a literal header was written: %v", res.Tools[0].Tool.Entry.ToMap())
	}
	wantContains(t, warningsText(res), "header Authorization is not written to the entries: its value is literal")
}

func TestImportServerStdio(t *testing.T) {
	t.Setenv(importTestMode, "serve")
	res, err := ImportServer(context.Background(), ServerOptions{Command: serverCommand(), Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 5 || res.Format != MCP {
		t.Fatalf("%d tools, format %s", len(res.Tools), res.Format)
	}
	got := canonical(t, res.Tools[4])
	wantContains(t, got, "tool: search", "zeta:\n      type: string\n      description: query\n    alpha:")
	if e := res.Tools[4].Tool.Entry; e.Server != serverCommand() {
		t.Errorf("entry.server %q, want the command line as given", e.Server)
	}

	res, err = ImportServer(context.Background(), ServerOptions{Command: serverCommand(), Timeout: 20 * time.Second, NoEntry: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tools[0].Tool.Entry != nil {
		t.Errorf("NoEntry: the tool has an entry")
	}
}

func TestImportServerErrors(t *testing.T) {
	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for _, tc := range []struct {
		name string
		mode string
		opts ServerOptions
		want string
	}{
		{"command not found", "", ServerOptions{Command: "toolctl-no-such-server --stdio"},
			`--from-server: command "toolctl-no-such-server" not found in PATH; install it or fix the command line`},
		{"bad quoting", "", ServerOptions{Command: `server "unterminated`}, `--from-server: unterminated " quote in the command line; fix the quoting`},
		{"empty command", "", ServerOptions{Command: "  "}, "--from-server is empty"},
		{"unset variable", "", ServerOptions{Command: "server --key ${NO_SUCH_KEY}"}, "--from-server: the environment variable NO_SUCH_KEY is not set"},
		{"server exits", "crash", ServerOptions{Command: serverCommand()}, "fatal: no API key"},
		{"no tools", "notools", ServerOptions{Command: serverCommand()}, "offers no tools: its initialize result has no tools capability"},
		{"http 404", "", ServerOptions{URL: notFound.URL}, "no MCP endpoint at " + notFound.URL + " (HTTP 404); check the URL (Streamable HTTP endpoints are often at /mcp)"},
		{"unreachable", "", ServerOptions{URL: closed.URL}, "cannot reach the MCP server at " + closed.URL},
		{"not a url", "", ServerOptions{URL: "ftp://example.org"}, `expected an http:// or https:// URL`},
		{"bad header", "", ServerOptions{URL: notFound.URL, Headers: []string{"no colon"}}, `--header "no colon": expected "Name: value"`},
		{"header for stdio", "", ServerOptions{Command: "x", Headers: []string{"A: b"}}, "--header applies to --from-url only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.mode != "" {
				t.Setenv(importTestMode, tc.mode)
			}
			tc.opts.Timeout = 20 * time.Second
			_, err := ImportServer(context.Background(), tc.opts)
			if err == nil {
				t.Fatal("no error")
			}
			wantContains(t, err.Error(), tc.want)
		})
	}
}

func TestWireMessages(t *testing.T) {
	w := &wire{}
	sse := w.add(true)
	sse.buf.WriteString("event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"b\",\"inputSchema\":{\"z\":1,\"a\":2}}]}}\n\n")
	body := w.add(false)
	body.buf.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"c"}]}}`)
	stdio := w.add(false)
	stdio.buf.WriteString("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[{\"name\":\"d\"}]}}\n{\"partial")
	got := w.tools()
	if len(got) != 3 {
		t.Fatalf("%d tools: %v", len(got), got)
	}
	b, _ := json.Marshal(got[0])
	if string(b) != `{"name":"b","inputSchema":{"z":1,"a":2}}` {
		t.Errorf("key order lost: %s", b)
	}
}

// fakeMCPServer answers initialize and tools/list over Streamable HTTP
// (JSON responses) with tools, raw JSON as written.
func fakeMCPServer(t *testing.T, tools string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted) // a notification
			return
		}
		var result string
		switch req.Method {
		case "initialize":
			result = fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}`, req.Params.ProtocolVersion)
		case "tools/list":
			result = `{"tools":` + tools + `}`
		default:
			result = `{}`
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// What a server lists is held to the limits of a tool file, as a file is.
func TestImportServerLimits(t *testing.T) {
	deep := func(levels int) string {
		return `[{"name":"deep","inputSchema":{"type":"object","x-deep":` + strings.Repeat("[", levels) + strings.Repeat("]", levels) + `}}]`
	}
	for _, tc := range []struct {
		name, tools, want string
	}{
		{"nested 300 levels", deep(300), `tools/list of %s: tool "deep": values are nested more than 256 levels deep; flatten the structure; nothing was imported`},
		// The SDK refuses 1000 levels itself.
		{"nested 5000 levels", deep(5000), `tools/list: the MCP server %s sent values nested more than 256 levels deep; flatten the structure`},
		{"too many values", `[{"name":"wide","inputSchema":{"type":"object","x-wide":[` + strings.Repeat("0,", spec.MaxValues) + `0]}}]`,
			`tools/list of %s: the tools hold more than 2000000 values, the most a tool file may have (at tool "wide"); nothing was imported`},
		{"more than 16 MB", `[{"name":"big","description":"` + strings.Repeat("x", spec.MaxFileSize) + `"}]`,
			`the MCP server %s sent more than 16 MB, the most toolctl reads from a server (as from a tool file); import its tools from a file instead`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeMCPServer(t, tc.tools)
			_, err := ImportServer(context.Background(), ServerOptions{URL: srv.URL, Timeout: 60 * time.Second})
			if err == nil {
				t.Fatal("no error")
			}
			wantContains(t, err.Error(), fmt.Sprintf(tc.want, srv.URL))
		})
	}
	// Within the limits, the same server imports.
	srv := fakeMCPServer(t, deep(200))
	res, err := ImportServer(context.Background(), ServerOptions{URL: srv.URL, Timeout: 60 * time.Second})
	if err != nil || len(res.Tools) != 1 {
		t.Fatalf("200 levels: %v", err)
	}
}
