package run

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolctl/toolctl/pkg/internal/proc"
	"github.com/toolctl/toolctl/pkg/run/internal/jsvm"
	"github.com/toolctl/toolctl/pkg/spec"
)

// A javascript call runs in a worker (package jsvm): this binary started
// again with jsvm.WorkerArg0 as argv[0], which jsvm's init function
// recognises before main runs (in toolctl and in any test binary that
// links this package). Workers are kept for the next calls (a fresh VM
// each time; serve makes many), at most jsMaxIdle of them for jsIdleTTL.
// The worker watches its heap and stops with a MemoryLimitError when the
// values the code holds go over the call's limit; on Linux RLIMIT_AS also
// makes a single huge allocation fail. The caller kills the worker when it
// has not answered jsGrace after the deadline: goja checks for an
// interrupt between instructions, not inside one long native operation.

// jsGrace is how long after the deadline the worker may take to report
// its timeout before it is killed.
const jsGrace = 100 * time.Millisecond

// jsIdleTTL is how long an idle worker is kept.
const jsIdleTTL = time.Minute

var jsWhereTokenRE = regexp.MustCompile("\x00line:([0-9]+)\x00")

// jsWorkerExe is the binary to start as the worker: this one.
func jsWorkerExe() (string, error) {
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			return "/proc/self/exe", nil // still this binary if it was replaced on disk
		}
	}
	return os.Executable()
}

// jsWorker is a running worker process.
type jsWorker struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan jsLine   // its stdout, a line at a time; closed at EOF
	stderr *procBuffer   // the Go runtime's fatal errors
	exited chan struct{} // closed once Wait has returned
	idle   *time.Timer   // retires it while it waits in the pool
}

// jsLine is a line of the worker's stdout; over when it was longer than
// jsMaxFrame (and dropped).
type jsLine struct {
	b    []byte
	over bool
}

// jsMaxFrame bounds one line from the worker: the result's cap and room
// for its envelope.
const jsMaxFrame = procMaxOutput + 1<<20

var jsPool struct {
	mu      sync.Mutex
	idle    []*jsWorker
	warming bool
	started int // workers started, for tests
}

// jsMaxIdle is how many idle workers are kept: two per CPU toolctl uses,
// at least 4 (an idle worker holds some 20 MB).
func jsMaxIdle() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

func jsStartWorker() (*jsWorker, error) {
	exe, err := jsWorkerExe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Args = []string{jsvm.WorkerArg0}
	// One VM runs one goroutine: two Ps are plenty, and fewer threads
	// keep the worker's baseline small; one malloc arena, or each new
	// thread would reserve 64 MiB of the capped address space. No
	// goroutine dump on a fatal error.
	cmd.Env = append(os.Environ(), "GOMAXPROCS=2", "GOTRACEBACK=none", "MALLOC_ARENA_MAX=1")
	proc.Setpgid(cmd) // out of reach of a terminal's ^C: toolctl ends the call
	w := &jsWorker{cmd: cmd, lines: make(chan jsLine, 16), stderr: &procBuffer{max: 16 << 10}, exited: make(chan struct{})}
	cmd.Stderr = w.stderr
	if w.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	// Not StdoutPipe: Wait would close it when the worker exits, perhaps
	// before its last line (a memory outcome, then exit) was read.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = stdoutW
	err = cmd.Start()
	_ = stdoutW.Close()
	if err != nil {
		_ = stdout.Close()
		return nil, err
	}
	jsPool.mu.Lock()
	jsPool.started++
	jsPool.mu.Unlock()
	go func() {
		defer close(w.lines)
		defer stdout.Close()
		br := bufio.NewReaderSize(stdout, 64<<10)
		var long []byte
		over := false
		for {
			chunk, err := br.ReadSlice('\n')
			switch {
			case err == bufio.ErrBufferFull:
				if !over && len(long)+len(chunk) > jsMaxFrame {
					over, long = true, nil
				} else if !over {
					long = append(long, chunk...)
				}
				continue
			case err != nil && len(chunk) == 0 && len(long) == 0:
				return
			}
			line := append(long, bytes.TrimSuffix(chunk, []byte("\n"))...)
			if !over && len(line) > jsMaxFrame {
				over = true
			}
			if over {
				w.lines <- jsLine{over: true}
			} else {
				w.lines <- jsLine{b: bytes.Clone(line)}
			}
			long, over = nil, false
			if err != nil {
				return
			}
		}
	}()
	go func() {
		_ = cmd.Wait()
		close(w.exited)
	}()
	return w, nil
}

// jsGetWorker returns an idle worker or starts one.
func jsGetWorker() (*jsWorker, error) {
	jsPool.mu.Lock()
	for len(jsPool.idle) > 0 {
		w := jsPool.idle[len(jsPool.idle)-1]
		jsPool.idle = jsPool.idle[:len(jsPool.idle)-1]
		w.idle.Stop()
		select {
		case <-w.exited:
			continue // it died waiting
		default:
		}
		jsPool.mu.Unlock()
		return w, nil
	}
	jsPool.mu.Unlock()
	return jsStartWorker()
}

// WarmJavaScript starts a worker in the background when none is idle, so
// that the next javascript call does not wait for one (serve calls it
// when it serves a javascript tool).
func WarmJavaScript() {
	jsPool.mu.Lock()
	if len(jsPool.idle) > 0 || jsPool.warming {
		jsPool.mu.Unlock()
		return
	}
	jsPool.warming = true
	jsPool.mu.Unlock()
	go func() {
		w, err := jsStartWorker()
		jsPool.mu.Lock()
		jsPool.warming = false
		jsPool.mu.Unlock()
		if err == nil {
			jsPutWorker(w)
		}
	}()
}

// jsPutWorker keeps w for the next call, or lets it go.
func jsPutWorker(w *jsWorker) {
	jsPool.mu.Lock()
	defer jsPool.mu.Unlock()
	if len(jsPool.idle) >= jsMaxIdle() {
		w.retire()
		return
	}
	w.idle = time.AfterFunc(jsIdleTTL, func() {
		jsPool.mu.Lock()
		i := slices.Index(jsPool.idle, w)
		if i >= 0 {
			jsPool.idle = slices.Delete(jsPool.idle, i, i+1)
		}
		jsPool.mu.Unlock()
		if i >= 0 {
			w.retire()
		}
	})
	jsPool.idle = append(jsPool.idle, w)
}

// retire ends a worker between calls: at the end of its input it exits.
func (w *jsWorker) retire() { _ = w.stdin.Close() }

// kill ends a worker in the middle of a call; what it still writes is
// read and dropped. The call does not wait for it to be gone: a process
// with a large heap takes a while to exit on a busy machine, and it is
// reaped in the background.
func (w *jsWorker) kill() {
	_ = w.cmd.Process.Kill()
	_ = w.stdin.Close()
	go func() {
		for range w.lines {
		}
	}()
}

func jsCallWorker(ctx context.Context, c *Call, src, name string) (any, error) {
	start := time.Now()
	input, err := MarshalJSON(c.Input)
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot encode the input as JSON: "+err.Error())
	}
	req := jsvm.Request{Name: name, Source: src, Input: input, Memory: c.memoryLimit(jsExecutor{})}
	if dl, ok := ctx.Deadline(); ok {
		req.Deadline = dl.UnixNano()
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot encode the JavaScript request: "+err.Error())
	}
	body = append(body, '\n')
	w, err := jsGetWorker()
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot start the JavaScript worker (toolctl itself): "+err.Error())
	}
	// The request may be larger than the pipe: write it while waiting.
	go func() {
		if _, err := w.stdin.Write(body); err != nil {
			_ = w.stdin.Close()
		}
	}()
	var (
		grace <-chan time.Time
		done  = ctx.Done()
	)
	for {
		select {
		case l, ok := <-w.lines:
			if !ok {
				<-w.exited
				return jsDied(ctx, c, start, w, req.Memory > 0)
			}
			if l.over {
				w.kill()
				return nil, Errorf(ToolExecutionError, "execute's result (or a console line) is larger than %d MiB; a tool's result must be smaller", procMaxOutput>>20)
			}
			if jsNotice(c, l.b) {
				continue
			}
			if ask, ok := jsAsk(l.b); ok {
				// The worker waits for the answer; the call's end (the
				// timeout, a cancellation) ends the wait with an error.
				var a jsvm.Answer
				if res, err := c.ask(ctx, ask.Method, ask.Params); err != nil {
					a.Error = err.Error()
				} else {
					a.Result = res
				}
				line, _ := json.Marshal(a)
				if _, err := w.stdin.Write(append(line, '\n')); err != nil {
					w.kill()
					return nil, Wrap(ToolExecutionError, err, "cannot answer the JavaScript worker: "+err.Error())
				}
				continue
			}
			if log, ok := jsLog(l.b); ok {
				if c.Stderr != nil {
					_, _ = io.WriteString(c.Stderr, log+"\n")
				}
				continue
			}
			var out jsvm.Outcome
			if err := json.Unmarshal(l.b, &out); err != nil {
				w.kill()
				return nil, Wrap(ToolExecutionError, err, "internal error: the JavaScript worker answered "+strconv.Quote(string(l.b[:min(len(l.b), 200)])))
			}
			if out.Retire {
				w.retire()
			} else {
				jsPutWorker(w)
			}
			return jsOutcome(c, name, callTimeout(ctx, c, start), &out)
		case <-done:
			done = nil
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				w.kill()
				return nil, ctxEndError(ctx, c, start, "the JavaScript code was still running; its worker process was killed")
			}
			// The worker reports its own timeout; it is killed if it
			// cannot (inside one long native operation).
			grace = time.After(jsGrace)
		case <-grace:
			w.kill()
			return nil, ctxEndError(ctx, c, start, "the JavaScript code was still running (in one long operation, so its worker process was killed)")
		}
	}
}

// jsNotice reports a line of the worker's that is a report through ctx
// (progress, a log message); false for any other line.
func jsNotice(c *Call, b []byte) bool {
	if !bytes.HasPrefix(b, []byte(`{"notify":`)) {
		return false
	}
	var m struct {
		Notify struct {
			Progress *float64 `json:"progress"`
			Total    float64  `json:"total"`
			Message  string   `json:"message"`
			Log      string   `json:"log"`
			Data     any      `json:"data"`
		} `json:"notify"`
	}
	if decodeExact(b, &m) != nil {
		return false
	}
	n := m.Notify
	if n.Progress != nil {
		c.progress(Progress{Progress: *n.Progress, Total: n.Total, Message: n.Message})
	} else {
		c.log(LogMessage{Level: n.Log, Data: logData(n.Message, n.Data)})
	}
	return true
}

// jsAsk decodes a request to the client (ctx.sample, ctx.elicit).
func jsAsk(b []byte) (jsvm.Ask, bool) {
	if !bytes.HasPrefix(b, []byte(`{"ask":`)) {
		return jsvm.Ask{}, false
	}
	var m struct {
		Ask jsvm.Ask `json:"ask"`
	}
	if json.Unmarshal(b, &m) != nil {
		return jsvm.Ask{}, false
	}
	return m.Ask, true
}

// jsLog decodes a console line.
func jsLog(b []byte) (string, bool) {
	if !bytes.HasPrefix(b, []byte(`{"log":`)) {
		return "", false
	}
	var m struct {
		Log string `json:"log"`
	}
	if json.Unmarshal(b, &m) != nil {
		return "", false
	}
	return m.Log, true
}

// jsDied explains a worker that exited in the middle of a call.
func jsDied(ctx context.Context, c *Call, start time.Time, w *jsWorker, limited bool) (any, error) {
	text := w.stderr.String()
	if limited && jsOutOfMemory(text) {
		return nil, memoryError(c, "the JavaScript code", 0)
	}
	if ctx.Err() != nil {
		return nil, ctxEndError(ctx, c, start, "the JavaScript code was still running; its worker process ended")
	}
	e := Errorf(ToolExecutionError, "the JavaScript worker ended without a result")
	if ps := w.cmd.ProcessState; ps != nil {
		e.Message += " (" + ps.String() + ")"
	}
	if text = strings.TrimSpace(text); text != "" {
		lines := strings.Split(text, "\n")
		e.Message += ": " + strings.TrimSpace(lines[len(lines)-1])
		e.Detail = text
	}
	return nil, e
}

// jsOutOfMemory tells whether the Go runtime's fatal error says the
// worker ran out of address space: an allocation failed, or a new thread
// could not get a stack.
func jsOutOfMemory(stderr string) bool {
	for _, s := range []string{"out of memory", "pthread_create failed", "failed to create new OS thread", "cannot allocate memory"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}

// jsOutcome converts the worker's outcome.
func jsOutcome(c *Call, name string, timeout time.Duration, out *jsvm.Outcome) (any, error) {
	if out.OK {
		if out.Content {
			return contentResult(out.Result, "execute's result")
		}
		if len(out.Result) == 0 {
			return nil, nil
		}
		v, err := spec.DecodeJSON(out.Result)
		if err != nil {
			return nil, Wrap(ToolExecutionError, err, "internal error decoding execute's result: "+err.Error())
		}
		return v, nil
	}
	f := out.Error
	if f == nil {
		return nil, Errorf(ToolExecutionError, "internal error: the JavaScript worker gave neither a result nor an error")
	}
	msg := jsWhereTokenRE.ReplaceAllStringFunc(f.Message, func(tok string) string {
		n, _ := strconv.Atoi(jsWhereTokenRE.FindStringSubmatch(tok)[1])
		return jsWhere(c, name, n)
	})
	switch f.Kind {
	case jsvm.KindMemory:
		return nil, memoryError(c, "the JavaScript code", f.Peak)
	case jsvm.KindTimeout:
		return nil, timeoutError(timeout, msg)
	}
	e := &Error{Kind: ToolExecutionError, Message: msg}
	if f.Detail != "" {
		e.Detail = f.Detail
	}
	return nil, e
}
