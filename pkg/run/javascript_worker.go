package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

// A javascript call runs in a worker: this binary started again with
// jsWorkerArg0 as argv[0], which the init function below recognises before
// main runs (in toolctl and in any test binary that links this package).
// The worker reads one request as JSON on stdin, runs it in a fresh VM
// and writes lines of JSON on stdout: {"log": "..."} for each console
// line, then the outcome, {"ok": true, "result": ...} or {"ok": false,
// "error": {...}}. Its stderr carries only the Go runtime's own fatal
// errors ("fatal error: out of memory").
//
// Limits: the worker watches its heap and stops with a MemoryLimitError
// when the JavaScript values it holds go over the limit; on Linux
// RLIMIT_DATA also caps its data segment a little above that, so that a
// single huge allocation fails instead of being made. The caller kills the
// worker if it has not answered jsGrace after the deadline (goja checks
// for an interrupt between instructions, not inside one long native
// operation).
const jsWorkerArg0 = "toolctl-js-worker"

// jsGrace is how long after the deadline the worker may take to report
// its timeout before it is killed.
const jsGrace = 200 * time.Millisecond

func init() {
	if len(os.Args) == 1 && os.Args[0] == jsWorkerArg0 {
		os.Exit(jsWorkerMain(os.Stdin, os.Stdout))
	}
}

type jsRequest struct {
	Name     string          `json:"name"`
	Source   string          `json:"source"`
	Input    json.RawMessage `json:"input"`
	Deadline int64           `json:"deadline,omitempty"` // Unix nanoseconds
	Timeout  time.Duration   `json:"timeout,omitempty"`
	Memory   int64           `json:"memory,omitempty"`
}

type jsOutcome struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *jsOutcomeError `json:"error,omitempty"`
}

type jsOutcomeError struct {
	Kind    Kind   `json:"kind"`
	Message string `json:"message"`
	Detail  string `json:"detail,omitempty"`
	Peak    int64  `json:"peak,omitempty"`
}

// jsWhereToken marks, in a message made by the worker, where the caller
// puts the position of a line of the code (jsWhere needs the tool file,
// which the worker does not have).
func jsWhereToken(line int) string {
	if line <= 0 {
		return ""
	}
	return "\x00line:" + strconv.Itoa(line) + "\x00"
}

var jsWhereTokenRE = regexp.MustCompile("\x00line:([0-9]+)\x00")

// --- the caller's side -----------------------------------------------------

// jsWorkerExe is the binary to start as the worker: this one.
func jsWorkerExe() (string, error) {
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			return "/proc/self/exe", nil // still this binary if it was replaced on disk
		}
	}
	return os.Executable()
}

func jsCallWorker(ctx context.Context, c *Call, src, name string) (any, error) {
	start := time.Now()
	input, err := MarshalJSON(c.Input)
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot encode the input as JSON: "+err.Error())
	}
	req := jsRequest{Name: name, Source: src, Input: input, Timeout: callTimeout(ctx, c, start), Memory: c.memoryLimit()}
	if dl, ok := ctx.Deadline(); ok {
		req.Deadline = dl.UnixNano()
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot encode the JavaScript request: "+err.Error())
	}
	exe, err := jsWorkerExe()
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot find toolctl's own executable to run the JavaScript code in: "+err.Error())
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Args = []string{jsWorkerArg0}
	// One VM runs one goroutine: two Ps are plenty, and fewer threads
	// keep the worker's baseline small. No goroutine dump on a fatal error.
	cmd.Env = append(os.Environ(), "GOMAXPROCS=2", "GOTRACEBACK=none")
	cmd.Stdin = bytes.NewReader(body)
	frames := &jsFrames{log: c.Stderr}
	stderr := &procBuffer{max: 16 << 10}
	cmd.Stdout, cmd.Stderr = frames, stderr
	jsWorkerProc(cmd)
	cmd.Cancel = func() error {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil // the worker reports its own timeout; WaitDelay kills it if it cannot
		}
		return cmd.Process.Kill()
	}
	cmd.WaitDelay = jsGrace
	runErr := cmd.Run()
	frames.flush()

	if frames.over {
		return nil, Errorf(ToolExecutionError, "execute's result (or a console line) is larger than %d MiB; a tool's result must be smaller", procMaxOutput>>20)
	}
	if out := frames.outcome; out != nil {
		if out.OK {
			if len(out.Result) == 0 {
				return nil, nil
			}
			v, err := spec.DecodeJSON(out.Result)
			if err != nil {
				return nil, Wrap(ToolExecutionError, err, "internal error decoding execute's result: "+err.Error())
			}
			return v, nil
		}
		if e := out.Error; e != nil {
			if e.Kind == MemoryLimitError {
				return nil, memoryError(c, "the JavaScript code", e.Peak)
			}
			msg := jsWhereTokenRE.ReplaceAllStringFunc(e.Message, func(tok string) string {
				n, _ := strconv.Atoi(jsWhereTokenRE.FindStringSubmatch(tok)[1])
				return jsWhere(c, name, n)
			})
			out := &Error{Kind: e.Kind, Message: msg}
			if e.Detail != "" {
				out.Detail = e.Detail
			}
			return nil, out
		}
	}
	// No outcome: the worker died.
	text := stderr.String()
	if req.Memory > 0 && strings.Contains(text, "out of memory") {
		return nil, memoryError(c, "the JavaScript code", 0)
	}
	if ctx.Err() != nil {
		return nil, ctxEndError(ctx, c, start, "the JavaScript code was still running (in one long operation, so its worker process was killed)")
	}
	if runErr != nil && cmd.ProcessState == nil {
		return nil, Wrap(ToolExecutionError, runErr, "cannot start the JavaScript worker (toolctl itself): "+runErr.Error())
	}
	e := Wrap(ToolExecutionError, runErr, "the JavaScript worker ended without a result")
	if cmd.ProcessState != nil {
		e.Message += " (" + cmd.ProcessState.String() + ")"
	}
	if last := lastNonEmptyLine(text); last != "" {
		e.Message += ": " + last
		e.Detail = strings.TrimSpace(text)
	}
	return nil, e
}

func lastNonEmptyLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// jsFrames reads the worker's stdout: console lines go to the call's
// stderr as they come, the outcome is kept.
type jsFrames struct {
	log     io.Writer
	mu      sync.Mutex
	partial []byte
	skip    bool // inside a line too long to keep
	over    bool
	outcome *jsOutcome
}

// jsMaxFrame bounds one line from the worker: the result's cap and room
// for its envelope.
const jsMaxFrame = procMaxOutput + 1<<20

func (f *jsFrames) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if !f.skip {
			if len(f.partial)+len(chunk) > jsMaxFrame {
				f.over, f.skip, f.partial = true, true, nil
			} else {
				f.partial = append(f.partial, chunk...)
			}
		}
		if i < 0 {
			break
		}
		if !f.skip {
			f.line(f.partial)
		}
		f.partial, f.skip = f.partial[:0], false
		p = p[i+1:]
	}
	return n, nil
}

func (f *jsFrames) flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.partial) > 0 && !f.skip {
		f.line(f.partial)
	}
	f.partial = nil
}

func (f *jsFrames) line(b []byte) {
	if bytes.HasPrefix(b, []byte(`{"log":`)) {
		var m struct {
			Log string `json:"log"`
		}
		if json.Unmarshal(b, &m) == nil && f.log != nil {
			_, _ = io.WriteString(f.log, m.Log+"\n")
		}
		return
	}
	var out jsOutcome
	if json.Unmarshal(b, &out) == nil {
		f.outcome = &out
	}
}

// --- the worker ------------------------------------------------------------

// jsOut writes the worker's lines; console calls and the memory watch
// share it.
type jsOut struct {
	mu sync.Mutex
	w  io.Writer
}

func (o *jsOut) frame(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"ok":false,"error":{"kind":"ToolExecutionError","message":"internal error encoding the JavaScript outcome"}}`)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	_, _ = o.w.Write(append(b, '\n'))
}

// Write makes console output (one Fprintln per console call) into log
// lines.
func (o *jsOut) Write(p []byte) (int, error) {
	o.frame(struct {
		Log string `json:"log"`
	}{strings.TrimSuffix(string(p), "\n")})
	return len(p), nil
}

func jsWorkerMain(in io.Reader, w io.Writer) int {
	out := &jsOut{w: w}
	fail := func(kind Kind, msg string) int {
		out.frame(jsOutcome{Error: &jsOutcomeError{Kind: kind, Message: msg}})
		return 0
	}
	raw, err := io.ReadAll(in)
	if err != nil {
		return fail(ToolExecutionError, "internal error reading the JavaScript request: "+err.Error())
	}
	var req jsRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return fail(ToolExecutionError, "internal error decoding the JavaScript request: "+err.Error())
	}
	raw = nil
	var input map[string]any
	if v, err := spec.DecodeJSON(req.Input); err == nil {
		if m, ok := v.(*spec.Map); ok {
			input = make(map[string]any, m.Len())
			for i := range m.Len() {
				k, x := m.At(i)
				input[k] = x
			}
		}
	}
	req.Input = nil
	if req.Memory > 0 {
		jsLimitMemory(req.Memory, out)
	}
	ctx := context.Background()
	if req.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.Unix(0, req.Deadline))
		defer cancel()
	}
	c := &Call{Tool: &spec.Tool{}, Input: input, Stderr: out, Timeout: req.Timeout}
	result, err := jsExecute(ctx, c, req.Source, req.Name, jsWhereToken)
	if err != nil {
		e := AsError(err)
		oe := &jsOutcomeError{Kind: e.Kind, Message: e.Message}
		if d, ok := e.Detail.(string); ok {
			oe.Detail = d
		}
		out.frame(jsOutcome{Error: oe})
		return 0
	}
	o := jsOutcome{OK: true}
	if result != "" {
		o.Result = json.RawMessage(result)
	}
	out.frame(o)
	return 0
}

// jsHeapMetric is the memory the JavaScript values hold: the Go heap's
// objects, live or not yet swept.
const jsHeapMetric = "/memory/classes/heap/objects:bytes"

// jsLimitMemory makes the worker keep its heap under limit: a watch stops
// the call when the live heap is over it, the garbage collector aims a
// little above it (so that garbage is collected before the watch sees it,
// without running without end while the live heap nears the limit), and
// (Linux) the address space cannot grow much past it, so that one huge
// allocation fails at once (a fatal "out of memory" the caller
// recognises).
func jsLimitMemory(limit int64, out *jsOut) {
	debug.SetMemoryLimit(limit + limit/8)
	jsCapDataSegment(limit)
	sample := []metrics.Sample{{Name: jsHeapMetric}}
	heap := func() int64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(sample[0].Value.Uint64())
	}
	go func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for range t.C {
			if heap() <= limit {
				continue
			}
			runtime.GC() // garbage is no reason to stop
			if used := heap(); used > limit {
				out.frame(jsOutcome{Error: &jsOutcomeError{Kind: MemoryLimitError, Message: fmt.Sprintf("the JavaScript values reached %s", spec.HumanSize(used)), Peak: used}})
				os.Exit(0)
			}
		}
	}()
}
