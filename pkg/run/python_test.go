//go:build unix

package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

func pyNeed(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
}

// pyTestCall writes module.py into a temp dir and returns a call of
// module.function with the given input.
func pyTestCall(t *testing.T, source, function string, input map[string]any) (*Call, *bytes.Buffer) {
	t.Helper()
	pyNeed(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scripts", "mod.py"), []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := "name: py_test\ndescription: A test tool.\nentry:\n  type: python\n  path: scripts\n  module: mod\n  function: " + function + "\n"
	path := filepath.Join(dir, "tool.yaml")
	f := spec.ParseFile(path, []byte(doc))
	if len(f.Tools) != 1 {
		t.Fatalf("parse: %v", f.Errors)
	}
	if input == nil {
		input = map[string]any{}
	}
	stderr := &bytes.Buffer{}
	return &Call{Tool: f.Tools[0], Input: input, Dir: dir, Secrets: &Secrets{}, Stderr: stderr, Options: &Options{}}, stderr
}

func pyRun(t *testing.T, c *Call, timeout time.Duration) (any, *Error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	v, err := pythonExecutor{}.Execute(ctx, c)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error is not an *Error: %T %v", err, err)
		}
		return v, e
	}
	return v, nil
}

func pyJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := MarshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

const pyModule = `
import asyncio, datetime, os, sys

def kwargs_style(text, count=1, flag=False):
    return {"text": text * count, "flag": flag}

def any_kwargs(**kw):
    return sorted(kw)

def single(params):
    return {"keys": sorted(params), "n": params["n"] + 1}

def noisy(text):
    print("printed to stdout")
    sys.stdout.write("raw write\n")
    os.system("echo from a child process")
    print("to stderr", file=sys.stderr)
    return {"ok": text}

def fails(text):
    raise ValueError("bad input: " + text)

async def coro(n):
    await asyncio.sleep(0.01)
    return n * 2

def odd_values():
    return {"set": {3}, "when": datetime.date(2024, 1, 2), "nan": float("nan"), "obj": object.__new__(Thing)}

class Thing:
    def __str__(self):
        return "a thing"

not_callable = 5
`

func TestPythonKwargsAndSingleArg(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		in   map[string]any
		want string
	}{
		{"kwargs_style", map[string]any{"text": "ab", "count": json.Number("2")}, `{"text":"abab","flag":false}`},
		{"any_kwargs", map[string]any{"b": 1, "a": 2}, `["a","b"]`},
		{"single", map[string]any{"n": json.Number("41"), "m": "x"}, `{"keys":["m","n"],"n":42}`},
		{"coro", map[string]any{"n": json.Number("21")}, `42`},
		{"odd_values", nil, `{"set":[3],"when":"2024-01-02","nan":null,"obj":"a thing"}`},
	} {
		c, _ := pyTestCall(t, pyModule, tc.fn, tc.in)
		v, e := pyRun(t, c, 20*time.Second)
		if e != nil {
			t.Errorf("%s: %v (detail %v)", tc.fn, e, e.Detail)
			continue
		}
		if got := pyJSON(t, v); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.fn, got, tc.want)
		}
	}
}

func TestPythonPrintDoesNotBreakResult(t *testing.T) {
	c, stderr := pyTestCall(t, pyModule, "noisy", map[string]any{"text": "yes"})
	v, e := pyRun(t, c, 20*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	if got := pyJSON(t, v); got != `{"ok":"yes"}` {
		t.Errorf("got %s", got)
	}
	for _, s := range []string{"printed to stdout", "raw write", "from a child process", "to stderr"} {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("stderr lacks %q: %q", s, stderr.String())
		}
	}
}

func TestPythonException(t *testing.T) {
	c, _ := pyTestCall(t, pyModule, "fails", map[string]any{"text": "x"})
	_, e := pyRun(t, c, 20*time.Second)
	if e == nil || e.Kind != ToolExecutionError {
		t.Fatalf("want ToolExecutionError, got %v", e)
	}
	if !strings.HasPrefix(e.Message, "ValueError: bad input: x (") || !strings.Contains(e.Message, "mod.py:21)") {
		t.Errorf("message %q", e.Message)
	}
	tb, _ := e.Detail.(string)
	if !strings.Contains(tb, "Traceback") || !strings.Contains(tb, `raise ValueError("bad input: " + text)`) || strings.Contains(tb, "<string>") {
		t.Errorf("traceback %q", tb)
	}
}

func TestPythonCallProblems(t *testing.T) {
	for _, tc := range []struct {
		fn, in, declared, want string
	}{
		{"missing_function", "", "", "has no function missing_function; check entry.function"},
		{"not_callable", "", "", "not_callable, but it is not callable"},
		{"kwargs_style", "count", "", "cannot call mod.kwargs_style with the input"},
		// text is declared (optional) and left out: not fails(input)
		{"fails", "", "text", "cannot call mod.fails with the input: fails(text) cannot take the input []: missing a required argument: 'text'"},
	} {
		in := map[string]any{}
		if tc.in != "" {
			in[tc.in] = json.Number("1")
		}
		c, _ := pyTestCall(t, pyModule, tc.fn, in)
		if tc.declared != "" {
			props := spec.NewMap(1)
			props.Set(tc.declared, spec.NewMap(0))
			schema := spec.NewMap(2)
			schema.Set("type", "object")
			schema.Set("properties", props)
			c.Tool.InputSchema = schema
		}
		_, e := pyRun(t, c, 20*time.Second)
		want := ToolExecutionError
		if tc.fn == "missing_function" || tc.fn == "not_callable" {
			want = DefinitionError // entry.function names no function of the module
		}
		if e == nil || e.Kind != want || !strings.Contains(e.Message, tc.want) {
			t.Errorf("%s: got %v", tc.fn, e)
		}
	}
}

func TestPythonModuleNotFound(t *testing.T) {
	c, _ := pyTestCall(t, pyModule, "single", nil)
	c.Tool.Entry.Module = "nosuchmodule"
	_, e := pyRun(t, c, 20*time.Second)
	if e == nil || e.Kind != DefinitionError || e.Pointer != "/entry/module" || !strings.Contains(e.Message, "cannot import module nosuchmodule from "+filepath.Join(c.Dir, "scripts")) {
		t.Fatalf("got %v", e)
	}
	// A dependency missing inside the module is not the module missing.
	c, _ = pyTestCall(t, "import nosuchdependency\ndef f():\n    return 1\n", "f", nil)
	_, e = pyRun(t, c, 20*time.Second)
	if e == nil || e.Kind != ToolExecutionError || !strings.Contains(e.Message, "importing module mod from") || !strings.Contains(e.Message, "ModuleNotFoundError: No module named 'nosuchdependency'") {
		t.Fatalf("got %v", e)
	}
}

func TestPythonInterpreterNotFound(t *testing.T) {
	c, _ := pyTestCall(t, pyModule, "single", nil)
	c.Options.Python = "no-such-python-xyz"
	_, e := pyRun(t, c, 20*time.Second)
	if e == nil || e.Kind != ToolExecutionError || !strings.Contains(e.Message, `python interpreter "no-such-python-xyz"`) || !strings.Contains(e.Message, "entry.interpreter") {
		t.Fatalf("got %v", e)
	}
}

func TestPythonTimeoutKillsProcessGroup(t *testing.T) {
	t.Parallel() // it mostly waits
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	src := `
import subprocess, time

def hang(pid_file):
    child = subprocess.Popen(["sleep", "1000"])
    with open(pid_file, "w") as f:
        f.write(str(child.pid))
    while True:
        time.sleep(1)
`
	c, _ := pyTestCall(t, src, "hang", map[string]any{"pid_file": pidFile})
	start := time.Now()
	// Generous: on a loaded CI machine python3 can take a second to start.
	_, e := pyRun(t, c, 5*time.Second)
	if e == nil || e.Kind != TimeoutError {
		t.Fatalf("want TimeoutError, got %v", e)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("returned after %s", d)
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the tool did not start its child in time: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	procWaitGone(t, pid)
}

func TestPythonBundledSlugify(t *testing.T) {
	pyNeed(t)
	path := filepath.Join("..", "..", "tools", "slugify.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip("bundled tool not found:", err)
	}
	f := spec.ParseFile(path, data)
	in := map[string]any{"text": "Ünïcode & Tools: a Guide!", "max_length": json.Number("60"), "separator": "-"}
	c := &Call{Tool: f.Tools[0], Input: in, Dir: filepath.Dir(path), Secrets: &Secrets{}, Stderr: &bytes.Buffer{}, Options: &Options{}}
	v, e := pyRun(t, c, 20*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	if got := pyJSON(t, v); got != `{"slug":"unicode-tools-a-guide"}` {
		t.Errorf("got %s", got)
	}
	// no bytecode left in the tools directory
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "scripts", "__pycache__")); err == nil {
		t.Log("note: tools/scripts/__pycache__ exists (maybe from another run)")
	}
}
