package mcp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// pipeServe runs s on the stdio transport over pipes, with or without the
// direct tools/call path, and initializes a session at protocol. sdkCalls
// counts the tools/call requests that reach the SDK.
func pipeServe(t *testing.T, s *Server, log *syncBuffer, direct bool, protocol string) (r *rawSession, sdkCalls *atomic.Int64) {
	t.Helper()
	sdkCalls = new(atomic.Int64)
	s.sdk.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/call" {
				sdkCalls.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := &lineTransport{r: inR, w: outW}
	if direct {
		tr.srv = s
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		s.sdk.Run(ctx, tr)
		outW.Close()
		close(done)
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		io.Copy(io.Discard, outR)
		<-done
	})
	r = &rawSession{t: t, w: inW, br: bufio.NewReader(outR), log: log}
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + protocol + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	r.recv()
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r, sdkCalls
}

// TestFastCallMatchesSDK: the tools/call responses the stdio transport
// writes itself are byte for byte those of the SDK's path.
func TestFastCallMatchesSDK(t *testing.T) {
	dir := copyTools(t)
	greet := "name: greet\ndescription: Greets. Use when testing text results.\ncategory: custom\nentry:\n  type: javascript\n  code: |\n    function execute(input) { return 'hello ' + input.who; }\nparameters:\n  type: object\n  properties:\n    who: {type: string, description: Whom.}\n  required: [who]\n"
	if err := os.WriteFile(filepath.Join(dir, "greet.yaml"), []byte(greet), 0o644); err != nil {
		t.Fatal(err)
	}
	// HTML characters and U+2028 in structured content, an empty string.
	tag := "name: tag\ndescription: Tags. Use when testing escaping.\ncategory: custom\nentry:\n  type: javascript\n  code: |\n    function execute(input) { return input.who === '' ? '' : {html: '<b>&' + input.who + '\\u2028</b>', n: [1, 2.5]}; }\nparameters:\n  type: object\n  properties:\n    who: {type: string, description: Whom.}\n  required: [who]\n"
	if err := os.WriteFile(filepath.Join(dir, "tag.yaml"), []byte(tag), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := []struct{ id, params string }{
		{`1`, `{"name":"calc","arguments":{"expression":"2*(3+4)"}}`},          // object result
		{`"s-1"`, `{"name":"greet","arguments":{"who":"<b>&amp; \"ü\""}}`},     // text result
		{`2`, `{"name":"calc","arguments":{"expression":7}}`},                  // isError: invalid arguments
		{`3`, `{"name":"calc","arguments":[1,2]}`},                             // isError: not an object
		{`4`, `{"name":"calc","arguments":{"expression":"1/0"}}`},              // isError: the tool fails
		{`5`, `{"name":"nope","arguments":{}}`},                                // unknown tool: -32602
		{`6`, `{"name":"triple"}`},                                             // array: structuredContent by protocol
		{`7`, `{"name":"liar","arguments":null}`},                              // output schema mismatch
		{`"ünï"`, `{"name":"calc","arguments":{"expression":"1+1"}}`},          // id the fast encoder does not write
		{`8`, `{"name":"tag","arguments":{"who":"\"é\u2029"}}`},                // escaping in structuredContent
		{`9`, `{"name":"tag","arguments":{"who":""}}`},                         // empty text
		{`10`, `{"name":"calc","arguments":{"expression":"1 < 2 && \u2028"}}`}, // escaping in an error
	}
	const sdkOnly = 1 // the unknown tool goes to the SDK on both paths
	for _, protocol := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		var got [2][]string
		for i, direct := range []bool{false, true} {
			s, log := newServer(t, dir, Options{})
			r, sdkCalls := pipeServe(t, s, log, direct, protocol)
			for _, c := range calls {
				r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":%s}`, c.id, c.params))
				got[i] = append(got[i], r.recv())
			}
			want := int64(len(calls))
			if direct {
				want = sdkOnly
			}
			if n := sdkCalls.Load(); n != want {
				t.Errorf("%s direct=%v: %d calls reached the SDK, want %d", protocol, direct, n, want)
			}
		}
		for i := range calls {
			if got[0][i] != got[1][i] {
				t.Errorf("%s %s:\nSDK:    %s\ndirect: %s", protocol, calls[i].params, got[0][i], got[1][i])
			}
		}
	}
}

// TestFastCallPassesThrough: what the direct path does not take reaches
// the SDK: calls before initialization, _meta, batches, 2026-07-28.
func TestFastCallPassesThrough(t *testing.T) {
	dir := copyTools(t)
	s, log := newServer(t, dir, Options{})
	// A 2026-07-28 request names its revision in _meta (an initialize of
	// 2026-07-28 is answered, and served, as 2025-11-25:
	// TestInitializeNewerProtocol).
	r, sdkCalls := pipeServe(t, s, log, true, "2025-11-25")
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expression":"1+1"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`)
	if got := r.recv(); !strings.Contains(got, `"io.modelcontextprotocol/serverInfo"`) {
		t.Errorf("2026-07-28 request (the SDK answers with its serverInfo): %s", got)
	}
	s, log = newServer(t, dir, Options{})
	r, sdkCalls2 := pipeServe(t, s, log, true, "2025-11-25")
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expression":"1+1"},"_meta":{"progressToken":1,"trace":"t"}}}`)
	r.recv()
	r.send(`[{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calc","arguments":{"expression":"1+1"}}}]`)
	r.recv()
	if sdkCalls.Load() != 1 || sdkCalls2.Load() != 2 {
		t.Errorf("calls reaching the SDK: %d and %d, want 1 and 2", sdkCalls.Load(), sdkCalls2.Load())
	}
}

// TestInitializeNewerProtocol: a client that asks for 2026-07-28 or a
// revision the server does not know in initialize is answered 2025-11-25,
// and then served as of 2025-11-25 on both paths: no resultType, no
// structuredContent that is not an object.
func TestInitializeNewerProtocol(t *testing.T) {
	for _, v := range []string{"2026-07-28", "2099-01-01"} {
		t.Run(v, func(t *testing.T) {
			s, log := newServer(t, copyTools(t), Options{})
			r, _ := pipeServe(t, s, log, true, v)
			for _, meta := range []string{"", `,"_meta":{"progressToken":1,"trace":"t"}`} {
				r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"triple","arguments":{}` + meta + `}}`)
				got := r.recv()
				if strings.Contains(got, "resultType") || strings.Contains(got, `"structuredContent":[`) || !strings.Contains(got, `"text":"[1,2,3]"`) {
					t.Errorf("call (meta %q): %s", meta, got)
				}
			}
		})
	}
}

// TestFastCallCancellation: notifications/cancelled reaches a call the
// direct path runs, which answers at once as the SDK's would.
func TestFastCallCancellation(t *testing.T) {
	s, log := newServer(t, copyTools(t), Options{})
	r, sdkCalls := pipeServe(t, s, log, true, "2025-11-25")
	start := time.Now()
	r.send(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"busy","arguments":{"ms":15000}}}`)
	time.Sleep(100 * time.Millisecond)
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow","reason":"test"}}`)
	got := r.recv()
	if !strings.Contains(got, `"id":"slow"`) || !strings.Contains(got, `"isError":true`) || !strings.Contains(got, "cancelled by the client") {
		t.Errorf("cancelled call: %s", got)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the cancelled call answered after %s", d)
	}
	if n := sdkCalls.Load(); n != 0 {
		t.Errorf("%d calls reached the SDK, want 0", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for s.calls.count() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the cancelled call is still running")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestFastCallShutdownOnEOF: a call the direct path runs when stdin ends
// still gets its answer before the session ends.
func TestFastCallShutdownOnEOF(t *testing.T) {
	r := rawServe(t, copyTools(t), Options{})
	r.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"busy","arguments":{"ms":300}}}`)
	r.w.(io.Closer).Close()
	if got := r.recv(); !strings.Contains(got, `"id":9`) || !strings.Contains(got, `\"slept\":300`) {
		t.Errorf("call in flight at EOF: %s", got)
	}
}

// TestFastCallPipelined: calls written all at once, some answered on the
// reading goroutine and some queued behind others or too long for it, all
// get their own answers.
func TestFastCallPipelined(t *testing.T) {
	s, log := newServer(t, copyTools(t), Options{})
	r, _ := pipeServe(t, s, log, true, "2025-11-25")
	// With its envelope, a line longer than the reader answers itself.
	const terms = 2000
	long := strings.Repeat("1+", terms-1) + "1"
	var batch strings.Builder
	want := map[string]string{}
	for i := range 60 {
		expr := fmt.Sprintf("%d*3", i)
		sum := fmt.Sprint(i * 3)
		if i%20 == 7 {
			expr, sum = long, fmt.Sprint(terms)
		}
		fmt.Fprintf(&batch, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"calc","arguments":{"expression":%q}}}`+"\n", i+1, expr)
		want[fmt.Sprintf(`"id":%d,`, i+1)] = `\"result\":` + sum + `}`
	}
	if _, err := io.WriteString(r.w, batch.String()); err != nil {
		t.Fatal(err)
	}
	for range want {
		got := r.recv()
		found := false
		for id, result := range want {
			if strings.Contains(got, id) {
				found = true
				if !strings.Contains(got, result) {
					t.Errorf("answer %s: want %s", truncate(got, 200), result)
				}
				delete(want, id)
				break
			}
		}
		if !found {
			t.Fatalf("an answer to no call left: %s", truncate(got, 200))
		}
	}
}
