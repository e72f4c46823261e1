// Package jsvm runs the JavaScript of a tool in goja: a fresh VM per call,
// with nothing but the ECMAScript built-ins, console and setTimeout (no
// require, no filesystem, no network), interrupted at its deadline.
//
// It is also the worker process that pkg/run starts for every javascript
// call: this binary started again with WorkerArg0 as argv[0], which this
// package's init function recognises before main runs. The package
// imports goja and the standard library only, so that the worker starts
// without waiting for the initialisation of the rest of the binary.
package jsvm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// maxCallStack bounds recursion: goja's default is unbounded, so a
// runaway recursion would eat memory until the timeout instead of failing.
const maxCallStack = 10000

// interrupt is the value the VM is interrupted with at the deadline.
type interrupt struct{}

// Failure kinds.
const (
	// KindExecution: the code failed (threw, has a syntax error, returned
	// what has no JSON form).
	KindExecution = "execution"
	// KindTimeout: the deadline passed; Message says what was running.
	KindTimeout = "timeout"
	// KindMemory: the values the code holds went over the limit.
	KindMemory = "memory"
)

// Failure is a call that did not return a result.
type Failure struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Detail  string `json:"detail,omitempty"`
	// Peak is the heap the memory watch saw, for KindMemory.
	Peak int64 `json:"peak,omitempty"`
}

func (f *Failure) Error() string { return f.Message }

func failf(format string, args ...any) *Failure {
	return &Failure{Kind: KindExecution, Message: fmt.Sprintf(format, args...)}
}

// Call is one call of a tool's code.
type Call struct {
	// Name is what positions are reported against: entry.code or the
	// path of entry.file.
	Name   string
	Source string
	// Input is the input object as JSON.
	Input []byte
	// Console receives console.log and friends, a line per call.
	Console io.Writer
	// Where describes line n of the code for a message (" (line 3 of
	// entry.code)"); "" for n <= 0.
	Where func(n int) string
	// Notify receives what the code reports through ctx (progress, log
	// messages), a JSON object each; nil drops it.
	Notify func(json.RawMessage)
	// Ask sends a request to the MCP client (ctx.sample, ctx.elicit) and
	// returns its result; nil has no client to ask.
	Ask func(method string, params json.RawMessage) (json.RawMessage, error)
}

// Output is what a call returned.
type Output struct {
	// JSON is the JSON text of execute's value ("" for undefined and null).
	JSON string
	// Content tells that JSON is a result envelope (a CallToolResult):
	// execute returned toolctl.result(...), a content item or a list of
	// them.
	Content bool
}

// Run runs c under ctx: the JSON text of execute's value ("" for
// undefined and null), or a *Failure.
func Run(ctx context.Context, c Call) (string, error) {
	out, err := RunCall(ctx, c)
	return out.JSON, err
}

// RunCall runs c under ctx: its Output, or a *Failure.
func RunCall(ctx context.Context, c Call) (Output, error) {
	where := c.Where
	if where == nil {
		where = func(int) string { return "" }
	}
	prg, err := compile(c.Name, c.Source)
	if err != nil {
		return Output{}, syntaxError(c.Name, err, where)
	}
	r := &state{ctx: ctx, name: c.Name, input: c.Input, console: c.Console, notify: c.Notify, ask: c.Ask, where: where, vm: goja.New(), timers: map[int64]*timer{}}
	if ctx.Err() != nil {
		return Output{}, r.ctxError("before the JavaScript code started")
	}
	return r.run(prg)
}

// Compiled programs are cached by source: a worker serves many calls of
// the same tools, and a goja.Program can run in any number of VMs.
var (
	cacheMu sync.Mutex
	cache   = map[string]*goja.Program{}
)

const cacheMax = 256

func compile(name, src string) (*goja.Program, error) {
	key := name + "\x00" + src
	cacheMu.Lock()
	prg, ok := cache[key]
	cacheMu.Unlock()
	if ok {
		return prg, nil
	}
	// Parse first: goja.Compile flattens parse errors to text, the parser
	// keeps their positions.
	ast, err := parser.ParseFile(nil, name, src, 0)
	if err != nil {
		return nil, err
	}
	if prg, err = goja.CompileAST(ast, false); err != nil {
		return nil, err
	}
	cacheMu.Lock()
	if len(cache) >= cacheMax {
		clear(cache) // crude, but edited tools must not grow it forever
	}
	cache[key] = prg
	cacheMu.Unlock()
	return prg, nil
}

func (r *state) ctxError(what string) error {
	return &Failure{Kind: KindTimeout, Message: what}
}

// state is the state of one call: the VM, its timers and the call.
type state struct {
	ctx     context.Context
	name    string
	input   []byte    // the input as JSON
	console io.Writer // where console lines go
	notify  func(json.RawMessage)
	ask     func(method string, params json.RawMessage) (json.RawMessage, error)
	// ctxObj is execute's second argument; envelope tells a rich result
	// from a plain value (rich.go).
	ctxObj   goja.Value
	toolctl  goja.Value // built on first use
	envelope goja.Callable
	// where describes a line of the code for a message.
	where  func(line int) string
	vm     *goja.Runtime
	timers map[int64]*timer
	nextID int64
	// stringify is JSON.stringify captured before the tool's code runs, so
	// that the result is converted even if the code replaces it.
	stringify goja.Callable
}

type timer struct {
	id   int64
	at   time.Time
	fn   goja.Callable
	args []goja.Value
}

func (r *state) run(prg *goja.Program) (Output, error) {
	vm := r.vm
	vm.SetMaxCallStackSize(maxCallStack)
	// The deadline interrupts the VM wherever it is in JavaScript code,
	// so `while (true) {}` ends at the timeout.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-r.ctx.Done():
			vm.Interrupt(interrupt{})
		case <-stop:
		}
	}()
	if err := r.setup(); err != nil {
		return Output{}, err
	}
	if _, err := vm.RunProgram(prg); err != nil {
		return Output{}, r.jsError(err, r.name+" threw")
	}
	execute, err := r.lookupExecute()
	if err != nil {
		return Output{}, err
	}
	input, err := r.fromJSON(r.input)
	if err != nil {
		return Output{}, failf("internal error reading the input: %v", err)
	}
	ret, err := execute(goja.Undefined(), input, r.ctxObj)
	if err != nil {
		return Output{}, r.jsError(err, "execute threw")
	}
	if p, ok := promiseOf(ret); ok {
		if ret, err = r.await(p); err != nil {
			return Output{}, err
		}
	}
	// Only the helpers make content: without toolctl there is none.
	if r.envelope == nil {
		s, err := r.export(ret)
		return Output{JSON: s}, err
	}
	if env, err := r.envelope(goja.Undefined(), ret); err == nil && !goja.IsUndefined(env) {
		s, err := r.export(env)
		return Output{JSON: s, Content: s != ""}, err
	}
	s, err := r.export(ret)
	return Output{JSON: s}, err
}

// stringifyPrg and lookupPrg are compiled on first use, like richPrg:
// at package init every command paid for them (0.2 M instructions of
// toolctl version's 8.4 M; callgrind).
var stringifyPrg = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("toolctl-json", `(function (stringify) {
  // BigInt has no JSON form: keep its digits as a string.
  function replacer(k, v) { return typeof v === "bigint" ? v.toString() : v; }
  return function (v) { return stringify(v, replacer); };
})(JSON.stringify)`, true)
})

// lookupPrg finds execute whether it is a function declaration (a global
// property) or a top-level let/const (a global lexical binding only).
var lookupPrg = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("toolctl-lookup", `typeof execute === "function" ? execute : (typeof execute === "undefined" ? undefined : null)`, false)
})

func (r *state) setup() error {
	vm := r.vm
	v, err := vm.RunProgram(stringifyPrg())
	if err != nil {
		return failf("internal error setting up the JavaScript engine: %v", err)
	}
	r.stringify, _ = goja.AssertFunction(v)
	console := vm.NewObject()
	for _, m := range []string{"log", "info", "warn", "error", "debug", "trace"} {
		_ = console.Set(m, r.consoleLog)
	}
	_ = vm.Set("console", console)
	_ = vm.Set("setTimeout", r.setTimeout)
	_ = vm.Set("clearTimeout", r.clearTimeout)
	if r.ctxObj, err = r.setupRich(); err != nil {
		return failf("internal error setting up the JavaScript engine: %v", err)
	}
	return nil
}

func (r *state) lookupExecute() (goja.Callable, error) {
	v, err := r.vm.RunProgram(lookupPrg())
	if err != nil {
		return nil, r.jsError(err, "looking up execute")
	}
	if f, ok := goja.AssertFunction(v); ok {
		return f, nil
	}
	what := "does not define execute"
	if !goja.IsUndefined(v) {
		what = "defines execute, but not as a function"
	}
	return nil, failf("%s %s; %s must define function execute(input) returning the result (or a Promise of it)", r.name, what, r.name)
}

// consoleLog writes one line to the call's stderr, never to stdout, which
// carries the result.
func (r *state) consoleLog(call goja.FunctionCall) goja.Value {
	parts := make([]string, len(call.Arguments))
	for i, a := range call.Arguments {
		parts[i] = r.text(a)
	}
	if r.console != nil {
		_, _ = fmt.Fprintln(r.console, strings.Join(parts, " "))
	}
	return goja.Undefined()
}

// text formats a console argument the way a reader expects: strings as
// they are, errors with their message, objects as JSON.
func (r *state) text(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	if goja.IsNull(v) {
		return "null"
	}
	if obj, ok := v.(*goja.Object); ok {
		if _, isFn := goja.AssertFunction(v); !isFn && obj.ClassName() != "Error" && r.stringify != nil {
			if s, err := r.stringify(goja.Undefined(), v); err == nil && !goja.IsUndefined(s) {
				return s.String()
			}
		}
	}
	return v.String()
}

func (r *state) setTimeout(call goja.FunctionCall) goja.Value {
	fn, ok := goja.AssertFunction(call.Argument(0))
	if !ok {
		panic(r.vm.NewTypeError("setTimeout: the first argument must be a function"))
	}
	delay := call.Argument(1).ToFloat()
	if math.IsNaN(delay) || delay < 0 {
		delay = 0
	}
	r.nextID++
	var args []goja.Value
	if len(call.Arguments) > 2 {
		args = append(args, call.Arguments[2:]...)
	}
	r.timers[r.nextID] = &timer{id: r.nextID, at: time.Now().Add(time.Duration(delay * float64(time.Millisecond))), fn: fn, args: args}
	return r.vm.ToValue(r.nextID)
}

func (r *state) clearTimeout(call goja.FunctionCall) goja.Value {
	delete(r.timers, call.Argument(0).ToInteger())
	return goja.Undefined()
}

func promiseOf(v goja.Value) (*goja.Promise, bool) {
	obj, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	p, ok := obj.Export().(*goja.Promise)
	return p, ok
}

// await settles a Promise: goja runs the job queue when each call into the
// VM returns, so only timers remain to drive it; they fire here in order
// until the Promise settles or the deadline passes.
func (r *state) await(p *goja.Promise) (goja.Value, error) {
	for {
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return p.Result(), nil
		case goja.PromiseStateRejected:
			return nil, r.rejected(p.Result())
		}
		next := r.nextTimer()
		if next == nil {
			// Nothing left can settle it; it stays pending until the timeout.
			if r.ctx.Done() == nil {
				return nil, failf("execute returned a Promise that never settles: nothing resolves or rejects it")
			}
			<-r.ctx.Done()
			return nil, r.ctxError("execute's Promise was still pending (nothing resolves or rejects it)")
		}
		wait := time.NewTimer(time.Until(next.at))
		select {
		case <-r.ctx.Done():
			wait.Stop()
			return nil, r.ctxError("execute's Promise was still pending")
		case <-wait.C:
		}
		delete(r.timers, next.id)
		if _, err := next.fn(goja.Undefined(), next.args...); err != nil {
			return nil, r.jsError(err, "a setTimeout callback threw")
		}
	}
}

func (r *state) nextTimer() *timer {
	var best *timer
	for _, t := range r.timers {
		if best == nil || t.at.Before(best.at) || t.at.Equal(best.at) && t.id < best.id {
			best = t
		}
	}
	return best
}

// export converts the result to its JSON text through JSON.stringify, so
// that no goja value leaks out and the result is what JS code would
// serialise: Dates as ISO strings, toJSON honoured, functions and
// undefined members dropped, NaN as null, key order kept. "" stands for
// undefined and null.
func (r *state) export(v goja.Value) (string, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return "", nil
	}
	s, err := r.stringify(goja.Undefined(), v)
	if err != nil {
		var ie *goja.InterruptedError
		if errors.As(err, &ie) {
			return "", r.ctxError("converting execute's result to JSON")
		}
		return "", failf("execute's result cannot be converted to JSON (%s); return plain objects, arrays, strings, numbers and booleans", message(err))
	}
	if goja.IsUndefined(s) {
		return "", nil // a function or a symbol: no JSON form
	}
	return s.String(), nil
}

// define creates an own data property, as JSON.parse does: a key such as
// "__proto__" must not set the prototype.
func define(obj *goja.Object, k string, v goja.Value) {
	_ = obj.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
}

// rejected describes a rejected Promise: the reason's message and, for an
// Error, the line it was created at.
func (r *state) rejected(reason goja.Value) error {
	msg := "undefined"
	var detail string
	line := 0
	if reason != nil {
		msg = reason.String()
		if obj, ok := reason.(*goja.Object); ok {
			if st := obj.Get("stack"); st != nil && !goja.IsUndefined(st) {
				detail = st.String()
				line = r.stackLine(detail)
			}
		}
	}
	e := failf("execute's Promise was rejected with %s%s", msg, r.where(line))
	if detail != "" {
		e.Detail = detail
	}
	return e
}

// stackLine finds the first position inside the tool's code in a JS stack
// text ("at execute (entry.code:3:11(4))").
func (r *state) stackLine(stack string) int {
	re := regexp.MustCompile(regexp.QuoteMeta(r.name) + `:(\d+):\d+`)
	if m := re.FindStringSubmatch(stack); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// jsError converts an error from the VM: the deadline's interrupt, a stack
// overflow or a thrown value with the line it was thrown at.
func (r *state) jsError(err error, what string) error {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if _, ok := ie.Value().(interrupt); ok || r.ctx.Err() != nil {
			return r.ctxError("the JavaScript code was still running (an endless loop?)")
		}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return failf("%s: maximum call stack size (%d) exceeded%s; look for endless recursion", what, maxCallStack, r.where(r.exceptionLine(&so.Exception)))
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		e := failf("%s %s%s", what, message(ex), r.where(r.exceptionLine(ex)))
		e.Detail = strings.TrimSpace(ex.String())
		return e
	}
	return failf("%s %v", what, err)
}

func (r *state) exceptionLine(ex *goja.Exception) int {
	for _, f := range ex.Stack() {
		if f.SrcName() == r.name {
			if p := f.Position(); p.Line > 0 {
				return p.Line
			}
		}
	}
	if v := ex.Value(); v != nil {
		if obj, ok := v.(*goja.Object); ok {
			if st := obj.Get("stack"); st != nil && !goja.IsUndefined(st) {
				return r.stackLine(st.String())
			}
		}
	}
	return 0
}

// message is a thrown value as JS shows it ("TypeError: x is not a
// function"), without goja's position suffix.
func message(err error) string {
	var ex *goja.Exception
	if errors.As(err, &ex) && ex.Value() != nil {
		return ex.Value().String()
	}
	return err.Error()
}

// syntaxError reports a compile error with the line it is on.
func syntaxError(name string, err error, where func(int) string) error {
	msg, line := err.Error(), 0
	var pe *parser.Error
	var pl parser.ErrorList
	var ce *goja.CompilerSyntaxError
	switch {
	case errors.As(err, &pl) && len(pl) > 0:
		msg, line = pl[0].Message, pl[0].Position.Line
	case errors.As(err, &pe):
		msg, line = pe.Message, pe.Position.Line
	case errors.As(err, &ce):
		msg = ce.Message
		if ce.File != nil {
			line = ce.File.Position(ce.Offset).Line
		}
	}
	return failf("%s has a JavaScript syntax error: %s%s", name, msg, where(line))
}

// fromJSON builds native JS values (not wrapped Go maps, which behave
// differently) from JSON text, keeping the key order; integral numbers as
// integers.
func (r *state) fromJSON(data []byte) (goja.Value, error) {
	if len(data) == 0 {
		return r.vm.NewObject(), nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return r.decodeValue(dec)
}

func (r *state) decodeValue(dec *json.Decoder) (goja.Value, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	vm := r.vm
	switch t := tok.(type) {
	case nil:
		return goja.Null(), nil
	case bool:
		return vm.ToValue(t), nil
	case string:
		return vm.ToValue(t), nil
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return vm.ToValue(i), nil
		}
		f, err := t.Float64()
		if err != nil {
			return vm.ToValue(t.String()), nil
		}
		if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
			return vm.ToValue(int64(f)), nil
		}
		return vm.ToValue(f), nil
	case json.Delim:
		switch t {
		case '[':
			var items []any
			for dec.More() {
				v, err := r.decodeValue(dec)
				if err != nil {
					return nil, err
				}
				items = append(items, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return vm.NewArray(items...), nil
		case '{':
			obj := vm.NewObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := r.decodeValue(dec)
				if err != nil {
					return nil, err
				}
				define(obj, k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		}
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}
