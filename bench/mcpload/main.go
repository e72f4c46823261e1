// Command mcpload measures an MCP server under load: it starts the
// server, does the initialize handshake, then makes N tools/call requests
// with C concurrent callers (each waits for its answer before the next
// call) and prints calls/s and the latency percentiles.
//
//	go run ./bench/mcpload [-n 20000] [-c 1] [-tool calculator] [-args JSON] -- COMMAND [ARGS...]
//	go run ./bench/mcpload -http http://127.0.0.1:{port}/mcp [...] -- COMMAND --listen {port} ...
//
// By default the server speaks stdio. With -http it is a Streamable HTTP
// server at that URL: {port} in the URL and the command is replaced by a
// free port; each caller has its own keep-alive connection, and the
// server is stopped with SIGTERM at the end.
//
// It speaks JSON-RPC directly (no SDK) so that the client costs little of
// the machine it shares with the server, and the same for every server.
// Every response is checked: a JSON-RPC error or an isError result counts
// as a failure, and the first result is printed with -v.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/pprof"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

type options struct {
	n, c, warmup int
	tool, args   string
	protocol     string
	asJSON       bool
	verbose      bool
	label        string
	http         string
}

// Report is what one run measured (the -json output).
type Report struct {
	Label       string  `json:"label"`
	Server      string  `json:"server"`
	Protocol    string  `json:"protocol"`
	Calls       int     `json:"calls"`
	Concurrency int     `json:"concurrency"`
	Failures    int     `json:"failures"`
	Seconds     float64 `json:"seconds"`
	CallsPerSec float64 `json:"calls_per_sec"`
	P50ms       float64 `json:"p50_ms"`
	P99ms       float64 `json:"p99_ms"`
	MaxMs       float64 `json:"max_ms"`
	// ServerCPUus is the server process's user+system CPU time per call
	// over the whole run, handshake and warm-up included.
	ServerCPUus float64 `json:"server_cpu_us_per_call"`
	// ClientCPUus is mcpload's own CPU time per measured call: what the
	// load generator takes of the machine it shares with the server.
	ClientCPUus float64 `json:"client_cpu_us_per_call"`
	FirstResult string  `json:"first_result,omitempty"`
}

func main() {
	var o options
	flag.IntVar(&o.n, "n", 20000, "measured tools/call requests")
	flag.IntVar(&o.c, "c", 1, "concurrent callers")
	flag.IntVar(&o.warmup, "warmup", 1000, "unmeasured calls first (JIT, caches)")
	flag.StringVar(&o.tool, "tool", "calculator", "tool to call")
	flag.StringVar(&o.args, "args", `{"expression":"2*(3+4)"}`, "arguments (a JSON object)")
	flag.StringVar(&o.protocol, "protocol", "2025-11-25", "protocol version offered in initialize")
	flag.BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	flag.BoolVar(&o.verbose, "v", false, "print the first result and the server's stderr")
	flag.StringVar(&o.label, "label", "", "name of the server in the report (default: its serverInfo)")
	cpuprofile := flag.String("cpuprofile", "", "write mcpload's own CPU profile to this file (is the load generator the bottleneck?)")
	flag.StringVar(&o.http, "http", "", "Streamable HTTP endpoint of the server (default: stdio); {port} is a free port, also in COMMAND")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: mcpload [flags] -- COMMAND [ARGS...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 || o.n < 1 || o.c < 1 || o.warmup < 0 {
		flag.Usage()
		os.Exit(2)
	}
	if !json.Valid([]byte(o.args)) {
		fmt.Fprintf(os.Stderr, "mcpload: -args is not valid JSON: %s\n", o.args)
		os.Exit(2)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mcpload: %v\n", err)
			os.Exit(2)
		}
		pprof.StartCPUProfile(f)
	}
	load := loadStdio
	if o.http != "" {
		load = loadHTTP
	}
	rep, err := load(o, flag.Args())
	pprof.StopCPUProfile() // a no-op without -cpuprofile
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcpload: %v\n", err)
		os.Exit(1)
	}
	if o.asJSON {
		json.NewEncoder(os.Stdout).Encode(rep)
	} else {
		fmt.Printf("%s (%s): %d calls, concurrency %d: %.0f calls/s, p50 %.3f ms, p99 %.3f ms, max %.3f ms, server CPU %.1f µs/call, mcpload CPU %.1f µs/call, %d failures\n",
			rep.Label, rep.Protocol, rep.Calls, rep.Concurrency, rep.CallsPerSec, rep.P50ms, rep.P99ms, rep.MaxMs, rep.ServerCPUus, rep.ClientCPUus, rep.Failures)
	}
	if rep.Failures > 0 {
		os.Exit(1)
	}
}

// response is the part of a JSON-RPC response the client reads.
type response struct {
	ID     int64           `json:"id"`
	Error  json.RawMessage `json:"error"`
	Result struct {
		IsError         bool            `json:"isError"`
		ProtocolVersion string          `json:"protocolVersion"`
		ServerInfo      json.RawMessage `json:"serverInfo"`
		Content         json.RawMessage `json:"content"`
	} `json:"result"`
}

type answer struct {
	ok   bool
	body []byte // the first answer only
}

func loadStdio(o options, argv []string) (*Report, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer cmd.Process.Kill()

	total := o.warmup + o.n
	owners := make([]int32, total+2) // request id → caller
	chans := make([]chan answer, o.c)
	for i := range chans {
		chans[i] = make(chan answer, 1)
	}
	initDone := make(chan response, 1)
	readErr := make(chan error, 1)
	go func() {
		br := bufio.NewReaderSize(stdout, 1<<16)
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				readErr <- err
				return
			}
			var r response
			if err := json.Unmarshal(line, &r); err != nil {
				readErr <- fmt.Errorf("the server wrote something that is not JSON-RPC: %q", truncate(line))
				return
			}
			if r.ID == 0 {
				continue // a notification
			}
			if r.ID == 1 {
				initDone <- r
				continue
			}
			ok := len(r.Error) == 0 && !r.Result.IsError
			a := answer{ok: ok}
			if r.ID == 2 || !ok {
				a.body = line
			}
			chans[owners[r.ID]] <- a
		}
	}()

	var wmu sync.Mutex
	bw := bufio.NewWriter(stdin)
	send := func(b []byte) error {
		wmu.Lock()
		defer wmu.Unlock()
		if _, err := bw.Write(b); err != nil {
			return err
		}
		return bw.Flush()
	}
	failed := func(err error) error {
		return fmt.Errorf("%v\n%s", err, stderr.String())
	}

	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"mcpload","version":"1.0.0"}}}`+"\n", o.protocol)
	if err := send([]byte(init)); err != nil {
		return nil, failed(err)
	}
	var ir response
	select {
	case ir = <-initDone:
	case err := <-readErr:
		return nil, failed(fmt.Errorf("initialize: %v", err))
	case <-time.After(30 * time.Second):
		return nil, failed(errors.New("initialize: no answer in 30s"))
	}
	if len(ir.Error) > 0 {
		return nil, failed(fmt.Errorf("initialize: %s", ir.Error))
	}
	var info struct{ Name, Version string }
	json.Unmarshal(ir.Result.ServerInfo, &info)
	if err := send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
		return nil, failed(err)
	}

	prefix := []byte(`{"jsonrpc":"2.0","id":`)
	suffix := []byte(fmt.Sprintf(`,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", o.tool, o.args))
	var next atomic.Int64
	next.Store(1) // ids 2.. are calls
	lat := make([]time.Duration, total+2)
	var failures atomic.Int64
	var first []byte
	var firstErr []byte
	var emu sync.Mutex
	var start, startMeasure time.Time
	var measureOnce sync.Once
	startMeasureAt := int64(o.warmup + 1) // the id of the first measured call

	run := func(caller int) error {
		buf := make([]byte, 0, len(prefix)+len(suffix)+20)
		for {
			id := next.Add(1)
			if id > int64(total+1) {
				return nil
			}
			if id == startMeasureAt {
				measureOnce.Do(func() { startMeasure, clientCPU0 = time.Now(), selfCPU() })
			}
			owners[id] = int32(caller)
			buf = append(strconv.AppendInt(append(buf[:0], prefix...), id, 10), suffix...)
			t0 := time.Now()
			if err := send(buf); err != nil {
				return err
			}
			var a answer
			select {
			case a = <-chans[caller]:
			case err := <-readErr:
				readErr <- err
				return fmt.Errorf("reading answers: %v", err)
			}
			lat[id] = time.Since(t0)
			if a.body != nil {
				emu.Lock()
				if id == 2 {
					first = a.body
				}
				if !a.ok && firstErr == nil {
					firstErr = a.body
				}
				emu.Unlock()
			}
			if !a.ok {
				failures.Add(1)
			}
		}
	}
	start = time.Now()
	var wg sync.WaitGroup
	errs := make([]error, o.c)
	for i := range o.c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = run(i)
		}()
	}
	wg.Wait()
	end, cpuEnd := time.Now(), selfCPU()
	if err := errors.Join(errs...); err != nil {
		return nil, failed(err)
	}
	if startMeasure.IsZero() {
		startMeasure = start
	}
	clientCPU = cpuEnd - clientCPU0
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	return finish(o, cmd, lat, end.Sub(startMeasure), info.Name+" "+info.Version, ir.Result.ProtocolVersion, int(failures.Load()), first, firstErr, &stderr), nil
}

// finish computes the report of a run: lat holds the latency of each
// call by id (ids 2.. are calls, the first o.warmup unmeasured).
func finish(o options, cmd *exec.Cmd, lat []time.Duration, elapsed time.Duration, server, protocol string, failures int, first, firstErr []byte, stderr *bytes.Buffer) *Report {
	total := o.warmup + o.n
	measured := slices.Clone(lat[o.warmup+2 : total+2])
	slices.Sort(measured)
	pct := func(p float64) float64 {
		i := int(float64(len(measured)-1) * p)
		return float64(measured[i]) / 1e6
	}
	secs := elapsed.Seconds()
	rep := &Report{
		Label:       o.label,
		Server:      server,
		Protocol:    protocol,
		Calls:       o.n,
		Concurrency: o.c,
		Failures:    failures,
		Seconds:     secs,
		CallsPerSec: float64(o.n) / secs,
		P50ms:       pct(0.50),
		P99ms:       pct(0.99),
		MaxMs:       float64(measured[len(measured)-1]) / 1e6,
		FirstResult: string(bytes.TrimSpace(first)),
	}
	if rep.Label == "" {
		rep.Label = rep.Server
	}
	rep.ClientCPUus = float64(clientCPU) / 1e3 / float64(o.n)
	if ps := cmd.ProcessState; ps != nil {
		rep.ServerCPUus = float64(ps.UserTime()+ps.SystemTime()) / 1e3 / float64(total)
	}
	if o.verbose {
		fmt.Fprintf(os.Stderr, "first result: %s\n", first)
		if firstErr != nil {
			fmt.Fprintf(os.Stderr, "first failure: %s\n", firstErr)
		}
		io.Copy(os.Stderr, stderr)
	} else if firstErr != nil {
		fmt.Fprintf(os.Stderr, "mcpload: first failure: %s\n", bytes.TrimSpace(firstErr))
	}
	return rep
}

// clientCPU0 is mcpload's CPU time when the first measured call starts;
// clientCPU its CPU time over the measured calls.
var clientCPU0, clientCPU time.Duration

func truncate(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}
