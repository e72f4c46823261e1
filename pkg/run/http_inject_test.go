package run

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// recorder is a server that records the request URIs it receives.
type recorder struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string
	ids  []string // the {id} of /users/{id}/profile as the mux matched it
}

func newRecorder(t *testing.T) *recorder {
	rec := &recorder{}
	mux := http.NewServeMux()
	mux.HandleFunc("/users/{id}/profile", func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.ids = append(rec.ids, r.PathValue("id"))
		rec.mu.Unlock()
		fmt.Fprint(w, "profile")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "other")
	})
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.seen = append(rec.seen, r.RequestURI)
		rec.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

func runHTTPTool(t *testing.T, tool *spec.Tool, input map[string]any, env map[string]string) (*Result, error) {
	t.Helper()
	zero := 0
	r := &Runner{Getenv: func(k string) string { return env[k] }, Retries: &zero}
	return r.Run(context.Background(), tool, input)
}

// A value in the URL's host is one DNS label: nothing a caller passes can
// send the request (and the tool's credentials) to another host or port.
func TestHTTPHostPlaceholderIsOneLabel(t *testing.T) {
	rec := newRecorder(t)
	hostPort := strings.TrimPrefix(rec.srv.URL, "http://")
	tool := parseTool(t, `
name: t
description: A test tool. Use when testing.
category: http
entry:
  type: http
  url: http://{region}.example.test:8080/status
  method: GET
  headers: {Authorization: "Bearer ${T_TOKEN}"}
input_schema:
  type: object
  properties:
    region: {type: string}
`)
	env := map[string]string{"T_TOKEN": "tok-123456"}
	for _, v := range []string{
		hostPort + "/x?", hostPort + "/x#", hostPort + "#", hostPort + "?",
		"user@" + hostPort + "/", hostPort, "127.0.0.1", "a.b", "a/b", "a@b", "a:1",
		"a%2Fb", "a%2eb", "a\u3002b", "a\uff0eb", "a b", "a\tb", " a", "", "bücher",
		strings.Repeat("a", 64),
	} {
		_, err := runHTTPTool(t, tool, map[string]any{"region": v}, env)
		var e *Error
		if !errors.As(err, &e) || e.Kind != ValidationError || e.Param != "region" || !strings.Contains(e.Message, "one DNS label") {
			t.Errorf("region %q: got %v, want a ValidationError about region", v, err)
		}
	}
	if got := rec.requests(); len(got) > 0 {
		t.Fatalf("the server was reached: %q", got)
	}
	// absent: the host cannot be built
	if _, err := runHTTPTool(t, tool, map[string]any{}, env); AsError(err) == nil || AsError(err).Param != "region" {
		t.Errorf("absent region: %v", err)
	}
	// a label passes
	plan, err := (&Runner{Getenv: func(k string) string { return env[k] }}).Plan(tool, map[string]any{"region": "eu-west-1"})
	if err != nil {
		t.Fatal(err)
	}
	if u := plan["request"].(map[string]any)["url"]; u != "http://eu-west-1.example.test:8080/status" {
		t.Errorf("url %v", u)
	}
}

// A parameter in the scheme, userinfo or port, or one that is the whole
// origin, is refused whatever its value, unless the tool file fixes it
// (bound, or an enum).
func TestHTTPFixedURLPartsRefuseParameters(t *testing.T) {
	rec := newRecorder(t)
	port := rec.srv.URL[strings.LastIndexByte(rec.srv.URL, ':')+1:]
	for _, tc := range []struct{ url, what, input string }{
		{"http://127.0.0.1:{p}/x", "port", port},
		{"{p}://127.0.0.1:" + port + "/x", "scheme", "http"},
		{"http://{p}@127.0.0.1:" + port + "/x", "user name or password", "me"},
		{"http://me:{p}@127.0.0.1:" + port + "/x", "user name or password", "pw"},
		{"{p}/x", "scheme and host", rec.srv.URL},
	} {
		tool := parseTool(t, fmt.Sprintf(`
name: t
description: A test tool. Use when testing.
category: http
entry: {type: http, url: "%s", method: GET}
input_schema: {type: object, properties: {p: {type: string}}}
`, tc.url))
		for _, in := range []map[string]any{{"p": tc.input}, {}} {
			_, err := runHTTPTool(t, tool, in, nil)
			var e *Error
			if !errors.As(err, &e) || e.Kind != DefinitionError || e.Pointer != "/entry/url" || !strings.Contains(e.Message, "entry.url takes its "+tc.what+` from parameter "p"`) {
				t.Errorf("%s %v: got %v", tc.url, in, err)
			}
		}
	}
	if got := rec.requests(); len(got) > 0 {
		t.Fatalf("the server was reached: %q", got)
	}

	// fixed by the tool file: a bound port, an enum of schemes
	tool := parseTool(t, `
name: t
description: A test tool. Use when testing.
category: http
entry: {type: http, url: "{scheme}://127.0.0.1:{port}/x", method: GET}
input_schema:
  type: object
  properties:
    scheme: {type: string, enum: [http, https]}
    port: {type: string}
bind: {port: {env: T_PORT}}
`)
	if _, err := runHTTPTool(t, tool, map[string]any{"scheme": "http"}, map[string]string{"T_PORT": port}); err != nil {
		t.Fatal(err)
	}
	if got := rec.requests(); len(got) != 1 || got[0] != "/x" {
		t.Errorf("requests %q", got)
	}
}

// A path value "." or ".." stays one literal segment: it reaches the server
// escaped and the router matches it as the {id} segment, not as a step up.
func TestHTTPPathDotSegments(t *testing.T) {
	rec := newRecorder(t)
	tool := parseTool(t, `
name: t
description: A test tool. Use when testing.
category: http
entry: {type: http, url: "${T_SERVER}/users/{id}{suffix}/profile", method: GET}
input_schema:
  type: object
  properties:
    id: {type: string}
    suffix: {type: string}
`)
	env := map[string]string{"T_SERVER": rec.srv.URL}
	for _, tc := range []struct {
		input map[string]any
		uri   string
		id    string
	}{
		{map[string]any{"id": ".."}, "/users/%2E%2E/profile", ".."},
		{map[string]any{"id": "."}, "/users/%2E/profile", "."},
		{map[string]any{"id": ".", "suffix": "."}, "/users/%2E%2E/profile", ".."},
		{map[string]any{"id": "../admin"}, "/users/..%2Fadmin/profile", "../admin"},
		{map[string]any{"id": "a/b"}, "/users/a%2Fb/profile", "a/b"},
		{map[string]any{"id": "%2E%2E"}, "/users/%252E%252E/profile", "%2E%2E"},
		{map[string]any{"id": "..."}, "/users/.../profile", "..."},
	} {
		rec.mu.Lock()
		rec.seen, rec.ids = nil, nil
		rec.mu.Unlock()
		res, err := runHTTPTool(t, tool, tc.input, env)
		if err != nil {
			t.Errorf("%v: %v", tc.input, err)
			continue
		}
		if body := res.Value.(map[string]any)["body"]; body != "profile" {
			t.Errorf("%v: the request did not reach /users/{id}/profile (body %v)", tc.input, body)
		}
		rec.mu.Lock()
		if len(rec.seen) != 1 || rec.seen[0] != tc.uri || len(rec.ids) != 1 || rec.ids[0] != tc.id {
			t.Errorf("%v: server saw %q with id %q, want %q with id %q", tc.input, rec.seen, rec.ids, tc.uri, tc.id)
		}
		rec.mu.Unlock()
	}
}
