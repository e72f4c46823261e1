package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

// jsTestCall builds a call of a javascript tool whose entry.code is code,
// parsed from YAML as a real tool file would be.
func jsTestCall(t *testing.T, code string, input map[string]any) (*Call, *bytes.Buffer) {
	t.Helper()
	var b strings.Builder
	b.WriteString("name: js_test\ndescription: A test tool.\nentry:\n  type: javascript\n  code: |\n")
	for _, l := range strings.Split(strings.TrimRight(code, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return jsTestCallYAML(t, b.String(), t.TempDir(), input)
}

func jsTestCallYAML(t *testing.T, doc, dir string, input map[string]any) (*Call, *bytes.Buffer) {
	t.Helper()
	path := filepath.Join(dir, "tool.yaml")
	f := spec.ParseFile(path, []byte(doc))
	if len(f.Tools) != 1 {
		t.Fatalf("parse: %d tools, errors %v", len(f.Tools), f.Errors)
	}
	stderr := &bytes.Buffer{}
	if input == nil {
		input = map[string]any{}
	}
	return &Call{Tool: f.Tools[0], Input: input, Dir: dir, Secrets: &Secrets{}, Stderr: stderr, Options: &Options{}}, stderr
}

func jsRunCall(t *testing.T, c *Call, timeout time.Duration) (any, *Error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	v, err := jsExecutor{}.Execute(ctx, c)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error is not an *Error: %T %v", err, err)
		}
		return v, e
	}
	return v, nil
}

func jsJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := MarshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func TestJavaScriptResult(t *testing.T) {
	c, _ := jsTestCall(t, `
function execute(input) {
  return { sum: input.a + input.b, half: input.a / 2, isInt: Number.isInteger(input.a),
           tags: input.tags.map(function (s) { return s.toUpperCase(); }),
           nested: input.obj, nothing: undefined, fn: function () {}, nul: null,
           when: new Date(0), nan: NaN, big: 10n };
}`, map[string]any{"a": json.Number("3"), "b": json.Number("0.5"), "tags": []any{"x", "y"}, "obj": map[string]any{"k": true}})
	v, e := jsRunCall(t, c, 5*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	want := `{"sum":3.5,"half":1.5,"isInt":true,"tags":["X","Y"],"nested":{"k":true},"nul":null,"when":"1970-01-01T00:00:00.000Z","nan":null,"big":"10"}`
	if got := jsJSON(t, v); got != want {
		t.Errorf("result\n got %s\nwant %s", got, want)
	}
}

func TestJavaScriptScalarAndUndefinedResults(t *testing.T) {
	for code, want := range map[string]string{
		`function execute() { return 42; }`:         `42`,
		`function execute() { return "hi"; }`:       `"hi"`,
		`function execute() {}`:                     `null`,
		`function execute() { return [1, , "a"]; }`: `[1,null,"a"]`,
		`const execute = (input) => input.n * 2;`:   `14`,
	} {
		c, _ := jsTestCall(t, code, map[string]any{"n": json.Number("7")})
		v, e := jsRunCall(t, c, 5*time.Second)
		if e != nil {
			t.Errorf("%s: %v", code, e)
			continue
		}
		if got := jsJSON(t, v); got != want {
			t.Errorf("%s: got %s, want %s", code, got, want)
		}
	}
}

func TestJavaScriptPromise(t *testing.T) {
	c, _ := jsTestCall(t, `
async function execute(input) {
  const a = await Promise.resolve(input.x);
  await new Promise(function (resolve) { setTimeout(resolve, 10); });
  return { doubled: a * 2 };
}`, map[string]any{"x": json.Number("21")})
	v, e := jsRunCall(t, c, 5*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	if got := jsJSON(t, v); got != `{"doubled":42}` {
		t.Errorf("got %s", got)
	}
}

func TestJavaScriptRejectedPromise(t *testing.T) {
	c, _ := jsTestCall(t, `async function execute(input) {
  await null;
  throw new RangeError("too far");
}`, nil)
	_, e := jsRunCall(t, c, 5*time.Second)
	if e == nil || e.Kind != ToolExecutionError {
		t.Fatalf("want ToolExecutionError, got %v", e)
	}
	if !strings.Contains(e.Message, "rejected with RangeError: too far") || !strings.Contains(e.Message, "line 3 of entry.code") {
		t.Errorf("message %q", e.Message)
	}
}

func TestJavaScriptPendingPromiseEndsAtDeadline(t *testing.T) {
	c, _ := jsTestCall(t, `function execute() { return new Promise(function () {}); }`, nil)
	start := time.Now()
	_, e := jsRunCall(t, c, 200*time.Millisecond)
	if e == nil || e.Kind != TimeoutError {
		t.Fatalf("want TimeoutError, got %v", e)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestJavaScriptThrowWithLine(t *testing.T) {
	c, _ := jsTestCall(t, `function execute(input) {
  var x = 1;
  throw new Error("boom");
}`, nil)
	_, e := jsRunCall(t, c, 5*time.Second)
	if e == nil || e.Kind != ToolExecutionError {
		t.Fatalf("want ToolExecutionError, got %v", e)
	}
	// entry.code starts on line 6 of the YAML, so its line 3 is line 8.
	if !strings.HasPrefix(e.Message, "execute threw Error: boom (line 3 of entry.code, ") || !strings.HasSuffix(e.Message, "tool.yaml:8)") {
		t.Errorf("message %q", e.Message)
	}
	if d, _ := e.Detail.(string); !strings.Contains(d, "entry.code:3") {
		t.Errorf("detail %q", d)
	}
}

func TestJavaScriptThrowInHelperAndNonError(t *testing.T) {
	c, _ := jsTestCall(t, `function helper(v) {
  return v.missing.deeper;
}
function execute(input) { return helper({}); }`, nil)
	_, e := jsRunCall(t, c, 5*time.Second)
	if e == nil || !strings.Contains(e.Message, "TypeError") || !strings.Contains(e.Message, "(line 2 of entry.code") {
		t.Fatalf("got %v", e)
	}
	c, _ = jsTestCall(t, `function execute() { throw "plain string"; }`, nil)
	_, e = jsRunCall(t, c, 5*time.Second)
	if e == nil || !strings.Contains(e.Message, "execute threw plain string (line 1 of entry.code") {
		t.Fatalf("got %v", e)
	}
}

func TestJavaScriptSyntaxError(t *testing.T) {
	c, _ := jsTestCall(t, `function execute(input) {
  var x = ;
}`, nil)
	_, e := jsRunCall(t, c, 5*time.Second)
	if e == nil || e.Kind != ToolExecutionError {
		t.Fatalf("want ToolExecutionError, got %v", e)
	}
	if !strings.Contains(e.Message, "syntax error") || !strings.Contains(e.Message, "line 2 of entry.code") {
		t.Errorf("message %q", e.Message)
	}
}

func TestJavaScriptMissingExecute(t *testing.T) {
	for _, code := range []string{`function run(input) { return 1; }`, `var execute = 5;`} {
		c, _ := jsTestCall(t, code, nil)
		_, e := jsRunCall(t, c, 5*time.Second)
		if e == nil || e.Kind != ToolExecutionError || !strings.Contains(e.Message, "entry.code must define function execute(input)") {
			t.Errorf("%s: got %v", code, e)
		}
	}
}

func TestJavaScriptInfiniteLoopTimesOut(t *testing.T) {
	for _, code := range []string{
		`function execute() { while (true) {} }`,
		`while (true) {}`, // at load time
		`function execute() { return new Promise(function (r) { setTimeout(function () { for (;;) {} }, 1); }); }`,
	} {
		c, _ := jsTestCall(t, code, nil)
		start := time.Now()
		_, e := jsRunCall(t, c, 300*time.Millisecond)
		d := time.Since(start)
		if e == nil || e.Kind != TimeoutError {
			t.Fatalf("%s: want TimeoutError, got %v", code, e)
		}
		if !strings.Contains(e.Message, "300ms timeout") {
			t.Errorf("message %q", e.Message)
		}
		if d > 5*time.Second {
			t.Errorf("%s: stopped after %s", code, d)
		}
	}
}

func TestJavaScriptConsole(t *testing.T) {
	c, stderr := jsTestCall(t, `function execute(input) {
  console.log("hello", 1, {a: [1]});
  console.error(new Error("bad"));
  console.warn(undefined, null);
  return "ok";
}`, nil)
	v, e := jsRunCall(t, c, 5*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	if v != "ok" {
		t.Errorf("result %v", v)
	}
	if got, want := stderr.String(), "hello 1 {\"a\":[1]}\nError: bad\nundefined null\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
}

func TestJavaScriptSandbox(t *testing.T) {
	c, _ := jsTestCall(t, `function execute() {
  return [typeof require, typeof process, typeof fetch, typeof XMLHttpRequest, typeof module, typeof Deno];
}`, nil)
	v, e := jsRunCall(t, c, 5*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	if got := jsJSON(t, v); got != `["undefined","undefined","undefined","undefined","undefined","undefined"]` {
		t.Errorf("globals: %s", got)
	}
	c, _ = jsTestCall(t, `function execute() { return require("fs").readFileSync("/etc/passwd"); }`, nil)
	_, e = jsRunCall(t, c, 5*time.Second)
	if e == nil || !strings.Contains(e.Message, "ReferenceError: require is not defined") {
		t.Errorf("require: %v", e)
	}
}

func TestJavaScriptFreshVMPerCall(t *testing.T) {
	c, _ := jsTestCall(t, `var n = 0; function execute() { n++; globalThis.leak = (globalThis.leak || 0) + 1; return [n, leak]; }`, nil)
	for i := 0; i < 3; i++ {
		v, e := jsRunCall(t, c, 5*time.Second)
		if e != nil {
			t.Fatal(e)
		}
		if got := jsJSON(t, v); got != `[1,1]` {
			t.Fatalf("call %d: %s", i, got)
		}
	}
}

func TestJavaScriptRecursionAndCycle(t *testing.T) {
	c, _ := jsTestCall(t, `function f() { return f() + 1; }
function execute() { return f(); }`, nil)
	_, e := jsRunCall(t, c, 10*time.Second)
	if e == nil || e.Kind != ToolExecutionError || !strings.Contains(e.Message, "call stack") {
		t.Errorf("recursion: %v", e)
	}
	c, _ = jsTestCall(t, `function execute() { var a = {}; a.self = a; return a; }`, nil)
	_, e = jsRunCall(t, c, 5*time.Second)
	if e == nil || e.Kind != ToolExecutionError || !strings.Contains(e.Message, "cannot be converted to JSON") {
		t.Errorf("cycle: %v", e)
	}
}

func TestJavaScriptFileEntry(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tool.js"), []byte("function execute(input) {\n  return input.s.split('').reverse().join('');\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := "name: js_file\ndescription: A test tool.\nentry:\n  type: javascript\n  file: tool.js\n"
	c, _ := jsTestCallYAML(t, doc, dir, map[string]any{"s": "abc"})
	v, e := jsRunCall(t, c, 5*time.Second)
	if e != nil || v != "cba" {
		t.Fatalf("got %v, %v", v, e)
	}
	c, _ = jsTestCallYAML(t, "name: js_file\ndescription: A test tool.\nentry:\n  type: javascript\n  file: missing.js\n", dir, nil)
	_, e = jsRunCall(t, c, 5*time.Second)
	if e == nil || !strings.Contains(e.Message, `cannot read entry.file "missing.js"`) {
		t.Fatalf("got %v", e)
	}
}

func TestJavaScriptInputKeysAndNumbers(t *testing.T) {
	in := map[string]any{
		"obj":   map[string]any{"__proto__": json.Number("1")},
		"int":   json.Number("9007199254740993"),
		"float": json.Number("1.0"),
		"ord":   func() *spec.Map { m := spec.NewMap(2); m.Set("z", 1); m.Set("a", 2); return m }(),
	}
	c, _ := jsTestCall(t, `function execute(input) {
  return [Object.keys(input.obj), Object.getPrototypeOf(input.obj) === Object.prototype, Number.isInteger(input.float), Object.keys(input.ord), typeof input.int];
}`, in)
	v, e := jsRunCall(t, c, 5*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	if got := jsJSON(t, v); got != `[["__proto__"],true,true,["z","a"],"number"]` {
		t.Errorf("got %s", got)
	}
}

func TestJavaScriptBundledTool(t *testing.T) {
	path := filepath.Join("..", "..", "tools", "json_transformer.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip("bundled tool not found:", err)
	}
	f := spec.ParseFile(path, data)
	in := map[string]any{
		"data":         map[string]any{"user": map[string]any{"name": "Ada", "address": map[string]any{"city": "London"}}, "items": []any{map[string]any{"id": json.Number("7")}}},
		"mapping":      map[string]any{"name": "user.name", "city": "user.address.city", "first": "items.0.id", "zip": "user.address.zip"},
		"keep_missing": false,
	}
	c := &Call{Tool: f.Tools[0], Input: in, Dir: filepath.Dir(path), Secrets: &Secrets{}, Stderr: &bytes.Buffer{}, Options: &Options{}}
	v, e := jsRunCall(t, c, 5*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	if got := jsJSON(t, v); got != `{"result":{"city":"London","first":7,"name":"Ada"},"missing":["zip"]}` {
		t.Errorf("got %s", got)
	}
}

// A call over its memory limit stops with a MemoryLimitError, whether it
// grows step by step or in one huge allocation (issue 13: this doubling
// reached 4.2 GB in the caller's own process).
func TestJavaScriptMemoryLimit(t *testing.T) {
	for name, code := range map[string]string{
		"doubling string": `function execute(){var s="x";for(var i=0;i<40;i++){s=s+s}}`,
		"growing array":   `function execute(){var a=[]; for(var i=0;;i++){a.push({i: i, s: "item " + i})}}`,
		"one allocation":  `function execute(){ return "x".repeat(1 << 29).length }`,
	} {
		t.Run(name, func(t *testing.T) {
			c, _ := jsTestCall(t, code, nil)
			c.Memory, c.MemoryFrom = 64<<20, "runtime.memory"
			start := time.Now()
			v, e := jsRunCall(t, c, 30*time.Second)
			if e == nil || e.Kind != MemoryLimitError {
				t.Fatalf("want MemoryLimitError, got %v, %v (%v)", v, e, e.Detail)
			}
			if !strings.Contains(e.Message, "the JavaScript code exceeded the tool's memory limit of 64 MiB (runtime.memory)") {
				t.Errorf("message %q", e.Message)
			}
			if d := time.Since(start); d > 25*time.Second {
				t.Errorf("stopped after %s", d)
			}
		})
	}
	// Under the limit, the same kind of code runs.
	c, _ := jsTestCall(t, `function execute(){var a=[]; for(var i=0;i<20000;i++){a.push({i: i, s: "item " + i})} return a.length}`, nil)
	c.Memory = 64 << 20
	if v, e := jsRunCall(t, c, 30*time.Second); e != nil || jsJSON(t, v) != "20000" {
		t.Fatalf("under the limit: %v, %v (%v)", v, e, e.Detail)
	}
}

// goja checks for the deadline between instructions; a catastrophic
// regular expression is one instruction that runs for hours. The call
// still ends at its timeout (plus a grace of jsGrace).
func TestJavaScriptTimeoutInsideNativeOperation(t *testing.T) {
	c, _ := jsTestCall(t, `function execute(){ return /^(a+)+(?=b)/.test("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!") }`, nil)
	start := time.Now()
	_, e := jsRunCall(t, c, 500*time.Millisecond)
	if e == nil || e.Kind != TimeoutError {
		t.Fatalf("want TimeoutError, got %v", e)
	}
	if !strings.Contains(e.Message, "500ms timeout") || !strings.Contains(e.Message, "in one long operation") {
		t.Errorf("message %q", e.Message)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("stopped after %s", d)
	}
}

// Workers are reused between calls, each call in a fresh VM: nothing one
// call leaves in the global scope or on the built-in prototypes reaches
// the next, and a worker killed in the middle of a call is replaced.
func TestJavaScriptWorkerReuse(t *testing.T) {
	run := func(code string) (any, *Error) {
		c, _ := jsTestCall(t, code, nil)
		return jsRunCall(t, c, 10*time.Second)
	}
	if _, e := run(`function execute(){ globalThis.leak = 1; Object.prototype.polluted = 1; Array.prototype.push = null; return 1 }`); e != nil {
		t.Fatal(e)
	}
	jsPool.mu.Lock()
	before := jsPool.started
	jsPool.mu.Unlock()
	for range 5 {
		v, e := run(`function execute(){ return [typeof leak, typeof ({}).polluted, typeof [].push] }`)
		if e != nil || jsJSON(t, v) != `["undefined","undefined","function"]` {
			t.Fatalf("state leaked between calls: %v, %v", v, e)
		}
	}
	jsPool.mu.Lock()
	started := jsPool.started - before
	jsPool.mu.Unlock()
	if started != 0 {
		t.Errorf("%d workers started for 5 calls in a row; want the idle one reused", started)
	}
	// A worker killed at the deadline does not break the next call.
	c, _ := jsTestCall(t, `function execute(){ return /^(a+)+(?=b)/.test("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!") }`, nil)
	if _, e := jsRunCall(t, c, 300*time.Millisecond); e == nil || e.Kind != TimeoutError {
		t.Fatalf("want TimeoutError, got %v", e)
	}
	if v, e := run(`function execute(){ return 2 }`); e != nil || jsJSON(t, v) != "2" {
		t.Fatalf("after a killed worker: %v, %v", v, e)
	}
}
