package run

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// A tool that cannot run for a reason in its file is a DefinitionError
// that points at the field at fault, from Run and from Plan alike, before
// the input is looked at (an invalid input does not hide it) and without
// anything being started or sent.
func TestDefinitionErrors(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	const head = "name: t\ndescription: A test tool. Use when testing.\ncategory: custom\n"
	const params = "input_schema: {type: object, properties: {a: {type: string}}, required: [a]}\n"
	for _, tc := range []struct {
		name, entry, ptr, want string
	}{
		{"no entry", "", "", "the tool has no entry"},
		{"unknown type", "entry: {type: rpc}", "/entry/type", `entry.type "rpc" is not a type toolctl runs`},
		{"python without module", "entry: {type: python, function: f}", "/entry", "a python entry needs entry.module"},
		{"python without function", "entry: {type: python, module: m}", "/entry", "a python entry needs entry.function"},
		{"python path missing", "entry: {type: python, module: m, function: f, path: nolib}", "/entry/path", `entry.path "nolib"`},
		{"python interpreter missing", "entry: {type: python, module: m, function: f, interpreter: .venv/bin/python}", "/entry/interpreter", `entry.interpreter program ".venv/bin/python" does not exist`},
		{"javascript without code", "entry: {type: javascript}", "/entry", "a javascript entry needs entry.code"},
		{"javascript file missing", "entry: {type: javascript, file: nothere.js}", "/entry/file", `cannot read entry.file "nothere.js"`},
		{"command empty", "entry: {type: command, command: []}", "/entry", "entry.command is empty"},
		{"command program from a parameter", `entry: {type: command, command: ["{a}"]}`, "/entry/command/0", `takes the program to run from parameter "a"`},
		{"command script missing", "entry: {type: command, command: [./scripts/nothere.sh]}", "/entry/command/0", `entry.command[0] program "./scripts/nothere.sh" does not exist`},
		{"mcp server empty", "entry: {type: mcp, server: ' ', tool: x}", "/entry", "entry.server is empty"},
		{"mcp server missing", "entry: {type: mcp, server: ./bin/server --stdio, tool: x}", "/entry/server", `entry.server program "./bin/server" does not exist`},
		{"http without url", "entry: {type: http, method: GET}", "/entry", "an http entry needs entry.url"},
		{"http unknown placeholder", "entry: {type: http, method: GET, url: '" + srv.URL + "/{town}'}", "/entry/url", "{town} names no parameter"},
		{"http unknown header placeholder", "entry: {type: http, method: GET, url: '" + srv.URL + "', headers: {X-Town: '{town}'}}", "/entry/headers/X-Town", "{town} names no parameter"},
		{"http host from a parameter", "entry: {type: http, method: GET, url: 'http://127.0.0.1:{a}/'}", "/entry/url", `entry.url takes its port from parameter "a"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			f := spec.ParseFile(filepath.Join(dir, "t.yaml"), []byte(head+params+tc.entry+"\n"))
			if len(f.Errors) > 0 || len(f.Tools) != 1 {
				t.Fatalf("tool does not parse: %v", f.Errors)
			}
			tool := f.Tools[0]
			r := &Runner{}
			// {} lacks the required a: the definition is reported first
			for _, input := range []map[string]any{{"a": "x"}, {}} {
				_, runErr := r.Run(context.Background(), tool, input)
				_, planErr := r.Plan(tool, input)
				for what, err := range map[string]error{"Run": runErr, "Plan": planErr} {
					var e *Error
					if !errors.As(err, &e) || e.Kind != DefinitionError || e.Pointer != tc.ptr || !strings.Contains(e.Message, tc.want) || e.Tool != "t" {
						t.Errorf("%s(%v): got %#v, want a DefinitionError at %q saying %q", what, input, err, tc.ptr, tc.want)
					}
					if e != nil && e.Kind.ExitCode() != 1 {
						t.Errorf("exit code %d, want 1", e.Kind.ExitCode())
					}
				}
			}
		})
	}
	if n := hits.Load(); n > 0 {
		t.Errorf("the server got %d requests", n)
	}
}

// The same entries with what they name present run (or plan) past the
// check: a file next to the tool file is found relative to it.
func TestDefinitionCheckFindsFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"scripts/ok.sh", "bin/server", "lib/m.py", "code.js"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\necho ok\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const head = "name: t\ndescription: A test tool. Use when testing.\ncategory: custom\n"
	for _, entry := range []string{
		"entry: {type: command, command: [./scripts/ok.sh]}",
		"entry: {type: mcp, server: ./bin/server --stdio, tool: x}",
		"entry: {type: javascript, file: code.js}",
	} {
		f := spec.ParseFile(filepath.Join(dir, "t.yaml"), []byte(head+entry+"\n"))
		if len(f.Errors) > 0 || len(f.Tools) != 1 {
			t.Fatalf("tool does not parse: %v", f.Errors)
		}
		ck, ok := mustExecutor(t, f.Tools[0]).(Checker)
		if !ok {
			t.Fatalf("%s: the executor has no Check", entry)
		}
		r := &Runner{}
		if err := ck.Check(r.newCall(f.Tools[0])); err != nil {
			t.Errorf("%s: %v", entry, err)
		}
	}
}

// A python module that is not where entry.path says, and a function the
// module lacks, are DefinitionErrors when run; a dry run finds the module
// (without importing it) and says the same as the run.
func TestPythonDefinitionErrors(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not available")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "real.py"), []byte("def run():\n    return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const head = "name: t\ndescription: A test tool. Use when testing.\ncategory: custom\n"
	parse := func(entry string) *spec.Tool {
		f := spec.ParseFile(filepath.Join(dir, "t.yaml"), []byte(head+entry+"\n"))
		if len(f.Errors) > 0 || len(f.Tools) != 1 {
			t.Fatalf("tool does not parse: %v", f.Errors)
		}
		return f.Tools[0]
	}
	r := &Runner{}
	missing := parse("entry: {type: python, module: missing_mod, function: run}")
	_, runErr := r.Run(context.Background(), missing, nil)
	_, planErr := r.Plan(missing, nil)
	for what, err := range map[string]error{"Run": runErr, "Plan": planErr} {
		var e *Error
		if !errors.As(err, &e) || e.Kind != DefinitionError || e.Pointer != "/entry/module" || !strings.Contains(e.Message, "cannot import module missing_mod from "+dir+" (ModuleNotFoundError: No module named 'missing_mod')") {
			t.Errorf("%s: got %v", what, err)
		}
	}
	if runErr != nil && planErr != nil && runErr.Error() != planErr.Error() {
		t.Errorf("the dry run says\n%s\nthe run says\n%s", planErr, runErr)
	}
	nofn := parse("entry: {type: python, module: real, function: nope}")
	_, err := r.Run(context.Background(), nofn, nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != DefinitionError || e.Pointer != "/entry/function" || !strings.Contains(e.Message, "has no function nope") {
		t.Errorf("Run: got %v", err)
	}
	plan, err := r.Plan(parse("entry: {type: python, module: real, function: run}"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if file, _ := plan["request"].(*spec.Map).Get("file"); file != filepath.Join(dir, "real.py") {
		t.Errorf("the plan names file %v, want %s", file, filepath.Join(dir, "real.py"))
	}
}

func mustExecutor(t *testing.T, tool *spec.Tool) Executor {
	t.Helper()
	x, err := (&Runner{}).executor(tool)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// A Runner without the builtin executor (a zero Runner: pkg/run does not
// import its handlers) says how to give it one, rather than blaming the
// tool file.
func TestRunnerWithoutExecutorForAKnownType(t *testing.T) {
	tool := parseTool(t, "name: t\ndescription: A test tool. Use when testing.\ncategory: custom\nentry: {type: builtin, handler: calculator}\n")
	_, err := (&Runner{}).Run(context.Background(), tool, nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != ToolExecutionError || !strings.Contains(e.Message, "builtin.Executors()") {
		t.Errorf("got %v", err)
	}
}
