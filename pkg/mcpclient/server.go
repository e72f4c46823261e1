package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/internal/proc"
)

// Server is a stdio MCP server. The pipes are os.Pipe files rather than
// exec's StdoutPipe, so that Wait (run as soon as the process starts, to
// notice an early exit) never closes stdout before the client has read it.
type Server struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc // ends the process context: kills the group

	stdinW  *os.File
	stdoutR *os.File
	stderrR *os.File

	exited  chan struct{} // closed when Wait returns
	waitErr error
	report  proc.Report // the guard's, set before exited is closed
	argv    []string
	dir     string

	tail       *proc.Tail // passes stderr through and keeps its end
	stderrDone chan struct{}
}

// StartError is a server that could not be started: the message says why
// (a command not found, a directory that is not usable); Err is the cause.
type StartError struct {
	msg string
	Err error
	// notFound: the program was not found; where says where it was
	// looked for ("in PATH", "at that path").
	prog, where string
	notFound    bool
}

func (e *StartError) Error() string { return e.msg }
func (e *StartError) Unwrap() error { return e.Err }

// ForFlag is the error for a server whose command line came from the
// command-line flag flag (--server, --from-server, --against-server): a
// program not found names the flag and says to fix its command line, not
// entry.server (what a tool file's server is). Other errors are prefixed
// with the flag.
func (e *StartError) ForFlag(flag string) error {
	if e.notFound {
		return fmt.Errorf("%s: command %q not found %s; install it or fix the command line", flag, e.prog, e.where)
	}
	return fmt.Errorf("%s: %w", flag, e)
}

// FlagError is err, a failure to start or reach a server given with the
// command-line flag flag, in the flag's words: a *StartError, or an
// *ExitError of a program that could not start, as StartError.ForFlag
// says it; any other error as it is.
func FlagError(err error, flag string) error {
	var se *StartError
	var xe *ExitError
	switch {
	case errors.As(err, &xe) && xe.Start != nil:
		return xe.Start.ForFlag(flag)
	case errors.As(err, &se):
		return se.ForFlag(flag)
	}
	return err
}

// Start starts argv in dir (the current directory when empty), guarded
// (proc.Prepare): when ctx ends, or on Stop, it is killed with every
// process it started, and memory (bytes, 0 for none) limits them all. Its
// stderr goes to stderr (nil discards it). A failure is a *StartError.
func Start(ctx context.Context, argv []string, dir string, stderr io.Writer, memory int64) (*Server, error) {
	pctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(pctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	guard, err := proc.Prepare(cmd, memory)
	if err != nil {
		cancel()
		return nil, startError(argv[0], dir, err)
	}

	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			_ = f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	stdinR, stdinW, err1 := pipe()
	stdoutR, stdoutW, err2 := pipe()
	stderrR, stderrW, err3 := pipe()
	if err := errors.Join(err1, err2, err3); err != nil {
		closeAll()
		cancel()
		return nil, &StartError{msg: "cannot create pipes for the MCP server: " + err.Error(), Err: err}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	if err := cmd.Start(); err != nil {
		guard.Finish()
		closeAll()
		cancel()
		return nil, startError(argv[0], dir, err)
	}
	guard.Started()
	// The child has its own copies; ours would keep the pipes open.
	_ = stdinR.Close()
	_ = stdoutW.Close()
	_ = stderrW.Close()

	p := &Server{
		cmd: cmd, cancel: cancel,
		stdinW: stdinW, stdoutR: stdoutR, stderrR: stderrR,
		exited:     make(chan struct{}),
		tail:       proc.NewTail(stderr),
		stderrDone: make(chan struct{}),
		argv:       argv,
		dir:        dir,
	}
	go func() {
		p.waitErr = cmd.Wait()
		p.report = guard.Finish()
		close(p.exited)
	}()
	// proc.Tail never fails a write, so the copy drains stderr to its end
	// and the server never blocks writing it.
	go func() {
		defer close(p.stderrDone)
		_, _ = io.Copy(p.tail, p.stderrR)
	}()
	return p, nil
}

func startError(prog, dir string, err error) *StartError {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		where := "in PATH"
		if strings.ContainsRune(prog, '/') || strings.ContainsRune(prog, os.PathSeparator) {
			where = "at that path"
		}
		return &StartError{msg: fmt.Sprintf("cannot start the MCP server: command %q not found %s; install it or fix entry.server", prog, where), Err: err,
			prog: prog, where: where, notFound: true}
	}
	if dir != "" {
		if _, serr := os.Stat(dir); serr != nil {
			return &StartError{msg: fmt.Sprintf("cannot start the MCP server %q: its directory %s is not usable: %v", prog, dir, serr), Err: err}
		}
	}
	return &StartError{msg: fmt.Sprintf("cannot start the MCP server %q: %v", prog, err), Err: err}
}

// Name names the server in messages: its program, quoted.
func (p *Server) Name() string { return strconv.Quote(p.argv[0]) }

// Stdin and Stdout are the server's ends of the stdio transport.
func (p *Server) Stdin() io.WriteCloser { return p.stdinW }
func (p *Server) Stdout() io.ReadCloser { return p.stdoutR }

// Transport returns the client transport over the server's stdin and
// stdout; wrap, when not nil, wraps the stdout reader (to observe the raw
// messages).
func (p *Server) Transport(wrap func(io.Reader) io.Reader) mcp.Transport {
	if wrap == nil {
		return &mcp.IOTransport{Reader: p.stdoutR, Writer: p.stdinW}
	}
	// Closing the transport still closes the pipe, which ends a pending read.
	r := struct {
		io.Reader
		io.Closer
	}{wrap(p.stdoutR), p.stdoutR}
	return &mcp.IOTransport{Reader: r, Writer: p.stdinW}
}

// StderrTail returns the end of what the server wrote to stderr.
func (p *Server) StderrTail() string { return p.tail.Raw() }

// Stop ends the server: stdin closed (the stdio shutdown the MCP spec
// asks for), then after a grace period the whole group killed; once the
// leader has exited, what is left of its group is killed too, and the
// stderr copy finishes before the call returns.
func (p *Server) Stop() {
	_ = p.stdinW.Close()
	select {
	case <-p.exited:
	case <-time.After(StopGrace):
		p.cancel() // exec's Cancel: SIGKILL to the group
		<-p.exited
	}
	p.cancel()
	// Grandchildren outlive their leader; the group still exists while
	// they do, so its id cannot have been reused.
	if p.cmd.Cancel != nil {
		_ = p.cmd.Cancel()
	}
	_ = p.stdoutR.Close()
	select {
	case <-p.stderrDone:
	case <-time.After(time.Second):
		_ = p.stderrR.Close() // a detached process still holds stderr
		<-p.stderrDone
	}
	_ = p.stderrR.Close()
}

// ExitError is a server that exited before answering.
type ExitError struct {
	// Server names the server (Name).
	Server string
	// MemoryExceeded: the guard stopped the server for going over its
	// memory limit; Peak is the most it measured, in bytes.
	MemoryExceeded bool
	Peak           int64
	// Start: the guard, not exec, found that the program could not start.
	Start *StartError
	// Tail is the end of its stderr.
	Tail string
	msg  string
	// Err is the client's error that led to the question.
	Err error
}

// Error says that the server exited, with its status and the end of its
// stderr, or why it could not start.
func (e *ExitError) Error() string {
	if e.Start != nil {
		return e.Start.Error()
	}
	return e.msg
}

func (e *ExitError) Unwrap() error { return e.Err }

// ExitError explains a failure (err) of what (e.g. "tools/list") by the
// server having exited; nil when it is still running. The exit is awaited briefly: the broken pipe is usually
// seen before the exit status.
//
// A failure to read what the server wrote (a line on stdout that is not
// JSON-RPC, a message over the client's size or depth limit) is explained
// as that, whether or not the server has exited: the client drops the
// connection on such a line, so the server's exit (often a crash writing
// to the closed pipe) is only its consequence.
func (p *Server) ExitError(what string, err error) *ExitError {
	if wrote, fix := unreadable(err); wrote != "" {
		x := &ExitError{Server: p.Name(), Err: err, Tail: p.tail.Raw()}
		x.msg = fmt.Sprintf("the MCP server %s wrote %s to stdout during %s; %s", x.Server, wrote, what, fix)
		return x
	}
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		return nil
	}
	// stderr is complete once the copy has drained the pipe
	select {
	case <-p.stderrDone:
	case <-time.After(200 * time.Millisecond):
	}
	x := &ExitError{Server: p.Name(), Err: err}
	if p.report.MemoryExceeded {
		x.MemoryExceeded, x.Peak = true, p.report.Peak
		return x
	}
	if p.report.StartErr != nil {
		x.Start = startError(p.argv[0], p.dir, p.report.StartErr)
		return x
	}
	status := "exit status 0"
	if p.cmd.ProcessState != nil {
		status = p.cmd.ProcessState.String()
	}
	x.msg = fmt.Sprintf("the MCP server %s exited (%s) during %s", x.Server, status, what)
	x.Tail = p.tail.Raw()
	if x.Tail != "" {
		x.msg += "; its stderr ends with: " + lastLines(x.Tail, 5, 500)
	} else {
		x.msg += "; it wrote nothing to stderr: run the command by hand to see why"
	}
	return x
}

// lastLines returns at most n lines and max bytes of the end of s.
func lastLines(s string, n, max int) string {
	s = strings.TrimSpace(s)
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	s = strings.Join(lines, "\n")
	if len(s) > max {
		s = "…" + s[len(s)-max:]
	}
	return s
}

// unreadable says what the server wrote that made err, a failure to
// read its output as JSON-RPC messages, and what to do about it ("" when
// err is not one): the SDK's stdio reader ends the session on the first
// such message.
func unreadable(err error) (wrote, fix string) {
	if err == nil {
		return "", ""
	}
	const stdout = "a stdio server must write only JSON-RPC messages to stdout, one per line, and its logs to stderr"
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	msg := err.Error()
	switch {
	case strings.Contains(msg, "exceeded the configured maximum line length"):
		return fmt.Sprintf("a message longer than %d MiB (toolctl's limit)", mcp.DefaultMaxLineLength>>20), "have the tool return less"
	case strings.Contains(msg, "exceeded maximum nesting depth"):
		return "a message nested deeper than 1000 levels (toolctl's limit)", "have the tool return flatter JSON"
	case errors.As(err, &syntax):
		return "a line that is not JSON (" + syntax.Error() + ")", stdout
	case errors.As(err, &typ):
		return "a message that is not JSON-RPC (" + typ.Error() + ")", stdout
	case strings.Contains(msg, "unmarshaling jsonrpc message"), strings.Contains(msg, "invalid message version tag"):
		if rest, ok := strings.CutPrefix(msg, "calling "); ok {
			if _, r, ok := strings.Cut(rest, ": "); ok {
				msg = r
			}
		}
		return "a message that is not JSON-RPC (" + msg + ")", stdout
	}
	return "", ""
}
