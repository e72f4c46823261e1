package builtin

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Test helpers shared with pkg/run's http tests (copied: test files of two
// packages cannot share code).

// htCall builds a Call with input given as JSON (numbers as json.Number,
// as the runner passes them) and env as the environment.
func htCall(t *testing.T, tool *spec.Tool, input string, env map[string]string) *run.Call {
	t.Helper()
	in := map[string]any{}
	if input != "" {
		dec := json.NewDecoder(strings.NewReader(input))
		dec.UseNumber()
		if err := dec.Decode(&in); err != nil {
			t.Fatalf("bad test input %s: %v", input, err)
		}
	}
	return &run.Call{
		Tool:    tool,
		Input:   in,
		Getenv:  func(k string) string { return env[k] },
		Secrets: &run.Secrets{},
		Stderr:  io.Discard,
		Options: &run.Options{},
	}
}

func htError(t *testing.T, err error, kind run.Kind) *run.Error {
	t.Helper()
	var e *run.Error
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
	raw, err := run.MarshalJSON(v)
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return string(raw)
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
