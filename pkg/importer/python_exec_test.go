package importer

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/pyast"
)

// importExec imports testdata/python/exec/FILE with --exec.
func importExec(t *testing.T, file string, timeout time.Duration) (*Result, error) {
	t.Helper()
	dir := filepath.Join("testdata", "python", "exec")
	name := filepath.ToSlash(filepath.Join(dir, file))
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return ImportPython(context.Background(), PythonOptions{Name: name, Source: src, ToolDir: dir, Exec: true, Timeout: timeout})
}

// TestPythonExecGolden: --exec imports the module and resolves what the
// static reader cannot: an alias, a NewType, an Annotated alias, an Enum,
// a dataclass, a TypedDict and a NamedTuple imported from a sibling
// module, a default that is a constant of it; a string annotation that
// does not resolve is warned about; pydantic models become their
// model_json_schema() (only where pydantic is installed).
func TestPythonExecGolden(t *testing.T) {
	needPython(t)
	cases := []struct{ golden, file string }{
		{"exec_alias", "exec_alias.py"},
		{"exec_pydantic", "exec_pydantic.py"},
		{"exec_hostile", "exec_hostile.py"},
	}
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			if c.golden == "exec_pydantic" {
				out, err := exec.Command("python3", "-I", "-c", "import pydantic; print(pydantic.VERSION)").Output()
				if err != nil {
					t.Skip("pydantic is not installed for python3")
				}
				// the golden is pydantic 2.13's schema; other versions
				// are checked for what matters only
				if v := strings.TrimSpace(string(out)); !strings.HasPrefix(v, "2.13.") {
					checkPydantic(t)
					t.Skipf("pydantic %s: the golden is pydantic 2.13's", v)
				}
				checkPydantic(t)
			}
			res, err := importExec(t, c.file, 0)
			var list Errors
			var one *Diagnostic
			if err != nil && !errors.As(err, &list) && !errors.As(err, &one) {
				t.Fatalf("ImportPython: %v", err)
			}
			got := pythonGolden(t, res, err)
			path := filepath.Join("testdata", "python", "exec", c.golden+".yaml")
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
				t.Errorf("%s differs from the import of %s:\n%s", path, c.file, got)
			}
		})
	}
}

// TestPythonExecStatic: without --exec the same module is read
// statically: the imported names are not translated (the static path is
// the default, and it never imports the module).
func TestPythonExecStatic(t *testing.T) {
	needPython(t)
	dir := filepath.Join("testdata", "python", "exec")
	name := filepath.ToSlash(filepath.Join(dir, "exec_alias.py"))
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ImportPython(context.Background(), PythonOptions{Name: name, Source: src, ToolDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if w := warningsText(res); !strings.Contains(w, `the type "UserIds" cannot be translated`) || !strings.Contains(w, "--exec imports the module to resolve names of other modules") {
		t.Errorf("warnings:\n%s", w)
	}
}

// TestPythonExecStopped: a module whose import raises, hangs or prints
// without end is stopped, with a message that says so, within bounds.
func TestPythonExecStopped(t *testing.T) {
	needPython(t)
	for _, c := range []struct {
		file, want string
		line       int
		timeout    time.Duration
	}{
		{"exec_raises.py", "failed: ModuleNotFoundError: No module named 'exec_no_such_module'; fix the module", 1, time.Minute},
		{"exec_hang.py", "took longer than 1s and was stopped, with every process it started", 0, time.Second},
		{"exec_loud.py", "printed more than 1 MiB and was stopped", 0, time.Minute},
		{"exec_exits.py", "ended without an answer (exit status 4; its last output: leaving now): the module ended the interpreter while it was imported", 0, time.Minute},
	} {
		t.Run(c.file, func(t *testing.T) {
			start := time.Now()
			_, err := importExec(t, c.file, c.timeout)
			// The timeout bounds the static reader too: on a loaded
			// machine it may stop before the import starts. That is not
			// what this case tests, so it runs again with more time.
			for timeout := c.timeout; err != nil && strings.Contains(err.Error(), "with python3 took longer than") && timeout < 16*time.Second; {
				timeout *= 2
				c.want = strings.Replace(c.want, "longer than "+(timeout/2).String(), "longer than "+timeout.String(), 1)
				_, err = importExec(t, c.file, timeout)
			}
			var d *Diagnostic
			if !errors.As(err, &d) || !strings.Contains(d.Message, c.want) || d.Rule != RulePythonExecFailed || d.Span.Start.Line != c.line {
				t.Fatalf("err = %#v", err)
			}
			if took := time.Since(start); took > 50*time.Second { // a hang, not a slow machine
				t.Fatalf("took %s", took)
			}
		})
	}
	t.Run("snippet", func(t *testing.T) {
		_, err := ImportPython(context.Background(), PythonOptions{Name: "<stdin>", Source: []byte("def f(x: int): pass\n"), Functions: []string{"f"}, NoEntry: true, Exec: true})
		var d *Diagnostic
		if !errors.As(err, &d) || !strings.Contains(d.Message, "--exec imports a module from its file") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("missing interpreter", func(t *testing.T) {
		_, err := pyast.Exec(context.Background(), pyast.ExecOptions{File: "x.py", Module: "x", Interpreter: filepath.Join(t.TempDir(), "nopython")})
		if !errors.Is(err, ErrNoPython) {
			t.Fatalf("err = %v", err)
		}
	})
}

// checkPydantic: a pydantic model parameter is its model_json_schema()
// with the nested model inlined (no $ref, no $defs), the titles pydantic
// makes up dropped, Field constraints and descriptions kept.
func checkPydantic(t *testing.T) {
	t.Helper()
	res, err := importExec(t, "exec_pydantic.py", 0)
	if err != nil {
		t.Fatal(err)
	}
	text := canonical(t, res.Tools[0])
	for _, bad := range []string{"$ref", "$defs", "title:"} {
		if strings.Contains(text, bad) {
			t.Errorf("the schema has %s:\n%s", bad, text)
		}
	}
	for _, want := range []string{"description: Who buys.", "description: A postal address.", "description: The city.", "minLength: 1", "maxLength: 200", "minimum: 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("the schema lacks %q:\n%s", want, text)
		}
	}
}
