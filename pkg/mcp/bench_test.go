//go:build unix

package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/run/builtin"
	"github.com/toolctl/toolctl/pkg/spec"
)

// BenchmarkStdioCall measures one tools/call of the calculator builtin
// through the whole server (JSON-RPC decoding, the SDK, the runner, the
// response) over in-process pipes, one call at a time: the server's cost
// per call without a process boundary. bench/serve.sh measures the real
// thing; this is what -cpuprofile is run on.
func BenchmarkStdioCall(b *testing.B) {
	set, err := spec.Load([]string{filepath.Join("..", "..", "tools", "calculator.json")})
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(Options{Runner: &run.Runner{Executors: builtin.Executors()}})
	if err != nil {
		b.Fatal(err)
	}
	s.Update(set, nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.ServeStdio(ctx, inR, outW, 0)
	br := bufio.NewReader(outR)
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			b.Fatal(err)
		}
	}
	recv := func() string {
		line, err := br.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		return line
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := range b.N {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"calculator","arguments":{"expression":"2*(3+4)"}}}`, i+2))
		if line := recv(); len(line) < 50 {
			b.Fatalf("unexpected answer %s", line)
		}
	}
	b.StopTimer()
	// CPU time per call is what a loaded machine does not distort.
	b.ReportMetric(float64(cpuTime()-cpu0)/1e3/float64(b.N), "cpu-µs/op")
	inW.Close()
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStdioCallParallel is BenchmarkStdioCall with 8 callers, each
// waiting for its answer before its next call (as bench/mcpload -c 8).
func BenchmarkStdioCallParallel(b *testing.B) {
	set, err := spec.Load([]string{filepath.Join("..", "..", "tools", "calculator.json")})
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(Options{Runner: &run.Runner{Executors: builtin.Executors()}})
	if err != nil {
		b.Fatal(err)
	}
	s.Update(set, nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go s.ServeStdio(context.Background(), inR, outW, 0)
	br := bufio.NewReader(outR)
	var wmu sync.Mutex
	send := func(line string) {
		wmu.Lock()
		defer wmu.Unlock()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			b.Error(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	br.ReadString('\n')
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	const callers = 8
	chans := make([]chan struct{}, callers)
	for i := range chans {
		chans[i] = make(chan struct{}, 1)
	}
	go func() {
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			// ids are 1000*caller + sequence
			i := strings.Index(line, `"id":`)
			var id int
			fmt.Sscanf(line[i+5:], "%d", &id)
			chans[id/1000000] <- struct{}{}
		}
	}()
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	var wg sync.WaitGroup
	per := b.N/callers + 1
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"calculator","arguments":{"expression":"2*(3+4)"}}}`, c*1000000+i+2))
				<-chans[c]
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/1e3/float64(per*callers), "cpu-µs/op")
	inW.Close()
}

// BenchmarkHTTPCall is BenchmarkStdioCall over Streamable HTTP: the
// server on a loopback TCP listener as toolctl serve --http runs it, one
// keep-alive connection, one call at a time. The client writes its
// requests by hand, so that the profile is mostly the server's.
func BenchmarkHTTPCall(b *testing.B) {
	set, err := spec.Load([]string{filepath.Join("..", "..", "tools", "calculator.json")})
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(Options{Runner: &run.Runner{Executors: builtin.Executors()}})
	if err != nil {
		b.Fatal(err)
	}
	s.Update(set, nil)
	url := serveHTTP(b, s, HTTPOptions{})
	benchHTTPCalls(b, strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp"))
}

// BenchmarkHTTPFloor is BenchmarkHTTPCall's client against the floor of
// bench/httpfloor: net/http answering fixed bytes, only the id parsed.
// BenchmarkHTTPCall minus this is what toolctl's HTTP path and the call
// cost; BenchmarkStdioCall is the call over stdio.
func BenchmarkHTTPFloor(b *testing.B) {
	result := []byte(`{"content":[{"type":"text","text":"{\"expression\":\"2*(3+4)\",\"result\":14}"}],"structuredContent":{"expression":"2*(3+4)","result":14}}`)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(body, &m) != nil || m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var buf bytes.Buffer
		buf.WriteString(`{"jsonrpc":"2.0","id":`)
		buf.Write(m.ID)
		buf.WriteString(`,"result":`)
		buf.Write(result)
		buf.WriteByte('}')
		w.Header().Set("Content-Type", "application/json")
		w.Write(buf.Bytes())
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	defer srv.Close()
	benchHTTPCalls(b, ln.Addr().String())
}

// benchHTTPCalls makes b.N calculator calls to the Streamable HTTP
// endpoint at addr over one keep-alive connection, one at a time.
func benchHTTPCalls(b *testing.B, addr string) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	call := func(id int) {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"calculator","arguments":{"expression":"2*(3+4)"}}}`, id)
		req := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-11-25\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
		if _, err := io.WriteString(conn, req); err != nil {
			b.Fatal(err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			b.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(data) < 50 {
			b.Fatalf("unexpected answer %d %s", resp.StatusCode, data)
		}
	}
	call(1)
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := range b.N {
		call(i + 2)
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/1e3/float64(b.N), "cpu-µs/op")
}
