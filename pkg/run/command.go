package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/toolctl/toolctl/pkg/internal/proc"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/tmpl"
)

// commandExecutor runs `entry.type: command` (the SDK's NATIVE): argv with
// {param} and ${ENV} placeholders, run without a shell in the tool file's
// directory, the input as JSON on stdin, the result read from stdout.
type commandExecutor struct{}

// limitsMemory: the program runs under the memory limit unless it is
// unlimited.
func (commandExecutor) limitsMemory(p Policy) bool { return p.Memory > 0 }

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
	t := NewTemplate(c)
	if err := commandProgramCheck(t); err != nil {
		return nil, err
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

// Check refuses an empty command, a program taken from a parameter, and a
// program written as a path relative to the tool file that is not there.
func (commandExecutor) Check(c *Call) error {
	if err := commandProgramCheck(NewTemplate(c)); err != nil {
		return err
	}
	prog := c.Tool.Entry.Command[0]
	if len(tmpl.Params(prog)) > 0 || strings.Contains(prog, "${") {
		return nil // known when it is expanded
	}
	return checkProgramPath(c, "/entry/command/0", "entry.command[0]", prog)
}

// commandProgramCheck refuses an empty command and a program (element 0)
// that takes a parameter a caller chooses.
func commandProgramCheck(t *Template) error {
	e := t.Call.Tool.Entry
	if e == nil || len(e.Command) == 0 {
		return DefinitionErrorf("/entry", `entry.command is empty; give the program and its arguments as a list, e.g. command: [du, -sk, --, "{path}"]`)
	}
	for _, ref := range tmpl.Params(e.Command[0]) {
		if t.isParam(ref.Name) && !t.trusted(ref.Name) {
			return DefinitionErrorf("/entry/command/0", "entry.command[0] %q takes the program to run from parameter %q, so a caller could run any program; name the program in the tool file and pass the parameter as a later argument", e.Command[0], ref.Name)
		}
	}
	return nil
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
	p := runProc(ctx, c, cmd, stdin, argv[0], c.memoryLimit(x), "")
	if p.MemoryExceeded {
		return nil, memoryError(c, argv[0], p.Peak)
	}
	if p.err != nil && ctx.Err() != nil {
		return nil, ctxEndError(ctx, c, start, fmt.Sprintf("%s was still running; %s", argv[0], p.killed))
	}
	if p.err != nil && !(errors.Is(p.err, exec.ErrWaitDelay) && p.started && cmd.ProcessState.Success()) {
		return nil, procFailure(argv[0], p.err, p.stderr)
	}
	if p.stdout.over {
		return nil, Errorf(ToolExecutionError, "%s wrote more than %d MiB to stdout; a tool's result must be smaller", argv[0], procMaxOutput>>20)
	}
	if res, ok, err := declaredMedia(c.Tool, p.stdout.Bytes(), ""); ok {
		return res, err
	}
	return commandOutput(p.stdout.Bytes(), argv[0])
}

// commandOutput is a command's result: a result envelope on stdout is
// MCP content (isError: a ToolExecutionError carrying it), an image or
// audio file an image or audio item, anything else commandResult.
func commandOutput(out []byte, name string) (any, error) {
	v := commandResult(out)
	if res, ok, err := envelope(v, name+"'s result envelope"); ok {
		return res, err
	}
	if res := mediaResult(out); res != nil {
		return res, nil
	}
	return v, nil
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
func procFailure(name string, err error, stderr *proc.Tail) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		what := fmt.Sprintf("%s exited with status %d", name, ee.ExitCode())
		if ee.ExitCode() < 0 {
			what = fmt.Sprintf("%s was killed (%s)", name, ee.ProcessState.String())
		}
		e := Wrap(ToolExecutionError, err, what+stderr.LastLine())
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
	e := timeoutError(callTimeout(ctx, c, start), what)
	e.Err = err
	return e
}

// timeoutError is the TimeoutError of a call that was still running at
// its deadline; timeout is 0 when unknown.
func timeoutError(timeout time.Duration, what string) *Error {
	t := ""
	if timeout > 0 {
		t = " " + timeout.String()
	}
	return Errorf(TimeoutError, "no result within the%s timeout: %s; raise runtime.timeout or pass --timeout", t, what)
}

// callTimeout is the call's timeout for messages: the runner's figure, or
// else an estimate from ctx's deadline as seen from start, rounded up
// (start was taken just after the deadline was set); 0 without either.
func callTimeout(ctx context.Context, c *Call, start time.Time) time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	dl, ok := ctx.Deadline()
	if !ok {
		return 0
	}
	d := dl.Sub(start)
	switch {
	case d >= 10*time.Second:
		d = d.Round(time.Second)
	case d >= time.Second:
		d = d.Round(100 * time.Millisecond)
	default:
		d = (d + 10*time.Millisecond - 1).Truncate(10 * time.Millisecond)
	}
	return d
}

// procBuffer keeps at most max bytes and remembers whether more came.
// It defines ReadFrom so that bytes.Buffer's, which would be promoted and
// which io.Copy (exec.Cmd's stdout copy) prefers to Write, cannot bypass
// the cap.
type procBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *procBuffer) ReadFrom(r io.Reader) (int64, error) {
	return io.Copy(struct{ io.Writer }{b}, r)
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

// procRun is a finished subprocess.
type procRun struct {
	stdout *procBuffer
	stderr *proc.Tail
	// err is Start's or Wait's error (startErr when the guard reported
	// one); started tells which.
	err     error
	started bool
	proc.Report
	// killed says what was killed when the call ended early.
	killed string
}

// runProc runs cmd with stdin as its input, stdout kept (capped) and
// stderr streamed to the call and kept as a tail, guarded (proc.Prepare): no
// process it starts outlives the call, and the call's memory limit
// applies to all of them.
//
// With a nonce, stdin stays open after the input, which is written as
// one line: the process may ask the client (a "##toolctl" line on stderr
// with "ask" and the nonce) and gets each answer as a line on stdin
// (python's ctx.sample and ctx.elicit).
func runProc(ctx context.Context, c *Call, cmd *exec.Cmd, stdin []byte, name string, memory int64, nonce string) *procRun {
	p := &procRun{stdout: &procBuffer{max: procMaxOutput}, stderr: proc.NewTail(c.Stderr)}
	// Notice lines (progress, log messages) are taken out of stderr
	// before it reaches the call's stderr and the tail kept for messages.
	notices := newNoticeFilter(c, p.stderr)
	if nonce != "" {
		pr, pw, err := os.Pipe()
		if err != nil {
			p.err = err
			return p
		}
		actx, cancel := context.WithCancel(ctx)
		ap := &askPipe{c: c, ctx: actx, w: pw, nonce: nonce}
		ap.mu.Lock() // the input goes first
		go func() {
			defer ap.mu.Unlock()
			_, _ = pw.Write(append(stdin, '\n'))
		}()
		defer func() {
			cancel()
			_ = pw.Close()
		}()
		cmd.Stdin = pr
		defer pr.Close()
		notices.answers = ap
	} else {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.Stdout, cmd.Stderr = p.stdout, notices
	g, err := proc.Prepare(cmd, memory)
	if err != nil {
		p.err = err
		return p
	}
	p.killed = g.Killed()
	if err := cmd.Start(); err != nil {
		g.Finish()
		p.err = err
		return p
	}
	g.Started()
	p.err = cmd.Wait()
	notices.Flush()
	p.Report = g.Finish()
	if p.StartErr != nil {
		p.err = p.StartErr
		return p
	}
	p.started = true
	if p.Leftovers > 0 {
		_, _ = fmt.Fprintf(p.stderr, "toolctl: %s exited and left %d %s running; killed\n", name, p.Leftovers, map[bool]string{true: "process", false: "processes"}[p.Leftovers == 1])
	}
	return p
}

// memoryError is the error of a call stopped for going over its memory
// limit; what names what was running ("python3", "the JavaScript code").
func memoryError(c *Call, what string, peak int64) *Error {
	limit := spec.HumanSize(c.Memory)
	var msg string
	switch c.MemoryFrom {
	case "":
		msg = fmt.Sprintf("%s exceeded the memory limit of %s (the default; set runtime.memory to change it)", what, limit)
	case "runtime.memory":
		msg = fmt.Sprintf("%s exceeded the tool's memory limit of %s (runtime.memory)", what, limit)
	default:
		msg = fmt.Sprintf("%s exceeded the memory limit of %s (%s)", what, limit, c.MemoryFrom)
	}
	if peak > c.Memory {
		msg += fmt.Sprintf(" and was stopped at %s", spec.HumanSize(peak))
	}
	return Errorf(MemoryLimitError, "%s; raise the limit if the tool needs more, or make it use less", msg)
}
