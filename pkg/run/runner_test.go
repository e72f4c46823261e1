package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

// parseTool reads one tool from YAML text.
func parseTool(t *testing.T, src string) *spec.Tool {
	t.Helper()
	f := spec.ParseFile("tools/t.yaml", []byte(src))
	if len(f.Errors) > 0 || len(f.Tools) != 1 {
		t.Fatalf("tool does not parse: %v", f.Errors)
	}
	return f.Tools[0]
}

// fakeExec answers each attempt with the next of its results.
type fakeExec struct {
	calls   atomic.Int32
	results []func(ctx context.Context, c *Call) (any, error)
}

func (f *fakeExec) Execute(ctx context.Context, c *Call) (any, error) {
	n := int(f.calls.Add(1)) - 1
	if n >= len(f.results) {
		n = len(f.results) - 1
	}
	return f.results[n](ctx, c)
}

// fakeHTTP is a fakeExec that sends the method of an http entry.
type fakeHTTP struct{ *fakeExec }

func (fakeHTTP) Networked(t *spec.Tool) bool { return true }
func (fakeHTTP) Method(c *Call) string       { return httpExecutor{}.Method(c) }

func fail(kind Kind) func(context.Context, *Call) (any, error) {
	return func(context.Context, *Call) (any, error) { return nil, &Error{Kind: kind, Message: "boom"} }
}

func ok(v any) func(context.Context, *Call) (any, error) {
	return func(context.Context, *Call) (any, error) { return v, nil }
}

const commandTool = `
name: t
description: A test tool. Use when testing.
category: custom
entry: {type: command, command: [true]}
runtime: {retries: 3, retry_delay: 10ms}
`

func testRunner(kind string, e Executor) (*Runner, *[]time.Duration) {
	var slept []time.Duration
	r := &Runner{
		Executors: map[string]Executor{kind: e},
		sleep: func(ctx context.Context, d time.Duration) error {
			slept = append(slept, d)
			return nil
		},
		jitter: func() float64 { return 0.5 },
	}
	return r, &slept
}

func TestRetryPolicyByKind(t *testing.T) {
	tool := parseTool(t, commandTool)
	for _, kind := range Kinds {
		t.Run(string(kind), func(t *testing.T) {
			fe := &fakeExec{results: []func(context.Context, *Call) (any, error){fail(kind), ok("done")}}
			r, _ := testRunner(spec.EntryCommand, fe)
			res, err := r.Run(context.Background(), tool, nil)
			if kind.Retryable() {
				if err != nil || res.Attempts != 2 || res.Value != "done" {
					t.Fatalf("retryable %s: got %v, %+v; want success on attempt 2", kind, err, res)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != kind || e.Attempts != 1 || fe.calls.Load() != 1 {
				t.Fatalf("%s must not be retried: err %v, calls %d", kind, err, fe.calls.Load())
			}
		})
	}
}

func TestRetriesExhausted(t *testing.T) {
	tool := parseTool(t, commandTool)
	fe := &fakeExec{results: []func(context.Context, *Call) (any, error){fail(ServerError)}}
	r, slept := testRunner(spec.EntryCommand, fe)
	_, err := r.Run(context.Background(), tool, nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != ServerError || e.Attempts != 4 {
		t.Fatalf("got %v (attempts %d), want ServerError after 4 attempts", err, e.Attempts)
	}
	// 10ms doubled per attempt, equal jitter at 0.5: 7.5ms, 15ms, 30ms.
	want := []time.Duration{7500 * time.Microsecond, 15 * time.Millisecond, 30 * time.Millisecond}
	if len(*slept) != len(want) {
		t.Fatalf("slept %v, want %v", *slept, want)
	}
	for i := range want {
		if (*slept)[i] != want[i] {
			t.Fatalf("slept %v, want %v", *slept, want)
		}
	}
}

func TestPolicyDelay(t *testing.T) {
	p := Policy{RetryDelay: time.Second, MaxDelay: 5 * time.Second, Exponential: true}
	cases := []struct {
		n      int
		jitter float64
		want   time.Duration
	}{
		{1, 0, 500 * time.Millisecond},
		{1, 0.9, 950 * time.Millisecond},
		{2, 0, time.Second},
		{3, 0, 2 * time.Second},
		{4, 0, 2500 * time.Millisecond}, // capped at 5s
		{40, 0, 2500 * time.Millisecond},
	}
	for _, c := range cases {
		if got := p.Delay(c.n, c.jitter).Round(time.Microsecond); got != c.want {
			t.Errorf("Delay(%d, %v) = %v, want %v", c.n, c.jitter, got, c.want)
		}
	}
	p.Exponential = false
	if got := p.Delay(5, 0); got != 500*time.Millisecond {
		t.Errorf("fixed backoff Delay(5) = %v, want 500ms", got)
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	tool := parseTool(t, commandTool)
	rl := func(d time.Duration) func(context.Context, *Call) (any, error) {
		return func(context.Context, *Call) (any, error) {
			return nil, &Error{Kind: RateLimitError, Message: "429", RetryAfter: d}
		}
	}
	fe := &fakeExec{results: []func(context.Context, *Call) (any, error){rl(2 * time.Second), ok(1)}}
	r, slept := testRunner(spec.EntryCommand, fe)
	if _, err := r.Run(context.Background(), tool, nil); err != nil {
		t.Fatal(err)
	}
	if len(*slept) != 1 || (*slept)[0] != 2*time.Second {
		t.Fatalf("slept %v, want [2s] from Retry-After", *slept)
	}

	// Longer than max_delay (default 30s): not retried, and the message says why.
	fe = &fakeExec{results: []func(context.Context, *Call) (any, error){rl(time.Hour), ok(1)}}
	r, _ = testRunner(spec.EntryCommand, fe)
	_, err := r.Run(context.Background(), tool, nil)
	if err == nil || !strings.Contains(err.Error(), "retry after 1h0m0s") || fe.calls.Load() != 1 {
		t.Fatalf("got %v after %d calls", err, fe.calls.Load())
	}
}

func TestNonIdempotentNotRetried(t *testing.T) {
	src := `
name: t
description: A test tool. Use when testing.
category: custom
entry: {type: http, url: "http://127.0.0.1:1/x", method: POST}
runtime: {retries: 2, retry_delay: 1ms}
`
	for _, allow := range []bool{false, true} {
		s := src
		if allow {
			s = strings.Replace(s, "retry_delay: 1ms", "retry_delay: 1ms, retry_non_idempotent: true", 1)
		}
		tool := parseTool(t, s)
		fe := &fakeExec{results: []func(context.Context, *Call) (any, error){fail(NetworkError)}}
		r, _ := testRunner(spec.EntryHTTP, fakeHTTP{fe})
		_, err := r.Run(context.Background(), tool, nil)
		want := int32(1)
		if allow {
			want = 3
		}
		if err == nil || fe.calls.Load() != want {
			t.Fatalf("retry_non_idempotent=%v: %d attempts, want %d (err %v)", allow, fe.calls.Load(), want, err)
		}
		if !allow && !strings.Contains(err.Error(), "POST is not idempotent") {
			t.Errorf("message does not say why it was not retried: %v", err)
		}
	}
}

func TestTimeoutAndPanic(t *testing.T) {
	tool := parseTool(t, commandTool)
	block := func(ctx context.Context, c *Call) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	fe := &fakeExec{results: []func(context.Context, *Call) (any, error){block}}
	r, _ := testRunner(spec.EntryCommand, fe)
	zero := 0
	r.Retries = &zero
	r.Timeout = 20 * time.Millisecond
	_, err := r.Run(context.Background(), tool, nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != TimeoutError || !strings.Contains(e.Message, "20ms timeout") {
		t.Fatalf("got %v, want TimeoutError naming the 20ms timeout", err)
	}

	panicky := func(ctx context.Context, c *Call) (any, error) { panic("kaboom") }
	fe = &fakeExec{results: []func(context.Context, *Call) (any, error){panicky}}
	r, _ = testRunner(spec.EntryCommand, fe)
	_, err = r.Run(context.Background(), tool, nil)
	if !errors.As(err, &e) || e.Kind != ToolExecutionError || !strings.Contains(e.Message, "kaboom") {
		t.Fatalf("a panic must become a ToolExecutionError, got %v", err)
	}
}

const validatedTool = `
name: t
description: A test tool. Use when testing.
category: custom
entry: {type: command, command: [true]}
input_schema:
  type: object
  properties:
    url: {type: string, description: Where to go.}
    count: {type: integer, default: 3}
    mode: {type: string, enum: [fast, slow]}
  required: [url]
  additionalProperties: false
`

func TestValidation(t *testing.T) {
	tool := parseTool(t, validatedTool)
	cases := []struct {
		input map[string]any
		param string
		want  string
	}{
		{map[string]any{}, "url", `missing required parameter "url" (string: Where to go.)`},
		{map[string]any{"url": "x", "count": "3"}, "count", `parameter "count": expected integer, but got string (got "3")`},
		{map[string]any{"url": "x", "mode": "medium"}, "mode", `parameter "mode": value must be one of "fast", "slow" (got "medium")`},
		{map[string]any{"url": "x", "cont": json.Number("1")}, "cont", `unknown parameter "cont"; the tool takes count, mode, url`},
	}
	for _, c := range cases {
		fe := &fakeExec{results: []func(context.Context, *Call) (any, error){ok(1)}}
		r, _ := testRunner(spec.EntryCommand, fe)
		_, err := r.Run(context.Background(), tool, c.input)
		var e *Error
		if !errors.As(err, &e) || e.Kind != ValidationError {
			t.Fatalf("%v: got %v, want a ValidationError", c.input, err)
		}
		if e.Param != c.param || !strings.Contains(e.Message, c.want) {
			t.Errorf("%v: got param %q message %q; want param %q containing %q", c.input, e.Param, e.Message, c.param, c.want)
		}
		if fe.calls.Load() != 0 {
			t.Errorf("%v: the executor ran on invalid input", c.input)
		}
	}
	// Defaults are applied before the executor sees the input.
	var seen map[string]any
	fe := &fakeExec{results: []func(context.Context, *Call) (any, error){func(_ context.Context, c *Call) (any, error) {
		seen = c.Input
		return nil, nil
	}}}
	r, _ := testRunner(spec.EntryCommand, fe)
	if _, err := r.Run(context.Background(), tool, map[string]any{"url": "u"}); err != nil {
		t.Fatal(err)
	}
	if seen["count"] != json.Number("3") {
		t.Errorf("default not applied: %#v", seen)
	}
}

const boundTool = `
name: t
description: A test tool. Use when testing.
category: custom
entry: {type: command, command: [true]}
input_schema:
  type: object
  properties:
    q: {type: string}
    token: {type: string}
    port: {type: integer}
  required: [q, token, port]
bind:
  token: {env: T_TOKEN}
  port: {value: 8080}
`

func TestBindAndRedaction(t *testing.T) {
	tool := parseTool(t, boundTool)
	if len(tool.Bind) != 2 {
		t.Fatalf("bind not read: %+v", tool.Bind)
	}
	echo := func(_ context.Context, c *Call) (any, error) {
		c.Stderr.Write([]byte("using token s3cr3t-value\n"))
		return map[string]any{"token": c.Input["token"], "port": c.Input["port"], "note": "auth s3cr3t-value"}, nil
	}
	fe := &fakeExec{results: []func(context.Context, *Call) (any, error){echo}}
	r, _ := testRunner(spec.EntryCommand, fe)
	var stderr bytes.Buffer
	r.Stderr = &stderr
	r.Getenv = func(k string) string { return map[string]string{"T_TOKEN": "s3cr3t-value"}[k] }
	res, err := r.Run(context.Background(), tool, map[string]any{"q": "x"})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res.Value)
	if strings.Contains(string(out), "s3cr3t") || strings.Contains(stderr.String(), "s3cr3t") {
		t.Fatalf("secret leaked: result %s, stderr %q", out, stderr.String())
	}
	if !strings.Contains(string(out), `"token":"***"`) || !strings.Contains(stderr.String(), "token ***") {
		t.Errorf("secret not replaced by ***: %s / %q", out, stderr.String())
	}
	if v := res.Value.(map[string]any)["port"]; v != json.Number("8080") {
		t.Errorf("literal bind: port = %#v", v)
	}

	// Unset variable: a ValidationError naming it; passing a bound param is refused.
	r.Getenv = func(string) string { return "" }
	_, err = r.Run(context.Background(), tool, map[string]any{"q": "x"})
	if err == nil || !strings.Contains(err.Error(), "environment variable T_TOKEN, which is not set") {
		t.Fatalf("got %v", err)
	}
	r.Getenv = func(string) string { return "v" }
	_, err = r.Run(context.Background(), tool, map[string]any{"q": "x", "token": "mine"})
	if err == nil || !strings.Contains(err.Error(), `"token" is bound`) {
		t.Fatalf("got %v", err)
	}
}

func TestEventsAndCancel(t *testing.T) {
	tool := parseTool(t, commandTool)
	fe := &fakeExec{results: []func(context.Context, *Call) (any, error){fail(NetworkError), ok(1)}}
	r, _ := testRunner(spec.EntryCommand, fe)
	var types []EventType
	r.Events = func(e Event) { types = append(types, e.Type) }
	if _, err := r.Run(context.Background(), tool, nil); err != nil {
		t.Fatal(err)
	}
	want := []EventType{EventStart, EventRetry, EventStart, EventFinish}
	if strings.Join(toStrings(types), ",") != strings.Join(toStrings(want), ",") {
		t.Errorf("events %v, want %v", types, want)
	}

	// A cancelled context stops retrying.
	ctx, cancel := context.WithCancel(context.Background())
	fe = &fakeExec{results: []func(context.Context, *Call) (any, error){func(context.Context, *Call) (any, error) {
		cancel()
		return nil, &Error{Kind: NetworkError, Message: "down"}
	}}}
	r, _ = testRunner(spec.EntryCommand, fe)
	if _, err := r.Run(ctx, tool, nil); err == nil || fe.calls.Load() != 1 {
		t.Fatalf("cancelled call retried: %d calls, err %v", fe.calls.Load(), err)
	}
}

func toStrings(ts []EventType) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

func TestExitCodesDistinct(t *testing.T) {
	seen := map[int]Kind{}
	for _, k := range Kinds {
		c := k.ExitCode()
		if c <= 2 {
			t.Errorf("%s uses exit code %d, which the shared codes 0-2 own", k, c)
		}
		if other, dup := seen[c]; dup {
			t.Errorf("%s and %s share exit code %d", k, other, c)
		}
		seen[c] = k
	}
}

// The memory limit, the default and the overrides, as PolicyFor and the
// call see them; an error that comes after the deadline stays a
// MemoryLimitError (the limit, not the clock, stopped the call).
func TestMemoryPolicy(t *testing.T) {
	js := parseTool(t, "name: t\ndescription: A test tool. Use when testing.\nentry: {type: javascript, code: 'function execute(){}'}\n")
	withMem := parseTool(t, "name: t\ndescription: A test tool. Use when testing.\nentry: {type: javascript, code: 'function execute(){}'}\nruntime: {memory: 1GiB}\n")
	unlimited := parseTool(t, "name: t\ndescription: A test tool. Use when testing.\nentry: {type: javascript, code: 'function execute(){}'}\nruntime: {memory: unlimited}\n")
	for _, tc := range []struct {
		name       string
		r          *Runner
		tool       *spec.Tool
		want       int64
		from       string
		limitsMCPs bool
	}{
		{"default", &Runner{}, js, DefaultMemory, "", false},
		{"config", &Runner{BaseMemory: 64 << 20}, js, 64 << 20, "run.memory", true},
		{"tool over config", &Runner{BaseMemory: 64 << 20}, withMem, 1 << 30, "runtime.memory", true},
		{"flag over tool", &Runner{Memory: 32 << 20}, withMem, 32 << 20, "--memory", true},
		{"unlimited", &Runner{}, unlimited, 0, "runtime.memory", false},
	} {
		p := tc.r.PolicyFor(tc.tool)
		if p.Memory != tc.want || p.MemoryFrom != tc.from {
			t.Errorf("%s: memory %d from %q, want %d from %q", tc.name, p.Memory, p.MemoryFrom, tc.want, tc.from)
		}
		if got := (mcpExecutor{}).limitsMemory(p); got != tc.limitsMCPs {
			t.Errorf("%s: limits a stdio mcp server: %v, want %v", tc.name, got, tc.limitsMCPs)
		}
	}
	late := func(ctx context.Context, c *Call) (any, error) {
		<-ctx.Done()
		return nil, &Error{Kind: MemoryLimitError, Message: "over"}
	}
	r, _ := testRunner(spec.EntryJavaScript, &fakeExec{results: []func(context.Context, *Call) (any, error){late}})
	r.Timeout = 20 * time.Millisecond
	_, err := r.Run(context.Background(), js, nil)
	if e := AsError(err); e == nil || e.Kind != MemoryLimitError {
		t.Fatalf("got %v, want the MemoryLimitError kept", err)
	}
}
