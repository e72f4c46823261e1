// Package run executes one tool as an agent runtime would (README "Running
// a tool"): bound parameters and defaults are
// filled, the input is validated against the input schema before anything
// runs, the entry's executor makes each attempt under a deadline, and
// retryable failures are retried with backoff. Executors (one file each)
// make a single attempt; timeouts, retries and error conversion live here.
package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolctl/toolctl/internal/jsonschema"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Defaults for runtime settings a tool file leaves out.
const (
	DefaultTimeout    = 30 * time.Second
	DefaultRetries    = 2 // for network tools; see defaultRetries
	DefaultRetryDelay = time.Second
	DefaultMaxDelay   = 30 * time.Second
	// DefaultMemory is the memory limit of a javascript, python or command
	// call whose tool sets no runtime.memory.
	DefaultMemory int64 = 256 << 20
)

// Runner runs tools. The zero value is usable; a Runner is safe for
// concurrent use (serve runs calls in parallel).
type Runner struct {
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// Options are passed to every executor.
	Options Options
	// Stderr receives the tools' own diagnostics (console.log, a
	// subprocess's stderr), redacted; io.Discard when nil.
	Stderr io.Writer
	// Events, when set, is told when an attempt starts, a retry is
	// scheduled and the call finishes (-v prints them).
	Events func(Event)
	// Timeout and Retries override the tool's runtime settings when set
	// (--timeout, --retries).
	Timeout time.Duration
	Retries *int
	// BaseTimeout and BaseRetries replace the built-in defaults for tools
	// whose runtime section leaves them out (the config file's run:).
	BaseTimeout time.Duration
	BaseRetries *int
	// Memory overrides the tool's runtime.memory when set (--memory);
	// BaseMemory replaces DefaultMemory (the config file's run.memory).
	// spec.MemoryUnlimited means no limit.
	Memory     int64
	BaseMemory int64

	// sleep waits between attempts; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
	// jitter returns a number in [0, 1); tests replace it.
	jitter func() float64

	// Executors are the executors by entry.type; nil means Executors(),
	// which lacks the builtin type: builtin.Executors() (pkg/run/builtin)
	// is the table with every type.
	Executors map[string]Executor

	schemas sync.Map // *spec.Tool → *compiled
}

// Result is a successful call.
type Result struct {
	// Value is the tool's result, redacted.
	Value    any
	Duration time.Duration
	Attempts int
}

// EventType names what an Event reports.
type EventType string

const (
	EventStart  EventType = "start"
	EventRetry  EventType = "retry"
	EventFinish EventType = "finish"
)

// Event is one step of a call, as the design's tool-call events.
type Event struct {
	Type    EventType
	Tool    string
	Attempt int
	// Elapsed is the time since the call started.
	Elapsed time.Duration
	// Delay is the wait before the next attempt (retry events).
	Delay time.Duration
	// Err is the failure that caused a retry, or the final error; nil on a
	// successful finish. Its message is redacted.
	Err *Error
}

type compiled struct {
	schema *jsonschema.Schema
	err    error
}

// Policy is the retry and timeout policy of one tool.
type Policy struct {
	Timeout time.Duration
	// Memory is the memory limit of a call in bytes, 0 for none;
	// MemoryFrom says where it was set ("runtime.memory", "--memory",
	// "run.memory"), "" for the default.
	Memory        int64
	MemoryFrom    string
	Retries       int
	RetryDelay    time.Duration
	MaxDelay      time.Duration
	Exponential   bool
	NonIdempotent bool // retry POST/PATCH too
}

// PolicyFor returns t's policy: the runner's overrides, then the tool's
// runtime section, then the defaults.
func (r *Runner) PolicyFor(t *spec.Tool) Policy {
	p := Policy{Timeout: DefaultTimeout, Retries: r.defaultRetries(t), RetryDelay: DefaultRetryDelay, MaxDelay: DefaultMaxDelay, Exponential: true}
	if r.BaseTimeout > 0 {
		p.Timeout = r.BaseTimeout
	}
	if r.BaseRetries != nil {
		p.Retries = max(0, *r.BaseRetries)
	}
	p.Memory = DefaultMemory
	if r.BaseMemory != 0 {
		p.Memory, p.MemoryFrom = r.BaseMemory, "run.memory"
	}
	if rt := t.Runtime; rt != nil {
		if rt.Timeout > 0 {
			p.Timeout = rt.Timeout
		}
		if rt.Memory != 0 {
			p.Memory, p.MemoryFrom = rt.Memory, "runtime.memory"
		}
		if rt.Retries != nil {
			p.Retries = max(0, *rt.Retries)
		}
		if rt.RetryDelay > 0 {
			p.RetryDelay = rt.RetryDelay
		}
		if rt.MaxDelay > 0 {
			p.MaxDelay = rt.MaxDelay
		}
		if strings.EqualFold(rt.Backoff, "fixed") {
			p.Exponential = false
		}
		if rt.RetryNonIdempotent != nil {
			p.NonIdempotent = *rt.RetryNonIdempotent
		}
	}
	if r.Timeout > 0 {
		p.Timeout = r.Timeout
	}
	if r.Memory != 0 {
		p.Memory, p.MemoryFrom = r.Memory, "--memory"
	}
	if p.Memory < 0 {
		p.Memory = 0 // unlimited
	}
	if r.Retries != nil {
		p.Retries = max(0, *r.Retries)
	}
	p.MaxDelay = max(p.MaxDelay, p.RetryDelay)
	return p
}

// defaultRetries is DefaultRetries for tools whose executor goes over the
// network (see Network) and 0 for local code.
func (r *Runner) defaultRetries(t *spec.Tool) int {
	if x, err := r.executor(t); err == nil {
		if n, ok := x.(Network); ok && n.Networked(t) {
			return DefaultRetries
		}
	}
	return 0
}

// Delay is the wait before attempt n+1 after attempt n (n ≥ 1) failed:
// retry_delay, doubled per attempt when exponential, capped by max_delay,
// with "equal jitter" (between half and all of it) so that many clients
// retrying together spread out. jitter is in [0, 1).
func (p Policy) Delay(n int, jitter float64) time.Duration {
	d := p.RetryDelay
	if p.Exponential {
		for i := 1; i < n && d < p.MaxDelay; i++ {
			d *= 2
		}
	}
	d = min(d, p.MaxDelay)
	return d/2 + time.Duration(jitter*float64(d/2))
}

// Prepare resolves bound parameters, applies defaults and validates the
// input; the returned Call is ready for an executor. Nothing is executed.
func (r *Runner) Prepare(t *spec.Tool, input map[string]any) (*Call, error) {
	c := r.newCall(t)
	return c, r.setInput(c, input)
}

// newCall is a call of t without its input.
func (r *Runner) newCall(t *spec.Tool) *Call {
	c := &Call{
		Tool:    t,
		Getenv:  r.getenv(),
		Secrets: &Secrets{},
		Options: &r.Options,
	}
	c.Stderr = io.Discard
	if r.Stderr != nil {
		c.Stderr = &redactWriter{w: r.Stderr, secrets: c.Secrets}
	}
	if p := t.Path(); p != "" {
		c.Dir = filepath.Dir(p)
	}
	return c
}

// setInput binds, fills defaults and validates input as c's.
func (r *Runner) setInput(c *Call, input map[string]any) error {
	t := c.Tool
	in := make(map[string]any, len(input)+len(t.Bind))
	for k, v := range input {
		in[k] = v
	}
	if err := r.bind(c, t, in); err != nil {
		return r.finishErr(c, err, 0)
	}
	applyDefaults(t, in)
	c.Input = in
	if err := r.validate(t, in); err != nil {
		return r.finishErr(c, err, 0)
	}
	return nil
}

// setup is what a run and a dry run do first: find t's executor and check
// t's definition (a DefinitionError, whatever the input), then bind and
// validate the input (Prepare).
func (r *Runner) setup(t *spec.Tool, input map[string]any) (Executor, *Call, error) {
	c := r.newCall(t)
	exec, err := r.executor(t)
	if err == nil {
		if ck, ok := exec.(Checker); ok {
			err = ck.Check(c)
		}
	}
	if err != nil {
		return nil, c, r.finishErr(c, err, 0)
	}
	if err := r.setInput(c, input); err != nil {
		return nil, c, err
	}
	return exec, c, nil
}

// Run calls t with input and returns its result or an *Error.
func (r *Runner) Run(ctx context.Context, t *spec.Tool, input map[string]any) (*Result, error) {
	start := time.Now()
	exec, c, err := r.setup(t, input)
	if err != nil {
		flushStderr(c)
		r.emit(Event{Type: EventFinish, Tool: t.Name, Elapsed: time.Since(start), Err: AsError(err)})
		return nil, err
	}
	defer flushStderr(c)
	if rep := reporterFrom(ctx); rep != nil {
		c.notices = &notices{to: rep, secrets: c.Secrets}
	}
	if a := askerFrom(ctx); a != nil {
		c.asks = &asks{to: a, secrets: c.Secrets}
	}
	p := r.PolicyFor(t)
	c.Timeout = p.Timeout
	c.Memory, c.MemoryFrom = p.Memory, p.MemoryFrom
	method := callMethod(exec, c)
	retryable := p.NonIdempotent || idempotent(method)
	for attempt := 1; ; attempt++ {
		r.emit(Event{Type: EventStart, Tool: t.Name, Attempt: attempt, Elapsed: time.Since(start)})
		if c.asks != nil {
			c.asks.waiting.Store(nil) // a wait of an earlier attempt is over
		}
		value, err := r.attempt(ctx, exec, c, p.Timeout)
		if err == nil {
			res := &Result{Value: c.Secrets.RedactValue(value), Duration: time.Since(start), Attempts: attempt}
			r.emit(Event{Type: EventFinish, Tool: t.Name, Attempt: attempt, Elapsed: res.Duration})
			return res, nil
		}
		e := r.finishErr(c, err, attempt)
		if attempt > p.Retries || !e.Kind.Retryable() || !retryable || ctx.Err() != nil {
			if e.Kind.Retryable() && !retryable && p.Retries > 0 {
				e.Message += " (not retried: " + strings.ToUpper(method) + " is not idempotent; set runtime.retry_non_idempotent: true to retry it)"
			}
			r.emit(Event{Type: EventFinish, Tool: t.Name, Attempt: attempt, Elapsed: time.Since(start), Err: e})
			return nil, e
		}
		delay := p.Delay(attempt, r.rand())
		if e.RetryAfter > 0 {
			if e.RetryAfter > p.MaxDelay {
				e.Message += fmt.Sprintf(" (the server asked to retry after %s, more than runtime.max_delay %s: not retried)", e.RetryAfter, p.MaxDelay)
				r.emit(Event{Type: EventFinish, Tool: t.Name, Attempt: attempt, Elapsed: time.Since(start), Err: e})
				return nil, e
			}
			delay = e.RetryAfter
		}
		r.emit(Event{Type: EventRetry, Tool: t.Name, Attempt: attempt, Elapsed: time.Since(start), Delay: delay, Err: e})
		if err := r.wait(ctx, delay); err != nil {
			r.emit(Event{Type: EventFinish, Tool: t.Name, Attempt: attempt, Elapsed: time.Since(start), Err: e})
			return nil, e
		}
	}
}

// Plan describes what a call would do (--dry-run): the validated input and,
// for executors that can tell, the request or argv. Secrets are redacted.
func (r *Runner) Plan(t *spec.Tool, input map[string]any) (map[string]any, error) {
	exec, c, err := r.setup(t, input)
	if err != nil {
		return nil, err
	}
	p := r.PolicyFor(t)
	plan := map[string]any{
		"tool":    t.Name,
		"entry":   t.EntryKind(),
		"input":   c.Input,
		"timeout": p.Timeout.String(),
		"retries": p.Retries,
	}
	if m, ok := exec.(memoryLimiter); ok && m.limitsMemory(p) {
		plan["memory"] = spec.FormatSize(p.Memory)
	}
	if pl, ok := exec.(Planner); ok {
		v, err := pl.Plan(c)
		if err != nil {
			return nil, r.finishErr(c, err, 0)
		}
		if v != nil {
			plan["request"] = v
		}
	}
	return c.Secrets.RedactValue(plan).(map[string]any), nil
}

// attempt runs the executor once under its own deadline. A panic in an
// executor is an error, never a crash (serve runs many calls).
func (r *Runner) attempt(ctx context.Context, exec Executor, c *Call, timeout time.Duration) (value any, err error) {
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Kind: ToolExecutionError, Message: fmt.Sprintf("internal error in the %s executor: %v; please report it", c.Tool.EntryKind(), p), Detail: string(debug.Stack())}
		}
	}()
	value, err = exec.Execute(actx, c)
	if err == nil {
		return value, nil
	}
	var e *Error
	switch {
	case errors.As(err, &e):
	case errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		return nil, &Error{Kind: TimeoutError, Message: fmt.Sprintf("no result within the %s timeout; raise runtime.timeout or pass --timeout", timeout), Err: err}
	case ctx.Err() != nil:
		return nil, &Error{Kind: ToolExecutionError, Message: "cancelled", Err: err}
	}
	if e != nil && e.Kind != TimeoutError && e.Kind != MemoryLimitError && errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
		// the executor failed because its deadline passed (a memory limit
		// hit just after it is still the memory limit)
		return nil, &Error{Kind: TimeoutError, Message: fmt.Sprintf("no result within the %s timeout (%s); raise runtime.timeout or pass --timeout", timeout, e.Message), Err: err}
	}
	if e != nil && e.Kind == TimeoutError && !strings.Contains(e.Message, timeout.String()) {
		c := *e
		c.Message += fmt.Sprintf(" (the timeout is %s)", timeout)
		return nil, &c
	}
	return nil, err
}

// finishErr converts err to an *Error with the tool and attempts filled
// and every secret redacted.
func (r *Runner) finishErr(c *Call, err error, attempts int) *Error {
	e := AsError(err)
	out := *e
	out.Tool = c.Tool.Name
	out.Attempts = attempts
	out.Message = c.Secrets.Redact(out.Message)
	switch d := out.Detail.(type) {
	case string:
		out.Detail = c.Secrets.Redact(d)
	case nil:
	default:
		out.Detail = c.Secrets.RedactValue(d)
	}
	return &out
}

func (r *Runner) executor(t *spec.Tool) (Executor, error) {
	kind := t.EntryKind()
	if kind == "" {
		return nil, DefinitionErrorf("", "the tool has no entry; add entry: {type: ...} saying how it runs (toolctl schema lists the types)")
	}
	executors := r.Executors
	if executors == nil {
		executors = Executors()
	}
	exec, ok := executors[kind]
	if !ok && slices.Contains(spec.EntryTypes, kind) {
		// a type of the file format this Runner was not given: a program
		// using pkg/run, not the tool file, is at fault
		return nil, &Error{Kind: ToolExecutionError, Message: fmt.Sprintf("entry.type %q has no executor in this Runner; set Runner.Executors (builtin.Executors() has every entry type)", kind)}
	}
	if !ok {
		return nil, DefinitionErrorf("/entry/type", "entry.type %q is not a type toolctl runs; use one of %s", kind, strings.Join(spec.EntryTypes, ", "))
	}
	return exec, nil
}

func (r *Runner) emit(e Event) {
	if r.Events != nil {
		r.Events(e)
	}
}

func (r *Runner) getenv() func(string) string {
	if r.Getenv != nil {
		return r.Getenv
	}
	return osGetenv
}

func (r *Runner) rand() float64 {
	if r.jitter != nil {
		return r.jitter()
	}
	return rand.Float64()
}

func (r *Runner) wait(ctx context.Context, d time.Duration) error {
	if r.sleep != nil {
		return r.sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// idempotent tells whether a call sending an HTTP method (or none) may be
// repeated safely: POST and PATCH may not (a retried POST can create twice).
func idempotent(method string) bool {
	switch strings.ToUpper(method) {
	case http.MethodPost, http.MethodPatch:
		return false
	}
	return true
}

// callMethod is the HTTP method c sends, "" when its executor sends none.
func callMethod(exec Executor, c *Call) string {
	if n, ok := exec.(Network); ok {
		return n.Method(c)
	}
	return ""
}
