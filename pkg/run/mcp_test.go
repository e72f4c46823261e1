package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/mcpclient"
	"github.com/toolctl/toolctl/pkg/spec"
)

// The stdio tests start this test binary as the MCP server: with
// mcpTestMode set, TestMCPServerProcess becomes the server instead of a
// test. (A helper test rather than a TestMain, so that other executors'
// tests in this package can have their own helper processes.)
const (
	mcpTestMode    = "TOOLCTL_TEST_MCP_SERVER"
	mcpTestPidFile = "TOOLCTL_TEST_MCP_PIDFILE"
)

func TestMCPServerProcess(t *testing.T) {
	switch os.Getenv(mcpTestMode) {
	case "":
		t.Skip("helper process for the mcp tests")
	case "serve":
		notePid(os.Getpid())
		fmt.Fprintln(os.Stderr, "mcp test server ready")
		err := newTestMCPServer().Run(context.Background(), &mcp.StdioTransport{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcp test server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "banner":
		// a server that writes a banner on stdout before serving
		fmt.Println("Server starting...")
		err := newTestMCPServer().Run(context.Background(), &mcp.StdioTransport{})
		if err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "crash":
		fmt.Fprintln(os.Stderr, "starting")
		fmt.Fprintln(os.Stderr, "fatal: config file missing")
		os.Exit(3)
	case "silent":
		// not an MCP server: reads stdin and never answers
		time.Sleep(time.Hour)
	case "sleeper":
		time.Sleep(time.Hour)
	}
	os.Exit(2)
}

// notePid appends pid to the pid file the timeout test reads.
func notePid(pid int) {
	if path := os.Getenv(mcpTestPidFile); path != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			fmt.Fprintln(f, pid)
			f.Close()
		}
	}
}

// serverArgv starts this binary as the helper process; args after "--"
// reach the server untouched.
func serverArgv(args ...string) []string {
	return append([]string{os.Args[0], "-test.run=^TestMCPServerProcess$", "--"}, args...)
}

// serverArgvEnv is serverArgv started through env(1) with the given
// VAR=value settings, so that a test can run in parallel (t.Setenv
// forbids it) and still choose the helper's mode.
func serverArgvEnv(t *testing.T, env ...string) []string {
	envProg, err := exec.LookPath("env")
	if err != nil {
		t.Skip("env(1) is not available")
	}
	return append(append([]string{envProg}, env...), serverArgv()...)
}

type addIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

type addOut struct {
	Sum float64 `json:"sum"`
}

type echoIn struct {
	Text string `json:"text"`
}

func newTestMCPServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "toolctl-test", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Adds two numbers."}, func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
		return nil, addOut{Sum: in.A + in.B}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Returns its text."}, func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "multi", Description: "Returns text and an image."}, func(_ context.Context, _ *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "a red dot"},
			&mcp.ImageContent{Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"},
		}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails."}, func(_ context.Context, _ *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "boom: disk full"}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "die", Description: "Crashes the server."}, func(_ context.Context, _ *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		fmt.Fprintln(os.Stderr, "panic: out of cheese")
		os.Exit(4)
		return nil, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "args", Description: "Returns the server's arguments after --."}, func(_ context.Context, _ *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, []string, error) {
		for i, a := range os.Args {
			if a == "--" {
				return nil, os.Args[i+1:], nil
			}
		}
		return nil, []string{}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "sleep", Description: "Blocks until cancelled, with a child process."}, func(ctx context.Context, _ *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		// A grandchild of the executor, in the server's process group: it
		// must die with the server.
		child := exec.Command(os.Args[0], "-test.run=^TestMCPServerProcess$")
		child.Env = append(os.Environ(), mcpTestMode+"=sleeper")
		if err := child.Start(); err == nil {
			notePid(child.Process.Pid)
		}
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	s.AddTool(&mcp.Tool{Name: "deep", Description: "Returns JSON nested 1001 levels deep.", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var v any = 1
		for range 1001 {
			v = []any{v}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "deep"}}, StructuredContent: map[string]any{"v": v}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "rich", Description: "Returns every kind of content.", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return richResult(false), nil
	})
	s.AddTool(&mcp.Tool{Name: "richfail", Description: "Fails with an image.", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return richResult(true), nil
	})
	return s
}

// richResult has every content type with annotations and _meta, numbers
// float64 cannot hold, and structuredContent.
func richResult(isError bool) *mcp.CallToolResult {
	size := int64(2048)
	ann := &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: 0.5, LastModified: "2025-01-12T15:00:58Z"}
	meta := mcp.Meta{"big": json.RawMessage(`12345678901234567890`), "x-trace": "abc"}
	res := &mcp.CallToolResult{
		Meta: mcp.Meta{"request": json.RawMessage(`9007199254740993`)},
		Content: []mcp.Content{
			&mcp.TextContent{Text: "Here is the tiny image:", Annotations: ann, Meta: meta},
			&mcp.ImageContent{Data: []byte{0x89, 'P', 'N', 'G', 0, 1, 2}, MIMEType: "image/png", Annotations: ann, Meta: meta},
			&mcp.AudioContent{Data: []byte("RIFF....WAVE"), MIMEType: "audio/wav", Meta: meta},
			&mcp.ResourceLink{URI: "file:///docs/readme.md", Name: "readme.md", Title: "Read me", Description: "The project's readme.", MIMEType: "text/markdown", Size: &size, Annotations: ann},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://static/1", MIMEType: "text/plain", Text: "Resource 1 <&>", Meta: meta}, Annotations: ann},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://static/2", MIMEType: "application/octet-stream", Blob: []byte{1, 2, 3, 4}}},
			&mcp.TextContent{Text: "The image above is 7 bytes."},
		},
		StructuredContent: json.RawMessage(`{"count":12345678901234567890,"ratio":0.1,"tags":["a","b"]}`),
		IsError:           isError,
	}
	return res
}

// mcpTestCall returns a call of an mcp entry and the buffer its stderr
// goes to.
func mcpTestCall(entry *spec.Entry, input map[string]any, env map[string]string) (*Call, *syncBuffer) {
	entry.Type = spec.EntryMCP
	stderr := &syncBuffer{}
	return &Call{
		Tool:    &spec.Tool{Name: "mcp_test_tool", Entry: entry},
		Input:   input,
		Getenv:  func(k string) string { return env[k] },
		Secrets: &Secrets{},
		Stderr:  stderr,
		Options: &Options{},
	}, stderr
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// mcpExec runs the call and returns its result as one JSON value
// (MCPResult.Value).
func mcpExec(t *testing.T, ctx context.Context, c *Call) (any, error) {
	t.Helper()
	m, err := mcpExecResult(t, ctx, c)
	if err != nil {
		return nil, err
	}
	return m.Value()
}

// mcpExecResult runs the call and returns its *MCPResult.
func mcpExecResult(t *testing.T, ctx context.Context, c *Call) (*MCPResult, error) {
	t.Helper()
	e, ok := Executors()[spec.EntryMCP]
	if !ok {
		t.Fatal("no executor registered for mcp")
	}
	v, err := e.Execute(ctx, c)
	if err != nil {
		return nil, err
	}
	m, ok := v.(*MCPResult)
	if !ok {
		t.Fatalf("Execute returned %T, want *MCPResult", v)
	}
	return m, nil
}

func wantMCPError(t *testing.T, err error, kind Kind, substrings ...string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v (%T), want an *Error of kind %s", err, err, kind)
	}
	if e.Kind != kind {
		t.Fatalf("got %s (%s), want %s", e.Kind, e.Message, kind)
	}
	for _, s := range substrings {
		if !strings.Contains(e.Message, s) {
			t.Errorf("message %q does not contain %q", e.Message, s)
		}
	}
	return e
}

func num(s string) json.Number { return json.Number(s) }

func TestMCPStdio(t *testing.T) {
	t.Setenv(mcpTestMode, "serve")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	tests := []struct {
		tool  string
		input map[string]any
		want  any
	}{
		{"add", map[string]any{"a": num("2"), "b": num("3")}, map[string]any{"sum": num("5")}},
		{"echo", map[string]any{"text": "hello"}, "hello"},
		// JSON-looking text stays text: structure comes from structuredContent
		{"echo", map[string]any{"text": `{"x": 1}`}, `{"x": 1}`},
		{"multi", nil, []any{
			map[string]any{"type": "text", "text": "a red dot"},
			map[string]any{"type": "image", "data": "iVBORw==", "mimeType": "image/png"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			c, stderr := mcpTestCall(&spec.Entry{ServerArgs: serverArgv(), Tool: tt.tool}, tt.input, nil)
			got, err := mcpExec(t, ctx, c)
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
			if !strings.Contains(stderr.String(), "mcp test server ready") {
				t.Errorf("the server's stderr did not reach the call's stderr: %q", stderr.String())
			}
		})
	}
}

func TestMCPStdioCommandLine(t *testing.T) {
	t.Setenv(mcpTestMode, "serve")
	quoted := "'" + strings.ReplaceAll(os.Args[0], "'", `'\''`) + "'"
	entry := &spec.Entry{Server: quoted + ` -test.run=^TestMCPServerProcess$ -- "two words" mark=${MCP_MARK}`, Tool: "args"}
	c, _ := mcpTestCall(entry, nil, map[string]string{"MCP_MARK": "s3cret-value"})
	got, err := mcpExec(t, context.Background(), c)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	want := []any{"two words", "mark=s3cret-value"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	if c.Secrets.Redact("mark=s3cret-value") != "mark=***" {
		t.Error("the ${MCP_MARK} value was not recorded as a secret")
	}
}

func TestMCPToolDefaultsToToolName(t *testing.T) {
	t.Setenv(mcpTestMode, "serve")
	c, _ := mcpTestCall(&spec.Entry{ServerArgs: serverArgv()}, map[string]any{"text": "hi"}, nil)
	c.Tool.Name = "echo"
	got, err := mcpExec(t, context.Background(), c)
	if err != nil || got != "hi" {
		t.Fatalf("got %#v, %v; want \"hi\"", got, err)
	}
}

func TestMCPIsError(t *testing.T) {
	t.Setenv(mcpTestMode, "serve")
	c, _ := mcpTestCall(&spec.Entry{ServerArgs: serverArgv(), Tool: "fail"}, nil, nil)
	_, err := mcpExec(t, context.Background(), c)
	wantMCPError(t, err, ToolExecutionError, "boom: disk full")
}

func TestMCPUnknownTool(t *testing.T) {
	t.Setenv(mcpTestMode, "serve")
	c, _ := mcpTestCall(&spec.Entry{ServerArgs: serverArgv(), Tool: "nope"}, nil, nil)
	_, err := mcpExec(t, context.Background(), c)
	wantMCPError(t, err, ToolExecutionError, `no tool "nope"`, "add, args, deep, die, echo, fail, multi, rich, richfail, sleep", "entry.tool")
}

func TestMCPTimeoutKillsServer(t *testing.T) {
	t.Parallel() // it mostly waits
	pidFile := t.TempDir() + "/pids"
	argv := serverArgvEnv(t, mcpTestMode+"=serve", mcpTestPidFile+"="+pidFile)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	c, _ := mcpTestCall(&spec.Entry{ServerArgs: argv, Tool: "sleep"}, nil, nil)
	start := time.Now()
	_, err := mcpExec(t, ctx, c)
	wantMCPError(t, err, TimeoutError, "did not answer", `tools/call "sleep"`)
	if d := time.Since(start); d > 3*time.Second+mcpclient.StopGrace {
		t.Errorf("Execute returned %s after the call started; the deadline was 3s", d)
	}
	if runtime.GOOS == "windows" {
		return // no process groups
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pids := strings.Fields(string(raw))
	if len(pids) != 2 {
		t.Fatalf("pid file holds %q, want the server's and its child's pid", pids)
	}
	for _, p := range pids {
		pid, _ := strconv.Atoi(p)
		deadline := time.Now().Add(2 * time.Second)
		for processAlive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if processAlive(pid) {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
			t.Errorf("process %d is still running after the timeout", pid)
		}
	}
}

// processAlive tells whether pid runs; a zombie (dead, not yet reaped by
// an init that may never reap it) counts as gone.
func processAlive(pid int) bool {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		i := bytes.LastIndexByte(b, ')')
		return i < 0 || i+2 >= len(b) || (b[i+2] != 'Z' && b[i+2] != 'X')
	} else if runtime.GOOS == "linux" {
		return false
	}
	p, err := os.FindProcess(pid)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}

func TestMCPCommandNotFound(t *testing.T) {
	c, _ := mcpTestCall(&spec.Entry{Server: "toolctl-no-such-mcp-server --stdio", Tool: "x"}, nil, nil)
	_, err := mcpExec(t, context.Background(), c)
	wantMCPError(t, err, ToolExecutionError, `"toolctl-no-such-mcp-server" not found`, "entry.server")

	c, _ = mcpTestCall(&spec.Entry{Server: "./no-such-server.sh", Tool: "x"}, nil, nil)
	c.Dir = t.TempDir()
	_, err = mcpExec(t, context.Background(), c)
	wantMCPError(t, err, ToolExecutionError, "no-such-server.sh", "not found at that path")
}

func TestMCPServerExitsEarly(t *testing.T) {
	t.Setenv(mcpTestMode, "crash")
	c, _ := mcpTestCall(&spec.Entry{ServerArgs: serverArgv(), Tool: "x"}, nil, nil)
	_, err := mcpExec(t, context.Background(), c)
	e := wantMCPError(t, err, ToolExecutionError, "exited (exit status 3)", "fatal: config file missing", os.Args[0])
	if d, _ := e.Detail.(string); !strings.Contains(d, "starting") {
		t.Errorf("detail %q should hold the stderr tail", e.Detail)
	}
}

func TestMCPServerDiesDuringCall(t *testing.T) {
	t.Setenv(mcpTestMode, "serve")
	c, _ := mcpTestCall(&spec.Entry{ServerArgs: serverArgv(), Tool: "die"}, nil, nil)
	_, err := mcpExec(t, context.Background(), c)
	wantMCPError(t, err, ToolExecutionError, "exited (exit status 4) during tools/call \"die\"", "panic: out of cheese")
}

// A server whose output the client cannot read is told so, not that it
// exited: the client drops the connection, and the server's exit (a
// crash writing to the closed pipe, or the end of its stdin) follows.
func TestMCPServerWritesUnreadable(t *testing.T) {
	t.Setenv(mcpTestMode, "banner")
	c, _ := mcpTestCall(&spec.Entry{ServerArgs: serverArgv(), Tool: "echo"}, map[string]any{"text": "hi"}, nil)
	_, err := mcpExec(t, context.Background(), c)
	e := wantMCPError(t, err, ToolExecutionError, "wrote a line that is not JSON", "during the initialize handshake", "logs to stderr")
	if strings.Contains(e.Message, "exited") {
		t.Errorf("message %q blames the server's exit", e.Message)
	}

	t.Setenv(mcpTestMode, "serve")
	c, _ = mcpTestCall(&spec.Entry{ServerArgs: serverArgv(), Tool: "deep"}, nil, nil)
	_, err = mcpExec(t, context.Background(), c)
	e = wantMCPError(t, err, ToolExecutionError, "nested deeper than 1000 levels", `during tools/call "deep"`)
	if strings.Contains(e.Message, "exited") {
		t.Errorf("message %q blames the server's exit", e.Message)
	}
}

func TestMCPNotAServer(t *testing.T) {
	t.Parallel() // it mostly waits
	argv := serverArgvEnv(t, mcpTestMode+"=silent")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c, _ := mcpTestCall(&spec.Entry{ServerArgs: argv, Tool: "x"}, nil, nil)
	_, err := mcpExec(t, ctx, c)
	wantMCPError(t, err, TimeoutError, "initialize handshake")
}

func TestMCPStreamableHTTP(t *testing.T) {
	for _, opts := range []*mcp.StreamableHTTPOptions{
		nil,
		{Stateless: true, JSONResponse: true},
	} {
		name := "stateful"
		if opts != nil {
			name = "stateless"
		}
		t.Run(name, func(t *testing.T) {
			srv := newTestMCPServer()
			ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts))
			defer ts.Close()
			c, _ := mcpTestCall(&spec.Entry{Server: ts.URL, Tool: "add"}, map[string]any{"a": num("1.5"), "b": num("2")}, nil)
			got, err := mcpExec(t, context.Background(), c)
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if want := map[string]any{"sum": num("3.5")}; !reflect.DeepEqual(got, want) {
				t.Errorf("got %#v, want %#v", got, want)
			}
			c, _ = mcpTestCall(&spec.Entry{Server: ts.URL, Tool: "fail"}, nil, nil)
			_, err = mcpExec(t, context.Background(), c)
			wantMCPError(t, err, ToolExecutionError, "boom")
			c, _ = mcpTestCall(&spec.Entry{Server: ts.URL, Tool: "nope"}, nil, nil)
			_, err = mcpExec(t, context.Background(), c)
			wantMCPError(t, err, ToolExecutionError, `no tool "nope"`, "echo")
		})
	}
}

// A Streamable HTTP server's result is bounded as a stdio server's line
// is: the client stops reading a message over the limit, in a JSON
// response or an event stream, with an error that says so, rather than
// holding it all in memory.
func TestMCPHTTPResultTooLarge(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "big", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", mcpclient.MaxMessage+1)}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "chatty", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// many events, each small, more than the limit in all
		for i := range 20 {
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: "t", Progress: float64(i), Message: strings.Repeat("m", 1<<20)}); err != nil {
				return nil, err
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
	})
	for _, opts := range []*mcp.StreamableHTTPOptions{
		{Stateless: true}, // an event stream
		{Stateless: true, JSONResponse: true},
	} {
		name := "sse"
		if opts.JSONResponse {
			name = "json"
		}
		t.Run(name, func(t *testing.T) {
			ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts))
			defer ts.Close()
			c, _ := mcpTestCall(&spec.Entry{Server: ts.URL, Tool: "big"}, nil, nil)
			_, err := mcpExec(t, context.Background(), c)
			wantMCPError(t, err, ToolExecutionError, "sent a message larger than 16 MiB", `tools/call "big"`, ts.URL)
			if !opts.JSONResponse {
				c, _ = mcpTestCall(&spec.Entry{Server: ts.URL, Tool: "chatty"}, nil, nil)
				if _, err := mcpExec(t, context.Background(), c); err != nil {
					t.Errorf("a stream of small events, larger than the limit in all: %v", err)
				}
			}
		})
	}
}

func TestMCPHTTPHeaders(t *testing.T) {
	srv := newTestMCPServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-123" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	headers := spec.NewMap(1)
	headers.Set("Authorization", "Bearer ${MCP_TOKEN}")

	c, _ := mcpTestCall(&spec.Entry{Server: ts.URL, Tool: "echo", Headers: headers}, map[string]any{"text": "in"}, map[string]string{"MCP_TOKEN": "tok-123"})
	got, err := mcpExec(t, context.Background(), c)
	if err != nil || got != "in" {
		t.Fatalf("got %#v, %v; want \"in\"", got, err)
	}
	if c.Secrets.Redact("tok-123") != Redacted {
		t.Error("the token was not recorded as a secret")
	}

	c, _ = mcpTestCall(&spec.Entry{Server: ts.URL, Tool: "echo"}, nil, nil)
	_, err = mcpExec(t, context.Background(), c)
	e := wantMCPError(t, err, AuthenticationError, "HTTP 401")
	if e.Status != http.StatusUnauthorized {
		t.Errorf("status %d, want 401", e.Status)
	}
}

func TestMCPHTTPStatus(t *testing.T) {
	tests := []struct {
		status int
		kind   Kind
	}{
		{http.StatusNotFound, NotFoundError},
		{http.StatusTooManyRequests, RateLimitError},
		{http.StatusServiceUnavailable, ServerError},
		{http.StatusForbidden, AuthenticationError},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.status), func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "7")
				http.Error(w, http.StatusText(tt.status), tt.status)
			}))
			defer ts.Close()
			c, _ := mcpTestCall(&spec.Entry{Server: ts.URL + "/mcp", Tool: "x"}, nil, nil)
			_, err := mcpExec(t, context.Background(), c)
			e := wantMCPError(t, err, tt.kind, ts.URL)
			if tt.kind == RateLimitError && e.RetryAfter != 7*time.Second {
				t.Errorf("RetryAfter %s, want 7s", e.RetryAfter)
			}
		})
	}
}

func TestMCPConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/mcp"
	l.Close()
	c, _ := mcpTestCall(&spec.Entry{Server: url, Tool: "x"}, nil, nil)
	_, err = mcpExec(t, context.Background(), c)
	wantMCPError(t, err, NetworkError, url, "refused")
}

func TestMCPPlan(t *testing.T) {
	env := map[string]string{"MCP_KEY": "k-secret", "MCP_DIR": "/opt/srv"}
	c, _ := mcpTestCall(&spec.Entry{Server: `uvx "mcp server" --root ${MCP_DIR}`, Tool: "fetch"}, nil, env)
	plan, err := mcpExecutor{}.Plan(c)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"transport": "stdio", "command": []any{"uvx", "mcp server", "--root", "/opt/srv"}, "tool": "fetch"}
	if !reflect.DeepEqual(plan, want) {
		t.Errorf("got %#v, want %#v", plan, want)
	}

	c, _ = mcpTestCall(&spec.Entry{Server: "https://mcp.example.com/mcp?key=${MCP_KEY}"}, nil, env)
	plan, err = mcpExecutor{}.Plan(c)
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]any{"transport": "http", "url": "https://mcp.example.com/mcp?key=k-secret", "tool": "mcp_test_tool"}
	if !reflect.DeepEqual(plan, want) {
		t.Errorf("got %#v, want %#v", plan, want)
	}
	if c.Secrets.Redact("k-secret") != Redacted {
		t.Error("the ${MCP_KEY} value was not recorded as a secret")
	}

	c, _ = mcpTestCall(&spec.Entry{Server: "srv --token ${MCP_MISSING}"}, nil, env)
	_, err = mcpExecutor{}.Plan(c)
	wantMCPError(t, err, ValidationError, "MCP_MISSING")
}

func TestMCPEmptyServer(t *testing.T) {
	c, _ := mcpTestCall(&spec.Entry{Server: "  ", Tool: "x"}, nil, nil)
	_, err := mcpExec(t, context.Background(), c)
	wantMCPError(t, err, DefinitionError, "entry.server is empty")
}

// TestMCPResultAsSent: the result of an mcp entry is the server's
// CallToolResult byte for byte — every content type with its annotations
// and _meta, numbers beyond float64, structuredContent, isError — over
// stdio and both kinds of Streamable HTTP response (JSON and SSE). The
// SDK's own decoding rounds the big numbers.
func TestMCPResultAsSent(t *testing.T) {
	want, err := json.Marshal(richResult(false))
	if err != nil {
		t.Fatal(err)
	}
	wantFail, _ := json.Marshal(richResult(true))
	t.Setenv(mcpTestMode, "serve")
	srv := newTestMCPServer()
	stateful := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer stateful.Close()
	stateless := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	defer stateless.Close()
	for _, tc := range []struct {
		name  string
		entry func(tool string) *spec.Entry
	}{
		{"stdio", func(tool string) *spec.Entry { return &spec.Entry{ServerArgs: serverArgv(), Tool: tool} }},
		{"http-sse", func(tool string) *spec.Entry { return &spec.Entry{Server: stateful.URL, Tool: tool} }},
		{"http-json", func(tool string) *spec.Entry { return &spec.Entry{Server: stateless.URL, Tool: tool} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := mcpTestCall(tc.entry("rich"), nil, nil)
			m, err := mcpExecResult(t, context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			if string(m.Raw) != string(want) {
				t.Errorf("result:\n got %s\nwant %s", m.Raw, want)
			}
			if len(m.Result.Content) != 7 {
				t.Errorf("decoded: %d content items, want 7", len(m.Result.Content))
			}
			// The value other entries would return: structuredContent, exact.
			v, err := m.Value()
			if err != nil {
				t.Fatal(err)
			}
			if got := v.(map[string]any)["count"]; got != json.Number("12345678901234567890") {
				t.Errorf("Value count = %v", got)
			}

			c, _ = mcpTestCall(tc.entry("richfail"), nil, nil)
			_, err = mcpExecResult(t, context.Background(), c)
			e := wantMCPError(t, err, ToolExecutionError, "Here is the tiny image:\nThe image above is 7 bytes.")
			dm, ok := e.Detail.(*MCPResult)
			if !ok {
				t.Fatalf("isError detail is %T, want *MCPResult", e.Detail)
			}
			if string(dm.Raw) != string(wantFail) {
				t.Errorf("isError result:\n got %s\nwant %s", dm.Raw, wantFail)
			}
		})
	}
}

// TestMCPResultRedacted: secrets are redacted in a result passed on whole,
// in text and _meta alike, and the JSON stays as it was around them.
func TestMCPResultRedacted(t *testing.T) {
	raw := `{"_meta":{"k":"tok-s3cret-99"},"content":[{"type":"text","text":"key=tok-s3cret-99 ok"},{"type":"image","data":"iVBORw==","mimeType":"image/png"}],"structuredContent":{"z":1,"a":"tok-s3cret-99"}}`
	var res mcp.CallToolResult
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		t.Fatal(err)
	}
	m := &MCPResult{Raw: json.RawMessage(raw), Result: &res}
	s := &Secrets{}
	s.Add("tok-s3cret-99")
	got, ok := s.RedactValue(m).(*MCPResult)
	if !ok {
		t.Fatalf("RedactValue returned %T", s.RedactValue(m))
	}
	want := strings.ReplaceAll(raw, "tok-s3cret-99", "***")
	if string(got.Raw) != want {
		t.Errorf("raw:\n got %s\nwant %s", got.Raw, want)
	}
	if tc := got.Result.Content[0].(*mcp.TextContent); tc.Text != "key=*** ok" {
		t.Errorf("decoded text = %q", tc.Text)
	}
	if string(m.Raw) != raw {
		t.Error("the original was changed")
	}
}

func TestMCPResultText(t *testing.T) {
	data, _ := json.Marshal(richResult(false))
	var res mcp.CallToolResult
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	got := (&MCPResult{Raw: data, Result: &res}).Text()
	want := strings.Join([]string{
		"Here is the tiny image:",
		"[image: image/png, 7 B]",
		"[audio: audio/wav, 12 B]",
		"[resource link: file:///docs/readme.md (Read me, readme.md, text/markdown, 2.0 KB)] The project's readme.",
		"[resource: test://static/1, text/plain]",
		"Resource 1 <&>",
		"[resource: test://static/2, application/octet-stream, 4 B]",
		"The image above is 7 bytes.",
	}, "\n")
	if got != want {
		t.Errorf("Text():\n%s\nwant:\n%s", got, want)
	}
	// Without content, structuredContent.
	only := &MCPResult{Raw: json.RawMessage(`{"content":[],"structuredContent":{"a":1}}`), Result: &mcp.CallToolResult{StructuredContent: map[string]any{"a": 1}}}
	if got := only.Text(); got != "{\n  \"a\": 1\n}" {
		t.Errorf("structured only: %q", got)
	}
	if got := ByteSize(1229); got != "1.2 KB" {
		t.Errorf("ByteSize(1229) = %q", got)
	}
}
