package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/toolctl/toolctl/pkg/spec"
)

// jsExecutor runs `entry.type: javascript` in goja: a fresh VM per call (no
// state leaks between calls), with nothing but the ECMAScript built-ins,
// console and setTimeout: no require, no filesystem, no network.
//
// The VM runs in a worker process (javascript_worker.go), this binary
// started again, so that a call over its memory limit or stuck in one long
// native operation (a huge string, a catastrophic regular expression) is
// stopped without harm to the process that made it: serve runs many calls.
type jsExecutor struct{}

func init() { Register(spec.EntryJavaScript, jsExecutor{}) }

// jsMaxCallStack bounds recursion: goja's default is unbounded, so a
// runaway recursion would eat memory until the timeout instead of failing.
const jsMaxCallStack = 10000

// jsInterrupt is the value the VM is interrupted with at the deadline.
type jsInterrupt struct{}

func (jsExecutor) Execute(ctx context.Context, c *Call) (any, error) {
	src, name, err := jsSource(c)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctxEndError(ctx, c, time.Now(), "before the JavaScript code started")
	}
	return jsCallWorker(ctx, c, src, name)
}

// jsExecute runs src in a new VM: it is what the worker does. The result
// is the JSON text of execute's value ("" for undefined or null); where
// describes a line of the code for messages.
func jsExecute(ctx context.Context, c *Call, src, name string, where func(int) string) (string, error) {
	prg, err := jsCompile(name, src)
	if err != nil {
		return "", jsSyntaxError(name, err, where)
	}
	r := &jsRun{ctx: ctx, start: time.Now(), c: c, name: name, where: where, vm: goja.New(), timers: map[int64]*jsTimer{}}
	if ctx.Err() != nil {
		return "", r.ctxError("before the JavaScript code started")
	}
	return r.run(prg)
}

// jsSource returns the code to run and the name positions are reported
// against: entry.code, or the path written in entry.file.
func jsSource(c *Call) (src, name string, err error) {
	e := c.Tool.Entry
	switch {
	case e == nil:
		return "", "", Errorf(ToolExecutionError, "the tool has no entry; a javascript entry needs code or file")
	case e.Code != "":
		return e.Code, "entry.code", nil
	case e.File != "":
		data, err := os.ReadFile(c.Path(e.File))
		if err != nil {
			return "", "", Wrap(ToolExecutionError, err, fmt.Sprintf("cannot read entry.file %q (%v); the path is relative to the tool file's directory", e.File, jsPathErr(err)))
		}
		return string(data), e.File, nil
	}
	return "", "", Errorf(ToolExecutionError, "a javascript entry needs entry.code (the source) or entry.file (a .js file next to the tool file) defining function execute(input)")
}

func jsPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Compiled programs are cached by source: serve calls the same tool many
// times, and a goja.Program can run in any number of VMs.
var (
	jsCacheMu sync.Mutex
	jsCache   = map[string]*goja.Program{}
)

const jsCacheMax = 256

func jsCompile(name, src string) (*goja.Program, error) {
	key := name + "\x00" + src
	jsCacheMu.Lock()
	prg, ok := jsCache[key]
	jsCacheMu.Unlock()
	if ok {
		return prg, nil
	}
	// Parse first: goja.Compile flattens parse errors to text, the parser
	// keeps their positions.
	ast, err := parser.ParseFile(nil, name, src, 0)
	if err != nil {
		return nil, err
	}
	prg, err = goja.CompileAST(ast, false)
	if err != nil {
		return nil, err
	}
	jsCacheMu.Lock()
	if len(jsCache) >= jsCacheMax {
		clear(jsCache) // crude, but edits under watch must not grow it forever
	}
	jsCache[key] = prg
	jsCacheMu.Unlock()
	return prg, nil
}

// jsRun is the state of one call: the VM, its timers and the call.
type jsRun struct {
	ctx   context.Context
	start time.Time
	c     *Call
	name  string
	// where describes a line of the code for a message (jsWhere).
	where  func(line int) string
	vm     *goja.Runtime
	timers map[int64]*jsTimer
	nextID int64
	// stringify is JSON.stringify captured before the tool's code runs, so
	// that the result is converted even if the code replaces it.
	stringify goja.Callable
}

type jsTimer struct {
	id   int64
	at   time.Time
	fn   goja.Callable
	args []goja.Value
}

func (r *jsRun) run(prg *goja.Program) (string, error) {
	vm := r.vm
	vm.SetMaxCallStackSize(jsMaxCallStack)
	// The deadline interrupts the VM wherever it is in JavaScript code,
	// so `while (true) {}` ends at the timeout.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-r.ctx.Done():
			vm.Interrupt(jsInterrupt{})
		case <-stop:
		}
	}()
	if err := r.setup(); err != nil {
		return "", err
	}
	if _, err := vm.RunProgram(prg); err != nil {
		return "", r.jsError(err, r.name+" threw")
	}
	execute, err := r.lookupExecute()
	if err != nil {
		return "", err
	}
	input := r.toJS(r.c.Input)
	ret, err := execute(goja.Undefined(), input)
	if err != nil {
		return "", r.jsError(err, "execute threw")
	}
	if p, ok := jsPromise(ret); ok {
		if ret, err = r.await(p); err != nil {
			return "", err
		}
	}
	return r.export(ret)
}

var jsStringifyPrg = goja.MustCompile("toolctl-json", `(function (stringify) {
  // BigInt has no JSON form: keep its digits as a string.
  function replacer(k, v) { return typeof v === "bigint" ? v.toString() : v; }
  return function (v) { return stringify(v, replacer); };
})(JSON.stringify)`, true)

// jsLookupPrg finds execute whether it is a function declaration (a global
// property) or a top-level let/const (a global lexical binding only).
var jsLookupPrg = goja.MustCompile("toolctl-lookup", `typeof execute === "function" ? execute : (typeof execute === "undefined" ? undefined : null)`, false)

func (r *jsRun) setup() error {
	vm := r.vm
	v, err := vm.RunProgram(jsStringifyPrg)
	if err != nil {
		return Wrap(ToolExecutionError, err, "internal error setting up the JavaScript engine: "+err.Error())
	}
	r.stringify, _ = goja.AssertFunction(v)
	console := vm.NewObject()
	for _, m := range []string{"log", "info", "warn", "error", "debug", "trace"} {
		_ = console.Set(m, r.consoleLog)
	}
	_ = vm.Set("console", console)
	_ = vm.Set("setTimeout", r.setTimeout)
	_ = vm.Set("clearTimeout", r.clearTimeout)
	return nil
}

func (r *jsRun) lookupExecute() (goja.Callable, error) {
	v, err := r.vm.RunProgram(jsLookupPrg)
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
	return nil, Errorf(ToolExecutionError, "%s %s; %s must define function execute(input) returning the result (or a Promise of it)", r.name, what, r.name)
}

// consoleLog writes one line to the call's stderr, never to stdout, which
// carries the result.
func (r *jsRun) consoleLog(call goja.FunctionCall) goja.Value {
	parts := make([]string, len(call.Arguments))
	for i, a := range call.Arguments {
		parts[i] = r.text(a)
	}
	if r.c.Stderr != nil {
		_, _ = fmt.Fprintln(r.c.Stderr, strings.Join(parts, " "))
	}
	return goja.Undefined()
}

// text formats a console argument the way a reader expects: strings as
// they are, errors with their message, objects as JSON.
func (r *jsRun) text(v goja.Value) string {
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

func (r *jsRun) setTimeout(call goja.FunctionCall) goja.Value {
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
	r.timers[r.nextID] = &jsTimer{id: r.nextID, at: time.Now().Add(time.Duration(delay * float64(time.Millisecond))), fn: fn, args: args}
	return r.vm.ToValue(r.nextID)
}

func (r *jsRun) clearTimeout(call goja.FunctionCall) goja.Value {
	delete(r.timers, call.Argument(0).ToInteger())
	return goja.Undefined()
}

func jsPromise(v goja.Value) (*goja.Promise, bool) {
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
func (r *jsRun) await(p *goja.Promise) (goja.Value, error) {
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
				return nil, Errorf(ToolExecutionError, "execute returned a Promise that never settles: nothing resolves or rejects it")
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

func (r *jsRun) nextTimer() *jsTimer {
	var best *jsTimer
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
func (r *jsRun) export(v goja.Value) (string, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return "", nil
	}
	s, err := r.stringify(goja.Undefined(), v)
	if err != nil {
		var ie *goja.InterruptedError
		if errors.As(err, &ie) {
			return "", r.ctxError("converting execute's result to JSON")
		}
		return "", Wrap(ToolExecutionError, err, fmt.Sprintf("execute's result cannot be converted to JSON (%s); return plain objects, arrays, strings, numbers and booleans", jsMessage(err)))
	}
	if goja.IsUndefined(s) {
		return "", nil // a function or a symbol: no JSON form
	}
	return s.String(), nil
}

// toJS builds native JS values (not wrapped Go maps, which behave
// differently) from the input: integral numbers as integers.
func (r *jsRun) toJS(v any) goja.Value {
	vm := r.vm
	switch v := v.(type) {
	case nil:
		return goja.Null()
	case bool:
		return vm.ToValue(v)
	case string:
		return vm.ToValue(v)
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return vm.ToValue(i)
		}
		f, err := v.Float64()
		if err != nil {
			return vm.ToValue(v.String())
		}
		if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
			return vm.ToValue(int64(f))
		}
		return vm.ToValue(f)
	case float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return vm.ToValue(v)
	case []any:
		items := make([]any, len(v))
		for i, x := range v {
			items[i] = r.toJS(x)
		}
		return vm.NewArray(items...)
	case []string:
		items := make([]any, len(v))
		for i, x := range v {
			items[i] = x
		}
		return vm.NewArray(items...)
	case map[string]any:
		obj := vm.NewObject()
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			jsDefine(obj, k, r.toJS(v[k]))
		}
		return obj
	case *spec.Map:
		if v == nil {
			return goja.Null()
		}
		obj := vm.NewObject()
		for i := range v.Len() {
			k, x := v.At(i)
			jsDefine(obj, k, r.toJS(x))
		}
		return obj
	}
	// Anything else goes through its JSON form.
	raw, err := MarshalJSON(v)
	if err != nil {
		return vm.ToValue(fmt.Sprint(v))
	}
	plain, err := spec.DecodeJSON(raw)
	if err != nil {
		return vm.ToValue(string(raw))
	}
	return r.toJS(plain)
}

// jsDefine creates an own data property, as JSON.parse does: a key such as
// "__proto__" must not set the prototype.
func jsDefine(obj *goja.Object, k string, v goja.Value) {
	_ = obj.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
}

// rejected describes a rejected Promise: the reason's message and, for an
// Error, the line it was created at.
func (r *jsRun) rejected(reason goja.Value) error {
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
	e := Errorf(ToolExecutionError, "execute's Promise was rejected with %s%s", msg, r.where(line))
	if detail != "" {
		e.Detail = detail
	}
	return e
}

// stackLine finds the first position inside the tool's code in a JS stack
// text ("at execute (entry.code:3:11(4))").
func (r *jsRun) stackLine(stack string) int {
	re := regexp.MustCompile(regexp.QuoteMeta(r.name) + `:(\d+):\d+`)
	if m := re.FindStringSubmatch(stack); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// jsError converts an error from the VM: the deadline's interrupt, a stack
// overflow or a thrown value with the line it was thrown at.
func (r *jsRun) jsError(err error, what string) error {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if _, ok := ie.Value().(jsInterrupt); ok || r.ctx.Err() != nil {
			return r.ctxError("the JavaScript code was still running (an endless loop?)")
		}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return Wrap(ToolExecutionError, err, fmt.Sprintf("%s: maximum call stack size (%d) exceeded%s; look for endless recursion", what, jsMaxCallStack, r.where(r.exceptionLine(&so.Exception))))
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		e := Wrap(ToolExecutionError, err, fmt.Sprintf("%s %s%s", what, jsMessage(ex), r.where(r.exceptionLine(ex))))
		e.Detail = strings.TrimSpace(ex.String())
		return e
	}
	return Wrap(ToolExecutionError, err, what+" "+err.Error())
}

func (r *jsRun) exceptionLine(ex *goja.Exception) int {
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

// jsMessage is a thrown value as JS shows it ("TypeError: x is not a
// function"), without goja's position suffix.
func jsMessage(err error) string {
	var ex *goja.Exception
	if errors.As(err, &ex) && ex.Value() != nil {
		return ex.Value().String()
	}
	return err.Error()
}

// jsWhere names a line of the tool's code and, for entry.code, the line
// of the tool file it is on: " (line 3 of entry.code, tools/x.yaml:17)".
func jsWhere(c *Call, name string, line int) string {
	if line <= 0 {
		return ""
	}
	s := fmt.Sprintf(" (line %d of %s", line, name)
	if name == "entry.code" && c.Tool != nil && c.Tool.File != nil && c.Tool.Path() != "" {
		if p := c.Tool.TextPos("/entry/code", line, 1); p.Line > 0 {
			s += fmt.Sprintf(", %s:%d", c.Tool.Path(), p.Line)
		}
	}
	return s + ")"
}

// jsSyntaxError reports a compile error with the line it is on.
func jsSyntaxError(name string, err error, where func(int) string) error {
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
	return Wrap(ToolExecutionError, err, fmt.Sprintf("%s has a JavaScript syntax error: %s%s", name, msg, where(line)))
}

func (r *jsRun) ctxError(what string) error {
	return ctxEndError(r.ctx, r.c, r.start, what)
}
