package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// askTools writes a javascript tool that asks the client's model and its
// user (ctx.sample, then ctx.elicit), and a python one that does the same
// when python3 is here, into a fresh dir.
func askTools(t *testing.T) (dir string, python bool) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"asker.yaml": `name: asker
description: Asks the client's model and user. Use when testing sampling and elicitation.
category: custom
parameters:
  type: object
  properties:
    prompt: {type: string}
entry:
  type: javascript
  code: |
    async function execute(input, ctx) {
      const s = await ctx.sample(input.prompt, { maxTokens: 50 });
      const e = await ctx.elicit("Who are you?", { type: "object", properties: { username: { type: "string" } }, required: ["username"] });
      return "model said " + s.content.text + "; user " + e.action + " " + e.content.username;
    }
`,
	}
	if _, err := exec.LookPath("python3"); err == nil {
		python = true
		files["pyasker.yaml"] = `name: pyasker
description: Asks the client's model and user from python. Use when testing sampling and elicitation.
category: custom
parameters:
  type: object
  properties:
    prompt: {type: string}
entry:
  type: python
  module: pyasker
  function: run
`
		files["pyasker.py"] = `def run(prompt, ctx):
    s = ctx.sample(prompt, max_tokens=50)
    e = ctx.elicit("Who are you?", {"type": "object", "properties": {"username": {"type": "string"}}, "required": ["username"]})
    return "model said %s; user %s %s" % (s["content"]["text"], e["action"], e["content"]["username"])
`
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, python
}

// askingClient answers sampling and elicitation requests and counts them.
type askingClient struct {
	mu       sync.Mutex
	prompts  []string
	messages []string
}

func (a *askingClient) options() *sdk.ClientOptions {
	return &sdk.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			a.mu.Lock()
			defer a.mu.Unlock()
			text := ""
			if len(req.Params.Messages) > 0 {
				if tc, ok := req.Params.Messages[0].Content.(*sdk.TextContent); ok {
					text = tc.Text
				}
			}
			a.prompts = append(a.prompts, text)
			return &sdk.CreateMessageResult{Role: "assistant", Content: &sdk.TextContent{Text: "hello to " + text}, Model: "test-model", StopReason: "endTurn"}, nil
		},
		ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.messages = append(a.messages, req.Params.Message)
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada"}}, nil
		},
	}
}

const askWant = "model said hello to hi; user accept ada"

// TestAskStdio: over stdio a tool's ctx.sample and ctx.elicit reach the
// SDK client's handlers and their answers reach the tool, on each path
// a call takes: the direct path (2025-06-18), the SDK's session (a call
// the direct path leaves to it) and, from 2026-07-28 on, multi
// round-trip requests (the call is answered with inputRequests and the
// client's SDK calls again with the answers).
func TestAskStdio(t *testing.T) {
	dir, python := askTools(t)
	tools := []string{"asker"}
	if python {
		tools = append(tools, "pyasker")
	}
	for _, path := range []struct{ name, protocol string }{{"direct", "2025-06-18"}, {"sdk", "2025-06-18"}, {"mrtr", ""}} {
		for _, tool := range tools {
			t.Run(path.name+"/"+tool, func(t *testing.T) {
				c := &askingClient{}
				h := serve(t, dir, setup{client: c.options(), protocol: path.protocol})
				params := &sdk.CallToolParams{Name: tool, Arguments: map[string]any{"prompt": "hi"}}
				if path.name == "sdk" {
					params.Meta = sdk.Meta{"trace": "t"} // not the direct path's
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				res, err := h.cs.CallTool(ctx, params)
				if err != nil {
					t.Fatalf("call: %v\n%s", err, h.log)
				}
				if got := text(res); got != askWant || res.IsError {
					t.Errorf("result %q (isError %v), want %q", got, res.IsError, askWant)
				}
				if len(c.prompts) != 1 || c.prompts[0] != "hi" || len(c.messages) != 1 || c.messages[0] != "Who are you?" {
					t.Errorf("the client was asked %q and %q", c.prompts, c.messages)
				}
			})
		}
	}
}

// TestAskStdioUndeclared: a client that declared neither capability is
// not sent the request; the tool's call fails saying why.
func TestAskStdioUndeclared(t *testing.T) {
	dir, _ := askTools(t)
	h := serve(t, dir, setup{protocol: "2025-06-18"})
	res := h.call("asker", map[string]any{"prompt": "hi"})
	if got := text(res); !res.IsError || !strings.Contains(got, "the client did not declare the sampling capability") {
		t.Errorf("result %q (isError %v)", got, res.IsError)
	}
}

// TestAskHTTP: over Streamable HTTP (stateless) the request goes out on
// the call's event stream and the client POSTs its answer (2025-06-18);
// at 2026-07-28 the call is a multi round-trip one.
func TestAskHTTP(t *testing.T) {
	dir, _ := askTools(t)
	s, log := newServer(t, dir, Options{})
	url := serveHTTP(t, s, HTTPOptions{})
	for _, protocol := range []string{"2025-06-18", "2025-11-25", ""} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			c := &askingClient{}
			client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, c.options())
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, &sdk.ClientSessionOptions{ProtocolVersion: protocol})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "asker", Arguments: map[string]any{"prompt": "hi"}})
			if err != nil {
				t.Fatalf("call: %v\n%s", err, log)
			}
			if got := text(res); got != askWant || res.IsError {
				t.Errorf("result %q (isError %v), want %q\n%s", got, res.IsError, askWant, log)
			}
			if len(c.prompts) != 1 || len(c.messages) != 1 {
				t.Errorf("the client was asked %q and %q", c.prompts, c.messages)
			}
		})
	}
}

// TestAskHTTPAnswerChecks: the answer to a request sent on a call's
// stream is taken only with the request's id, which is unguessable; a
// POST of an answer for another id is accepted (202) and changes
// nothing; the call ends at its timeout when no answer comes.
func TestAskHTTPAnswerChecks(t *testing.T) {
	dir, _ := askTools(t)
	askerTimeout(t, dir, "2s")
	s, _ := newServer(t, dir, Options{})
	url := serveHTTP(t, s, HTTPOptions{})
	post := func(body string) *http.Response { return postMessage(t, url, body) }
	resp := post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"asker","arguments":{"prompt":"hi"}}}`)
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	// The first event is the sampling request, with a toolctl- id.
	buf := make([]byte, 4096)
	n, _ := resp.Body.Read(buf)
	event := string(buf[:n])
	var msg struct {
		ID     string `json:"id"`
		Method string `json:"method"`
	}
	_, data2, _ := strings.Cut(event, "data: ")
	if err := json.Unmarshal([]byte(strings.TrimSpace(data2)), &msg); err != nil || msg.Method != "sampling/createMessage" || !strings.HasPrefix(msg.ID, askIDPrefix) || len(msg.ID) != len(askIDPrefix)+32 {
		t.Fatalf("first event %q (%v)", event, err)
	}
	// A guess at another id is accepted and dropped.
	r := post(`{"jsonrpc":"2.0","id":"toolctl-00000000000000000000000000000000","result":{"role":"assistant","content":{"type":"text","text":"forged"},"model":"m"}}`)
	r.Body.Close()
	if r.StatusCode != http.StatusAccepted {
		t.Errorf("a response for an unknown id: %d, want 202", r.StatusCode)
	}
	// No answer: the call ends at the tool's timeout with an error result.
	rest, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(rest), `"isError":true`) || !strings.Contains(string(rest), "Timeout") || strings.Contains(string(rest), "forged") {
		t.Errorf("the rest of the stream: %s", rest)
	}
	if !strings.Contains(string(rest), "notifications/cancelled") {
		t.Errorf("the client was not told the request is cancelled: %s", rest)
	}
}

// TestRequestStateBound: a multi round-trip state is refused for another
// call, changed, or from another server.
func TestRequestStateBound(t *testing.T) {
	dir, _ := askTools(t)
	s, _ := newServer(t, dir, Options{})
	answers := map[string]json.RawMessage{askIDPrefix + "0": json.RawMessage(`{"action":"accept"}`)}
	state, err := s.sealState("asker", json.RawMessage(`{"prompt":"hi"}`), answers)
	if err != nil {
		t.Fatal(err)
	}
	into := map[string]json.RawMessage{}
	if err := s.openState("asker", json.RawMessage(`{"prompt":"hi"}`), state, into); err != nil || string(into[askIDPrefix+"0"]) != `{"action":"accept"}` {
		t.Fatalf("own state: %v %v", err, into)
	}
	// The same arguments written anew (another key order, spacing) are
	// the same call.
	reordered := json.RawMessage(`{ "n" : 1.50, "prompt":"hi" }`)
	state2, _ := s.sealState("asker", json.RawMessage(`{"prompt":"hi","n":1.50}`), answers)
	if err := s.openState("asker", reordered, state2, into); err != nil {
		t.Errorf("the same arguments in another order: %v", err)
	}
	if err := s.openState("asker", json.RawMessage(`{"prompt":"other"}`), state, into); err == nil {
		t.Error("a state was taken for other arguments")
	}
	if err := s.openState("asker", json.RawMessage(`{"prompt":"hi"}`), state[:len(state)-2]+"AA", into); err == nil {
		t.Error("a changed state was taken")
	}
	other, _ := newServer(t, dir, Options{})
	if err := other.openState("asker", json.RawMessage(`{"prompt":"hi"}`), state, into); err == nil {
		t.Error("another server's state was taken")
	}
	// A state is taken for stateTTL after it is issued, not for ever.
	defer func(now func() time.Time) { stateNow = now }(stateNow)
	issued := time.Now()
	stateNow = func() time.Time { return issued.Add(stateTTL - time.Minute) }
	if err := s.openState("asker", json.RawMessage(`{"prompt":"hi"}`), state, into); err != nil {
		t.Errorf("a state within its time: %v", err)
	}
	stateNow = func() time.Time { return issued.Add(stateTTL + time.Minute) }
	if err := s.openState("asker", json.RawMessage(`{"prompt":"hi"}`), state, into); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Errorf("a state past its time: %v, want it refused as expired", err)
	}
}

// rawAskServe is rawServe with a client that declares sampling and
// elicitation.
func rawAskServe(t *testing.T, dir string) *rawSession {
	t.Helper()
	return rawServeWith(t, dir, Options{}, `{"sampling":{},"elicitation":{}}`)
}

// askRequest reads messages until a request to the client comes and
// returns its id and method.
func (r *rawSession) askRequest() (id, method string) {
	r.t.Helper()
	for {
		line := r.recv()
		var m struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			r.t.Fatalf("%s: %v", line, err)
		}
		if s, ok := m.ID.(string); ok && m.Method != "" {
			return s, m.Method
		}
		if _, ok := m.ID.(float64); ok {
			r.t.Fatalf("the call ended without asking: %s", line)
		}
	}
}

// untilResponse reads messages until the response of id (a JSON value).
func (r *rawSession) untilResponse(id string) string {
	r.t.Helper()
	for {
		line := r.recv()
		if strings.HasPrefix(line, `{"jsonrpc":"2.0","id":`+id+`,"result"`) {
			return line
		}
	}
}

// TestAskStdioMalformedAnswer: an answer to a call's request that is not
// a valid response (an "error" that is not an object) fails the request
// at once, saying why, instead of leaving the call to its timeout; the
// answers in a JSON-RPC batch reach their requests.
func TestAskStdioMalformedAnswer(t *testing.T) {
	dir, _ := askTools(t)
	askerTimeout(t, dir, "20s")
	r := rawAskServe(t, dir)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"asker","arguments":{"prompt":"hi"}}}`)
	id, method := r.askRequest()
	if method != "sampling/createMessage" {
		t.Fatalf("first request %s", method)
	}
	r.send(`{"jsonrpc":"2.0","id":"` + id + `","error":"no"}`)
	if got := r.untilResponse("1"); !strings.Contains(got, `"isError":true`) || !strings.Contains(got, `its response is malformed (invalid request: \"error\" must be an object with a code and a message)`) {
		t.Errorf("result %s", got)
	}

	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"asker","arguments":{"prompt":"hi"}}}`)
	id, _ = r.askRequest()
	r.send(`[{"jsonrpc":"2.0","id":"` + id + `","result":{"role":"assistant","content":{"type":"text","text":"hello to hi"},"model":"m"}}]`)
	id, method = r.askRequest()
	if method != "elicitation/create" {
		t.Fatalf("second request %s", method)
	}
	r.send(`{"jsonrpc":"2.0","id":"` + id + `","result":{"action":"accept","content":{"username":"ada"}}}`)
	if got := r.untilResponse("2"); !strings.Contains(got, askWant) || strings.Contains(got, `"isError":true`) {
		t.Errorf("result %s, want %q", got, askWant)
	}
}

// TestAskHTTPMalformedAnswer: over HTTP too, a malformed answer POSTed
// for a call's request is refused (400) and fails the request at once.
func TestAskHTTPMalformedAnswer(t *testing.T) {
	dir, _ := askTools(t)
	askerTimeout(t, dir, "20s")
	s, _ := newServer(t, dir, Options{})
	url := serveHTTP(t, s, HTTPOptions{})
	post := func(body string) *http.Response { return postMessage(t, url, body) }
	resp := post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"asker","arguments":{"prompt":"hi"}}}`)
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var msg struct {
		ID string `json:"id"`
	}
	for msg.ID == "" {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("no request on the stream: %v", err)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			json.Unmarshal([]byte(d), &msg)
		}
	}
	r := post(`{"jsonrpc":"2.0","id":"` + msg.ID + `","error":"no"}`)
	r.Body.Close()
	if r.StatusCode != http.StatusBadRequest {
		t.Errorf("a malformed answer: %d, want 400", r.StatusCode)
	}
	rest, _ := io.ReadAll(br)
	if !strings.Contains(string(rest), `"isError":true`) || !strings.Contains(string(rest), "its response is malformed") {
		t.Errorf("the rest of the stream: %s", rest)
	}
}

// postMessage POSTs one JSON-RPC message of protocol 2025-06-18 to the
// endpoint at url; the caller reads and closes the response.
func postMessage(t *testing.T, url, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// askerTimeout gives askTools' asker tool in dir a timeout (YAML, "2s").
func askerTimeout(t *testing.T, dir, timeout string) {
	t.Helper()
	p := filepath.Join(dir, "asker.yaml")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), "entry:", "runtime:\n  timeout: "+timeout+"\nentry:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
