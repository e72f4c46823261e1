package run

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

// htTool parses a one-tool YAML file; {{URL}} is replaced by base.
func htTool(t *testing.T, base, src string) *spec.Tool {
	t.Helper()
	f := spec.ParseFile("tool.yaml", []byte(strings.ReplaceAll(src, "{{URL}}", base)))
	if len(f.Errors) > 0 || len(f.Tools) != 1 {
		t.Fatalf("bad test tool: %v", f.Errors)
	}
	return f.Tools[0]
}

// htCall builds a Call with input given as JSON (numbers as json.Number,
// as the runner passes them) and env as the environment.
func htCall(t *testing.T, tool *spec.Tool, input string, env map[string]string) *Call {
	t.Helper()
	in := map[string]any{}
	if input != "" {
		dec := json.NewDecoder(strings.NewReader(input))
		dec.UseNumber()
		if err := dec.Decode(&in); err != nil {
			t.Fatalf("bad test input %s: %v", input, err)
		}
	}
	return &Call{
		Tool:    tool,
		Input:   in,
		Getenv:  func(k string) string { return env[k] },
		Secrets: &Secrets{},
		Stderr:  io.Discard,
		Options: &Options{},
	}
}

// htExec runs the http executor with a 10s safety deadline.
func htExec(t *testing.T, c *Call) (any, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	exec, ok := Executors()[c.Tool.EntryKind()]
	if !ok {
		t.Fatalf("no executor for %q", c.Tool.EntryKind())
	}
	return exec.Execute(ctx, c)
}

// htResult runs the call and returns the parts of its result.
func htResult(t *testing.T, c *Call) (int, map[string]any, any) {
	t.Helper()
	v, err := htExec(t, c)
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("result is %T, want map[string]any", v)
	}
	status, _ := m["status"].(int)
	headers, _ := m["headers"].(map[string]any)
	return status, headers, m["body"]
}

func htError(t *testing.T, err error, kind Kind) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %v, want *Error of kind %s", err, err, kind)
	}
	if e.Kind != kind {
		t.Fatalf("got %s (%s), want %s", e.Kind, e.Message, kind)
	}
	return e
}

// htJSON renders a value as compact JSON.
func htJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := MarshalJSON(v)
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return string(raw)
}

const htGetTool = `
name: get_thing
description: Gets a thing.
entry:
  type: http
  url: "{{URL}}/things"
`

func TestHTTPJSONResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ua := r.Header.Get("User-Agent"); ua != "toolctl" {
			t.Errorf("User-Agent = %q, want toolctl", ua)
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Add("X-Multi", "a")
		w.Header().Add("X-Multi", "b")
		io.WriteString(w, `{"zeta": 1.50, "alpha": [true, null, "x"]}`)
	}))
	defer srv.Close()
	c := htCall(t, htTool(t, srv.URL, htGetTool), "", nil)
	status, headers, body := htResult(t, c)
	if status != 200 {
		t.Errorf("status = %d, want 200", status)
	}
	if headers["x-multi"] != "a, b" || headers["content-type"] != "application/json; charset=utf-8" {
		t.Errorf("headers = %v, want lower-case names and joined values", headers)
	}
	// key order and number text are kept
	if got, want := htJSON(t, body), `{"zeta":1.50,"alpha":[true,null,"x"]}`; got != want {
		t.Errorf("body = %s, want %s", got, want)
	}
}

func TestHTTPTextResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/latin1":
			w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
			w.Write([]byte("caf\xe9"))
		case "/badjson":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, "not json")
		case "/problem":
			w.Header().Set("Content-Type", "application/problem+json")
			io.WriteString(w, `{"ok": true}`)
		default:
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "hello\n")
		}
	}))
	defer srv.Close()
	for path, want := range map[string]any{"/text": "hello\n", "/latin1": "café", "/badjson": "not json", "/problem": `{"ok":true}`} {
		tool := htTool(t, srv.URL, strings.Replace(htGetTool, "/things", path, 1))
		_, _, body := htResult(t, htCall(t, tool, "", nil))
		if s, ok := body.(string); ok {
			if s != want {
				t.Errorf("%s: body = %q, want %q", path, s, want)
			}
		} else if got := htJSON(t, body); got != want {
			t.Errorf("%s: body = %s, want %s", path, got, want)
		}
	}
}

func TestHTTPStatusErrors(t *testing.T) {
	date := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/401":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(401)
			io.WriteString(w, `{"error": {"message": "Invalid token", "type": "auth"}}`)
		case "/403":
			w.WriteHeader(403)
			io.WriteString(w, "forbidden here")
		case "/404":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(404)
			io.WriteString(w, "<html>"+strings.Repeat("x", 10000)+"</html>")
		case "/429s":
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(429)
		case "/429d":
			w.Header().Set("Retry-After", date)
			w.WriteHeader(429)
		case "/503":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(503)
			io.WriteString(w, `{"message": "down for maintenance"}`)
		case "/422":
			w.WriteHeader(422)
		}
	}))
	defer srv.Close()
	tests := []struct {
		path   string
		kind   Kind
		status int
		msg    string
	}{
		{"/401", AuthenticationError, 401, "401 Unauthorized: Invalid token"},
		{"/403", AuthenticationError, 403, "403 Forbidden: forbidden here"},
		{"/404", NotFoundError, 404, "404 Not Found (check the URL"},
		{"/429s", RateLimitError, 429, "429 Too Many Requests"},
		{"/429d", RateLimitError, 429, "429 Too Many Requests"},
		{"/503", ServerError, 503, "503 Service Unavailable: down for maintenance"},
		{"/422", ToolExecutionError, 422, "422 Unprocessable Entity"},
	}
	for _, tt := range tests {
		tool := htTool(t, srv.URL, `
name: get_thing
description: Gets a thing.
entry:
  type: http
  url: "{{URL}}`+tt.path+`?api_key=${KEY}"
`)
		c := htCall(t, tool, "", map[string]string{"KEY": "query-secret"})
		_, err := htExec(t, c)
		e := htError(t, err, tt.kind)
		if e.Status != tt.status {
			t.Errorf("%s: Status = %d, want %d", tt.path, e.Status, tt.status)
		}
		wantPrefix := "GET " + srv.URL + tt.path + ": "
		if !strings.HasPrefix(e.Message, wantPrefix) || !strings.Contains(e.Message, tt.msg) {
			t.Errorf("%s: message %q, want %q... containing %q", tt.path, e.Message, wantPrefix, tt.msg)
		}
		if strings.Contains(e.Message, "query-secret") {
			t.Errorf("%s: message %q shows the query string's secret", tt.path, e.Message)
		}
	}

	// Retry-After, in seconds and as a date
	_, err := htExec(t, htCall(t, htTool(t, srv.URL, strings.Replace(htGetTool, "/things", "/429s", 1)), "", nil))
	if e := htError(t, err, RateLimitError); e.RetryAfter != 7*time.Second {
		t.Errorf("RetryAfter = %v, want 7s", e.RetryAfter)
	}
	_, err = htExec(t, htCall(t, htTool(t, srv.URL, strings.Replace(htGetTool, "/things", "/429d", 1)), "", nil))
	if e := htError(t, err, RateLimitError); e.RetryAfter < 60*time.Second || e.RetryAfter > 91*time.Second {
		t.Errorf("RetryAfter = %v, want about 90s", e.RetryAfter)
	}

	// Detail: decoded JSON, or the start of a long text
	_, err = htExec(t, htCall(t, htTool(t, srv.URL, strings.Replace(htGetTool, "/things", "/401", 1)), "", nil))
	if got := htJSON(t, htError(t, err, AuthenticationError).Detail); got != `{"error":{"message":"Invalid token","type":"auth"}}` {
		t.Errorf("401 detail = %s", got)
	}
	_, err = htExec(t, htCall(t, htTool(t, srv.URL, strings.Replace(htGetTool, "/things", "/404", 1)), "", nil))
	detail, _ := htError(t, err, NotFoundError).Detail.(string)
	if !strings.HasPrefix(detail, "<html>xxx") || len(detail) > 5000 || !strings.Contains(detail, "10013 bytes in all") {
		t.Errorf("404 detail is not the truncated body: %.100q... (%d bytes)", detail, len(detail))
	}
}

func TestHTTPRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"120", 2 * time.Minute, true},
		{" 0 ", 0, true},
		{"1.5", 1500 * time.Millisecond, true},
		{"Thu, 02 Jan 2025 03:05:05 GMT", time.Minute, true},
		{"Thu, 02 Jan 2025 03:00:00 GMT", 0, true}, // in the past: now
		{"", 0, false},
		{"-3", 0, false},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, ok := httpRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("httpRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestHTTPTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	c := htCall(t, htTool(t, srv.URL, htGetTool), "", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := httpExecutor{}.Execute(ctx, c)
	e := htError(t, err, TimeoutError)
	if !strings.Contains(e.Message, "no response before the deadline") {
		t.Errorf("message %q", e.Message)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v: the deadline did not stop the request", d)
	}
}

func TestHTTPConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	c := htCall(t, htTool(t, "http://"+addr, htGetTool), "", nil)
	_, err = htExec(t, c)
	e := htError(t, err, NetworkError)
	if !strings.Contains(e.Message, "connection refused") || !strings.Contains(e.Message, "GET http://"+addr+"/things") {
		t.Errorf("message %q", e.Message)
	}
}

func TestHTTPResponseTooLarge(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, httpMaxBody+1))
	}))
	defer srv.Close()
	_, err := htExec(t, htCall(t, htTool(t, srv.URL, htGetTool), "", nil))
	if e := htError(t, err, ToolExecutionError); !strings.Contains(e.Message, "10 MiB") {
		t.Errorf("message %q does not name the limit", e.Message)
	}
}

// htEcho records the last request.
type htEcho struct {
	srv    *httptest.Server
	method string
	path   string // escaped
	query  string
	header http.Header
	body   string
	count  atomic.Int32
}

func newHTEcho(t *testing.T) *htEcho {
	e := &htEcho{}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.count.Add(1)
		raw, _ := io.ReadAll(r.Body)
		e.method, e.path, e.query, e.header, e.body = r.Method, r.URL.EscapedPath(), r.URL.RawQuery, r.Header, string(raw)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok": true}`)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

const htParamsTool = `
name: find_files
description: Finds files.
entry:
  type: http
  url: "{{URL}}/users/{user}/files/{id}?name={name}&opt={opt}"
  headers:
    X-User: "user {user}"
    X-Opt: "{opt}"
  query:
    tag: "{tags}"
    fixed: yes please
parameters:
  type: object
  properties:
    user: {type: string}
    id: {type: integer}
    name: {type: string}
    opt: {type: string}
    tags: {type: array, items: {type: string}}
    limit: {type: integer}
    flag: {type: boolean}
    unused: {type: string}
`

func TestHTTPPlaceholders(t *testing.T) {
	echo := newHTEcho(t)
	tool := htTool(t, echo.srv.URL, htParamsTool)
	c := htCall(t, tool, `{"user": "a/b c", "id": 7, "name": "x&y=z é", "tags": ["t1", "t 2"], "limit": 5, "flag": true, "unused": null}`, nil)
	if _, err := htExec(t, c); err != nil {
		t.Fatal(err)
	}
	if want := "/users/a%2Fb%20c/files/7"; echo.path != want {
		t.Errorf("path = %s, want %s (path-escaped)", echo.path, want)
	}
	// opt is absent: its pair is dropped, not sent empty; leftovers
	// (limit, flag) follow in schema order
	want := "name=x%26y%3Dz+%C3%A9&tag=t1&tag=t+2&fixed=yes+please&limit=5&flag=true"
	if echo.query != want {
		t.Errorf("query = %s\nwant    %s", echo.query, want)
	}
	if got := echo.header.Get("X-User"); got != "user a/b c" {
		t.Errorf("X-User = %q", got)
	}
	if _, ok := echo.header["X-Opt"]; ok {
		t.Errorf("X-Opt sent for an absent parameter")
	}
	if echo.body != "" {
		t.Errorf("GET sent a body: %s", echo.body)
	}
}

func TestHTTPEnvSubstitution(t *testing.T) {
	echo := newHTEcho(t)
	tool := htTool(t, echo.srv.URL, `
name: with_env
description: Uses the environment.
entry:
  type: rest
  url: "{{URL}}/v1?key=${API_KEY}"
  headers:
    Authorization: Bearer ${TOKEN}
`)
	c := htCall(t, tool, "", map[string]string{"API_KEY": "k-123/+", "TOKEN": "tok-secret"})
	if _, err := htExec(t, c); err != nil {
		t.Fatal(err)
	}
	if got := echo.header.Get("Authorization"); got != "Bearer tok-secret" {
		t.Errorf("Authorization = %q", got)
	}
	if echo.query != "key=k-123%2F%2B" {
		t.Errorf("query = %q: an environment value in a query value is escaped", echo.query)
	}
	if got := c.Secrets.Redact("tok-secret and k-123/+"); got != "*** and ***" {
		t.Errorf("secrets not recorded: %q", got)
	}

	// an unset variable fails before anything is sent
	before := echo.count.Load()
	_, err := htExec(t, htCall(t, tool, "", map[string]string{"API_KEY": "k"}))
	if e := htError(t, err, ValidationError); !strings.Contains(e.Message, "TOKEN") || !strings.Contains(e.Message, "entry.headers.Authorization") {
		t.Errorf("message %q does not name the variable and where it is used", e.Message)
	}
	if echo.count.Load() != before {
		t.Errorf("a request was sent")
	}
}

func TestHTTPLeftoversBody(t *testing.T) {
	echo := newHTEcho(t)
	params := `
parameters:
  type: object
  properties:
    id: {type: string}
    title: {type: string}
    count: {type: integer}
    extra: {type: object}
`
	tests := []struct {
		name, entry, input, body, ctype string
	}{
		{"leftovers, method in lower case", `
  method: post
  url: "{{URL}}/items/{id}"`, `{"id": "i1", "title": "T", "count": 3, "extra": {"z": 1, "a": 2}}`,
			`{"title":"T","count":3,"extra":{"a":2,"z":1}}`, "application/json"},
		{"structured body, leftovers not added", `
  method: PUT
  url: "{{URL}}/items/{id}"
  body:
    name: "{title}"
    n: "{count}"
    label: "count is {count}"
    env: "${ENV_VAL}"`, `{"id": "i1", "title": "T", "count": 3, "extra": {"z": 1}}`,
			`{"name":"T","n":3,"label":"count is 3","env":"from-env"}`, "application/json"},
		{"JSON text body escapes strings", `
  method: POST
  url: "{{URL}}/items"
  body: |
    {"title": "{title}", "count": {count}}`, `{"title": "say \"hi\"\n", "count": 3}`,
			`{"title": "say \"hi\"\n", "count": 3}` + "\n", "application/json"},
		{"text body", `
  method: POST
  url: "{{URL}}/items"
  body: "title={title}"`, `{"title": "T"}`, `title=T`, "text/plain; charset=utf-8"},
		{"form body", `
  method: POST
  url: "{{URL}}/items"
  headers:
    Content-Type: application/x-www-form-urlencoded
  body:
    title: "{title}"
    n: 2`, `{"title": "a b&c"}`, `title=a+b%26c&n=2`, "application/x-www-form-urlencoded"},
		{"no leftovers, no body", `
  method: POST
  url: "{{URL}}/items/{id}"`, `{"id": "i1"}`, ``, ""},
	}
	for _, tt := range tests {
		tool := htTool(t, echo.srv.URL, "name: t\ndescription: d.\nentry:\n  type: http"+tt.entry+params)
		c := htCall(t, tool, tt.input, map[string]string{"ENV_VAL": "from-env"})
		if _, err := htExec(t, c); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if echo.body != tt.body {
			t.Errorf("%s: body = %s\nwant %s", tt.name, echo.body, tt.body)
		}
		if got := echo.header.Get("Content-Type"); got != tt.ctype {
			t.Errorf("%s: Content-Type = %q, want %q", tt.name, got, tt.ctype)
		}
		if echo.query != "" {
			t.Errorf("%s: query = %q, want none", tt.name, echo.query)
		}
		if echo.method != "POST" && echo.method != "PUT" {
			t.Errorf("%s: method = %s", tt.name, echo.method)
		}
	}
}

func TestHTTPPlan(t *testing.T) {
	echo := newHTEcho(t)
	tool := htTool(t, echo.srv.URL, `
name: create
description: Creates.
entry:
  type: http
  method: POST
  url: "{{URL}}/items?v=1"
  headers:
    Authorization: Bearer ${TOKEN}
parameters:
  type: object
  properties:
    title: {type: string}
`)
	c := htCall(t, tool, `{"title": "T"}`, map[string]string{"TOKEN": "tok-secret"})
	exec := Executors()[spec.EntryHTTP]
	planner, ok := exec.(Planner)
	if !ok {
		t.Fatal("the http executor is not a Planner")
	}
	plan, err := planner.Plan(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"body":{"title":"T"},"headers":{"Authorization":"Bearer tok-secret","Content-Type":"application/json","User-Agent":"toolctl"},"method":"POST","url":"` + echo.srv.URL + `/items?v=1"}`
	if got := htJSON(t, plan); got != want {
		t.Errorf("plan = %s\nwant   %s", got, want)
	}
	if got := htJSON(t, c.Secrets.RedactValue(plan)); strings.Contains(got, "tok-secret") {
		t.Errorf("the token is not recorded as a secret: %s", got)
	}
	if echo.count.Load() != 0 {
		t.Errorf("Plan sent a request")
	}
}

func TestHTTPBadURL(t *testing.T) {
	tool := htTool(t, "", `
name: bad
description: Bad.
entry:
  type: http
  url: "{base}/x"
parameters:
  type: object
  properties:
    base: {type: string}
bind:
  base: {env: T_BASE}
`)
	// bound: the tool file's choice (a caller's value is refused earlier)
	_, err := htExec(t, htCall(t, tool, `{"base": "ftp://example.com"}`, nil))
	if e := htError(t, err, ToolExecutionError); !strings.Contains(e.Message, "not an absolute http or https URL") {
		t.Errorf("message %q", e.Message)
	}
}

// A {name} in the url, a query pair or a header that names no parameter is
// refused, with a did-you-mean, rather than sent as written (issue 14).
func TestHTTPUnknownPlaceholder(t *testing.T) {
	echo := newHTEcho(t)
	for _, c := range []struct{ entry, want string }{
		{`url: "{{URL}}/weather/{town}"`, `entry.url: {town} names no parameter of the tool, so it would be sent as written; declare a parameter "town" or remove the placeholder`},
		{`url: "{{URL}}/weather/{cty}"`, `entry.url: {cty} names no parameter of the tool, so it would be sent as written; did you mean {city}?`},
		{"url: \"{{URL}}/w\"\n  query: {q: \"{citty}\"}", `entry.query.q: {citty} names no parameter`},
		{"url: \"{{URL}}/w\"\n  headers: {X-City: \"c-{town}\"}", `entry.headers.X-City: {town} names no parameter`},
	} {
		tool := htTool(t, echo.srv.URL, `
name: weather
description: Weather.
entry:
  type: http
  `+c.entry+`
parameters:
  type: object
  properties:
    city: {type: string}
`)
		_, err := htExec(t, htCall(t, tool, `{"city": "Oslo"}`, nil))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.entry, err, c.want)
		}
	}
	if n := echo.count.Load(); n != 0 {
		t.Errorf("%d requests were sent", n)
	}
	// A value given for an undeclared name (an open schema) still fills it.
	tool := htTool(t, echo.srv.URL, `
name: open
description: Open.
entry:
  type: http
  url: "{{URL}}/weather/{town}"
parameters:
  type: object
`)
	if _, err := htExec(t, htCall(t, tool, `{"town": "Oslo"}`, nil)); err != nil {
		t.Errorf("open schema with the value given: %v", err)
	}
}
