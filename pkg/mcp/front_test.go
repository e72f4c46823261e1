package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// serveHTTP runs s.ServeHTTP on a loopback port and returns the endpoint.
func serveHTTP(t testing.TB, s *Server, opts HTTPOptions) string {
	t.Helper()
	h, err := s.HTTPHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	return serveHandler(t, s, opts, h)
}

// serveNetHTTP is serveHTTP with net/http reading the connections (the
// handler wrapped, so ServeHTTP does not put the front before it).
func serveNetHTTP(t testing.TB, s *Server, opts HTTPOptions) string {
	t.Helper()
	h, err := s.HTTPHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	return serveHandler(t, s, opts, http.HandlerFunc(h.ServeHTTP))
}

// serveHandler runs s.ServeHTTP with h until the test ends.
func serveHandler(t testing.TB, s *Server, opts HTTPOptions, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx, ln, h, opts, time.Second) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + "/mcp"
}

// httpAnswer is a response as a client sees it: framing (Content-Length,
// chunks) and Date aside.
type httpAnswer struct {
	Status int
	Header string
	Body   string
	Close  bool
}

// exchange writes raw to a new connection to url's host and reads the
// responses until the connection closes or nothing comes for quiet.
func exchange(t testing.TB, url string, raw []byte, quiet time.Duration) []httpAnswer {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go c.Write(raw)
	br := bufio.NewReader(c)
	var out []httpAnswer
	for {
		c.SetReadDeadline(time.Now().Add(quiet))
		if _, err := br.Peek(1); err != nil {
			return out
		}
		// A response to HEAD has no body to read: it ends here, alike on
		// both sides.
		c.SetReadDeadline(time.Now().Add(max(10*quiet, time.Second)))
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return append(out, httpAnswer{Status: -1})
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return append(out, httpAnswer{Status: -2})
		}
		h := resp.Header.Clone()
		for _, k := range []string{"Date", "Content-Length", "Transfer-Encoding"} {
			delete(h, k)
		}
		var b strings.Builder
		h.Write(&b)
		out = append(out, httpAnswer{resp.StatusCode, b.String(), string(body), resp.Close})
		if resp.Close {
			return out
		}
	}
}

// frontPair serves a calculator (a local builtin: the front's own path)
// and a command tool twice: with the front and with net/http alone.
func frontPair(t testing.TB) (front, plain string) {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "tools", "calculator.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "calculator.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	echo := "name: echo\ndescription: Echoes its word. Use when testing.\nentry:\n  type: command\n  command: [echo, '{{word}}']\nparameters:\n  type: object\n  properties:\n    word: {type: string, description: A word.}\n  required: [word]\n"
	if err := os.WriteFile(filepath.Join(dir, "echo.yaml"), []byte(echo), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := HTTPOptions{MaxRequestBytes: 4096, ReadTimeout: 5 * time.Second}
	s1, _ := newServer(t, dir, Options{})
	s2, _ := newServer(t, dir, Options{})
	return serveHTTP(t, s1, opts), serveNetHTTP(t, s2, opts)
}

// post is one POST of body to /mcp with the headers an SDK client sends.
func post(body string, extra ...string) string {
	h := "Host: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-11-25\r\n"
	for _, e := range extra {
		h += e + "\r\n"
	}
	return fmt.Sprintf("POST /mcp HTTP/1.1\r\n%sContent-Length: %d\r\n\r\n%s", h, len(body), body)
}

const (
	hotCall  = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculator","arguments":{"expression":"2*(3+4)"}}}`
	initCall = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
)

// frontCases are byte streams a client may send: every one is answered as
// net/http alone answers it.
var frontCases = []string{
	post(hotCall),
	post(initCall),
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`),
	post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`),
	post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"word":"hi"}}}`),
	post(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope","arguments":{}}}`),
	post(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"calculator","arguments":{"expression":7}}}`),
	post(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"calculator","arguments":{"expression":"1"},"_meta":{"progressToken":"p"}}}`),
	post(`[{"jsonrpc":"2.0","id":7,"method":"ping"}]`),
	post(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":`),
	post(hotCall) + post(initCall) + post(hotCall) + post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`) + post(hotCall), // pipelined
	post(hotCall) + "\r\n" + post(hotCall),                                                                                  // a CRLF after a POST
	post(hotCall, "Origin: http://evil.example"),                                                                            // cross-origin
	post(hotCall, "Origin: http://127.0.0.1", "Sec-Fetch-Site: same-origin"),
	post(hotCall, "Connection: close") + post(hotCall), // closes after the first
	post(hotCall, "Connection: keep-alive") + post(hotCall),
	post(hotCall, "Expect: 100-continue"),
	post(hotCall, "Mcp-Protocol-Version: 2026-07-28"),
	strings.Replace(post(hotCall), "Host: 127.0.0.1", "Host: evil.example", 1), // DNS rebinding
	strings.Replace(post(hotCall), "Host: 127.0.0.1\r\n", "", 1),               // no Host
	strings.Replace(post(hotCall), "Host: 127.0.0.1", "Host: 127.0.0.1\r\nHost: x", 1),
	strings.Replace(post(hotCall), "Host: 127.0.0.1", "Host: a b", 1),
	strings.Replace(post(hotCall), "Accept: application/json, text/event-stream", "Accept: application/json", 1),
	strings.Replace(post(hotCall), "Content-Type: application/json", "Content-Type: text/plain", 1),
	strings.Replace(post(hotCall), "HTTP/1.1", "HTTP/1.0", 1),
	strings.Replace(post(hotCall), "HTTP/1.1", "HTTP/2.0", 1),
	strings.Replace(post(hotCall), "POST /mcp", "POST /mcp?x=1", 1),
	strings.Replace(post(hotCall), "POST /mcp", "POST /other", 1),
	strings.Replace(post(hotCall), "POST /mcp", "POST http://127.0.0.1/mcp", 1),
	strings.Replace(post(hotCall), "POST /mcp", "GET /mcp", 1),
	strings.Replace(post(hotCall), "POST /mcp", "DELETE /mcp", 1),
	strings.Replace(post(hotCall), "POST /mcp", "OPTIONS /mcp", 1),
	strings.Replace(post(hotCall), "\r\n", "\n", -1), // bare LF
	strings.Replace(post(hotCall), "Content-Length:", "Content-Length: 5\r\nContent-Length:", 1),
	strings.Replace(post(hotCall), "Content-Length:", "Transfer-Encoding: chunked\r\nContent-Length:", 1), // smuggling
	"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" +
		fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(hotCall), hotCall) + post(hotCall),
	post(hotCall, "X-Folded: a\r\n b"), // obs-fold
	post(hotCall, "Bad Header: x"),
	post(hotCall, "X-Long: "+strings.Repeat("a", 70<<10)), // over the header limit: 431
	post(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"calculator","arguments":{"expression":"` + strings.Repeat("1+", 3000) + `1"}}}`), // over 4096 bytes: 413
	post(hotCall)[:60],                   // cut in the headers
	post(hotCall)[:len(post(hotCall))-5], // cut in the body
	"garbage\r\n\r\n",
	"\r\n\r\n" + post(hotCall),
	// net/http refuses the Host before it reads the body (one byte short).
	strings.TrimSuffix(strings.Replace(strings.Replace(post(hotCall), "POST /mcp", "POST http://127.0.0.1/mcp", 1), "Host: 127.0.0.1", "Host: 127.0\xf90.1", 1), "}"),
}

// TestFrontSameAsNetHTTP: the front answers what net/http alone answers,
// for every case (pipelined too), and its own answers only to the plain
// calls of the local builtin.
func TestFrontSameAsNetHTTP(t *testing.T) {
	front, plain := frontPair(t)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, raw := range frontCases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if got, want := sameAnswers(t, front, plain, []byte(raw), 200*time.Millisecond); !slices.Equal(got, want) {
				t.Errorf("case %d %.120q:\nfront:    %+v\nnet/http: %+v", i, raw, got, want)
			}
		}()
	}
	wg.Wait()
}

// sameAnswers is what the two servers answer to raw: with quiet, and if
// they differ with longer ones (a loaded machine may be slower than
// quiet). Run FuzzFront with -fuzzminimizetime 1s: its coverage varies
// from run to run (goroutines, timing), so most inputs look new.
func sameAnswers(t testing.TB, front, plain string, raw []byte, quiet time.Duration) (got, want []httpAnswer) {
	for _, q := range []time.Duration{quiet, 10 * quiet, max(100*quiet, 2*time.Second)} {
		done := make(chan struct{})
		go func() {
			got = exchange(t, front, raw, q)
			close(done)
		}()
		want = exchange(t, plain, raw, q)
		<-done
		if slices.Equal(got, want) {
			break
		}
	}
	return got, want
}

func FuzzFront(f *testing.F) {
	for _, c := range frontCases {
		f.Add([]byte(c))
	}
	front, plain := frontPair(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		if got, want := sameAnswers(t, front, plain, raw, 30*time.Millisecond); !slices.Equal(got, want) {
			t.Errorf("%q:\nfront:    %+v\nnet/http: %+v", raw, got, want)
		}
	})
}

// TestFrontAnswersHot: a plain call of a local builtin is answered by the
// front, without net/http's server; anything else reaches the handler.
func TestFrontAnswersHot(t *testing.T) {
	s, _ := newServer(t, "../../tools", Options{})
	h, err := s.HTTPHandler(HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := h.(*httpEndpoint)
	var handled atomic.Int64
	inner := e.h
	e.h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handled.Add(1)
		inner.ServeHTTP(w, r)
	})
	url := serveHandler(t, s, HTTPOptions{}, h)
	got := exchange(t, url, []byte(post(initCall)+post(hotCall)+post(hotCall)+post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)+post(hotCall)), 2*time.Second)
	if len(got) != 5 {
		t.Fatalf("%d answers, want 5: %+v", len(got), got)
	}
	for i, a := range got {
		if a.Status != 200 {
			t.Errorf("answer %d: %+v", i, a)
		}
	}
	if !strings.Contains(got[1].Body, `"result":14`) {
		t.Errorf("the call's answer: %s", got[1].Body)
	}
	if n := handled.Load(); n != 2 {
		t.Errorf("net/http's server handled %d requests, want 2 (initialize, tools/list)", n)
	}
}

// TestFrontShutdown: at shutdown a connection waiting for a request is
// closed, and ServeHTTP returns.
func TestFrontShutdown(t *testing.T) {
	s, _ := newServer(t, "../../tools", Options{})
	h, err := s.HTTPHandler(HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx, ln, h, HTTPOptions{}, time.Second) }()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, post(hotCall))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the call: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeHTTP did not return after its context ended")
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Errorf("the idle connection: %v, want it closed (EOF)", err)
	}
}

// TestFrontBoundsHeaders: headers are read up to net/http's bound and no
// further: a client that sends them without end is answered 431.
func TestFrontBoundsHeaders(t *testing.T) {
	front, _ := frontPair(t)
	addr := strings.TrimSuffix(strings.TrimPrefix(front, "http://"), "/mcp")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() {
		io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: ")
		chunk := bytes.Repeat([]byte("a"), 64<<10)
		for range 1 << 10 { // 64 MiB, if nothing stops it
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	}()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("status %d, want 431", resp.StatusCode)
	}
}
