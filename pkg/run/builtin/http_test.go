package builtin

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

// htBundled loads a tool shipped in tools/.
func htBundled(t *testing.T, name string) *spec.Tool {
	t.Helper()
	path := "../../../tools/" + name + ".yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := spec.ParseFile(path, data)
	if len(f.Errors) > 0 || len(f.Tools) != 1 {
		t.Fatalf("%s: %v", path, f.Errors)
	}
	return f.Tools[0]
}

// htHandler runs a builtin handler with a 10s safety deadline.
func htHandler(t *testing.T, name string, c *run.Call) (any, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	exec := Executor{}
	if c.Tool.Entry.Handler != name {
		t.Fatalf("tool runs %q, not %q", c.Tool.Entry.Handler, name)
	}
	return exec.Execute(ctx, c)
}

func TestHttpRequestBuiltin(t *testing.T) {
	echo := newHTEcho(t)
	tool := htBundled(t, "http_request")
	c := htCall(t, tool, `{
		"url": "`+echo.srv.URL+`/items?a=1#frag",
		"method": "post",
		"headers": {"X-Api-Key": "k1", "Content-Type": "application/vnd.api+json"},
		"query": {"b": "two words", "ids": [1, 2]},
		"body": {"name": "n", "n": 1.0},
		"timeout": 5
	}`, nil)
	v, err := htHandler(t, "http_request", c)
	if err != nil {
		t.Fatal(err)
	}
	if echo.method != "POST" || echo.path != "/items" || echo.query != "a=1&b=two+words&ids=1&ids=2" {
		t.Errorf("request %s %s?%s", echo.method, echo.path, echo.query)
	}
	if echo.header.Get("X-Api-Key") != "k1" || echo.header.Get("Content-Type") != "application/vnd.api+json" || echo.header.Get("User-Agent") != "toolctl" {
		t.Errorf("headers %v", echo.header)
	}
	if echo.body != `{"n":1.0,"name":"n"}` {
		t.Errorf("body %s", echo.body)
	}
	m, _ := v.(map[string]any)
	headers, _ := m["headers"].(map[string]any)
	if m["status"] != 200 || htJSON(t, m["body"]) != `{"ok":true}` || headers["content-type"] != "application/json" {
		t.Errorf("result %s", htJSON(t, v))
	}

	// a string body is sent as is, as text unless a header says otherwise
	c = htCall(t, tool, `{"url": "`+echo.srv.URL+`/t", "method": "PUT", "body": "plain text"}`, nil)
	if _, err := htHandler(t, "http_request", c); err != nil {
		t.Fatal(err)
	}
	if echo.body != "plain text" || echo.header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("string body sent as %q, %q", echo.body, echo.header.Get("Content-Type"))
	}

	// ${ENV} in a value is not expanded: the agent must not read the environment
	c = htCall(t, tool, `{"url": "`+echo.srv.URL+`/t", "headers": {"X-Token": "${SECRET}"}}`, map[string]string{"SECRET": "s3cr3t"})
	if _, err := htHandler(t, "http_request", c); err != nil {
		t.Fatal(err)
	}
	if got := echo.header.Get("X-Token"); got != "${SECRET}" {
		t.Errorf("X-Token = %q, want the text as given", got)
	}
}

func TestHttpRequestBuiltinErrors(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-release:
			}
		case "/gone":
			w.WriteHeader(404)
		case "/busy":
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(429)
		}
	}))
	defer srv.Close()
	defer close(release)
	tool := htBundled(t, "http_request")

	// the timeout parameter bounds the request
	start := time.Now()
	_, err := htHandler(t, "http_request", htCall(t, tool, `{"url": "`+srv.URL+`/slow", "timeout": 0.1}`, nil))
	if e := htError(t, err, run.TimeoutError); !strings.Contains(e.Message, "timeout parameter") {
		t.Errorf("message %q does not name the timeout parameter", e.Message)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}

	_, err = htHandler(t, "http_request", htCall(t, tool, `{"url": "`+srv.URL+`/gone"}`, nil))
	if e := htError(t, err, run.NotFoundError); e.Status != 404 || !strings.HasPrefix(e.Message, "GET "+srv.URL+"/gone: 404 Not Found") {
		t.Errorf("404: %+v", e)
	}
	_, err = htHandler(t, "http_request", htCall(t, tool, `{"url": "`+srv.URL+`/busy", "method": "DELETE"}`, nil))
	if e := htError(t, err, run.RateLimitError); e.RetryAfter != 3*time.Second || !strings.HasPrefix(e.Message, "DELETE ") {
		t.Errorf("429: %+v", e)
	}

	for _, in := range []string{`{"url": "example.com/x"}`, `{"url": "file:///etc/passwd"}`, `{"url": "http://"}`} {
		_, err = htHandler(t, "http_request", htCall(t, tool, in, nil))
		if e := htError(t, err, run.ValidationError); e.Param != "url" {
			t.Errorf("%s: Param = %q, want url", in, e.Param)
		}
	}
	_, err = htHandler(t, "http_request", htCall(t, tool, `{"url": "`+srv.URL+`", "headers": {"X-Bad": "a\r\nInjected: yes"}}`, nil))
	htError(t, err, run.ValidationError)
}

// fakeLLM is an OpenAI-compatible /chat/completions that records the
// last request.
type fakeLLM struct {
	srv    *httptest.Server
	auth   string
	path   string
	body   map[string]any
	status int
	reply  string
}

func newFakeLLM(t *testing.T) *fakeLLM {
	f := &fakeLLM{status: 200, reply: `{
		"id": "chatcmpl-1", "object": "chat.completion", "model": "test-model-2025",
		"choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello there."}, "finish_reason": "stop"}],
		"usage": {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}}`}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.auth, f.path = r.Header.Get("Authorization"), r.URL.Path
		f.body = nil
		dec := json.NewDecoder(r.Body)
		dec.UseNumber()
		if err := dec.Decode(&f.body); err != nil {
			t.Errorf("request body is not JSON: %v", err)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" || r.Method != "POST" {
			t.Errorf("request %s with Content-Type %q", r.Method, ct)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		io.WriteString(w, f.reply)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func TestLLMCall(t *testing.T) {
	llm := newFakeLLM(t)
	tool := htBundled(t, "llm_call")
	env := map[string]string{"OPENAI_BASE_URL": llm.srv.URL + "/v1/", "OPENAI_API_KEY": "sk-test-123", "TOOLCTL_LLM_MODEL": "env-model"}
	c := htCall(t, tool, `{"messages": [{"role": "user", "content": "Hi"}], "temperature": 0}`, env)
	v, err := htHandler(t, "llm_call", c)
	if err != nil {
		t.Fatal(err)
	}
	if llm.auth != "Bearer sk-test-123" || llm.path != "/v1/chat/completions" {
		t.Errorf("request to %s with Authorization %q", llm.path, llm.auth)
	}
	if got := htJSON(t, llm.body); got != `{"messages":[{"content":"Hi","role":"user"}],"model":"env-model","temperature":0}` {
		t.Errorf("request body %s", got)
	}
	if got, want := htJSON(t, v), `{"content":"Hello there.","finish_reason":"stop","model":"test-model-2025","usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}}`; got != want {
		t.Errorf("result %s\nwant   %s", got, want)
	}
	if c.Secrets.Redact("key sk-test-123") != "key ***" {
		t.Errorf("the API key is not recorded as a secret")
	}

	// config beats the environment; the key comes from the variable
	// llm.api_key_env names; the model parameter beats both
	config := map[string]any{"llm.base_url": llm.srv.URL + "/v1", "llm.api_key_env": "MY_KEY", "llm.model": "config-model"}
	env = map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:1/unused", "OPENAI_API_KEY": "wrong", "MY_KEY": "sk-mine", "TOOLCTL_LLM_MODEL": "env-model"}
	c = htCall(t, tool, `{"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 5}`, env)
	c.Options.Config = func(k string) (any, bool) { v, ok := config[k]; return v, ok }
	if _, err := htHandler(t, "llm_call", c); err != nil {
		t.Fatal(err)
	}
	if llm.auth != "Bearer sk-mine" || llm.body["model"] != "config-model" || llm.body["max_tokens"] != json.Number("5") {
		t.Errorf("config not used: auth %q, body %v", llm.auth, llm.body)
	}
	if _, sent := llm.body["temperature"]; sent {
		t.Errorf("temperature sent though not given")
	}
	c = htCall(t, tool, `{"messages": [{"role": "user", "content": "Hi"}], "model": "param-model"}`, env)
	c.Options.Config = func(k string) (any, bool) { v, ok := config[k]; return v, ok }
	if _, err := htHandler(t, "llm_call", c); err != nil {
		t.Fatal(err)
	}
	if llm.body["model"] != "param-model" {
		t.Errorf("model = %v, want the parameter's", llm.body["model"])
	}
}

func TestLLMCallErrors(t *testing.T) {
	llm := newFakeLLM(t)
	tool := htBundled(t, "llm_call")
	msgs := `{"messages": [{"role": "user", "content": "Hi"}]}`

	// no key: nothing is sent, and the message says what to set
	_, err := htHandler(t, "llm_call", htCall(t, tool, msgs, map[string]string{"OPENAI_BASE_URL": llm.srv.URL}))
	if e := htError(t, err, run.ValidationError); !strings.Contains(e.Message, "OPENAI_API_KEY") {
		t.Errorf("message %q does not name OPENAI_API_KEY", e.Message)
	}
	c := htCall(t, tool, msgs, map[string]string{"OPENAI_BASE_URL": llm.srv.URL})
	c.Options.Config = func(k string) (any, bool) { return "OTHER_KEY", k == "llm.api_key_env" }
	_, err = htHandler(t, "llm_call", c)
	if e := htError(t, err, run.ValidationError); !strings.Contains(e.Message, "OTHER_KEY") {
		t.Errorf("message %q does not name OTHER_KEY", e.Message)
	}

	// another endpoint without a model named
	_, err = htHandler(t, "llm_call", htCall(t, tool, msgs, map[string]string{"OPENAI_BASE_URL": llm.srv.URL, "OPENAI_API_KEY": "sk-x"}))
	if e := htError(t, err, run.ValidationError); e.Param != "model" || !strings.Contains(e.Message, "TOOLCTL_LLM_MODEL") {
		t.Errorf("no model: %+v", e)
	}

	// a rejected key: the endpoint's own message, the key not shown
	llm.status, llm.reply = 401, `{"error": {"message": "Incorrect API key provided: sk-x.", "type": "invalid_request_error"}}`
	env := map[string]string{"OPENAI_BASE_URL": llm.srv.URL + "/v1", "OPENAI_API_KEY": "sk-x", "TOOLCTL_LLM_MODEL": "m"}
	c = htCall(t, tool, msgs, env)
	_, err = htHandler(t, "llm_call", c)
	e := htError(t, err, run.AuthenticationError)
	if e.Status != 401 || e.Message != "POST "+llm.srv.URL+"/v1/chat/completions: 401 Unauthorized: Incorrect API key provided: sk-x. (check the API key or token the tool sends)" {
		t.Errorf("401: %q", e.Message)
	}
	if got := c.Secrets.Redact(e.Message); strings.Contains(got, "sk-x") {
		t.Errorf("the key survives redaction: %q", got)
	}

	llm.status, llm.reply = 500, `{"error": {"message": "The server had an error"}}`
	_, err = htHandler(t, "llm_call", htCall(t, tool, msgs, env))
	htError(t, err, run.ServerError)

	// a 200 that is not a completion (a wrong base URL serving HTML)
	llm.status, llm.reply = 200, `{"unexpected": true}`
	_, err = htHandler(t, "llm_call", htCall(t, tool, msgs, env))
	if e := htError(t, err, run.ToolExecutionError); !strings.Contains(e.Message, "no choices") {
		t.Errorf("message %q", e.Message)
	}
}
