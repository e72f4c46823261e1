package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// malformed are messages that are not valid MCP requests, each with the
// error it gets: code and id ("null" when it cannot be read) of each
// response, in order (a batch gets an array). code 0 means no answer.
var malformed = []struct {
	name, msg string
	want      []struct {
		code int
		id   string
	}
}{
	{"id without method", `{"jsonrpc":"2.0","id":1}`, rpcWant(-32600, "1")},
	{"id true", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, rpcWant(-32600, "null")},
	{"id object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, rpcWant(-32600, "null")},
	{"id fraction", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, rpcWant(-32600, "null")},
	{"id beyond 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, rpcWant(-32600, "null")},
	{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, rpcWant(-32600, "null")},
	{"params a string", `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":"x"}`, rpcWant(-32600, "4")},
	{"params a number", `{"jsonrpc":"2.0","id":"c","method":"tools/call","params":5}`, rpcWant(-32600, `"c"`)},
	{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":5,"method":"ping"}`, rpcWant(-32600, "5")},
	{"no jsonrpc", `{"id":6,"method":"ping"}`, rpcWant(-32600, "6")},
	{"method a number", `{"jsonrpc":"2.0","id":9,"method":5}`, rpcWant(-32600, "9")},
	{"not an object", `5`, rpcWant(-32600, "null")},
	{"not JSON", `{"jsonrpc":`, rpcWant(-32700, "null")},
	{"empty batch", `[]`, rpcWant(-32600, "null")},
	{"batch of non-objects", `[1,2]`, rpcWant(-32600, "null", -32600, "null")},
}

func rpcWant(pairs ...any) []struct {
	code int
	id   string
} {
	var out []struct {
		code int
		id   string
	}
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, struct {
			code int
			id   string
		}{pairs[i].(int), pairs[i+1].(string)})
	}
	return out
}

// rpcErrors reads the code and id of each error response in a body.
func rpcErrors(t *testing.T, body string) []struct {
	code int
	id   string
} {
	t.Helper()
	type resp struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	var list []resp
	if strings.HasPrefix(body, "[") {
		if err := json.Unmarshal([]byte(body), &list); err != nil {
			t.Fatalf("not a JSON-RPC batch response: %s", body)
		}
	} else {
		var r resp
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			t.Fatalf("not a JSON-RPC response: %s", body)
		}
		list = []resp{r}
	}
	var out []struct {
		code int
		id   string
	}
	for _, r := range list {
		code := 0
		if r.Error != nil {
			code = r.Error.Code
		}
		out = append(out, struct {
			code int
			id   string
		}{code, string(r.ID)})
	}
	return out
}

// TestStdioMalformed: each malformed message gets its JSON-RPC error, and
// the session goes on.
func TestStdioMalformed(t *testing.T) {
	r := rawServe(t, copyTools(t), Options{})
	for _, c := range malformed {
		r.send(c.msg)
		got := rpcErrors(t, recvWithin(t, r, c.name))
		if len(got) != len(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
	}
	// A batch is answered member by member: the bad ones get errors, the
	// good one its result.
	r.send(`[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":true},{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/bogus"}]`)
	got := recvWithin(t, r, "mixed batch")
	codes := rpcErrors(t, got)
	if len(codes) != 3 || codes[0].code != -32600 || codes[1].code != -32600 || codes[2] != (struct {
		code int
		id   string
	}{0, "7"}) {
		t.Errorf("mixed batch: %s", got)
	}
	// Notifications are never answered, even of an unknown method; the
	// next request is.
	r.send(`{"jsonrpc":"2.0","method":"notifications/bogus"}`)
	r.send(`{"jsonrpc":"2.0","id":8,"method":"bogus/method"}`)
	if got := rpcErrors(t, recvWithin(t, r, "unknown method")); len(got) != 1 || got[0].code != -32601 || got[0].id != "8" {
		t.Errorf("unknown method: %v", got)
	}
}

// TestStdioBeforeInitialize: a request before initialize is an invalid
// request (-32600) that says what to do, not the SDK's code 0; ping is
// allowed.
func TestStdioBeforeInitialize(t *testing.T) {
	s, log := newServer(t, copyTools(t), Options{})
	r := pipeRaw(t, s, log)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	got := r.recv()
	if c := rpcErrors(t, got); len(c) != 1 || c[0].code != -32600 || c[0].id != "1" || !strings.Contains(got, "send initialize") {
		t.Errorf("tools/list before initialize: %s", got)
	}
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calc","arguments":{"expression":"1+1"}}}`)
	if c := rpcErrors(t, r.recv()); len(c) != 1 || c[0].code != -32600 {
		t.Errorf("tools/call before initialize: %v", c)
	}
	r.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if got := r.recv(); !strings.Contains(got, `"result":{}`) {
		t.Errorf("ping before initialize: %s", got)
	}
}

// TestHTTPMalformed: over HTTP the same messages get 400 with the same
// JSON-RPC errors (the SDK's answer is text/plain), an unknown method the
// -32601 error, an unknown notification 202.
func TestHTTPMalformed(t *testing.T) {
	s, _ := newServer(t, copyTools(t), Options{})
	h, err := s.HTTPHandler(HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	post := func(body string) (int, string, string) {
		resp := postMessage(t, ts.URL+"/mcp", body)
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), strings.TrimSpace(string(data))
	}
	for _, c := range malformed {
		status, ct, body := post(c.msg)
		if status != 400 || ct != "application/json" {
			t.Errorf("%s: HTTP %d %s %s", c.name, status, ct, body)
			continue
		}
		got := rpcErrors(t, body)
		if len(got) != len(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
	}
	if status, _, body := post(`{"jsonrpc":"2.0","id":8,"method":"bogus/method"}`); status != 200 || !strings.Contains(body, `"code":-32601`) || !strings.Contains(body, `"id":8`) {
		t.Errorf("unknown method: %d %s", status, body)
	}
	if status, _, body := post(`{"jsonrpc":"2.0","method":"notifications/bogus"}`); status != 202 || body != "" {
		t.Errorf("unknown notification: %d %s", status, body)
	}
	if status, _, body := post(`{"jsonrpc":"2.0","id":1,"method":"notifications/initialized"}`); status != 400 || !strings.Contains(body, `"code":-32600`) {
		t.Errorf("notification with an id: %d %s", status, body)
	}
	if status, _, body := post(`{"jsonrpc":"2.0","method":"ping"}`); status != 400 || !strings.Contains(body, `"code":-32600`) {
		t.Errorf("request without an id: %d %s", status, body)
	}
	// Valid messages still work.
	if status, _, body := post(`{"jsonrpc":"2.0","id":11,"method":"ping"}`); status != 200 || !strings.Contains(body, `"result":{}`) {
		t.Errorf("ping: %d %s", status, body)
	}
}

// pipeRaw serves s over pipes with no handshake done.
func pipeRaw(t testing.TB, s *Server, log *syncBuffer) *rawSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.ServeStdio(context.Background(), inR, outW, time.Second)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		io.Copy(io.Discard, outR)
		<-done
	})
	return &rawSession{t: t, w: inW, br: bufio.NewReader(outR), log: log}
}

// recvWithin is r.recv, failing the test when no answer comes within 10s
// (the old transport ignored some of these messages).
func recvWithin(t *testing.T, r *rawSession, what string) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		line, err := r.br.ReadString('\n')
		if err != nil {
			line = "read error: " + err.Error()
		}
		got <- strings.TrimSpace(line)
	}()
	select {
	case s := <-got:
		return s
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no answer within 10s", what)
		return ""
	}
}
