package run

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolctl/toolctl/pkg/internal/proc"
	"github.com/toolctl/toolctl/pkg/spec"
)

// pythonRunner imports the tool's module and calls its function; it is
// passed with -c, so nothing is written to disk.
//
//go:embed python_runner.py
var pythonRunner string

// pythonExecutor runs `entry.type: python`: the interpreter in a
// subprocess (its own process group, killed whole at the timeout), the
// input as JSON on stdin and the result as JSON on a stdout the tool's own
// prints cannot reach.
type pythonExecutor struct{}

// limitsMemory: the interpreter runs under the memory limit unless it is
// unlimited.
func (pythonExecutor) limitsMemory(p Policy) bool { return p.Memory > 0 }

// pythonSetup is what a python call needs, resolved from the entry.
type pythonSetup struct {
	interp   string // as configured, for messages
	prog     string // resolved program
	path     string // sys.path entry, absolute
	shown    string // path for messages, as resolved against the tool dir
	module   string
	function string
	from     string // where the interpreter was configured
}

func pythonResolve(c *Call) (*pythonSetup, error) {
	e := c.Tool.Entry
	if e == nil || e.Module == "" {
		return nil, DefinitionErrorf("/entry", "a python entry needs entry.module (the module to import, e.g. slugify for slugify.py) and entry.function")
	}
	if e.Function == "" {
		return nil, DefinitionErrorf("/entry", "a python entry needs entry.function: the function of module %s to call with the input", e.Module)
	}
	s := &pythonSetup{module: e.Module, function: e.Function}
	switch {
	case e.Interpreter != "":
		s.interp, s.from = e.Interpreter, "entry.interpreter"
		s.prog = e.Interpreter
		if hasDir(s.prog) {
			s.prog = c.Path(s.prog) // e.g. .venv/bin/python next to the tool file
		}
	case c.Options != nil && c.Options.Python != "":
		s.interp, s.from = c.Options.Python, "the python interpreter setting"
		s.prog = s.interp
	default:
		s.interp, s.from = "python3", "the default"
		s.prog = s.interp
	}
	s.shown = c.Dir
	if e.Path != "" {
		s.shown = c.Path(e.Path)
	}
	if s.shown == "" {
		s.shown = "."
	}
	abs, err := filepath.Abs(s.shown)
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, fmt.Sprintf("cannot resolve entry.path %q: %v", e.Path, err))
	}
	s.path = abs
	return s, nil
}

// Check refuses an entry without module or function, an entry.path that
// is not a directory, and an interpreter written as a path relative to
// the tool file that is not there. Whether the module can be imported is
// for python to say (it may be installed): when it cannot, the call is a
// DefinitionError too (toolError).
func (pythonExecutor) Check(c *Call) error {
	s, err := pythonResolve(c)
	if err != nil {
		return err
	}
	if e := c.Tool.Entry; e.Path != "" {
		if fi, err := os.Stat(s.path); err != nil || !fi.IsDir() {
			why := "is not a directory"
			if err != nil {
				why = "does not exist"
			}
			return DefinitionErrorf("/entry/path", "entry.path %q (%s) %s; it names the directory holding %s.py, relative to the tool file", e.Path, s.shown, why, strings.ReplaceAll(e.Module, ".", "/"))
		}
	}
	if e := c.Tool.Entry; e.Interpreter != "" {
		return checkProgramPath(c, "/entry/interpreter", "entry.interpreter", e.Interpreter)
	}
	return nil
}

// Plan names the interpreter, the import path, the module and function,
// and the file the module's top-level package is imported from: a module
// the interpreter cannot find is the DefinitionError a run would give.
// Whether the function exists is only known by importing the module,
// which runs its code, so a dry run does not.
func (pythonExecutor) Plan(c *Call) (any, error) {
	s, err := pythonResolve(c)
	if err != nil {
		return nil, err
	}
	plan := spec.NewMap(5)
	plan.Set("interpreter", s.prog)
	plan.Set("path", s.path)
	plan.Set("module", s.module)
	plan.Set("function", s.function)
	origin, found, ok := s.findModule()
	switch {
	case ok && !found:
		top, _, _ := strings.Cut(s.module, ".")
		em := spec.NewMap(3)
		em.Set("type", "ModuleNotFoundError")
		em.Set("message", "No module named '"+top+"'") // as python says it
		em.Set("phase", "module_not_found")
		return nil, s.toolError(em)
	case ok:
		plan.Set("file", origin)
	}
	return plan, nil
}

// pythonFindModule prints where the top-level package of a module would
// be imported from, with sys.path as the runner sets it, or nothing when
// it would not be found. It imports nothing: find_spec of a top-level
// name only asks the finders.
const pythonFindModule = `import importlib.util, sys
if sys.path and sys.path[0] == "":
    del sys.path[0]
sys.path.insert(0, sys.argv[1])
s = importlib.util.find_spec(sys.argv[2])
if s is None:
    print("")
elif s.origin and s.origin != "namespace":
    print(s.origin)
else:
    print(next(iter(s.submodule_search_locations or []), "?"))
`

// findModule asks the interpreter where the module's top-level package is
// (origin), and whether it is found at all; ok is false when the
// interpreter could not say (not installed, failed): the run will.
func (s *pythonSetup) findModule() (origin string, found, ok bool) {
	top, _, _ := strings.Cut(s.module, ".")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.prog, "-c", pythonFindModule, s.path, top)
	cmd.Env = append(os.Environ(), "PYTHONIOENCODING=utf-8", "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.Output()
	if err != nil {
		return "", false, false
	}
	origin = strings.TrimSpace(string(out))
	return origin, origin != "", true
}

func (pythonExecutor) Execute(ctx context.Context, c *Call) (any, error) {
	start := time.Now()
	s, err := pythonResolve(c)
	if err != nil {
		return nil, err
	}
	stdin, err := MarshalJSON(c.Input)
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot encode the input as JSON: "+err.Error())
	}
	nonce := askNonce()
	cmd := exec.CommandContext(ctx, s.prog, "-c", pythonRunner, s.path, s.module, s.function, pythonDeclared(c), nonce)
	// The working directory stays the caller's: paths the agent passes are
	// relative to it; imports use entry.path, not the working directory.
	cmd.Env = append(os.Environ(), "PYTHONUNBUFFERED=1", "PYTHONIOENCODING=utf-8")
	p := runProc(ctx, c, cmd, stdin, s.interp, c.memoryLimit(pythonExecutor{}), nonce)
	if p.MemoryExceeded {
		return nil, memoryError(c, fmt.Sprintf("%s.%s", s.module, s.function), p.Peak)
	}
	if p.err != nil && ctx.Err() != nil {
		return nil, ctxEndError(ctx, c, start, fmt.Sprintf("%s.%s was still running; %s", s.module, s.function, p.killed))
	}
	if p.err != nil && !p.started {
		return nil, s.startError(p.err, "")
	}
	stdout, stderr, err := p.stdout, p.stderr, p.err
	if stdout.over {
		return nil, Errorf(ToolExecutionError, "the result of %s.%s is larger than %d MiB", s.module, s.function, procMaxOutput>>20)
	}
	doc, derr := spec.DecodeJSON(bytes.TrimSpace(stdout.Bytes()))
	m, ok := doc.(*spec.Map)
	if derr != nil || !ok {
		// No protocol document: the interpreter died (a signal, os._exit,
		// a crash) or is not a Python 3 that can run the runner.
		return nil, s.noResult(err, stderr)
	}
	if okv, _ := m.Get("ok"); okv == true {
		if env, ok := m.Get("content"); ok {
			raw, err := MarshalJSON(env)
			if err != nil {
				return nil, Wrap(ToolExecutionError, err, "cannot encode the result envelope: "+err.Error())
			}
			return contentResult(raw, fmt.Sprintf("the result of %s.%s", s.module, s.function))
		}
		res, _ := m.Get("result")
		return res, nil
	}
	ev, _ := m.Get("error")
	em, _ := ev.(*spec.Map)
	if em == nil {
		em = spec.NewMap(0)
	}
	return nil, s.toolError(em)
}

// noResult explains a run that produced no result document.
func (s *pythonSetup) noResult(err error, stderr *proc.Tail) error {
	if err == nil {
		err = errors.New("no result document")
	}
	what := fmt.Sprintf("%s.%s ended without a result", s.module, s.function)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		switch code := ee.ExitCode(); {
		case code == 127:
			// a shell or a shim (pyenv, asdf) saying the command is missing
			return s.startError(&exec.Error{Name: s.interp, Err: exec.ErrNotFound}, stderr.Tail())
		case code >= 0:
			what += fmt.Sprintf(" (%s exited with status %d)", s.interp, code)
		default:
			what += fmt.Sprintf(" (%s was killed: %s)", s.interp, ee.ProcessState.String())
		}
	}
	tail := stderr.Tail()
	hint := ""
	if strings.Contains(tail, `File "<string>"`) {
		hint = "; toolctl's python runner itself failed: " + s.interp + " must be Python 3.7 or newer"
	}
	e := Wrap(ToolExecutionError, err, what+stderr.LastLine()+hint)
	if tail != "" {
		e.Detail = tail
	}
	return e
}

// pythonDeclared is the JSON list of the tool's declared parameters, which
// helps the runner decide between f(**input) and f(input).
func pythonDeclared(c *Call) string {
	names := inputProps(c.Tool).Keys()
	if names == nil {
		names = []string{} // [], not null
	}
	raw, err := MarshalJSON(names)
	if err != nil {
		return "[]"
	}
	return string(raw)
}

// startError explains an interpreter that could not be started.
func (s *pythonSetup) startError(err error, detail string) error {
	how := "install Python 3, or set entry.interpreter in the tool file (e.g. .venv/bin/python, relative to the tool file) or toolctl's python interpreter setting"
	var e *Error
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		e = Wrap(ToolExecutionError, err, fmt.Sprintf("python interpreter %q (from %s) was not found; %s", s.interp, s.from, how))
	case errors.Is(err, fs.ErrPermission):
		e = Wrap(ToolExecutionError, err, fmt.Sprintf("python interpreter %q (from %s) cannot be run: permission denied; %s", s.interp, s.from, how))
	default:
		e = Wrap(ToolExecutionError, err, fmt.Sprintf("cannot start python interpreter %q (from %s): %v", s.interp, s.from, err))
	}
	if detail != "" {
		e.Detail = detail
	}
	return e
}

// toolError turns the runner's error document into a ToolExecutionError:
// "ValueError: bad input (scripts/tool.py:12)", the traceback as Detail.
func (s *pythonSetup) toolError(em *spec.Map) error {
	str := func(k string) string {
		v, _ := em.Get(k)
		t, _ := v.(string)
		return t
	}
	typ, msg, phase := str("type"), str("message"), str("phase")
	exc := typ
	if msg != "" {
		exc += ": " + msg
	}
	var text string
	switch phase {
	case "module_not_found":
		text = fmt.Sprintf("cannot import module %s from %s (%s); check entry.module and entry.path (the directory holding %s.py, relative to the tool file)", s.module, s.shown, exc, strings.ReplaceAll(s.module, ".", "/"))
	case "import":
		text = fmt.Sprintf("importing module %s from %s failed: %s", s.module, s.shown, exc)
		if typ == "ModuleNotFoundError" {
			text += "; install the missing package for " + s.interp
		}
	case "function":
		text = msg + "; check entry.function"
	case "arguments":
		text = fmt.Sprintf("cannot call %s.%s with the input: %s; make its parameters match the tool's input schema (or take one dict argument)", s.module, s.function, msg)
	case "result":
		text = fmt.Sprintf("the result of %s.%s cannot be converted to JSON: %s", s.module, s.function, exc)
	default:
		text = exc
		if text == "" {
			text = s.module + "." + s.function + " failed"
		}
	}
	if file := str("file"); file != "" && (phase == "call" || phase == "import") {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
				file = rel // shorter, and what the user sees in their tree
			}
		}
		if line, _ := em.Get("line"); line != nil {
			text += fmt.Sprintf(" (%s:%v)", file, line)
		}
	}
	e := Errorf(ToolExecutionError, "%s", text)
	switch phase {
	case "module_not_found": // the file entry.module names is not there
		e.Kind, e.Pointer = DefinitionError, "/entry/module"
	case "function": // the module has no such function
		e.Kind, e.Pointer = DefinitionError, "/entry/function"
	}
	if tb := str("traceback"); tb != "" {
		e.Detail = pythonTracebackTail(tb)
	}
	return e
}

// pythonTracebackTail keeps the end of a long traceback (the frames
// nearest the error and the exception line), at most 4 KB.
func pythonTracebackTail(tb string) string {
	tb = strings.TrimRight(tb, "\n")
	if len(tb) <= proc.TailBytes {
		return tb
	}
	cut := tb[len(tb)-proc.TailBytes:]
	if i := strings.IndexByte(cut, '\n'); i >= 0 {
		cut = cut[i+1:]
	}
	return "...\n" + cut
}
