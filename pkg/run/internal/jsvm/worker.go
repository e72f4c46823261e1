package jsvm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"time"
)

// WorkerArg0 is argv[0] of a worker process. A worker runs calls one
// after the other: it reads a Request as one line of JSON on stdin, runs
// it in a fresh VM, and writes lines of JSON on stdout: {"log": "..."} for
// each console line, {"notify": {...}} for each report through ctx,
// {"ask": {"method": ..., "params": ...}} for each request to the client
// (ctx.sample, ctx.elicit), after which it reads the Answer as one line on
// stdin, then one Outcome. It exits at the end of its input,
// or after an Outcome with Retire set. Its stderr carries only the Go
// runtime's own fatal errors ("fatal error: out of memory").
const WorkerArg0 = "toolctl-js-worker"

func init() {
	if len(os.Args) == 1 && os.Args[0] == WorkerArg0 {
		os.Exit(workerMain(os.Stdin, os.Stdout))
	}
}

// Request is what the caller sends the worker.
type Request struct {
	Name   string          `json:"name"`
	Source string          `json:"source"`
	Input  json.RawMessage `json:"input"`
	// Deadline is when the call must end, in Unix nanoseconds (0: none).
	Deadline int64 `json:"deadline,omitempty"`
	// Memory is the limit of the heap in bytes (0: none).
	Memory int64 `json:"memory,omitempty"`
}

// Outcome ends a call.
type Outcome struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	// Content: Result is a result envelope (an MCP CallToolResult).
	Content bool     `json:"content,omitempty"`
	Error   *Failure `json:"error,omitempty"`
	// Retire: the worker exits after this call (it grew, or has served
	// many calls); the caller starts another for the next.
	Retire bool `json:"retire,omitempty"`
}

// Ask is a request to the client the worker sends the caller; Answer is
// the caller's reply.
type Ask struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type Answer struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// WhereToken marks, in a message the worker makes, where the caller puts
// the position of line n of the code (which needs the tool file, which the
// worker does not have).
func WhereToken(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("\x00line:%d\x00", n)
}

// out writes the worker's lines; console calls and the memory watch share
// it.
type out struct {
	mu sync.Mutex
	w  io.Writer
}

func (o *out) line(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"ok":false,"error":{"kind":"execution","message":"internal error encoding the JavaScript outcome"}}`)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	_, _ = o.w.Write(append(b, '\n'))
}

// Write turns console output (one Fprintln per console call) into log
// lines.
func (o *out) Write(p []byte) (int, error) {
	o.line(struct {
		Log string `json:"log"`
	}{strings.TrimSuffix(string(p), "\n")})
	return len(p), nil
}

// Worker limits: a worker whose address space grew by more than
// retireGrowth since it started (a call made a large heap, which Go keeps
// mapped) or that ran retireCalls calls exits after its answer, so that
// the address-space cap of the next call starts from a small base.
const (
	retireGrowth = 64 << 20
	retireCalls  = 1000
)

func workerMain(in io.Reader, w io.Writer) int {
	o := &out{w: w}
	br := bufio.NewReaderSize(in, 64<<10)
	base := vmSize()
	vm = base
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) == 0 {
			if err != nil {
				return 0 // the caller closed the pipe: no more calls
			}
			continue
		}
		res := serve(line, o, br)
		vm = vmSize()
		res.Retire = n >= retireCalls || (base > 0 && vm-base > retireGrowth)
		o.line(res)
		if res.Retire || err != nil {
			return 0
		}
		// Return what the call took to the OS before waiting for the next.
		if heapBytes() > 16<<20 {
			debug.FreeOSMemory()
		}
	}
}

// serve runs one request.
func serve(line []byte, o *out, in *bufio.Reader) Outcome {
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		return Outcome{Error: failf("internal error reading the JavaScript request: %v", err)}
	}
	ctx := context.Background()
	if req.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.Unix(0, req.Deadline))
		defer cancel()
	}
	stop := limitMemory(req.Memory, o)
	defer stop()
	notify := func(n json.RawMessage) {
		o.line(struct {
			Notify json.RawMessage `json:"notify"`
		}{n})
	}
	ask := func(method string, params json.RawMessage) (json.RawMessage, error) {
		o.line(struct {
			Ask Ask `json:"ask"`
		}{Ask{Method: method, Params: params}})
		line, err := in.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("no answer from toolctl: %v", err)
		}
		var a Answer
		if err := json.Unmarshal(line, &a); err != nil {
			return nil, fmt.Errorf("internal error reading the answer: %v", err)
		}
		if a.Error != "" {
			return nil, errors.New(a.Error)
		}
		return a.Result, nil
	}
	result, err := RunCall(ctx, Call{Name: req.Name, Source: req.Source, Input: req.Input, Console: o, Where: WhereToken, Notify: notify, Ask: ask})
	if err != nil {
		f, ok := err.(*Failure)
		if !ok {
			f = failf("%v", err)
		}
		return Outcome{Error: f}
	}
	res := Outcome{OK: true, Content: result.Content}
	if result.JSON != "" {
		res.Result = json.RawMessage(result.JSON)
	}
	return res
}

// heapMetric is the memory the JavaScript values hold: the Go heap's
// objects, live or not yet swept.
const heapMetric = "/memory/classes/heap/objects:bytes"

var heapSample = []metrics.Sample{{Name: heapMetric}}

// vm is the worker's address space after the last call (VmSize), which the
// next call's cap is measured from; capped is the limit and base of the
// cap in place, so that a call like the last sets nothing.
var (
	vm     int64
	capped [2]int64
)

func heapBytes() int64 {
	metrics.Read(heapSample)
	if heapSample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(heapSample[0].Value.Uint64())
}

// limitMemory makes the worker keep its heap under limit (0: none) for one
// call: a watch stops the call when the live heap is over it, the garbage
// collector aims a little above it (so that garbage is collected before
// the watch sees it, without collecting without end while the live heap
// nears the limit), and (Linux) the address space cannot grow much past
// it, so that one huge allocation fails at once (a fatal "out of memory"
// the caller recognises). The returned function lifts the limits.
func limitMemory(limit int64, o *out) (stop func()) {
	if c := [2]int64{limit, vm}; c != capped {
		if limit <= 0 {
			debug.SetMemoryLimit(math.MaxInt64)
		} else {
			debug.SetMemoryLimit(limit + limit/8)
		}
		capAddressSpace(limit, vm)
		capped = c
	}
	if limit <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if heapBytes() <= limit {
				continue
			}
			runtime.GC() // garbage is no reason to stop
			if used := heapBytes(); used > limit {
				o.line(Outcome{Error: &Failure{Kind: KindMemory, Message: "the JavaScript values went over the memory limit", Peak: used}, Retire: true})
				os.Exit(0)
			}
		}
	}()
	return func() { close(done) }
}
