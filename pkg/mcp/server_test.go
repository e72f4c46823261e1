package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/run/builtin"
	"github.com/toolctl/toolctl/pkg/spec"
)

// The tests serve testdata/tools (copied to a temporary directory) over
// in-process pipes with the go-sdk client on the other end: the same code
// as toolctl serve's stdio mode, without a process. cmd_test.go drives the
// binary itself.

// syncBuffer is a log the server writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// copyTools copies testdata/tools into a new temporary directory.
func copyTools(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(filepath.Join("testdata", "tools"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("testdata", "tools", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type harness struct {
	t      testing.TB
	srv    *Server
	log    *syncBuffer
	cs     *sdk.ClientSession
	stdinW io.WriteCloser
	cancel context.CancelFunc
	done   chan error
}

type setup struct {
	opts     Options
	client   *sdk.ClientOptions
	protocol string // "" is the client's default (2026-07-28)
	grace    time.Duration
}

func newServer(t testing.TB, dir string, opts Options) (*Server, *syncBuffer) {
	t.Helper()
	log := &syncBuffer{}
	opts.Paths = []string{dir}
	if opts.Runner == nil {
		opts.Runner = &run.Runner{Executors: builtin.Executors()}
	}
	opts.Log = log
	if opts.Debounce == 0 {
		opts.Debounce = 20 * time.Millisecond
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	return s, log
}

// serve starts a server on dir over pipes and connects a client.
func serve(t testing.TB, dir string, su setup) *harness {
	t.Helper()
	s, log := newServer(t, dir, su.opts)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{t: t, srv: s, log: log, stdinW: inW, cancel: cancel, done: make(chan error, 1)}
	grace := su.grace
	if grace == 0 {
		grace = 5 * time.Second
	}
	go func() {
		err := s.ServeStdio(ctx, inR, outW, grace)
		outW.Close()
		h.done <- err
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, su.client)
	cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer ccancel()
	cs, err := client.Connect(cctx, &sdk.IOTransport{Reader: outR, Writer: inW}, &sdk.ClientSessionOptions{ProtocolVersion: su.protocol})
	if err != nil {
		t.Fatalf("connect: %v\nserver log:\n%s", err, log)
	}
	h.cs = cs
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		cancel()
		select {
		case <-h.done:
		case <-time.After(10 * time.Second):
			t.Errorf("the server did not stop")
		}
	})
	return h
}

func (h *harness) call(name string, args any) *sdk.CallToolResult {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := h.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		h.t.Fatalf("call %s: %v\nserver log:\n%s", name, err, h.log)
	}
	return res
}

func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func jsonOf(t testing.TB, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestList(t *testing.T) {
	for _, protocol := range []string{"", "2025-06-18"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			h := serve(t, copyTools(t), setup{protocol: protocol})
			res, err := h.cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]*sdk.Tool{}
			var names []string
			for _, tool := range res.Tools {
				byName[tool.Name] = tool
				names = append(names, tool.Name)
			}
			if got, want := strings.Join(names, ","), "busy,calc,liar,spin,triple"; got != want {
				t.Fatalf("tools = %s, want %s", got, want)
			}
			calc := byName["calc"]
			if calc.Title != "Calculator" || !strings.HasPrefix(calc.Description, "Evaluates an arithmetic") {
				t.Errorf("calc title/description = %q / %q", calc.Title, calc.Description)
			}
			// Bound parameters are not the client's to give.
			in := jsonOf(t, calc.InputSchema)
			if strings.Contains(in, "api_key") {
				t.Errorf("the bound parameter is listed: %s", in)
			}
			if want := `"required":["expression"]`; !strings.Contains(in, want) {
				t.Errorf("inputSchema %s lacks %s", in, want)
			}
			if calc.OutputSchema == nil {
				t.Errorf("calc has no outputSchema")
			}
			// A read-only builtin without annotations gets readOnlyHint.
			if calc.Annotations == nil || !calc.Annotations.ReadOnlyHint {
				t.Errorf("calc annotations = %+v, want readOnlyHint", calc.Annotations)
			}
			// The file's own annotations are kept; JavaScript is not assumed
			// read-only.
			busy := byName["busy"]
			if busy.Annotations == nil || busy.Annotations.ReadOnlyHint || busy.Annotations.DestructiveHint == nil || *busy.Annotations.DestructiveHint {
				t.Errorf("busy annotations = %s", jsonOf(t, busy.Annotations))
			}
			if byName["spin"].Annotations != nil {
				t.Errorf("spin annotations = %s, want none", jsonOf(t, byName["spin"].Annotations))
			}
		})
	}
}

func TestListPages(t *testing.T) {
	h := serve(t, copyTools(t), setup{opts: Options{PageSize: 2}})
	first, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Tools) != 2 || first.NextCursor == "" {
		t.Fatalf("first page: %d tools, cursor %q", len(first.Tools), first.NextCursor)
	}
	var names []string
	for tool, err := range h.cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, ","); got != "busy,calc,liar,spin,triple" {
		t.Errorf("all pages: %s", got)
	}
}

// rawSession speaks JSON-RPC lines directly, to see the bytes.
type rawSession struct {
	t   testing.TB
	w   io.Writer
	br  *bufio.Reader
	log *syncBuffer
}

func rawServe(t testing.TB, dir string, opts Options) *rawSession {
	t.Helper()
	return rawServeWith(t, dir, opts, `{}`)
}

// rawServeWith is rawServe with a client that declares capabilities (a
// JSON object).
func rawServeWith(t testing.TB, dir string, opts Options, capabilities string) *rawSession {
	t.Helper()
	s, log := newServer(t, dir, opts)
	r := pipeRaw(t, s, log)
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":` + capabilities + `,"clientInfo":{"name":"raw","version":"1"}}}`)
	r.recv()
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
}

func (r *rawSession) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.w, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rawSession) recv() string {
	r.t.Helper()
	line, err := r.br.ReadString('\n')
	if err != nil {
		r.t.Fatalf("reading a response: %v\nserver log:\n%s", err, r.log)
	}
	return strings.TrimSpace(line)
}

func TestListKeepsSchemaAsWritten(t *testing.T) {
	r := rawServe(t, copyTools(t), Options{})
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	got := r.recv()
	// The schema's own key order and keywords (minLength) survive; the bound
	// parameter is gone from properties and required.
	want := `"inputSchema":{"type":"object","properties":{"expression":{"type":"string","description":"The expression.","minLength":1},"precision":{"type":"integer","description":"Decimal places.","default":10}},"required":["expression"]}`
	if !strings.Contains(got, want) {
		t.Errorf("tools/list = %s\nwant it to contain %s", got, want)
	}
}

func TestCall(t *testing.T) {
	h := serve(t, copyTools(t), setup{})
	res := h.call("calc", map[string]any{"expression": "2*(3+4)"})
	if res.IsError {
		t.Fatalf("isError: %s", text(res))
	}
	if got, want := text(res), `{"expression":"2*(3+4)","result":14}`; got != want {
		t.Errorf("text = %s, want %s", got, want)
	}
	if got, want := jsonOf(t, res.StructuredContent), `{"expression":"2*(3+4)","result":14}`; got != want {
		t.Errorf("structuredContent = %s, want %s", got, want)
	}
}

func TestCallInvalidArguments(t *testing.T) {
	h := serve(t, copyTools(t), setup{})
	for _, tc := range []struct {
		args any
		want string
	}{
		{map[string]any{}, `ValidationError in calc: invalid input: missing required parameter "expression"`},
		{map[string]any{"expression": 7}, `parameter "expression": expected string, but got number`},
		{map[string]any{"expression": "1/0"}, "division by zero"},
	} {
		res := h.call("calc", tc.args)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("call with %s: isError=%v %q, want an error containing %q", jsonOf(t, tc.args), res.IsError, text(res), tc.want)
		}
	}
	// Arguments that are not an object never reach the runner.
	r := rawServe(t, copyTools(t), Options{})
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":[1,2]}}`)
	if got := r.recv(); !strings.Contains(got, `"isError":true`) || !strings.Contains(got, "arguments must be a JSON object") {
		t.Errorf("array arguments: %s", got)
	}
}

func TestCallUnknownTool(t *testing.T) {
	h := serve(t, copyTools(t), setup{})
	_, err := h.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "nope", Arguments: map[string]any{}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(werr.Message, `unknown tool "nope"`) {
		t.Fatalf("err = %v, want JSON-RPC %d unknown tool", err, jsonrpc.CodeInvalidParams)
	}
}

func TestCallTimeoutKeepsServing(t *testing.T) {
	h := serve(t, copyTools(t), setup{})
	start := time.Now()
	var wg sync.WaitGroup
	var spun *sdk.CallToolResult
	wg.Add(1)
	go func() {
		defer wg.Done()
		spun = h.call("spin", nil)
	}()
	// The server answers other calls while one spins.
	time.Sleep(50 * time.Millisecond)
	if res := h.call("calc", map[string]any{"expression": "1+1"}); res.IsError {
		t.Errorf("calc during spin: %s", text(res))
	}
	wg.Wait()
	if !spun.IsError || !strings.Contains(text(spun), "TimeoutError in spin: no result within the 300ms timeout") {
		t.Errorf("spin = isError %v %q", spun.IsError, text(spun))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the timeout took %s", d)
	}
}

func TestConcurrentCalls(t *testing.T) {
	h := serve(t, copyTools(t), setup{})
	const n = 64
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := h.call("calc", map[string]any{"expression": fmt.Sprintf("%d*2", i)})
			if got, want := text(res), fmt.Sprintf(`{"expression":"%d*2","result":%d}`, i, 2*i); got != want {
				errs <- fmt.Sprintf("call %d: %s, want %s", i, got, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestStructuredContentByProtocol(t *testing.T) {
	dir := copyTools(t)
	// Before 2026-07-28 structuredContent is an object: an array result is
	// text only.
	old := serve(t, dir, setup{protocol: "2025-11-25"})
	res := old.call("triple", nil)
	if res.IsError || text(res) != "[1,2,3]" || res.StructuredContent != nil {
		t.Errorf("2025-11-25: %s / structuredContent %v", text(res), res.StructuredContent)
	}
	// SEP-2106 (2026-07-28) allows any JSON value.
	cur := serve(t, dir, setup{})
	res = cur.call("triple", nil)
	if res.IsError || text(res) != "[1,2,3]" || jsonOf(t, res.StructuredContent) != "[1,2,3]" {
		t.Errorf("2026-07-28: %s / structuredContent %v", text(res), res.StructuredContent)
	}
}

func TestOutputSchemaMismatch(t *testing.T) {
	h := serve(t, copyTools(t), setup{})
	res := h.call("liar", nil)
	got := text(res)
	if !res.IsError || !strings.Contains(got, "the result does not match the tool's output schema") || !strings.Contains(got, `{"result":"many"}`) {
		t.Errorf("liar = isError %v %q", res.IsError, got)
	}
	// The problem is the schema's, named at its place, not the validator's
	// complaint about a Go type.
	if strings.Contains(got, "jsonType") || !strings.Contains(got, "- result: ") {
		t.Errorf("liar's message does not name the mismatch: %q", got)
	}
}

func TestMetaTools(t *testing.T) {
	h := serve(t, copyTools(t), setup{opts: Options{MetaTools: true}})
	res := h.call("get_tool_info", map[string]any{"tool_name": "calc"})
	if res.IsError || !strings.HasPrefix(text(res), "# calc — Calculator") || !strings.Contains(text(res), "expression") {
		t.Errorf("get_tool_info calc = %q", text(res))
	}
	res = h.call("get_tool_info", map[string]any{"tool_name": "calk"})
	if !res.IsError || !strings.Contains(text(res), `no tool named "calk" (did you mean "calc"?); the tools are: busy, calc, liar, spin, triple`) {
		t.Errorf("get_tool_info calk = %q", text(res))
	}
	list, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 6 {
		t.Errorf("%d tools listed, want 5 and get_tool_info", len(list.Tools))
	}
}

func TestClientCancellation(t *testing.T) {
	h := serve(t, copyTools(t), setup{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := h.cs.CallTool(ctx, &sdk.CallToolParams{Name: "busy", Arguments: map[string]any{"ms": 15000}})
	if err == nil {
		t.Fatal("the call was not cancelled")
	}
	// notifications/cancelled reaches the runner: the call ends long before
	// its 15s.
	deadline := time.Now().Add(5 * time.Second)
	for h.srv.calls.count() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the cancelled call is still running")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestShutdownOnEOF: a call in flight when stdin ends still gets its
// answer; then the server stops.
func TestShutdownOnEOF(t *testing.T) {
	h := serve(t, copyTools(t), setup{})
	got := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, err := h.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "busy", Arguments: map[string]any{"ms": 400}})
		if err != nil {
			t.Errorf("busy: %v", err)
		}
		got <- res
	}()
	time.Sleep(100 * time.Millisecond)
	h.stdinW.Close()
	res := <-got
	if res == nil || res.IsError || text(res) != `{"slept":400}` {
		t.Fatalf("busy after EOF = %+v", res)
	}
	select {
	case err := <-h.done:
		h.done <- err
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop after EOF")
	}
}

// TestShutdownGrace: on a signal (ctx) a call longer than the grace
// period is cancelled, answered, and the server stops.
func TestShutdownGrace(t *testing.T) {
	h := serve(t, copyTools(t), setup{grace: 200 * time.Millisecond})
	got := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, _ := h.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "busy", Arguments: map[string]any{"ms": 15000}})
		got <- res
	}()
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	h.cancel()
	select {
	case res := <-got:
		if res == nil || !res.IsError || !strings.Contains(text(res), "shutting down") {
			t.Errorf("busy after the grace period = %+v", res)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no answer after the grace period")
	}
	select {
	case err := <-h.done:
		h.done <- err
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("shutdown took %s with a 200ms grace period", d)
	}
	if !strings.Contains(h.log.String(), "cancelling the 1 request(s) still running after 200ms") {
		t.Errorf("log:\n%s", h.log)
	}
}

func TestWatch(t *testing.T) {
	for _, protocol := range []string{"", "2025-06-18"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			dir := copyTools(t)
			changed := make(chan struct{}, 10)
			h := serve(t, dir, setup{protocol: protocol, client: &sdk.ClientOptions{
				ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
			}})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ready := make(chan struct{})
			go h.srv.Watch(ctx, func() { close(ready) })
			<-ready
			wait := func(what string) {
				t.Helper()
				select {
				case <-changed:
				case <-time.After(5 * time.Second):
					t.Fatalf("no list_changed after %s\nserver log:\n%s", what, h.log)
				}
			}
			list := func() map[string]*sdk.Tool {
				t.Helper()
				res, err := h.cs.ListTools(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				m := map[string]*sdk.Tool{}
				for _, tool := range res.Tools {
					m[tool.Name] = tool
				}
				return m
			}

			// An edit of a description.
			path := filepath.Join(dir, "calc.yaml")
			data, _ := os.ReadFile(path)
			edited := bytes.Replace(data, []byte("Evaluates an arithmetic expression."), []byte("Computes an arithmetic expression."), 1)
			if err := os.WriteFile(path, edited, 0o644); err != nil {
				t.Fatal(err)
			}
			wait("an edit")
			if d := list()["calc"].Description; !strings.HasPrefix(d, "Computes") {
				t.Errorf("description after the edit = %q", d)
			}

			// A file that stops parsing keeps its last good version.
			if err := os.WriteFile(path, []byte("name: calc\ndescription: [unclosed\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(5 * time.Second)
			for !strings.Contains(h.log.String(), "still serving its last good version") {
				if time.Now().After(deadline) {
					t.Fatalf("no report of the broken file; log:\n%s", h.log)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if d := list()["calc"].Description; !strings.HasPrefix(d, "Computes") {
				t.Errorf("description while broken = %q", d)
			}
			if res := h.call("calc", map[string]any{"expression": "6*7"}); res.IsError {
				t.Errorf("calc while its file is broken: %s", text(res))
			}

			// A new file and a removed one.
			if err := os.WriteFile(filepath.Join(dir, "triple2.yaml"), bytes.ReplaceAll(mustRead(t, filepath.Join(dir, "triple.yaml")), []byte("name: triple"), []byte("name: triple2")), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(filepath.Join(dir, "liar.yaml")); err != nil {
				t.Fatal(err)
			}
			wait("a new and a removed file")
			tools := list()
			for tools["triple2"] == nil || tools["liar"] != nil {
				select { // the two changes may come as two notifications
				case <-changed:
					tools = list()
				case <-time.After(5 * time.Second):
					t.Fatalf("tools after add/remove: %v\nlog:\n%s", keys(tools), h.log)
				}
			}
		})
	}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func keys(m map[string]*sdk.Tool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestUpdateLintErrorsKeepLastGood(t *testing.T) {
	dir := copyTools(t)
	s, log := newServer(t, dir, Options{})
	// An edit that lint refuses (reports are per edit, so it must change).
	calc := filepath.Join(dir, "calc.yaml")
	if err := os.WriteFile(calc, append(mustRead(t, calc), "# edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := spec.Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	sum := s.Update(set, map[string]string{calc: "calc.yaml:1:1: error: something [rule]\n"})
	if len(sum.Kept) != 1 || sum.Kept[0] != calc || sum.Served != 5 {
		t.Errorf("summary = %+v", sum)
	}
	if !strings.Contains(log.String(), "error: something [rule]") {
		t.Errorf("the lint report is not logged:\n%s", log)
	}
	// A new file with lint errors is not served at all.
	other := filepath.Join(dir, "new.yaml")
	os.WriteFile(other, bytes.ReplaceAll(mustRead(t, filepath.Join(dir, "triple.yaml")), []byte("name: triple"), []byte("name: fresh")), 0o644)
	set, _ = spec.Load([]string{dir})
	sum = s.Update(set, map[string]string{other: "bad\n"})
	if sum.Served != 5 || strings.Contains(strings.Join(s.Tools(), ","), "fresh") {
		t.Errorf("a new file with lint errors is served: %+v", sum)
	}
}

func TestPanicBecomesError(t *testing.T) {
	p := newPool(1)
	res := p.do(context.Background(), "boom", func() *sdk.CallToolResult { panic("kaboom") })
	if !res.IsError || !strings.Contains(text(res), "kaboom") {
		t.Errorf("panic result = %q", text(res))
	}
	// The worker survived.
	res = p.do(context.Background(), "ok", func() *sdk.CallToolResult { return &sdk.CallToolResult{} })
	if res.IsError {
		t.Error("the pool's worker died")
	}
}

func TestStdioProtocolErrors(t *testing.T) {
	r := rawServe(t, copyTools(t), Options{})
	r.send(`this is not json`)
	if got := r.recv(); !strings.Contains(got, `"code":-32700`) || !strings.Contains(got, `"id":null`) {
		t.Errorf("garbage: %s", got)
	}
	r.send(`{"jsonrpc":"1.0","id":7,"method":"tools/list"}`)
	if got := r.recv(); !strings.Contains(got, `"code":-32600`) || !strings.Contains(got, `"id":7`) {
		t.Errorf("wrong version: %s", got)
	}
	// The session goes on; a batch is answered with an array.
	r.send(`[{"jsonrpc":"2.0","id":8,"method":"ping"},{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"calc","arguments":{"expression":"1+2"}}}]`)
	got := r.recv()
	var batch []map[string]any
	if err := json.Unmarshal([]byte(got), &batch); err != nil || len(batch) != 2 {
		t.Fatalf("batch answer: %s", got)
	}
	if !strings.Contains(got, `"id":8`) || !strings.Contains(got, `\"result\":3`) {
		t.Errorf("batch answer: %s", got)
	}
}

func TestHTTP(t *testing.T) {
	s, log := newServer(t, copyTools(t), Options{})
	h, err := s.HTTPHandler(HTTPOptions{TrustedOrigins: []string{"http://localhost:6274"}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	for _, protocol := range []string{"", "2025-06-18"} {
		client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, nil)
		cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp", MaxRetries: -1}, &sdk.ClientSessionOptions{ProtocolVersion: protocol})
		if err != nil {
			t.Fatalf("connect (%q): %v\nlog:\n%s", protocol, err, log)
		}
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil || len(list.Tools) != 5 {
			t.Fatalf("list (%q): %v %v", protocol, err, list)
		}
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "calc", Arguments: map[string]any{"expression": "6*7"}})
		if err != nil || res.IsError || text(res) != `{"expression":"6*7","result":42}` {
			t.Errorf("call (%q): %v %+v", protocol, err, res)
		}
		res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "calc", Arguments: map[string]any{}})
		if err != nil || !res.IsError {
			t.Errorf("invalid call (%q): %v %+v", protocol, err, res)
		}
		if _, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "nope"}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
			t.Errorf("unknown tool (%q): %v", protocol, err)
		}
		cs.Close()
	}

	post := func(path, origin, host string) (int, string) {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
		req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(data)
	}
	if code, body := post("/mcp", "", ""); code != 200 || !strings.Contains(body, `"serverInfo"`) {
		t.Errorf("plain POST: %d %s", code, body)
	}
	if code, body := post("/mcp", ts.URL, ""); code != 200 {
		t.Errorf("same-origin POST: %d %s", code, body)
	}
	if code, body := post("/mcp", "http://localhost:6274", ""); code != 200 {
		t.Errorf("trusted-origin POST: %d %s", code, body)
	}
	if code, body := post("/mcp", "http://evil.example", ""); code != 403 || !strings.Contains(body, "--allow-origin http://evil.example") {
		t.Errorf("cross-origin POST: %d %s", code, body)
	}
	// DNS rebinding: a loopback connection naming another host.
	if code, _ := post("/mcp", "", "evil.example"); code != 403 {
		t.Errorf("rebinding POST: %d", code)
	}
	if code, body := post("/other", "", ""); code != 404 || !strings.Contains(body, "the endpoint is /mcp") {
		t.Errorf("wrong path: %d %s", code, body)
	}
}

func TestEncodeResponseMatchesSDK(t *testing.T) {
	for _, id := range []any{int64(7), "abc", `q"uo\te`, "ünï", "tab\there", int64(-3)} {
		jid, err := jsonrpc.MakeID(id)
		if err != nil {
			if f, ok := id.(int64); ok {
				jid, _ = jsonrpc.MakeID(float64(f))
			} else {
				t.Fatal(err)
			}
		}
		r := &jsonrpc.Response{ID: jid, Result: json.RawMessage(`{"content":[{"type":"text","text":"<b>&"}]}`)}
		got, err := encodeResponse(r)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := jsonrpc.EncodeMessage(r)
		if string(got) != string(want) {
			t.Errorf("id %v: %s, want %s", id, got, want)
		}
	}
}

// TestHTTPWatch: over stateless Streamable HTTP, a reload is what the next
// tools/list and tools/call see. From 2026-07-28 on the client listens
// (subscriptions/listen) and gets notifications/tools/list_changed; before
// it a stateless server has no stream to send one on.
func TestHTTPWatch(t *testing.T) {
	for _, protocol := range []string{"", "2025-11-25"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			dir := copyTools(t)
			s, log := newServer(t, dir, Options{})
			h, err := s.HTTPHandler(HTTPOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(h)
			defer ts.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ready := make(chan struct{})
			go s.Watch(ctx, func() { close(ready) })
			<-ready

			changed := make(chan struct{}, 10)
			client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, &sdk.ClientOptions{
				ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
			})
			cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp", MaxRetries: -1}, &sdk.ClientSessionOptions{ProtocolVersion: protocol})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			names := func() []string {
				t.Helper()
				res, err := cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, tool := range res.Tools {
					out = append(out, tool.Name)
				}
				return out
			}
			if slices.Contains(names(), "triple2") {
				t.Fatal("triple2 served before it was written")
			}
			if err := os.WriteFile(filepath.Join(dir, "triple2.yaml"), bytes.ReplaceAll(mustRead(t, filepath.Join(dir, "triple.yaml")), []byte("name: triple"), []byte("name: triple2")), 0o644); err != nil {
				t.Fatal(err)
			}
			// Watched from the server's side: the client sends nothing meanwhile.
			deadline := time.Now().Add(10 * time.Second)
			for !slices.Contains(s.Tools(), "triple2") {
				if time.Now().After(deadline) {
					t.Fatalf("triple2 not loaded after it was written; log:\n%s", log)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if protocol == "" {
				select {
				case <-changed:
				case <-time.After(5 * time.Second):
					t.Errorf("no list_changed on the listening stream; log:\n%s", log)
				}
			} else {
				select {
				case <-changed:
					t.Error("list_changed reached a stateless HTTP client without a stream; update serve --help and the README, which say it does not")
				case <-time.After(200 * time.Millisecond):
				}
			}
			if !slices.Contains(names(), "triple2") {
				t.Fatal("triple2 loaded but not listed")
			}
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "triple2"})
			if err != nil || res.IsError {
				t.Fatalf("calling the new tool: %v %+v", err, res)
			}
		})
	}
}

// TestStdioBatchConcurrent: the responses to a batch's calls, written
// from several goroutines at once, make one array, written once.
func TestStdioBatchConcurrent(t *testing.T) {
	r := rawServe(t, copyTools(t), Options{})
	var b strings.Builder
	b.WriteString("[")
	const n = 40
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"calc","arguments":{"expression":"%d+1"}}}`, i+1, i)
	}
	b.WriteString("]")
	r.send(b.String())
	got := r.recv()
	var batch []map[string]any
	if err := json.Unmarshal([]byte(got), &batch); err != nil || len(batch) != n {
		t.Fatalf("batch answer (%d): %s", len(batch), truncate(got, 300))
	}
	// Nothing else comes: a ping is the next answer.
	r.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if got := r.recv(); got != `{"jsonrpc":"2.0","id":"p","result":{}}` {
		t.Errorf("after the batch: %s", truncate(got, 300))
	}
}
