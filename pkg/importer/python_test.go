package importer

import (
	"context"
	"errors"
	"flag"
	"github.com/toolctl/toolctl/pkg/pyast"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

var updatePython = flag.Bool("update-python", false, "rewrite the golden files in testdata/python")

func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
}

// pythonGolden renders an import as the golden file shows it: the
// warnings as comments, then the tools as a YAML stream (or the errors).
func pythonGolden(t *testing.T, res *Result, err error) string {
	t.Helper()
	var b strings.Builder
	checkRules(t, res)
	if res != nil {
		for _, w := range res.Warnings {
			b.WriteString("# warning: " + w.Error() + "\n")
		}
	}
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			b.WriteString("# error: " + line + "\n")
		}
		return b.String()
	}
	for i, tool := range res.Tools {
		if i > 0 {
			b.WriteString("---\n")
		}
		b.WriteString(canonical(t, tool))
	}
	return b.String()
}

// TestPythonGolden imports every fixture module of testdata/python (one
// per docstring style and per type construct) and compares the tools and
// warnings with NAME.yaml (go test ./pkg/importer -run TestPythonGolden
// -update-python rewrites them).
func TestPythonGolden(t *testing.T) {
	needPython(t)
	cases := []struct {
		golden, file string
		funcs        []string
	}{
		{"google", "google.py", nil},
		{"numpy_style", "numpy_style.py", nil},
		{"rest_style", "rest_style.py", nil},
		{"types", "types.py", nil},
		{"classes", "classes.py", nil},
		{"classes_methods", "classes.py", []string{"Tools.static_one", "Tools.class_one", "Tools.instance"}},
		{"annotated", "annotated.py", nil},
		{"refused", "refused.py", nil},
		{"refused_named", "refused.py", []string{"_private", "varargs", "nosuch"}},
		{"comments", "comments.py", nil},
	}
	dir := filepath.Join("testdata", "python")
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			name := filepath.Join(dir, c.file)
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			res, err := ImportPython(context.Background(), PythonOptions{Name: filepath.ToSlash(name), Source: src, Functions: c.funcs, ToolDir: dir})
			var list Errors
			var one *Diagnostic
			if err != nil && !errors.As(err, &list) && !errors.As(err, &one) {
				t.Fatalf("ImportPython: %v", err)
			}
			got := pythonGolden(t, res, err)
			path := filepath.Join(dir, c.golden+".yaml")
			if *updatePython {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-python to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the import of %s:\n%s", path, name, got)
			}
		})
	}
}

// TestPythonNeverRunsTheFile: the static reader parses the file; code at
// the top level (here: writing a file, exiting) does not run, and a name
// that looks like code is only a name.
func TestPythonNeverRunsTheFile(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	src := "import os, sys\nopen(" + pyQuote(marker) + ", 'w').write('x')\nsys.exit(3)\n\n" +
		"def f(x: int = __import__('os').system('touch " + marker + "')) -> int:\n    \"\"\"F. Use when testing.\"\"\"\n    return x\n"
	name := filepath.Join(dir, `we'ird";touch${IFS}`+filepath.Base(marker)+`.py`)
	res, err := ImportPython(context.Background(), PythonOptions{Name: name, Source: []byte(src), ToolDir: dir})
	if err != nil {
		t.Fatalf("ImportPython: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the file's code ran")
	}
	if len(res.Tools) != 1 || res.Tools[0].Tool.Entry.Function != "f" {
		t.Fatalf("tools: %+v", res.Tools)
	}
	if w := warningsText(res); !strings.Contains(w, `the default __import__('os').system(`) || !strings.Contains(w, "is not a literal") {
		t.Errorf("warnings:\n%s", w)
	}
}

func pyQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// TestPythonErrors: a syntax error is positioned; an interpreter that
// is missing, hangs or floods its output is reported, within bounds.
func TestPythonErrors(t *testing.T) {
	t.Run("syntax", func(t *testing.T) {
		needPython(t)
		_, err := ImportPython(context.Background(), PythonOptions{Name: "bad.py", Source: []byte("def f(:\n  pass\n")})
		var d *Diagnostic
		if !errors.As(err, &d) || d.Span.Start.Line != 1 || !strings.HasPrefix(d.Error(), "bad.py:1:") || !strings.Contains(d.Error(), ": cannot read the file as Python: SyntaxError") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("no function", func(t *testing.T) {
		needPython(t)
		_, err := ImportPython(context.Background(), PythonOptions{Name: "x.py", Source: []byte("X = 1\n")})
		if err == nil || !strings.Contains(err.Error(), "no function to import: the file defines no top-level function") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("missing interpreter", func(t *testing.T) {
		_, err := ImportPython(context.Background(), PythonOptions{Name: "x.py", Source: []byte("def f(): pass\n"), Interpreter: filepath.Join(t.TempDir(), "nopython")})
		if !errors.Is(err, ErrNoPython) || !strings.Contains(err.Error(), "install Python 3.8 or newer, or set run.python") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("too large", func(t *testing.T) {
		_, err := ImportPython(context.Background(), PythonOptions{Name: "x.py", Source: make([]byte, spec.MaxFileSize+1)})
		if err == nil || !strings.Contains(err.Error(), "larger than 16 MB") {
			t.Fatalf("err = %v", err)
		}
	})
	fake := func(t *testing.T, body string) string {
		if _, err := exec.LookPath("sh"); err != nil {
			t.Skip("no sh")
		}
		p := filepath.Join(t.TempDir(), "fakepython")
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("timeout", func(t *testing.T) {
		interp := fake(t, "exec sleep 30")
		start := time.Now()
		_, err := ImportPython(context.Background(), PythonOptions{Name: "x.py", Source: []byte("def f(): pass\n"), Interpreter: interp, Timeout: 200 * time.Millisecond})
		if err == nil || !strings.Contains(err.Error(), "took longer than 200ms and was stopped") {
			t.Fatalf("err = %v", err)
		}
		if d := time.Since(start); d > 20*time.Second { // a hang, not a slow machine
			t.Fatalf("took %s", d)
		}
	})
	t.Run("output limit", func(t *testing.T) {
		interp := fake(t, "exec yes '{}'")
		old := pyast.MaxOutput
		pyast.MaxOutput = 1 << 20
		defer func() { pyast.MaxOutput = old }()
		_, err := ImportPython(context.Background(), PythonOptions{Name: "x.py", Source: []byte("def f(): pass\n"), Interpreter: interp, Timeout: 5 * time.Second})
		if err == nil || !strings.Contains(err.Error(), "larger than 1 MB") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("not python", func(t *testing.T) {
		interp := fake(t, "echo 'SyntaxError: invalid syntax' >&2; exit 1")
		_, err := ImportPython(context.Background(), PythonOptions{Name: "x.py", Source: []byte("def f(): pass\n"), Interpreter: interp})
		if err == nil || !strings.Contains(err.Error(), "could not read x.py (SyntaxError: invalid syntax); import --from python needs Python 3.8 or newer") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestParseDoc reads each docstring style without python3.
func TestParseDoc(t *testing.T) {
	g := parseDoc("Sum.\n\nMore text.\n\nArgs:\n    a (int): First\n        line two.\n    b: Second.\n\nReturns:\n    int: The sum.\n\nRaises:\n    ValueError: bad.\n\nExamples:\n    >>> f(1)")
	if g.Style != "google" || g.Summary != "Sum." || g.Detail != "More text.\n\nExamples:\n    >>> f(1)" ||
		g.Params["a"].Type != "int" || g.Params["a"].Text != "First line two." || g.Params["b"].Text != "Second." ||
		g.Returns.Type != "int" || g.Returns.Text != "The sum." || len(g.Raises) != 1 || g.Raises[0].Type != "ValueError" {
		t.Errorf("google: %+v %+v %+v", g, g.Params["a"], g.Returns)
	}
	n := parseDoc("Sum.\n\nParameters\n----------\nx, y : int\n    Values.\n\nReturns\n-------\nfloat\n    The mean.\n")
	if n.Style != "numpy" || n.Params["x"].Type != "int" || n.Params["y"].Text != "Values." || n.Returns.Type != "float" || n.Returns.Text != "The mean." {
		t.Errorf("numpy: %+v", n)
	}
	r := parseDoc("Sum.\n:param int x: The x,\n    continued.\n:type y: list[str]\n:rtype: bool\n:raises KeyError: never")
	if r.Style != "rest" || r.Params["x"].Type != "int" || r.Params["x"].Text != "The x, continued." || r.Params["y"].Type != "list[str]" || r.Returns.Type != "bool" || r.Raises[0].Type != "KeyError" {
		t.Errorf("rest: %+v %+v", r, r.Params["x"])
	}
}

func TestParseDocType(t *testing.T) {
	for in, want := range map[string]string{
		"int":                 "name",
		"int, optional":       "name",
		"list of str":         "sub",
		"str or None":         "or",
		"Optional[List[int]]": "sub",
		"int | None":          "or",
		"{'a', 'b'}":          "sub",
		"int, default 5":      "name",
	} {
		n, ok := parseDocType(in, pyPos{1, 1})
		if !ok || n.K != want {
			t.Errorf("parseDocType(%q) = %+v, %v; want kind %s", in, n, ok, want)
		}
	}
	for _, in := range []string{"", "array-like", "int)", "dict[str"} {
		if _, ok := parseDocType(in, pyPos{1, 1}); ok {
			t.Errorf("parseDocType(%q) succeeded", in)
		}
	}
}

// TestPythonReturnsNone: -> None gives no output schema however it is
// written: the constant, a forward reference "None", the name None (what
// --exec reads at run time).
func TestPythonReturnsNone(t *testing.T) {
	needPython(t)
	src := "def a(x: int) -> None:\n    \"\"\"A.\"\"\"\n\ndef b(x: int) -> \"None\":\n    \"\"\"B.\"\"\"\n\ndef c(x: int) -> \"Optional[int]\":\n    \"\"\"C.\"\"\"\n"
	res, err := ImportPython(context.Background(), PythonOptions{Name: "r.py", Source: []byte(src), NoEntry: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if got := tool.Tool.OutputSchema != nil; got != (tool.Tool.Name == "c") {
			t.Errorf("%s: output schema %v", tool.Tool.Name, tool.Tool.OutputSchema)
		}
	}
	c := newPyConv("r.py", &pyModule{})
	if s := c.output(&pyFunc{Returns: &pyNode{K: "name", ID: "None", RunTime: true}}, nil, parseDoc("")); s != nil {
		t.Errorf("a run-time None: %v", s)
	}
}

// A parameter named ctx is where the runner passes the call's context
// (progress, logs): it is not in the schema, so the model never fills it.
func TestPythonCtxParameterNotInSchema(t *testing.T) {
	needPython(t)
	src := "def report(month: str, ctx=None) -> dict:\n    \"\"\"Builds the monthly report.\"\"\"\n    return {}\n"
	res, err := ImportPython(context.Background(), PythonOptions{Name: "mod.py", Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 {
		t.Fatalf("tools = %d", len(res.Tools))
	}
	js, _ := spec.MarshalJSONIndent(res.Tools[0].Tool.InputSchema)
	if strings.Contains(string(js), "ctx") || !strings.Contains(string(js), "month") {
		t.Errorf("input_schema = %s", js)
	}
}
