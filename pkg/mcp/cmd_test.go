// The binary tests stop the server with SIGTERM and SIGINT.

//go:build unix

package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/cmd"
	"github.com/toolctl/toolctl/pkg/mcp"
)

// These tests run toolctl serve as a process: the test binary is toolctl
// when asToolctl is set (as main_test.go's TestMain does for testscript).
const asToolctl = "TOOLCTL_TEST_SERVE_BINARY"

func TestMain(m *testing.M) {
	if os.Getenv(asToolctl) == "1" {
		os.Exit(cmd.Main())
	}
	if os.Getenv("TOOLCTL_TEST_MCP_UPSTREAM") == "1" {
		mcp.RunTestUpstream()
	}
	os.Exit(m.Run())
}

func toolctl(args ...string) *exec.Cmd {
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), asToolctl+"=1")
	return c
}

func copyTools(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(filepath.Join("testdata", "tools"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join("testdata", "tools", e.Name()))
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// lockedBuffer collects a process's stderr while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// recorder keeps every byte the server wrote to stdout.
type recorder struct {
	r  io.ReadCloser
	mu sync.Mutex
	b  bytes.Buffer
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.mu.Lock()
	r.b.Write(p[:n])
	r.mu.Unlock()
	return n, err
}

func (r *recorder) Close() error { return r.r.Close() }

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.String()
}

type proc struct {
	cmd    *exec.Cmd
	stderr *lockedBuffer
	stdout *recorder
	stdin  io.WriteCloser
	cs     *sdk.ClientSession
	exited chan error
}

// startStdio starts toolctl serve ARGS and connects a client to it.
func startStdio(t *testing.T, opts *sdk.ClientOptions, args ...string) *proc {
	t.Helper()
	c, stdin, stdout, stderr := startServe(t, args...)
	p := &proc{cmd: c, stdin: stdin, stdout: &recorder{r: stdout}, stderr: stderr, exited: make(chan error, 1)}
	go func() { p.exited <- c.Wait() }()
	t.Cleanup(func() {
		c.Process.Kill()
		<-p.exited
	})
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: p.stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, p.stderr)
	}
	p.cs = cs
	return p
}

func (p *proc) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-p.exited:
		p.exited <- err
		return err
	case <-time.After(15 * time.Second):
		t.Fatalf("toolctl serve did not exit\nstderr:\n%s", p.stderr)
		return nil
	}
}

func resultText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// TestServeBinaryStdio: list, calls, an unknown tool and a reload with
// list_changed, against the real process; stdout holds nothing but
// JSON-RPC messages.
func TestServeBinaryStdio(t *testing.T) {
	dir := copyTools(t)
	changed := make(chan struct{}, 10)
	p := startStdio(t, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
	}, dir, "--watch")
	ctx := context.Background()

	list, err := p.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 5 {
		t.Fatalf("%d tools, want 5", len(list.Tools))
	}
	res, err := p.cs.CallTool(ctx, &sdk.CallToolParams{Name: "calc", Arguments: map[string]any{"expression": "2*(3+4)"}})
	if err != nil || res.IsError || resultText(res) != `{"expression":"2*(3+4)","result":14}` {
		t.Errorf("calc: %v %+v", err, res)
	}
	res, err = p.cs.CallTool(ctx, &sdk.CallToolParams{Name: "calc", Arguments: map[string]any{"expression": true}})
	if err != nil || !res.IsError || !strings.Contains(resultText(res), `parameter "expression": expected string`) {
		t.Errorf("invalid calc: %v %+v", err, res)
	}
	if _, err := p.cs.CallTool(ctx, &sdk.CallToolParams{Name: "nope"}); err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
		t.Errorf("unknown tool: %v", err)
	}
	res, err = p.cs.CallTool(ctx, &sdk.CallToolParams{Name: "spin"})
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "TimeoutError") {
		t.Errorf("spin: %v %+v", err, res)
	}

	// A new tool appears: list_changed, then it can be called.
	data, _ := os.ReadFile(filepath.Join(dir, "triple.yaml"))
	data = bytes.ReplaceAll(data, []byte("name: triple"), []byte("name: triple_two"))
	if err := os.WriteFile(filepath.Join(dir, "triple_two.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatalf("no list_changed\nstderr:\n%s", p.stderr)
	}
	res, err = p.cs.CallTool(ctx, &sdk.CallToolParams{Name: "triple_two"})
	if err != nil || res.IsError || resultText(res) != "[1,2,3]" {
		t.Errorf("triple_two: %v %+v", err, res)
	}

	// An edit that lint refuses keeps the last good version (lint is on by
	// default, on reload too).
	calc := filepath.Join(dir, "calc.yaml")
	data, _ = os.ReadFile(calc)
	if err := os.WriteFile(calc, bytes.Replace(data, []byte("handler: calculator"), []byte("handler: calculater"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(p.stderr.String(), "still serving its last good version") {
		if time.Now().After(deadline) {
			t.Fatalf("no report of the lint error\nstderr:\n%s", p.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(p.stderr.String(), "[entry-handler-unknown]") {
		t.Errorf("the lint finding is not printed:\n%s", p.stderr)
	}
	res, err = p.cs.CallTool(ctx, &sdk.CallToolParams{Name: "calc", Arguments: map[string]any{"expression": "1+1"}})
	if err != nil || res.IsError {
		t.Errorf("calc after a refused edit: %v %+v", err, res)
	}

	p.cs.Close() // closes stdin: the server ends
	if err := p.wait(t); err != nil {
		t.Errorf("exit: %v\nstderr:\n%s", err, p.stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(p.stdout.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Errorf("stdout has a line that is not JSON-RPC: %q", line)
		}
	}
	for _, want := range []string{"serving 5 tools from " + dir + " over stdio, watching for changes", "reloaded: added triple_two"} {
		if !strings.Contains(p.stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, p.stderr)
		}
	}
}

// TestServeBinarySignal: SIGTERM lets the call in flight finish, then the
// process exits 0.
func TestServeBinarySignal(t *testing.T) {
	p := startStdio(t, nil, copyTools(t))
	got := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, err := p.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "busy", Arguments: map[string]any{"ms": 600}})
		if err != nil {
			t.Errorf("busy: %v", err)
		}
		got <- res
	}()
	time.Sleep(200 * time.Millisecond)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-got:
		if res == nil || res.IsError || resultText(res) != `{"slept":600}` {
			t.Errorf("busy after SIGTERM = %+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no answer after SIGTERM")
	}
	if err := p.wait(t); err != nil {
		t.Errorf("exit after SIGTERM: %v\nstderr:\n%s", err, p.stderr)
	}
	if !strings.Contains(p.stderr.String(), "shutting down: waiting up to 10s for 1 request(s) in flight") {
		t.Errorf("stderr:\n%s", p.stderr)
	}
}

// TestServeBinaryHTTP: --http on 127.0.0.1:0 prints the bound address;
// list and call over Streamable HTTP; SIGINT stops it.
func TestServeBinaryHTTP(t *testing.T) {
	c := toolctl("serve", copyTools(t), "--http", "127.0.0.1:0")
	stderr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	defer func() {
		c.Process.Kill()
	}()
	urlRE := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/mcp) \(Streamable HTTP\)`)
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var url string
	var seen []string
	for url == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("toolctl serve exited: %s", strings.Join(seen, "\n"))
			}
			seen = append(seen, l)
			if m := urlRE.FindStringSubmatch(l); m != nil {
				url = m[1]
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no address printed: %s", strings.Join(seen, "\n"))
		}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 5 {
		t.Fatalf("list: %v %v", err, list)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "calc", Arguments: map[string]any{"expression": "6*7"}})
	if err != nil || res.IsError || resultText(res) != `{"expression":"6*7","result":42}` {
		t.Errorf("calc: %v %+v", err, res)
	}
	cs.Close()
	c.Process.Signal(os.Interrupt)
	go func() {
		for range lines {
		}
	}()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit after SIGINT: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("toolctl serve --http did not stop on SIGINT")
	}
}

// TestServeBinaryClientGone: a client that exits (stdin and stdout
// closed) while a call runs: the call's process is killed and toolctl
// serve exits at once, not after --grace.
func TestServeBinaryClientGone(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	tool := `name: pidsleep
description: Writes its pid and sleeps 15s. Use when testing cancellation.
entry:
  type: command
  command: [sh, -c, 'echo $$ > "$1.tmp" && mv "$1.tmp" "$1" && exec sleep 15', sh, ` + strconv.Quote(pidFile) + `]
runtime: {timeout: 60s}
`
	if err := os.WriteFile(filepath.Join(dir, "pidsleep.yaml"), []byte(tool), 0o644); err != nil {
		t.Fatal(err)
	}
	c, stdin, stdout, stderr := startServe(t, "--no-lint", "--grace", "1m", dir)
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	defer c.Process.Kill()
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n")
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, stderr)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pidsleep","arguments":{}}}`+"\n")
	var pid int
	for deadline := time.Now().Add(15 * time.Second); pid == 0; {
		if data, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		} else if time.Now().After(deadline) {
			t.Fatalf("the tool did not start\nstderr:\n%s", stderr)
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
	stdin.Close()
	stdout.Close()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit: %v\nstderr:\n%s", err, stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("toolctl serve still runs 20s after its client left (--grace 1m)\nstderr:\n%s", stderr)
	}
	for deadline := time.Now().Add(5 * time.Second); syscall.Kill(pid, 0) == nil; {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the tool's process still runs after toolctl serve exited\nstderr:\n%s", stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(stderr.String(), "nobody reads stdout any more (the client is gone)") {
		t.Errorf("stderr:\n%s", stderr)
	}
}
