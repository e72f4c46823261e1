package contract

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

func writeCassette(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.cassette.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const twoCalls = `version: 1
tool: x
mcp:
  - method: initialize
    result: '{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}'
  - method: tools/call
    params: '{"name":"x","arguments":{"a":1}}'
    result: '{"content":[],"structuredContent":{"n":1}}'
  - method: tools/call
    params: '{"name":"x","arguments":{"a":1}}'
    result: '{"content":[],"structuredContent":{"n":2}}'
`

// exchange writes requests to a stand-in and reads its answers.
func exchange(t *testing.T, c *mcpCassette, reqs ...string) []map[string]any {
	t.Helper()
	s, observe := c.Session(run.MCPServer{})
	if s == nil || observe != nil {
		t.Fatalf("replaying: want a stand-in and no observer")
	}
	defer s.Close()
	r := bufio.NewReader(s)
	var out []map[string]any
	for _, q := range reqs {
		if _, err := s.Write([]byte(q + "\n")); err != nil {
			t.Fatal(err)
		}
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestStandInAnswersInOrderThenAgain(t *testing.T) {
	c, err := loadMCPCassette(writeCassette(t, twoCalls), "x", &run.Secrets{})
	if err != nil {
		t.Fatal(err)
	}
	call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"arguments":{"a":1},"name":"x"}}`
	got := exchange(t, c,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"toolctl","version":"9"}}}`,
		strings.Replace(call, "%d", "7", 1), strings.Replace(call, "%d", "8", 1), strings.Replace(call, "%d", "9", 1))
	if got[0]["result"].(map[string]any)["serverInfo"] == nil {
		t.Errorf("initialize: %v", got[0])
	}
	var ns []any
	for i, m := range got[1:] {
		if m["id"] != float64(7+i) {
			t.Errorf("answer %d has id %v, want the request's", i, m["id"])
		}
		ns = append(ns, m["result"].(map[string]any)["structuredContent"].(map[string]any)["n"])
	}
	// each recording once in order, then the last again
	if want := []any{1.0, 2.0, 2.0}; !equalJSON(ns, want) {
		t.Errorf("answers %v, want %v", ns, want)
	}
	if m := c.takeMismatch(); m != nil {
		t.Errorf("mismatch %v", m)
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestStandInMismatch(t *testing.T) {
	c, err := loadMCPCassette(writeCassette(t, twoCalls), "x", &run.Secrets{})
	if err != nil {
		t.Fatal(err)
	}
	got := exchange(t, c, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":{"a":2}}}`)
	e, _ := got[0]["error"].(map[string]any)
	if e == nil || !strings.Contains(e["message"].(string), "request not in the cassette") {
		t.Fatalf("want a JSON-RPC error naming the mismatch, got %v", got[0])
	}
	m := c.takeMismatch()
	if m == nil || len(m.Diffs) != 1 || m.Diffs[0].Path != "params.arguments.a" || m.Diffs[0].Expected != "1" || m.Diffs[0].Got != "2" {
		t.Fatalf("mismatch %+v, want the diff at params.arguments.a (1 -> 2)", m)
	}
	if c.takeMismatch() != nil {
		t.Error("takeMismatch must forget the mismatch")
	}
}

func TestRecorderRedactsAndDedupes(t *testing.T) {
	s := &run.Secrets{}
	s.Add("s3cr3t-token-value")
	c := &mcpCassette{path: filepath.Join(t.TempDir(), "testdata", "x.cassette.yaml"), tool: "x", secrets: s}
	for range 2 {
		standIn, observe := c.Session(run.MCPServer{})
		if standIn != nil || observe == nil {
			t.Fatal("recording: want an observer and no stand-in")
		}
		observe(true, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"version":"9"}}}`))
		observe(false, []byte(`{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"s"}}}`))
		observe(true, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		observe(true, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{"key":"s3cr3t-token-value"}}}`))
		observe(false, []byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"got s3cr3t-token-value"}]}}`))
	}
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(c.path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if strings.Contains(text, "s3cr3t") || !strings.Contains(text, `"key":"***"`) || !strings.Contains(text, `got ***`) {
		t.Errorf("secrets not redacted in params and result:\n%s", text)
	}
	if strings.Count(text, "method: ") != 2 || strings.Contains(text, "clientInfo") || strings.Contains(text, "notifications") {
		t.Errorf("want initialize (without params) and tools/call once each:\n%s", text)
	}
	back, err := loadMCPCassette(c.path, "x", s)
	if err != nil || len(back.exchanges) != 2 {
		t.Fatalf("reading it back: %v %v", back, err)
	}
}

func TestCassetteSizeLimit(t *testing.T) {
	old := cassetteLimit
	cassetteLimit = 200
	defer func() { cassetteLimit = old }()
	if _, err := loadMCPCassette(writeCassette(t, twoCalls), "x", &run.Secrets{}); err == nil || !strings.Contains(err.Error(), "is larger than") {
		t.Errorf("a cassette over the limit: %v, want it refused", err)
	}
	c := &mcpCassette{path: filepath.Join(t.TempDir(), "x.cassette.yaml"), tool: "x"}
	c.add(mcpExchange{Method: "tools/call", Result: strings.Repeat("x", 150)})
	c.add(mcpExchange{Method: "tools/call", Result: strings.Repeat("y", 150)})
	if err := c.save(); err == nil || !strings.Contains(err.Error(), "exceed") {
		t.Errorf("a recording over the limit: %v, want it refused", err)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

type endlessTransport struct{}

func (endlessTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Body: io.NopCloser(endless{}), Request: r}, nil
}

// A recorded HTTP body is read at most to the runner's limit + 1 byte: go-vcr
// reads a body whole before the runner sees it.
func TestRecordedBodyBounded(t *testing.T) {
	req, _ := http.NewRequest("GET", "http://example.invalid/", nil)
	resp, err := (&limitBodies{rt: endlessTransport{}}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || n != run.HTTPMaxBody+1 {
		t.Errorf("read %d bytes (%v), want %d", n, err, run.HTTPMaxBody+1)
	}
}

func TestMCPCassetteRefusesBadJSON(t *testing.T) {
	for _, text := range []string{
		"version: 1\nmcp:\n  - method: tools/call\n    result: 'not json'\n",
		"version: 1\nmcp:\n  - result: '{}'\n",
		"version: 2\ninteractions: []\n",
		"mcp: [",
	} {
		if _, err := loadMCPCassette(writeCassette(t, text), "x", &run.Secrets{}); err == nil || !strings.Contains(err.Error(), "record it again") {
			t.Errorf("%q: %v, want it refused with what to do", text, err)
		}
	}
	// pretty-printed JSON (edited by hand) is answered on one line
	c, err := loadMCPCassette(writeCassette(t, "version: 1\nmcp:\n  - method: initialize\n    result: |\n      {\"capabilities\": {},\n       \"serverInfo\": {\"name\": \"s\"}}\n"), "x", &run.Secrets{})
	if err != nil {
		t.Fatal(err)
	}
	got := exchange(t, c, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`)
	if got[0]["result"] == nil {
		t.Errorf("answer %v", got[0])
	}
}

// A recorded HTTP cassette over the limit is removed, with the reason.
func TestHTTPCassetteSizeLimit(t *testing.T) {
	old := cassetteLimit
	cassetteLimit = 300
	defer func() { cassetteLimit = old }()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 400))
	}))
	defer srv.Close()
	f := spec.ParseFile(filepath.Join(t.TempDir(), "h.yaml"), []byte("name: h\ndescription: Gets. Use when testing.\nentry: {type: http, url: "+srv.URL+"}\n"))
	if len(f.Tools) != 1 {
		t.Fatalf("parse: %v", f.Errors)
	}
	c, err := OpenCassette(f.Tools[0], Record, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err := c.Stop(); err == nil || !strings.Contains(err.Error(), "exceed") {
		t.Errorf("Stop: %v, want the recording refused", err)
	}
	if _, err := os.Stat(CassettePath(f.Tools[0])); err == nil {
		t.Error("the oversized cassette was kept")
	}
}
