package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// upstreamEnv makes the test binary an MCP server over stdio that answers
// tools/call with the literal results below (RunTestUpstream), so that the
// tests know every byte a proxied tool's server sends.
const upstreamEnv = "TOOLCTL_TEST_MCP_UPSTREAM"

// richResult has every content type with annotations and _meta, numbers
// float64 cannot hold, structuredContent and characters the SDK would
// escape (<&>).
const richResult = `{"_meta":{"request":9007199254740993},"content":[` +
	`{"type":"text","text":"Here is the tiny image:","annotations":{"audience":["user"],"priority":0.5},"_meta":{"big":12345678901234567890}},` +
	`{"type":"image","data":"iVBORw0KGgoAAAANSUhEUg==","mimeType":"image/png","annotations":{"audience":["assistant"],"lastModified":"2025-01-12T15:00:58Z","priority":1}},` +
	`{"type":"audio","data":"UklGRiQAAABXQVZF","mimeType":"audio/wav","_meta":{"seconds":1.5}},` +
	`{"type":"resource_link","uri":"test://static/resource/1","name":"Resource 1","title":"First","description":"A text resource.","mimeType":"text/plain","size":2048,"annotations":{"priority":0.25}},` +
	`{"type":"resource","resource":{"uri":"test://static/resource/2","mimeType":"text/plain","text":"Resource 2 <&>","_meta":{"v":2}},"annotations":{"audience":["user","assistant"]}},` +
	`{"type":"resource","resource":{"uri":"test://static/resource/3","mimeType":"application/octet-stream","blob":"AQIDBA=="}},` +
	`{"type":"text","text":"The image above is the MCP tiny image."}],` +
	`"structuredContent":{"count":12345678901234567890,"ratio":0.1,"tags":["a","b"]}}`

// failResult is an isError result with an image.
const failResult = `{"content":[{"type":"text","text":"rendering failed:"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","annotations":{"priority":0.9}}],"isError":true}`

// exoticResult has what the SDK's content model drops: a priority of 0
// and fields no revision defines.
const exoticResult = `{"content":[{"type":"text","text":"hi","annotations":{"priority":0},"x-vendor":{"a":1}}],"x-top":true}`

// RunTestUpstream is the upstream server's main loop, on stdin/stdout.
func RunTestUpstream() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		var result string
		switch m.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"upstream","version":"1"}}`
		case "tools/list":
			result = `{"tools":[{"name":"rich","inputSchema":{"type":"object"}},{"name":"fail","inputSchema":{"type":"object"}},{"name":"exotic","inputSchema":{"type":"object"}}]}`
		case "tools/call":
			result = map[string]string{"rich": richResult, "fail": failResult, "exotic": exoticResult}[m.Params.Name]
		}
		if result == "" {
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`+"\n", m.ID)
			continue
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, result)
	}
	os.Exit(0)
}

// upstreamTools writes tool files whose mcp entries call the upstream
// server (this test binary).
func upstreamTools(t *testing.T) string {
	t.Helper()
	t.Setenv(upstreamEnv, "1")
	dir := t.TempDir()
	bin, _ := json.Marshal(os.Args[0])
	for _, name := range []string{"rich", "fail", "exotic"} {
		tool := fmt.Sprintf("name: proxied_%s\ndescription: Calls %s upstream. Use when testing results passed on.\ncategory: custom\nentry: {type: mcp, server: [%s, -test.run=^$], tool: %s}\nparameters: {type: object, properties: {}}\n", name, name, bin, name)
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(tool), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// resultOf is the "result" member of a JSON-RPC response, as sent.
func resultOf(t *testing.T, resp string) string {
	t.Helper()
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal([]byte(resp), &m); err != nil || m.Result == nil {
		t.Fatalf("not a result: %s", resp)
	}
	return string(m.Result)
}

// TestPassThroughStdio: a proxied tool's result reaches the client of
// toolctl serve unchanged. On the stdio transport's direct path the bytes
// are the upstream server's; on the SDK's path (2026-07-28 sessions) the
// values are, numbers included.
func TestPassThroughStdio(t *testing.T) {
	dir := upstreamTools(t)
	t.Run("direct", func(t *testing.T) {
		r := rawServe(t, dir, Options{})
		for i, c := range []struct{ tool, want string }{
			{"proxied_rich", richResult},
			{"proxied_fail", failResult},
			{"proxied_exotic", exoticResult},
		} {
			r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, i+1, c.tool))
			if got := resultOf(t, r.recv()); got != c.want {
				t.Errorf("%s:\n got %s\nwant %s", c.tool, got, c.want)
			}
		}
	})
	t.Run("sdk", func(t *testing.T) {
		h := serve(t, dir, setup{}) // 2026-07-28: the SDK answers
		for _, c := range []struct{ tool, want string }{
			{"proxied_rich", richResult},
			{"proxied_fail", failResult},
		} {
			res := h.call(c.tool, map[string]any{})
			wantRes := new(sdk.CallToolResult)
			if err := json.Unmarshal([]byte(c.want), wantRes); err != nil {
				t.Fatal(err)
			}
			// The SDK client decodes structuredContent and _meta into
			// float64s itself; compare what it makes of both. At
			// 2026-07-28 the SDK adds resultType and its serverInfo.
			delete(res.Meta, "io.modelcontextprotocol/serverInfo")
			if len(res.Meta) == 0 {
				res.Meta = nil
			}
			got := strings.Replace(jsonOf(t, res), `,"resultType":"complete"`, "", 1)
			if want := jsonOf(t, wantRes); got != want {
				t.Errorf("%s:\n got %s\nwant %s", c.tool, got, want)
			}
		}
	})
}

// TestPassThroughHTTP: over Streamable HTTP the bytes are the upstream
// server's (the direct path), and the SDK's client reads them.
func TestPassThroughHTTP(t *testing.T) {
	dir := upstreamTools(t)
	s, log := newServer(t, dir, Options{})
	h, err := s.HTTPHandler(HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	for i, c := range []struct{ tool, want string }{
		{"proxied_rich", richResult},
		{"proxied_fail", failResult},
	} {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, i+1, c.tool)
		resp := postMessage(t, ts.URL+"/mcp", body)
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: HTTP %d %s\nlog:\n%s", c.tool, resp.StatusCode, data, log)
		}
		// The direct path: the upstream server's bytes.
		if got := resultOf(t, string(bytes.TrimSpace(data))); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.tool, got, c.want)
		}
	}
	// And through the SDK's client.
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "proxied_rich", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 7 || res.Content[1].(*sdk.ImageContent).MIMEType != "image/png" {
		t.Errorf("SDK client got %s", jsonOf(t, res))
	}
}
