//go:build unix

package mcp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// These tests serve command tools that leave traces: "counted" appends +
// to a log when it starts and - when it ends, so the log's prefixes say
// how many ran at once; "pidsleep" writes its pid to a file and sleeps
// 15s, so a test can see whether the process outlives its call.

func limitTools(t *testing.T) (dir, log, pidFile string) {
	t.Helper()
	dir = t.TempDir()
	log = filepath.Join(dir, "counted.log")
	pidFile = filepath.Join(dir, "pid")
	files := map[string]string{
		"counted.yaml": fmt.Sprintf(`name: counted
description: Sleeps half a second and logs its start and end. Use when testing limits.
entry:
  type: command
  command: [sh, -c, 'echo + >> "$1"; sleep 0.5; echo - >> "$1"', sh, %q]
runtime: {timeout: 60s}
`, log),
		"pidsleep.yaml": fmt.Sprintf(`name: pidsleep
description: Writes its pid and sleeps 15s. Use when testing cancellation.
entry:
  type: command
  command: [sh, -c, 'echo $$ > "$1.tmp" && mv "$1.tmp" "$1" && exec sleep 15', sh, %q]
runtime: {timeout: 60s}
`, pidFile),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, log, pidFile
}

// maxRunning replays the counted log: the most calls running at once.
func maxRunning(t *testing.T, log string) (most, started int) {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	n := 0
	for _, c := range string(data) {
		switch c {
		case '+':
			n++
			started++
			most = max(most, n)
		case '-':
			n--
		}
	}
	return most, started
}

// waitPID waits for the pid file and returns the pid in it.
func waitPID(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		data, err := os.ReadFile(path)
		if err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				t.Fatalf("pid file: %q", data)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatal("the tool did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive tells whether a process exists (kill -0).
func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// waitGone fails unless pid is gone within a few seconds: the tool sleeps
// 15s, so a process that was not killed is still there.
func waitGone(t *testing.T, pid int, log fmt.Stringer) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the tool's process %d still runs 5s after its call was cancelled\nserver log:\n%s", pid, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

const busyMessage = "RateLimitError in counted: not run: the server is at its limit of 3 concurrent calls (it waited 200ms for one to end); retry later, or make fewer calls at once. To raise the limit, start toolctl serve with a higher --max-concurrent (now 3)"

// TestMaxConcurrent: 20 calls at once with room for 3: never more than 3
// processes run, the calls that cannot start within the queue wait are
// answered with isError, and every call is answered — over the stdio
// transport's direct path, through the SDK, and over HTTP.
func TestMaxConcurrent(t *testing.T) {
	const calls, limit = 20, 3
	opts := Options{MaxConcurrent: limit, QueueWait: 200 * time.Millisecond}
	check := func(t *testing.T, log string, results []string) {
		t.Helper()
		most, started := maxRunning(t, log)
		if most > limit {
			t.Errorf("%d calls ran at once, want at most %d", most, limit)
		}
		ok, refused := 0, 0
		for _, r := range results {
			switch {
			case r == "":
				ok++
			case r == busyMessage:
				refused++
			default:
				t.Errorf("unexpected answer: %s", r)
			}
		}
		if ok+refused != calls || refused == 0 || ok < limit {
			t.Errorf("%d calls ran and %d were refused, want %d in all, at least %d run and some refused", ok, refused, calls, limit)
		}
		if started != ok {
			t.Errorf("%d calls started a process, but %d succeeded", started, ok)
		}
	}

	t.Run("stdio-direct", func(t *testing.T) {
		dir, log, _ := limitTools(t)
		r := rawServe(t, dir, opts)
		for i := range calls {
			r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"counted","arguments":{}}}`, i+1))
		}
		var results []string
		for range calls {
			got := r.recv()
			switch {
			case strings.Contains(got, `"isError":true`):
				results = append(results, between(got, `"text":"`, `"}]`))
			case strings.Contains(got, `"result":{"content":[`):
				results = append(results, "")
			default:
				results = append(results, got)
			}
		}
		check(t, log, results)
		if !strings.Contains(r.log.String(), "at the limit of 3 concurrent calls (--max-concurrent): refusing calls after waiting 200ms") {
			t.Errorf("log:\n%s", r.log)
		}
	})

	t.Run("stdio-sdk", func(t *testing.T) {
		dir, log, _ := limitTools(t)
		h := serve(t, dir, setup{opts: opts}) // 2026-07-28: the SDK's path
		check(t, log, flood(t, calls, h.cs))
	})

	t.Run("http", func(t *testing.T) {
		dir, log, _ := limitTools(t)
		s, slog := newServer(t, dir, opts)
		url := serveHTTP(t, s, HTTPOptions{})
		client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, nil)
		cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
		if err != nil {
			t.Fatalf("connect: %v\nlog:\n%s", err, slog)
		}
		defer cs.Close()
		check(t, log, flood(t, calls, cs))
	})
}

// TestMaxConcurrentNoWait: with a negative QueueWait (--queue-wait 0) a
// call over the limit is refused at once, and the log says so.
func TestMaxConcurrentNoWait(t *testing.T) {
	dir, log, pidFile := limitTools(t)
	r := rawServe(t, dir, Options{MaxConcurrent: 1, QueueWait: -1})
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pidsleep","arguments":{}}}`)
	pid := waitPID(t, pidFile)
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"counted","arguments":{}}}`)
	want := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"RateLimitError in counted: not run: the server is at its limit of 1 concurrent calls; retry later, or make fewer calls at once. To raise the limit, start toolctl serve with a higher --max-concurrent (now 1)"}],"isError":true}}`
	if got := r.recv(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, started := maxRunning(t, log); started != 0 {
		t.Error("the refused call ran")
	}
	if !strings.Contains(r.log.String(), "at the limit of 1 concurrent calls (--max-concurrent): refusing calls at once (1 so far)") {
		t.Errorf("log:\n%s", r.log)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	waitGone(t, pid, r.log)
	r.recv()
}

// TestMaxConcurrentQueueFull: beyond 16 waiting calls per slot, a call is
// refused at once; a waiting call the client cancels answers at once and
// never runs.
func TestMaxConcurrentQueueFull(t *testing.T) {
	dir, log, pidFile := limitTools(t)
	r := rawServe(t, dir, Options{MaxConcurrent: 1, QueueWait: time.Minute})
	r.send(`{"jsonrpc":"2.0","id":"hold","method":"tools/call","params":{"name":"pidsleep","arguments":{}}}`)
	pid := waitPID(t, pidFile)
	for i := range 17 {
		r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"counted","arguments":{}}}`, i+1))
	}
	want := `"text":"RateLimitError in counted: not run: the server is at its limit of 1 concurrent calls with 16 more waiting; retry later`
	got := r.recv()
	if !strings.Contains(got, want) {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	refused := between(got, `"id":`, `,`) // whichever came last to the queue
	for i := range 17 {
		if id := strconv.Itoa(i + 1); id != refused {
			r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`)
		}
	}
	for range 16 {
		if got := r.recv(); !strings.Contains(got, "ToolExecutionError in counted: cancelled by the client before it started") {
			t.Errorf("a cancelled waiting call: %s", got)
		}
	}
	if _, started := maxRunning(t, log); started != 0 {
		t.Errorf("%d waiting calls ran", started)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"hold"}}`)
	waitGone(t, pid, r.log)
	r.recv()
}

// flood makes n calls of counted at once and returns their answers: ""
// for a success, the text of an error.
func flood(t *testing.T, n int, cs *sdk.ClientSession) []string {
	t.Helper()
	results := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "counted", Arguments: map[string]any{}})
			switch {
			case err != nil:
				results[i] = "protocol error: " + err.Error()
			case res.IsError:
				results[i] = text(res)
			}
		})
	}
	wg.Wait()
	return results
}

func between(s, from, to string) string {
	_, s, _ = strings.Cut(s, from)
	s, _, _ = strings.Cut(s, to)
	return s
}

// rawPost sends a POST of body to the endpoint on a connection of its
// own, without reading the answer.
// From 2026-07-28 on, Mcp-Method and Mcp-Name repeat the body's method
// and tool.
func rawPost(t *testing.T, url, protocol, body string, extraHeaders ...string) net.Conn {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Error(err)
		return nil
	}
	extra := ""
	for _, h := range extraHeaders {
		extra += h + "\r\n"
	}
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: %s\r\n%sContent-Length: %d\r\n\r\n%s", addr, protocol, extra, len(body), body)
	return c
}

// TestHTTPDisconnectCancels: a client that closes its connection while
// its call runs cancels the call, and the tool's process is killed, in
// every protocol revision.
func TestHTTPDisconnectCancels(t *testing.T) {
	for _, protocol := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(protocol, func(t *testing.T) {
			dir, _, pidFile := limitTools(t)
			s, log := newServer(t, dir, Options{})
			url := serveHTTP(t, s, HTTPOptions{})
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pidsleep","arguments":{}}}`
			if protocol >= "2026-07-28" {
				body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pidsleep","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
			}
			var headers []string
			if protocol >= "2026-07-28" {
				headers = []string{"Mcp-Method: tools/call", "Mcp-Name: pidsleep"}
			}
			c := rawPost(t, url, protocol, body, headers...)
			if c == nil {
				return
			}
			pid := waitPID(t, pidFile)
			c.Close()
			waitGone(t, pid, log)
			deadline := time.Now().Add(5 * time.Second)
			for s.calls.count() > 0 {
				if time.Now().After(deadline) {
					t.Fatal("the call is still counted in flight")
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// TestStdioCancelKills: notifications/cancelled kills the tool's process,
// on the direct path and the SDK's (which takes calls with _meta).
func TestStdioCancelKills(t *testing.T) {
	for _, path := range []string{"direct", "sdk"} {
		t.Run(path, func(t *testing.T) {
			dir, _, pidFile := limitTools(t)
			s, log := newServer(t, dir, Options{})
			r, sdkCalls := pipeServe(t, s, log, true, "2025-06-18")
			meta := ""
			if path == "sdk" {
				meta = `,"_meta":{"progressToken":"p1","trace":"t"}`
			}
			r.send(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"pidsleep","arguments":{}` + meta + `}}`)
			pid := waitPID(t, pidFile)
			r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1","reason":"test"}}`)
			waitGone(t, pid, log)
			if path == "direct" {
				if got := r.recv(); !strings.Contains(got, "cancelled by the client") {
					t.Errorf("answer: %s", got)
				}
			}
			if want := map[string]int64{"direct": 0, "sdk": 1}[path]; sdkCalls.Load() != want {
				t.Errorf("%d calls reached the SDK, want %d", sdkCalls.Load(), want)
			}
		})
	}
}

// TestStdioClientGone: a client that closes stdin and stdout (it exited)
// while a call runs: the call is cancelled at once, its process killed,
// and the server ends without waiting out the grace period.
func TestStdioClientGone(t *testing.T) {
	dir, _, pidFile := limitTools(t)
	s, log := newServer(t, dir, Options{})
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- s.ServeStdio(context.Background(), inR, outW, time.Minute)
		inR.Close()
		outW.Close()
	}()
	br := bufio.NewReader(outR)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if _, err := br.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pidsleep","arguments":{}}}`)
	pid := waitPID(t, pidFile)
	inW.Close()
	outR.Close()
	waitGone(t, pid, log)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the server still runs 20s after its client left (grace 1m)\nlog:\n%s", log)
	}
	if !strings.Contains(log.String(), "cancelling the 1 request(s) still running: nobody reads stdout any more (the client is gone)") {
		t.Errorf("log:\n%s", log)
	}
}

// TestStdioSignalAfterEOF: stdin closed, then a signal (ctx): the calls
// still running are cancelled at once, as the MCP shutdown sequence
// expects (close stdin, wait, SIGTERM).
func TestStdioSignalAfterEOF(t *testing.T) {
	dir, _, pidFile := limitTools(t)
	h := serve(t, dir, setup{grace: time.Minute, protocol: "2025-06-18"})
	got := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, _ := h.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "pidsleep", Arguments: map[string]any{}})
		got <- res
	}()
	pid := waitPID(t, pidFile)
	h.stdinW.Close()
	time.Sleep(100 * time.Millisecond) // the server reads the EOF
	if !alive(pid) {
		t.Fatal("EOF alone killed the call; it should have its grace period")
	}
	h.cancel()
	waitGone(t, pid, h.log)
	select {
	case res := <-got:
		if res == nil || !res.IsError || !strings.Contains(text(res), "shutting down") {
			t.Errorf("answer = %+v", res)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no answer")
	}
	select {
	case err := <-h.done:
		h.done <- err
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not stop")
	}
	if !strings.Contains(h.log.String(), "cancelling the 1 request(s) still running: stopped while waiting for them after the end of stdin") {
		t.Errorf("log:\n%s", h.log)
	}
}

// TestHTTPSlowBody: a client that sends its headers and then trickles the
// body is answered 408 and disconnected after the read timeout.
func TestHTTPSlowBody(t *testing.T) {
	s, _ := newServer(t, copyTools(t), Options{})
	url := serveHTTP(t, s, HTTPOptions{ReadTimeout: 500 * time.Millisecond})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n", addr)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				if _, err := c.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	// The drip would take 100s; a server that waits for it does not answer
	// within 10s.
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no response to a trickled body: %v", err)
	}
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(data), "request body not received within 500ms") {
		t.Errorf("response: %d %s", resp.StatusCode, data)
	}
	// And the connection is closed.
	if _, err := bufio.NewReader(c).ReadByte(); err == nil {
		t.Error("the connection is still open")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Error("the connection is still open after the response")
	}
}

// TestHTTPSlowHeaders: headers that never end are cut off too.
func TestHTTPSlowHeaders(t *testing.T) {
	s, _ := newServer(t, copyTools(t), Options{})
	url := serveHTTP(t, s, HTTPOptions{ReadTimeout: 500 * time.Millisecond})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\n", addr)
	go func() {
		for i := 0; i < 100; i++ {
			time.Sleep(100 * time.Millisecond)
			if _, err := fmt.Fprintf(c, "X-Drip-%d: x\r\n", i); err != nil {
				return
			}
		}
	}()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err = io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the connection is still open 10s into trickled headers")
	}
}

// TestHTTPLongCallOutlivesReadTimeout: the read deadline covers the
// request, not the call: a call longer than it is answered.
func TestHTTPLongCallOutlivesReadTimeout(t *testing.T) {
	dir, _, _ := limitTools(t)
	s, log := newServer(t, dir, Options{})
	url := serveHTTP(t, s, HTTPOptions{ReadTimeout: 100 * time.Millisecond})
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, nil)
	for _, protocol := range []string{"2025-06-18", ""} {
		cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, &sdk.ClientSessionOptions{ProtocolVersion: protocol})
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "counted", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Errorf("a 500ms call with a 100ms read timeout (%q): %v %+v\nlog:\n%s", protocol, err, res, log)
		}
		cs.Close()
	}
}

// TestHTTPBodyLimit: a body over MaxRequestBytes is refused with 413.
func TestHTTPBodyLimit(t *testing.T) {
	s, _ := newServer(t, copyTools(t), Options{})
	url := serveHTTP(t, s, HTTPOptions{MaxRequestBytes: 1024})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expression":"` + strings.Repeat("1+", 600) + `1"}}}`
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(data), "request body larger than 1024 bytes; send less, or start toolctl serve with a higher --max-request-size") {
		t.Errorf("response: %d %s", resp.StatusCode, data)
	}
}

// TestHTTPMaxConnections: with room for 2 connections, a third is served
// only once one of the first two closes.
func TestHTTPMaxConnections(t *testing.T) {
	s, _ := newServer(t, copyTools(t), Options{})
	url := serveHTTP(t, s, HTTPOptions{MaxConnections: 2})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		held = append(held, c)
	}
	answered := make(chan int, 1)
	go func() {
		c := rawPost(t, url, "2025-06-18", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		if c == nil {
			answered <- -1
			return
		}
		defer c.Close()
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			answered <- -1
			return
		}
		answered <- resp.StatusCode
	}()
	select {
	case code := <-answered:
		t.Fatalf("a third connection was served (%d) while 2 were open", code)
	case <-time.After(500 * time.Millisecond):
	}
	held[0].Close()
	select {
	case code := <-answered:
		if code != 200 {
			t.Errorf("status %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the third connection was not served after one closed")
	}
}
