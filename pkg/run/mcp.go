// The MCP client shared with import (the protocol version offered, the
// stdio server process, failure classification) is in pkg/mcpclient.

package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/mcpclient"
	"github.com/toolctl/toolctl/pkg/spec"
)

// mcpListTimeout bounds the tools/list made to explain an unknown tool.
const mcpListTimeout = 2 * time.Second

// mcpExecutor calls one tool on an MCP server: a subprocess speaking stdio
// (entry.server is a command line or a list) or a Streamable HTTP endpoint
// (entry.server is an http(s) URL). Each call opens its own session.
type mcpExecutor struct{}

// Networked: the server may be remote, and a stdio server is a program
// toolctl does not know to be deterministic.
func (mcpExecutor) Networked(*spec.Tool) bool { return true }

// Method: a tools/call has no HTTP method of its own; it is retried like
// any idempotent call.
func (mcpExecutor) Method(*Call) string { return "" }

// limitsMemory: a stdio server runs under the memory limit only when one
// was set (runtime.memory, --memory, run.memory), not by default.
func (mcpExecutor) limitsMemory(p Policy) bool { return p.Memory > 0 && p.MemoryFrom != "" }

// mcpTarget is an entry resolved for one call: ${ENV} expanded, the command
// line split.
type mcpTarget struct {
	url     string      // Streamable HTTP endpoint, or ""
	headers http.Header // extra HTTP headers (entry.headers), ${ENV} expanded
	argv    []string    // stdio server command when url is ""
	tool    string      // the tool's name on the server
	program string      // argv[0] as written (after ${ENV}), before it is made relative to the tool file
}

// server names the server in messages.
func (t *mcpTarget) server() string {
	if t.url != "" {
		return t.url
	}
	return strconv.Quote(t.argv[0])
}

// mcpTargetFor resolves the entry. Only ${ENV} placeholders are expanded:
// the input goes to the server as the call's arguments, never into the
// command that starts it.
func mcpTargetFor(c *Call) (*mcpTarget, error) {
	e := c.Tool.Entry
	if e == nil {
		return nil, DefinitionErrorf("", "the tool has no entry; add entry: {type: mcp, server: ..., tool: ...}")
	}
	tpl := &Template{
		Call:  &Call{Getenv: c.Getenv, Secrets: c.Secrets},
		Used:  map[string]bool{},
		Where: "entry.server",
	}
	t := &mcpTarget{tool: e.Tool}
	if t.tool == "" {
		t.tool = c.Tool.Name
	}
	server := strings.TrimSpace(e.Server)
	switch {
	case mcpclient.IsHTTPURL(server):
		if len(e.ServerArgs) > 0 {
			return nil, DefinitionErrorf("/entry/server", "entry.server is a URL, so it takes no arguments; give either a URL or a command")
		}
		u, err := tpl.Expand(server, nil)
		if err != nil {
			return nil, err
		}
		t.url = u
		if e.Headers != nil && e.Headers.Len() > 0 {
			t.headers = http.Header{}
			tpl.Where = "entry.headers"
			for i := range e.Headers.Len() {
				k, v := e.Headers.At(i)
				hv, err := tpl.Expand(ValueText(v), nil)
				if err != nil {
					return nil, err
				}
				t.headers.Set(k, hv)
			}
		}
		return t, nil
	case len(e.ServerArgs) > 0:
		if server != "" {
			t.argv = append([]string{server}, e.ServerArgs...)
		} else {
			t.argv = slices.Clone(e.ServerArgs)
		}
	case server != "":
		argv, err := mcpclient.SplitCommandLine(server)
		if err != nil {
			return nil, DefinitionErrorf("/entry/server", "entry.server: %v; fix the quoting or write the command as a list", err)
		}
		t.argv = argv
	}
	if len(t.argv) == 0 || t.argv[0] == "" {
		return nil, DefinitionErrorf("/entry", "entry.server is empty; set it to the command that starts the MCP server (e.g. \"uvx mcp-server-fetch\") or to its http(s) URL")
	}
	for i, a := range t.argv {
		x, err := tpl.Expand(a, nil)
		if err != nil {
			return nil, err
		}
		t.argv[i] = x
	}
	// A relative program path is relative to the tool file, like every
	// other path in an entry; a bare name is looked up in PATH.
	t.program = t.argv[0]
	if hasDir(t.argv[0]) {
		t.argv[0] = c.Path(t.argv[0])
	}
	return t, nil
}

// Check resolves the entry as Execute does, without starting anything: a
// server program written as a path relative to the tool file must be
// there.
func (mcpExecutor) Check(c *Call) error {
	t, err := mcpTargetFor(c)
	if err != nil {
		return err
	}
	if t.url != "" || c.Options != nil && c.Options.MCPWire != nil && c.Options.MCPWire.Replaying() {
		return nil // replayed calls start no server
	}
	return checkProgramPath(c, "/entry/server", "entry.server", t.program)
}

// Plan describes the call for --dry-run without starting anything.
func (mcpExecutor) Plan(c *Call) (any, error) {
	t, err := mcpTargetFor(c)
	if err != nil {
		return nil, err
	}
	if t.url != "" {
		plan := map[string]any{"transport": "http", "url": t.url, "tool": t.tool}
		if len(t.headers) > 0 {
			h := map[string]any{}
			for k := range t.headers {
				h[k] = t.headers.Get(k)
			}
			plan["headers"] = h
		}
		return plan, nil
	}
	argv := make([]any, len(t.argv))
	for i, a := range t.argv {
		argv[i] = a
	}
	return map[string]any{"transport": "stdio", "command": argv, "tool": t.tool}, nil
}

// Execute connects, calls the tool once and closes the session; a stdio
// server is stopped (and its process group killed) before Execute returns.
func (mcpExecutor) Execute(ctx context.Context, c *Call) (any, error) {
	t, err := mcpTargetFor(c)
	if err != nil {
		return nil, err
	}
	x := &mcpCall{target: t, timeout: c.Timeout, call: c}
	tap := &mcpTap{}
	var fwd *mcpNotices
	if c.notices != nil {
		fwd = &mcpNotices{c: c, changed: make(chan struct{})}
		tap.notified = fwd.seenOnWire
	}
	var standIn io.ReadWriteCloser
	if c.Options != nil && c.Options.MCPWire != nil {
		standIn, tap.observe = c.Options.MCPWire.Session(MCPServer{URL: t.url, Command: slices.Clone(t.argv), Tool: t.tool})
	}
	var transport mcp.Transport
	if standIn != nil {
		defer standIn.Close()
		transport = &mcp.IOTransport{
			Reader: &tapReader{ReadCloser: standIn, lines: lineTap{see: tap.received}},
			Writer: &tapWriter{WriteCloser: standIn, lines: lineTap{see: tap.sent}},
		}
	} else if t.url != "" {
		x.rec = &mcpHTTPRecorder{headers: t.headers, tap: tap}
		hc := *c.HTTPClient()
		// A response's messages are bounded as a stdio server's lines are.
		x.rec.limit = mcpclient.LimitResponses(hc.Transport)
		x.rec.base = x.rec.limit
		hc.Transport = x.rec
		// No standalone GET stream: a single call needs no server-initiated
		// messages, and some servers answer that GET wrongly.
		transport = &mcp.StreamableClientTransport{Endpoint: t.url, HTTPClient: &hc, DisableStandaloneSSE: true}
	} else {
		p, err := mcpclient.Start(ctx, absProgram(t.argv), c.Dir, c.Stderr, c.memoryLimit(mcpExecutor{}))
		if err != nil {
			return nil, mcpStartError(err)
		}
		x.proc = p
		defer p.Stop()
		transport = &mcp.IOTransport{
			Reader: &tapReader{ReadCloser: p.Stdout(), lines: lineTap{see: tap.received}},
			Writer: &tapWriter{WriteCloser: p.Stdin(), lines: lineTap{see: tap.sent}},
		}
	}

	copts := &mcp.ClientOptions{
		// toolctl offers no roots; sampling and elicitation only when the
		// call has a client of its own to pass them on to.
		Capabilities: &mcp.ClientCapabilities{},
	}
	if fwd != nil {
		copts.ProgressNotificationHandler = fwd.progress
		copts.LoggingMessageHandler = fwd.log
	}
	if c.asks != nil {
		copts.Capabilities.Sampling = &mcp.SamplingCapabilities{}
		copts.Capabilities.Elicitation = &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}
		copts.CreateMessageWithToolsHandler = func(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
			var res mcp.CreateMessageWithToolsResult
			return &res, c.passAsk(ctx, MethodSample, req.Params, &res)
		}
		copts.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			var res mcp.ElicitResult
			return &res, c.passAsk(ctx, MethodElicit, req.Params, &res)
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "toolctl", Version: toolctlVersion()}, copts)
	session, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: mcpclient.ProtocolVersion})
	if err != nil {
		return nil, x.fail(ctx, err, nil)
	}
	defer mcpclient.CloseSession(session)
	defer fwd.stop() // nothing the server sends after its result is forwarded

	if c.Options != nil && c.Options.MCPCheck != nil {
		listed, err := listedTool(ctx, session, t.tool)
		if err != nil {
			return nil, x.fail(ctx, err, session)
		}
		if err := c.Options.MCPCheck(c.Tool, listed); err != nil {
			return nil, Wrap(DefinitionError, err, err.Error())
		}
	}

	args, err := MarshalJSON(c.Input)
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot encode the input as JSON: "+err.Error())
	}
	if c.Input == nil {
		args = []byte("{}")
	}
	params := &mcp.CallToolParams{Name: t.tool, Arguments: json.RawMessage(args)}
	if fwd != nil {
		fwd.start(ctx, session, params)
	}
	x.rec.reset()
	res, err := session.CallTool(ctx, params)
	fwd.drain(ctx)
	fwd.stop()
	if err != nil {
		return nil, x.fail(ctx, err, session)
	}
	return mcpResult(t, res, tap.result())
}

// mcpProgressToken is the progressToken of a forwarded call: each call has
// a session of its own, so one token is enough.
const mcpProgressToken = "toolctl"

// mcpNotices forwards what the server reports during a call (its
// notifications/progress for the call's progressToken, its
// notifications/message) to the call's reporter, as a local tool's
// ctx.progress and ctx.log reach it: the same bounds (maxNotices per call,
// maxNoticeSize each) and redaction. Nothing is forwarded before the call
// is sent or after its result came.
//
// The SDK hands notifications to the handlers on a goroutine of their
// own, so the call's result can overtake them: the tap counts those that
// came on the wire, and drain waits until the handlers had them all.
type mcpNotices struct {
	c       *Call
	mu      sync.Mutex
	started bool
	stopped bool
	seen    int           // progress and log notifications received
	handled int           // of those, the ones the handlers had
	changed chan struct{} // closed (and replaced) when handled grows
}

// mcpDrainWait bounds how long a call's result waits for the handlers to
// have the notifications that came before it (one the SDK dropped would
// never reach them).
const mcpDrainWait = 2 * time.Second

// seenOnWire counts notifications the client received.
func (n *mcpNotices) seenOnWire(k int) {
	n.mu.Lock()
	n.seen += k
	n.mu.Unlock()
}

// had counts a notification a handler had; n.mu is held.
func (n *mcpNotices) had() {
	n.handled++
	close(n.changed)
	n.changed = make(chan struct{})
}

// drain waits until the handlers had every notification received so far
// (nil-safe).
func (n *mcpNotices) drain(ctx context.Context) {
	if n == nil {
		return
	}
	limit := time.NewTimer(mcpDrainWait)
	defer limit.Stop()
	for {
		n.mu.Lock()
		done, changed := n.handled >= n.seen, n.changed
		n.mu.Unlock()
		if done {
			return
		}
		select {
		case <-changed:
		case <-limit.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// start asks the server to report: a progressToken on the call and, when
// it offers logging, logging/setLevel debug (the reporter filters: serve
// by its client's level, toolctl run shows logs with -v). A server that
// refuses the level still gets the call.
func (n *mcpNotices) start(ctx context.Context, session *mcp.ClientSession, params *mcp.CallToolParams) {
	params.SetProgressToken(mcpProgressToken)
	if init := session.InitializeResult(); init != nil && init.Capabilities != nil && init.Capabilities.Logging != nil {
		_ = session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"})
	}
	n.mu.Lock()
	n.started = true
	n.mu.Unlock()
}

// stop ends the forwarding (nil-safe).
func (n *mcpNotices) stop() {
	if n == nil {
		return
	}
	n.mu.Lock()
	n.stopped = true
	n.mu.Unlock()
}

func (n *mcpNotices) progress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	n.mu.Lock()
	defer n.mu.Unlock()
	defer n.had()
	if req == nil || req.Params == nil || req.Params.ProgressToken != mcpProgressToken {
		return
	}
	p := req.Params
	if n.started && !n.stopped {
		n.c.progress(Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}

func (n *mcpNotices) log(_ context.Context, req *mcp.LoggingMessageRequest) {
	n.mu.Lock()
	defer n.mu.Unlock()
	defer n.had()
	if req == nil || req.Params == nil {
		return
	}
	p := req.Params
	if n.started && !n.stopped {
		n.c.log(LogMessage{Level: string(p.Level), Logger: p.Logger, Data: p.Data})
	}
}

func toolctlVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

// mcpResult is a tools/call result as the server sent it (raw, when the
// tap saw it): an *MCPResult, or for isError a ToolExecutionError with
// the text items as its message and the *MCPResult as its detail.
func mcpResult(t *mcpTarget, res *mcp.CallToolResult, raw json.RawMessage) (any, error) {
	m, err := newMCPResult(raw, res)
	if err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot encode the server's result: "+err.Error())
	}
	if res.IsError {
		msg := mcpText(res.Content)
		if msg == "" {
			msg = "the tool reported an error without a message"
		}
		return nil, &Error{Kind: ToolExecutionError, Message: msg, Detail: m}
	}
	if res.NeedsInput() {
		return nil, &Error{Kind: ToolExecutionError, Message: fmt.Sprintf("the MCP tool %q asked for user input (elicitation), which toolctl cannot provide", t.tool)}
	}
	if _, err := m.Value(); err != nil {
		return nil, Wrap(ToolExecutionError, err, "cannot decode the server's result: "+err.Error())
	}
	return m, nil
}

// mcpText joins the text items of a content list.
func mcpText(content []mcp.Content) string {
	var parts []string
	for _, c := range content {
		if tc, ok := c.(*mcp.TextContent); ok && strings.TrimSpace(tc.Text) != "" {
			parts = append(parts, strings.TrimSpace(tc.Text))
		}
	}
	return strings.Join(parts, "\n")
}

// jsonValue re-encodes v so that numbers are json.Number, as in every
// other executor's results.
func jsonValue(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// mcpCall is what error classification needs to know about a call.
type mcpCall struct {
	target  *mcpTarget
	timeout time.Duration     // the attempt's timeout, for messages (0: unknown)
	proc    *mcpclient.Server // stdio
	call    *Call
	rec     *mcpHTTPRecorder // http
}

// fail turns a Connect (session nil) or CallTool error into an *Error.
func (x *mcpCall) fail(ctx context.Context, err error, session *mcp.ClientSession) error {
	t := x.target
	what := "the initialize handshake"
	if session != nil {
		what = fmt.Sprintf("tools/call %q", t.tool)
	}
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			within := "before the deadline"
			if x.timeout > 0 {
				within = "within the " + x.timeout.String() + " timeout"
			}
			msg := fmt.Sprintf("no result %s: the MCP server %s did not answer %s; raise runtime.timeout or pass --timeout", within, t.server(), what)
			if session == nil && x.proc != nil {
				msg = fmt.Sprintf("no result %s: the MCP server %s did not finish the initialize handshake; check that the command starts an MCP stdio server (nothing else may write to its stdout), or raise runtime.timeout", within, t.server())
			}
			return x.withStderr(&Error{Kind: TimeoutError, Message: msg, Err: err})
		}
		return err // cancelled: the runner reports it
	}
	if e := x.rec.httpError(t, err); e != nil {
		return e
	}
	if x.rec != nil && x.rec.limit.Exceeded() {
		return &Error{Kind: ToolExecutionError, Message: fmt.Sprintf("the MCP server at %s sent a message larger than %d MiB (toolctl's limit) during %s; have the tool return less", t.url, mcpclient.MaxMessage>>20, what), Err: err}
	}
	// before JSON-RPC errors: the SDK wraps a failed request in its own
	// "rejected by transport" JSON-RPC error
	if x.rec != nil && mcpclient.IsNetworkError(err) {
		return &Error{Kind: NetworkError, Message: fmt.Sprintf("cannot reach the MCP server at %s: %v; check the URL and that the server is running", t.url, mcpclient.RootCause(err)), Err: err}
	}
	if werr := mcpclient.ServerRPCError(err); werr != nil {
		if session == nil {
			return &Error{Kind: ToolExecutionError, Message: fmt.Sprintf("the MCP server %s rejected the initialize handshake: %s (JSON-RPC error %d)", t.server(), werr.Message, werr.Code), Err: err}
		}
		return x.rejected(ctx, session, werr)
	}
	if x.proc != nil {
		if e := x.exitError(what, err); e != nil {
			return e
		}
	}
	return x.withStderr(&Error{Kind: ToolExecutionError, Message: fmt.Sprintf("%s with the MCP server %s failed: %v", what, t.server(), err), Err: err})
}

// exitError reports a stdio server that exited before answering; nil when
// it is still running.
func (x *mcpCall) exitError(what string, err error) *Error {
	ee := x.proc.ExitError(what, err)
	switch {
	case ee == nil:
		return nil
	case ee.MemoryExceeded:
		return memoryError(x.call, "the MCP server "+ee.Server, ee.Peak)
	case ee.Start != nil:
		return mcpStartError(ee.Start)
	}
	e := &Error{Kind: ToolExecutionError, Message: ee.Error(), Err: err}
	if ee.Tail != "" {
		e.Detail = ee.Tail
	}
	return e
}

// mcpStartError is a server that could not be started (a
// *mcpclient.StartError) as an *Error.
func mcpStartError(err error) *Error {
	var se *mcpclient.StartError
	if errors.As(err, &se) {
		return &Error{Kind: ToolExecutionError, Message: se.Error(), Err: se.Err}
	}
	return Wrap(ToolExecutionError, err, err.Error())
}

// rejected explains a JSON-RPC error answering tools/call. Servers report an
// unknown tool that way, so when the tool is missing from tools/list the
// message says so and names the tools there are.
func (x *mcpCall) rejected(ctx context.Context, session *mcp.ClientSession, werr *jsonrpc.Error) error {
	t := x.target
	e := &Error{Kind: ToolExecutionError, Message: fmt.Sprintf("the MCP server %s rejected tools/call %q: %s (JSON-RPC error %d)", t.server(), t.tool, werr.Message, werr.Code), Err: werr}
	if len(werr.Data) > 0 {
		if v, err := jsonValue(json.RawMessage(werr.Data)); err == nil {
			e.Detail = v
		}
	}
	lctx, cancel := context.WithTimeout(ctx, mcpListTimeout)
	defer cancel()
	var names []string
	for tool, err := range session.Tools(lctx, nil) {
		if err != nil {
			return e // cannot tell: keep the server's own words
		}
		if tool.Name == t.tool {
			return e // the tool exists: the server rejected the arguments
		}
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	list := "it lists no tools"
	if len(names) > 0 {
		const show = 30
		list = "its tools are: " + strings.Join(names[:min(len(names), show)], ", ")
		if len(names) > show {
			list += fmt.Sprintf(" and %d more", len(names)-show)
		}
	}
	e.Message = fmt.Sprintf("the MCP server %s has no tool %q (%s); %s. Set entry.tool to one of them", t.server(), t.tool, werr.Message, list)
	return e
}

// withStderr adds a stdio server's stderr tail as the error's detail.
func (x *mcpCall) withStderr(e *Error) *Error {
	if x.proc != nil && e.Detail == nil {
		if tail := x.proc.StderrTail(); tail != "" {
			e.Detail = tail
		}
	}
	return e
}

// mcpHTTPRecorder is the HTTP client's transport for a Streamable HTTP
// call: it adds entry.headers and remembers the last error status, which
// the SDK reduces to its status text, so that 401, 404, 429 and 5xx map to
// their own kinds (and Retry-After is honoured).
type mcpHTTPRecorder struct {
	base    http.RoundTripper
	limit   *mcpclient.ResponseLimit // base's bound on a message
	headers http.Header
	tap     *mcpTap // sees the messages, for the call's result as sent

	mu         sync.Mutex
	status     int
	retryAfter time.Duration
}

func (r *mcpHTTPRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(r.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range r.headers {
			req.Header[k] = v
		}
	}
	if req.Method == http.MethodPost && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(io.LimitReader(body, maxTapMessage))
			body.Close()
			r.tap.sent(data)
		}
	}
	resp, err := r.base.RoundTrip(req)
	if err == nil && r.tap != nil && resp.StatusCode == http.StatusOK && resp.Body != nil {
		resp.Body = newTapBody(resp.Body, resp.Header.Get("Content-Type"), r.tap)
	}
	// The closing DELETE is not part of the call: its status must not
	// overwrite the call's.
	if err == nil && resp.StatusCode >= 400 && req.Method != http.MethodDelete {
		r.mu.Lock()
		r.status = resp.StatusCode
		r.retryAfter, _ = httpRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		r.mu.Unlock()
	}
	return resp, err
}

// reset forgets statuses seen before the call (nil-safe: stdio has none).
func (r *mcpHTTPRecorder) reset() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.status, r.retryAfter = 0, 0
	r.mu.Unlock()
}

// httpError maps the recorded status to a kind; nil when there is none or
// the status is one whose JSON-RPC error body says more.
func (r *mcpHTTPRecorder) httpError(t *mcpTarget, err error) *Error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	status, retryAfter := r.status, r.retryAfter
	r.mu.Unlock()
	e := &Error{Status: status, RetryAfter: retryAfter, Err: err}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Kind = AuthenticationError
		e.Message = fmt.Sprintf("the MCP server at %s refused the request (HTTP %d); set the credentials it needs, e.g. entry.headers: {Authorization: \"Bearer ${TOKEN}\"}", t.url, status)
	case status == http.StatusNotFound:
		e.Kind = NotFoundError
		e.Message = fmt.Sprintf("no MCP endpoint at %s (HTTP 404); check entry.server (Streamable HTTP endpoints are often at /mcp)", t.url)
	case status == http.StatusTooManyRequests:
		e.Kind = RateLimitError
		e.Message = fmt.Sprintf("the MCP server at %s is rate limiting (HTTP 429)", t.url)
	case status >= 500:
		e.Kind = ServerError
		e.Message = fmt.Sprintf("the MCP server at %s failed (HTTP %d): %v", t.url, status, err)
	default:
		return nil
	}
	return e
}

// listedTool is the tools/list entry of tool name on the server, as JSON
// (nil when it is not listed).
func listedTool(ctx context.Context, session *mcp.ClientSession, name string) ([]byte, error) {
	params := &mcp.ListToolsParams{}
	for range 10000 {
		res, err := session.ListTools(ctx, params)
		if err != nil {
			return nil, err
		}
		for _, t := range res.Tools {
			if t.Name == name {
				return json.Marshal(t)
			}
		}
		if res.NextCursor == "" {
			return nil, nil
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	return nil, nil
}

// passAsk passes a request of an mcp entry's server to the call's own
// client (run.Asker) and decodes the answer into res; the client's error
// goes back to the server as a JSON-RPC error.
func (c *Call) passAsk(ctx context.Context, method string, params, res any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	answer, err := c.ask(ctx, method, raw)
	if err != nil {
		var ae *AskError
		if errors.As(err, &ae) {
			return &jsonrpc.Error{Code: ae.Code, Message: ae.Message}
		}
		return err
	}
	if err := json.Unmarshal(answer, res); err != nil {
		return fmt.Errorf("the client's answer to %s does not fit the MCP schema: %v", method, err)
	}
	return nil
}
