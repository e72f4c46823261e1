package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPDirectMatchesSDK: the tools/call responses the HTTP endpoint
// writes itself are those of the SDK's path: status, headers and bytes.
func TestHTTPDirectMatchesSDK(t *testing.T) {
	dir := copyTools(t)
	tag := "name: tag\ndescription: Tags. Use when testing escaping.\ncategory: custom\nentry:\n  type: javascript\n  code: |\n    function execute(input) { return input.who === '' ? '' : {html: '<b>&' + input.who + '\\u2028</b>', n: [1, 2.5]}; }\nparameters:\n  type: object\n  properties:\n    who: {type: string, description: Whom.}\n  required: [who]\n"
	if err := os.WriteFile(filepath.Join(dir, "tag.yaml"), []byte(tag), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := []struct{ id, params string }{
		{`1`, `{"name":"calc","arguments":{"expression":"2*(3+4)"}}`},
		{`"s-1"`, `{"name":"calc","arguments":{"expression":7}}`},     // isError: invalid arguments
		{`3`, `{"name":"calc","arguments":[1,2]}`},                    // isError: not an object
		{`4`, `{"name":"calc","arguments":{"expression":"1/0"}}`},     // isError: the tool fails
		{`5`, `{"name":"nope","arguments":{}}`},                       // unknown tool: the SDK's -32602
		{`6`, `{"name":"triple"}`},                                    // array result
		{`7`, `{"name":"liar","arguments":null}`},                     // output schema mismatch
		{`"ünï"`, `{"name":"calc","arguments":{"expression":"1+1"}}`}, // id the fast encoder does not write
		{`8`, `{"name":"tag","arguments":{"who":"\"é\u2029"}}`},       // escaping in structuredContent
		{`9`, `{"name":"tag","arguments":{"who":""}}`},                // empty text
	}
	type answer struct{ status, ct, cc, body string }
	// The SDK's answers (httpSDKOnly), the handler's direct path (net/http
	// reads the connection), and ServeHTTP's, where the front answers the
	// local builtin's calls itself (front.go).
	variants := []string{"sdk", "direct", "front"}
	for _, protocol := range []string{"", "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		var got [3][]answer
		for i, variant := range variants {
			s, _ := newServer(t, dir, Options{})
			s.httpSDKOnly = variant == "sdk"
			var sdkCalls atomic.Int64
			s.sdk.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
				return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
					if method == "tools/call" {
						sdkCalls.Add(1)
					}
					return next(ctx, method, req)
				}
			})
			var url string
			if variant == "front" {
				url = serveHTTP(t, s, HTTPOptions{})
			} else {
				h, err := s.HTTPHandler(HTTPOptions{})
				if err != nil {
					t.Fatal(err)
				}
				ts := httptest.NewServer(h)
				defer ts.Close()
				url = ts.URL + "/mcp"
			}
			for _, c := range calls {
				body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":%s}`, c.id, c.params)
				req, _ := http.NewRequest("POST", url, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				if protocol != "" {
					req.Header.Set("Mcp-Protocol-Version", protocol)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				data, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				got[i] = append(got[i], answer{resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), string(data)})
			}
			want := int64(len(calls))
			if variant != "sdk" {
				want = 1 // the unknown tool
			}
			if n := sdkCalls.Load(); n != want {
				t.Errorf("protocol %q %s: %d calls reached the SDK, want %d", protocol, variant, n, want)
			}
		}
		for i := range calls {
			for v := 1; v < len(variants); v++ {
				if got[0][i] != got[v][i] {
					t.Errorf("protocol %q %s:\nSDK:    %+v\n%s: %+v", protocol, calls[i].params, got[0][i], variants[v], got[v][i])
				}
			}
		}
	}
}

// TestHTTPDirectPassesThrough: what the direct path does not take reaches
// the SDK, which answers as it does: a request with _meta, 2026-07-28, an
// Accept without event streams (400), a rebinding Host (403).
func TestHTTPDirectPassesThrough(t *testing.T) {
	s, _ := newServer(t, copyTools(t), Options{})
	var sdkCalls atomic.Int64
	s.sdk.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/call" {
				sdkCalls.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	h, err := s.HTTPHandler(HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	post := func(body, accept, host string) int {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", accept)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	const both = "application/json, text/event-stream"
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expression":"1+1"}}}`
	if code := post(call, both, ""); code != 200 || sdkCalls.Load() != 0 {
		t.Fatalf("plain call: %d, %d reached the SDK", code, sdkCalls.Load())
	}
	withMeta := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calc","arguments":{"expression":"1+1"},"_meta":{"progressToken":1,"trace":"t"}}}`
	if code := post(withMeta, both, ""); code != 200 || sdkCalls.Load() != 1 {
		t.Errorf("_meta: %d, %d reached the SDK", code, sdkCalls.Load())
	}
	if code := post(call, "application/json", ""); code != 400 {
		t.Errorf("Accept without event streams: %d, want the SDK's 400", code)
	}
	if code := post(call, both, "evil.example"); code != 403 {
		t.Errorf("rebinding Host: %d, want the SDK's 403", code)
	}
}

// readAll reads what io.ReadAll reads, whatever the declared length says.
func TestReadAllSizedByContentLength(t *testing.T) {
	for _, c := range []struct {
		body     string
		declared int64
	}{
		{"", 0}, {"abc", 3}, {"abc", -1}, {"abcdef", 3}, {"ab", 3}, {strings.Repeat("x", 5000), 5000}, {"abc", 1 << 40},
	} {
		got, err := readAll(iotest.OneByteReader(strings.NewReader(c.body)), c.declared, 1<<20)
		if err != nil || string(got) != c.body {
			t.Errorf("readAll(%d bytes, declared %d) = %d bytes, %v", len(c.body), c.declared, len(got), err)
		}
	}
	boom := errors.New("boom")
	if _, err := readAll(iotest.ErrReader(boom), 3, 10); err != boom {
		t.Errorf("error lost: %v", err)
	}
}
