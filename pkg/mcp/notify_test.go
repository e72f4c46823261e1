package mcp

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// recvN reads n lines, failing (rather than hanging) when they do not
// come within a generous bound.
func recvN(t *testing.T, r *rawSession, n int) []string {
	t.Helper()
	lines := make(chan []string, 1)
	go func(br *bufio.Reader) {
		var got []string
		for range n {
			line, err := br.ReadString('\n')
			if err != nil {
				break
			}
			got = append(got, strings.TrimSpace(line))
		}
		lines <- got
	}(r.br)
	select {
	case got := <-lines:
		return got
	case <-time.After(30 * time.Second):
		t.Fatalf("%d lines did not come within 30s", n)
		return nil
	}
}

// reportTools writes a javascript tool that logs at two levels and
// reports progress, and one that returns an image, into a fresh dir.
func reportTools(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"reporter.yaml": `name: reporter
description: Logs and reports progress. Use when testing notifications.
category: custom
entry:
  type: javascript
  code: |
    function execute(input, ctx) {
      ctx.debug("fine detail");
      ctx.info("working", {step: 1});
      ctx.progress(1, 2, "half");
      ctx.progress(2, 2);
      return "done";
    }
`,
		"picture.yaml": `name: picture
description: Returns an image. Use when testing content.
category: custom
entry:
  type: javascript
  code: |
    function execute() { return [toolctl.text("a pixel"), toolctl.image("AAAA", "image/png")]; }
`,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	wantProgress1 = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","message":"half","progress":1,"total":2}}`
	wantProgress2 = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":2,"total":2}}`
	wantInfo      = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":{"data":{"step":1},"message":"working"},"level":"info"}}`
	wantDebug     = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"fine detail","level":"debug"}}`
	doneResult    = `"result":{"content":[{"type":"text","text":"done"}]}`
)

// TestHTTPNotificationsStream: over HTTP, a call whose tool reports
// answers with an event stream (the notifications, then the response); a
// call that reports nothing keeps its plain JSON response. Log messages
// go out at info and above (a stateless request's level), progress only
// with a progressToken.
func TestHTTPNotificationsStream(t *testing.T) {
	s, _ := newServer(t, reportTools(t), Options{})
	url := serveHTTP(t, s, HTTPOptions{})
	post := func(body string) (string, string) {
		resp := postMessage(t, url, body)
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.Header.Get("Content-Type"), string(data)
	}
	ct, body := post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"reporter","arguments":{},"_meta":{"progressToken":"tok"}}}`)
	want := "event: message\ndata: " + wantInfo + "\n\n" +
		"event: message\ndata: " + wantProgress1 + "\n\n" +
		"event: message\ndata: " + wantProgress2 + "\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1," + doneResult + "}\n\n"
	if ct != "text/event-stream" || body != want {
		t.Errorf("with a progress token: %s\n%s\nwant\n%s", ct, body, want)
	}
	ct, body = post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"reporter","arguments":{}}}`)
	if ct != "text/event-stream" || strings.Contains(body, "notifications/progress") || !strings.Contains(body, wantInfo) {
		t.Errorf("without a progress token: %s\n%s", ct, body)
	}
	// Left to the SDK (another _meta key): still an event stream with the
	// notifications.
	ct, body = post(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"reporter","arguments":{},"_meta":{"progressToken":"tok","trace":"t"}}}`)
	if ct != "text/event-stream" || !strings.Contains(body, wantInfo) || !strings.Contains(body, wantProgress1) || !strings.Contains(body, wantProgress2) || !strings.Contains(body, doneResult) {
		t.Errorf("SDK path with a progress token: %s\n%s", ct, body)
	}
	// Left to the SDK without a progress token: the log messages still
	// come, on an event stream (a JSON response dropped them).
	ct, body = post(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"reporter","arguments":{},"_meta":{"trace":"t"}}}`)
	if ct != "text/event-stream" || !strings.Contains(body, wantInfo) || strings.Contains(body, "notifications/progress") || !strings.Contains(body, doneResult) {
		t.Errorf("SDK path without a progress token: %s\n%s", ct, body)
	}
	ct, body = post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"picture","arguments":{}}}`)
	if wantBody := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"a pixel"},{"type":"image","data":"AAAA","mimeType":"image/png"}]}}`; ct != "application/json" || body != wantBody {
		t.Errorf("content result: %s %s\nwant %s", ct, body, wantBody)
	}
}

// TestStdioNotifications: over stdio, on the direct path and the SDK's,
// log messages follow logging/setLevel (none before it) and progress
// goes out with a progressToken, before the response.
func TestStdioNotifications(t *testing.T) {
	for _, path := range []string{"direct", "sdk"} {
		t.Run(path, func(t *testing.T) {
			s, log := newServer(t, reportTools(t), Options{})
			r, sdkCalls := pipeServe(t, s, log, true, "2025-06-18")
			meta := `"_meta":{"progressToken":"tok"}`
			if path == "sdk" {
				meta = `"_meta":{"progressToken":"tok","trace":"t"}` // not the direct path's
			}
			// No level set: no log messages.
			r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"reporter","arguments":{},` + meta + `}}`)
			got := recvN(t, r, 3)
			if got[0] != wantProgress1 || got[1] != wantProgress2 || !strings.Contains(got[2], doneResult) {
				t.Errorf("before setLevel:\n%s", strings.Join(got, "\n"))
			}
			r.send(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}`)
			if got := r.recv(); !strings.Contains(got, `"id":2,"result":{}`) {
				t.Fatalf("setLevel: %s", got)
			}
			r.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"reporter","arguments":{},` + meta + `}}`)
			got = recvN(t, r, 5)
			if got[0] != wantDebug || got[1] != wantInfo || got[2] != wantProgress1 || got[3] != wantProgress2 || !strings.Contains(got[4], doneResult) {
				t.Errorf("after setLevel debug:\n%s", strings.Join(got, "\n"))
			}
			if want := map[string]int64{"direct": 0, "sdk": 2}[path]; sdkCalls.Load() != want {
				t.Errorf("%d calls reached the SDK, want %d", sdkCalls.Load(), want)
			}
		})
	}
}
