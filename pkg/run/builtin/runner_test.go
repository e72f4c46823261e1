package builtin

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

const head = "name: t\ndescription: A test tool. Use when testing.\ncategory: custom\n"

func parse(t *testing.T, src string) *spec.Tool {
	t.Helper()
	f := spec.ParseFile(filepath.Join(t.TempDir(), "t.yaml"), []byte(head+src))
	if len(f.Errors) > 0 || len(f.Tools) != 1 {
		t.Fatalf("tool does not parse: %v", f.Errors)
	}
	return f.Tools[0]
}

// A builtin entry naming no handler, or one toolctl lacks, is a
// DefinitionError at the field, from Run and Plan alike (see
// TestDefinitionErrors in pkg/run for the other entry types).
func TestBuiltinDefinitionErrors(t *testing.T) {
	const params = "input_schema: {type: object, properties: {a: {type: string}}, required: [a]}\n"
	for _, tc := range []struct {
		name, entry, ptr, want string
	}{
		{"unknown handler", "entry: {type: builtin, handler: nope}", "/entry/handler", `entry.handler "nope" is not a builtin handler`},
		{"no handler", "entry: {type: builtin}", "/entry", "a builtin entry needs entry.handler"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool := parse(t, params+tc.entry+"\n")
			r := &run.Runner{Executors: Executors()}
			// {} lacks the required a: the definition is reported first
			for _, input := range []map[string]any{{"a": "x"}, {}} {
				_, runErr := r.Run(context.Background(), tool, input)
				_, planErr := r.Plan(tool, input)
				for what, err := range map[string]error{"Run": runErr, "Plan": planErr} {
					var e *run.Error
					if !errors.As(err, &e) || e.Kind != run.DefinitionError || e.Pointer != tc.ptr || !strings.Contains(e.Message, tc.want) || e.Tool != "t" {
						t.Errorf("%s(%v): got %#v, want a DefinitionError at %q saying %q", what, input, err, tc.ptr, tc.want)
					}
				}
			}
		})
	}
}

// Tools that go over the network (http, mcp, and the http_request and
// llm_call handlers) are retried by default and local code is not; a POST
// or PATCH, from an http entry or http_request's method, is not retried
// without runtime.retry_non_idempotent. The executors and handlers say so
// themselves (run.Network): the runner names none of them.
func TestDefaultRetriesAndIdempotency(t *testing.T) {
	r := &run.Runner{Executors: Executors()}
	for _, tc := range []struct {
		entry   string
		retries int
	}{
		{"entry: {type: http, url: 'http://127.0.0.1:1/x'}", run.DefaultRetries},
		{"entry: {type: mcp, server: 'http://127.0.0.1:1/mcp', tool: x}", run.DefaultRetries},
		{"entry: {type: builtin, handler: http_request}", run.DefaultRetries},
		{"entry: {type: builtin, handler: llm_call}", run.DefaultRetries},
		{"entry: {type: builtin, handler: calculator}", 0},
		{"entry: {type: builtin, handler: nope}", 0},
		{"entry: {type: command, command: [true]}", 0},
		{"entry: {type: javascript, code: 'function execute(){}'}", 0},
		{"entry: {type: python, module: m, function: f}", 0},
	} {
		if got := r.PolicyFor(parse(t, tc.entry+"\n")).Retries; got != tc.retries {
			t.Errorf("%s: %d retries by default, want %d", tc.entry, got, tc.retries)
		}
	}

	// Port 1 on loopback refuses: a NetworkError, retryable.
	r.Retries = new(int)
	*r.Retries = 1
	for _, tc := range []struct {
		entry, input string
		attempts     int
	}{
		{"entry: {type: http, url: 'http://127.0.0.1:1/x', method: POST}", `{}`, 1},
		{"entry: {type: http, url: 'http://127.0.0.1:1/x', method: PUT}", `{}`, 2},
		{"entry: {type: builtin, handler: http_request}", `{"url": "http://127.0.0.1:1/x", "method": "patch"}`, 1},
		{"entry: {type: builtin, handler: http_request}", `{"url": "http://127.0.0.1:1/x"}`, 2},
	} {
		tool := parse(t, tc.entry+"\nruntime: {retry_delay: 1ms}\n")
		_, err := r.Run(context.Background(), tool, htCall(t, tool, tc.input, nil).Input)
		var e *run.Error
		if !errors.As(err, &e) || e.Kind != run.NetworkError || e.Attempts != tc.attempts {
			t.Errorf("%s %s: got %v (%d attempts), want a NetworkError after %d", tc.entry, tc.input, err, e.Attempts, tc.attempts)
		}
		if tc.attempts == 1 && !strings.Contains(err.Error(), "is not idempotent") {
			t.Errorf("%s %s: the message does not say why it was not retried: %v", tc.entry, tc.input, err)
		}
	}
}
