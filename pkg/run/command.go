package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/tmpl"
)

// commandExecutor runs `entry.type: command` (the SDK's NATIVE): argv with
// {param} and ${ENV} placeholders, run without a shell in the tool file's
// directory, the input as JSON on stdin, the result read from stdout.
type commandExecutor struct{}

func init() { Register(spec.EntryCommand, commandExecutor{}) }

// procMaxOutput bounds what is kept of a subprocess's stdout: a tool that
// floods it fails instead of exhausting memory.
const procMaxOutput = 32 << 20

// Plan is the argv after substitution (stdin is the input, which the
// runner's plan already shows).
func (x commandExecutor) Plan(c *Call) (any, error) {
	argv, err := x.argv(c)
	if err != nil {
		return nil, err
	}
	list := make([]any, len(argv))
	for i, a := range argv {
		list[i] = a
	}
	plan := spec.NewMap(1)
	plan.Set("argv", list)
	return plan, nil
}

// argv expands the placeholders of entry.command, one element at a time:
// a value is always one argument, whatever spaces or quotes it holds.
//
// A value may not change what runs: the program (element 0) takes no
// parameter, and before a "--" (or git's "--end-of-options") element a value
// that would start an argument with "-" is refused, since the program would
// read it as an option (du --files0-from=FILE, git --output=FILE).
func (commandExecutor) argv(c *Call) ([]string, error) {
	e := c.Tool.Entry
	if e == nil || len(e.Command) == 0 {
		return nil, Errorf(ToolExecutionError, `entry.command is empty; give the program and its arguments as a list, e.g. command: [du, -sk, --, "{path}"]`)
	}
	t := NewTemplate(c)
	for _, ref := range tmpl.Params(e.Command[0]) {
		if t.isParam(ref.Name) && !t.trusted(ref.Name) {
			return nil, Errorf(ToolExecutionError, "entry.command[0] %q takes the program to run from parameter %q, so a caller could run any program; name the program in the tool file and pass the parameter as a later argument", e.Command[0], ref.Name)
		}
	}
	argv := make([]string, 0, len(e.Command))
	options := true // no "--" yet: an argument may still be read as an option
	for i, a := range e.Command {
		t.Where = fmt.Sprintf("entry.command[%d]", i)
		// An element that is only an optional parameter left out (or null)
		// is dropped rather than passed as an empty argument.
		if name, n := placeholder(a); n > 0 && n == len(a) && i > 0 {
			if v, ok := c.Input[name]; (!ok || v == nil) && t.declared(name) {
				t.Used[name] = true
				continue
			}
		}
		t.Check = nil
		if options && i > 0 {
			t.Check = optionCheck(t, e.Command[0], i)
		}
		s, err := t.Expand(a, nil)
		if err != nil {
			return nil, err
		}
		argv = append(argv, s)
		if tmpl.EndOfOptions(a) {
			options = false
		}
	}
	if argv[0] == "" {
		return nil, Errorf(ToolExecutionError, "entry.command[0] is empty after substitution; the first element must name the program to run")
	}
	return argv, nil
}

// optionCheck refuses a parameter value that would put "-" at the start
// of argument i: alone ("{path}") or after dashes ("-{flag}"). A bound
// parameter is the tool file's own value, and an enum or const lists
// values its author chose, so those are let through.
func optionCheck(t *Template, program string, i int) func(name, text string, present bool, before string) error {
	return func(name, text string, present bool, before string) error {
		if !strings.HasPrefix(text, "-") || strings.Trim(before, "-") != "" || t.trusted(name) {
			return nil
		}
		return &Error{Kind: ValidationError, Param: name, Message: fmt.Sprintf(
			"parameter %q is %s, which starts with \"-\": %s would read entry.command[%d] as an option, not as a value; pass a value that does not start with \"-\" (a file named -x as ./-x). "+
				"To accept such values, the tool's author puts \"--\" before the placeholder in entry.command (git: \"--end-of-options\"), writes the option and its value as one argument (--name={%s}), or lists the allowed values in an enum",
			name, quoteValue(text), program, i, name)}
	}
}

func (x commandExecutor) Execute(ctx context.Context, c *Call) (any, error) {
	start := time.Now()
	argv, err := x.argv(c)
	if err != nil {
		return nil, err
	}
	prog, err := commandPath(c, argv[0])
	if err != nil {
		return nil, err
	}
	stdin, err := MarshalJSON(c.Input)
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot encode the input as JSON: "+err.Error())
	}
	cmd := exec.CommandContext(ctx, prog, argv[1:]...)
	cmd.Args[0] = argv[0]
	// The caller's working directory, as for python: paths an agent passes
	// are relative to where it runs, not to the tools directory. The
	// program itself, when given with a slash, is found next to the file.
	stdout, stderr, err := runProc(c, cmd, stdin)
	if err != nil && ctx.Err() != nil {
		return nil, ctxEndError(ctx, c, start, fmt.Sprintf("%s was still running; its process group was killed", argv[0]))
	}
	if err != nil && !(errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success()) {
		return nil, procFailure(argv[0], err, stderr)
	}
	if stdout.over {
		return nil, Errorf(ToolExecutionError, "%s wrote more than %d MiB to stdout; a tool's result must be smaller", argv[0], procMaxOutput>>20)
	}
	return commandResult(stdout.Bytes()), nil
}

// commandPath resolves the program: a name with a slash is relative to the
// tool file's directory, a bare name is looked up in PATH.
func commandPath(c *Call, name string) (string, error) {
	if hasDir(name) {
		return c.Path(name), nil
	}
	p, err := exec.LookPath(name)
	if err != nil {
		if errors.Is(err, exec.ErrDot) {
			return "", Wrap(ToolExecutionError, err, fmt.Sprintf("entry.command program %q was only found in the current directory, which toolctl does not run from; write it as ./%s (relative to the tool file)", name, name))
		}
		return "", Wrap(ToolExecutionError, err, fmt.Sprintf("entry.command program %q was not found in PATH; install it, or write a path (with a slash) relative to the tool file", name))
	}
	return p, nil
}

// commandResult is stdout as JSON when it is valid JSON, else as text
// without its final newline.
func commandResult(out []byte) any {
	if trimmed := bytes.TrimSpace(out); len(trimmed) > 0 {
		if v, err := spec.DecodeJSON(trimmed); err == nil {
			return v
		}
	}
	s := strings.TrimSuffix(string(out), "\n")
	return strings.TrimSuffix(s, "\r")
}

// procFailure describes a subprocess that could not start or did not exit
// with status 0; the message carries the last line of stderr and Detail
// its tail.
func procFailure(name string, err error, stderr *procTail) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		what := fmt.Sprintf("%s exited with status %d", name, ee.ExitCode())
		if ee.ExitCode() < 0 {
			what = fmt.Sprintf("%s was killed (%s)", name, ee.ProcessState.String())
		}
		e := Wrap(ToolExecutionError, err, what+stderr.lastLine())
		if tail := stderr.Tail(); tail != "" {
			e.Detail = tail
		}
		return e
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op == "chdir" {
		return Wrap(ToolExecutionError, err, fmt.Sprintf("cannot run %s in %s: %v", name, pe.Path, pe.Err))
	}
	if errors.Is(err, fs.ErrPermission) {
		return Wrap(ToolExecutionError, err, fmt.Sprintf("cannot run %s: permission denied; make it executable (chmod +x)", name))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return Wrap(ToolExecutionError, err, fmt.Sprintf("cannot run %s: no such file; a path with a slash is relative to the tool file's directory", name))
	}
	return Wrap(ToolExecutionError, err, fmt.Sprintf("cannot run %s: %v", name, err))
}

// ctxEndError is the error of a call whose context ended while it ran: a
// TimeoutError naming the timeout (the deadline as seen from the start of
// the attempt), else a cancellation.
func ctxEndError(ctx context.Context, c *Call, start time.Time, what string) error {
	err := ctx.Err()
	if !errors.Is(err, context.DeadlineExceeded) {
		return Wrap(ToolExecutionError, err, "cancelled: "+what)
	}
	timeout := ""
	if c.Timeout > 0 {
		timeout = " " + c.Timeout.String()
	} else if dl, ok := ctx.Deadline(); ok {
		// Without the runner's figure, estimate it from the deadline,
		// rounding up: start was taken just after the deadline was set.
		d := dl.Sub(start)
		switch {
		case d >= 10*time.Second:
			d = d.Round(time.Second)
		case d >= time.Second:
			d = d.Round(100 * time.Millisecond)
		default:
			d = (d + 10*time.Millisecond - 1).Truncate(10 * time.Millisecond)
		}
		timeout = " " + d.String()
	}
	return Wrap(TimeoutError, err, fmt.Sprintf("no result within the%s timeout: %s; raise runtime.timeout or pass --timeout", timeout, what))
}

// procBuffer keeps at most max bytes and remembers whether more came.
type procBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *procBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil // keep draining so the tool does not block
	}
	return b.Buffer.Write(p)
}

// procTail passes a subprocess's stderr through to the call's stderr and
// keeps its end for error messages.
type procTail struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

const (
	procTailBytes = 4 << 10
	procTailLines = 20
)

// runProc runs cmd with stdin as its input, stdout kept (capped) and
// stderr streamed to the call and kept as a tail; the whole process group
// is killed when cmd's context ends.
func runProc(c *Call, cmd *exec.Cmd, stdin []byte) (*procBuffer, *procTail, error) {
	cmd.Stdin = bytes.NewReader(stdin)
	stdout := &procBuffer{max: procMaxOutput}
	stderr := newProcTail(c.Stderr)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	killGroup(cmd)
	return stdout, stderr, cmd.Run()
}

func newProcTail(w io.Writer) *procTail {
	if w == nil {
		w = io.Discard
	}
	return &procTail{w: w}
}

func (t *procTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = t.w.Write(p) // a closed terminal must not fail the tool
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*procTailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-procTailBytes:]...)
	}
	return len(p), nil
}

// Tail is the last lines of stderr (at most 20 lines and 4 KB).
func (t *procTail) Tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if len(b) > procTailBytes {
		b = b[len(b)-procTailBytes:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:] // drop the cut line
		}
	}
	lines := strings.Split(strings.TrimRight(string(bytes.ToValidUTF8(b, []byte("\uFFFD"))), "\n\r\t "), "\n")
	if len(lines) > procTailLines {
		lines = lines[len(lines)-procTailLines:]
	}
	return strings.Join(lines, "\n")
}

// raw is the end of stderr as written: its last procTailBytes bytes.
func (t *procTail) raw() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf[max(0, len(t.buf)-procTailBytes):])
}

// lastLine is ": " and the last non-empty line of stderr, for a message.
func (t *procTail) lastLine() string {
	lines := strings.Split(t.Tail(), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			if r := []rune(l); len(r) > 300 {
				l = string(r[:300]) + "..."
			}
			return ": " + l
		}
	}
	return ""
}
