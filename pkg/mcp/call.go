package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// anyStructuredContent is the first protocol revision whose
// structuredContent may be any JSON value (SEP-2106); before it, the
// schema types it { [key: string]: unknown } (2025-06-18 and 2025-11-25
// schema.ts, CallToolResult.structuredContent).
const anyStructuredContent = "2026-07-28"

// maxDetail bounds the error detail (a response body, a traceback) put in
// an isError result: enough for a model to correct itself, not a page.
const maxDetail = 2000

// callTool answers tools/call. Failures of the tool — invalid arguments
// included — are results with isError, which the model sees and can act
// on; only an unknown tool is a protocol error (JSON-RPC -32602), as the
// spec's "Error Handling" section (2025-06-18 server/tools) lists them.
func (s *Server) callTool(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	if rep := sdkReporter(ctx, req); rep != nil {
		ctx = run.WithReporter(ctx, rep)
	}
	var rt *roundTrip
	if req.ProtocolVersion() >= resultTypeProtocol {
		// The tool's requests to the client become input requests (mrtr.go).
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var err error
		rt, err = s.newRoundTrip(req.Params.Name, req.Params.Arguments, req.Params.RequestState, req.Params.InputResponses, cancel)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		ctx = run.WithAsker(cctx, rt)
	} else if a := sdkAsker(req); a != nil {
		ctx = run.WithAsker(ctx, a)
	}
	res, _, err := s.call(ctx, req.Params.Name, req.Params.Arguments, req.ProtocolVersion(), false)
	if rt != nil {
		if more, err := s.roundTripResult(rt, req.Params.Name, req.Params.Arguments); err != nil {
			return errorResult(err.Error()), nil
		} else if more != nil {
			return more, nil
		}
	}
	return res, err
}

// call is tools/call's one implementation, for the SDK's handler and the
// stdio transport's direct path (fastcall.go) alike. With here, a local
// builtin runs on the calling goroutine, which is a long-lived one (the
// stdio reader or a pool worker).
//
// raw is set when res is an MCP server's own result passed on (an mcp
// entry's): its JSON exactly as that server sent it, for the transports
// that write their responses themselves; res is the same for the SDK.
func (s *Server) call(ctx context.Context, name string, arguments json.RawMessage, protocol string, here bool) (res *sdk.CallToolResult, raw json.RawMessage, err error) {
	s.mu.RLock()
	t := s.tools[name]
	s.mu.RUnlock()
	if t == nil {
		// Removed by a reload after the SDK found it.
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", name)}
	}
	if !s.calls.begin() {
		return errorResult("the server is shutting down; the call was not run"), nil, nil
	}
	defer s.calls.end()
	defer func() {
		if p := recover(); p != nil {
			s.log.printf("internal error in a call of %s: %v\n%s", name, p, debug.Stack())
			res, raw, err = errorResult(fmt.Sprintf("internal error in toolctl serve while calling %s: %v; please report it", name, p)), nil, nil
		}
	}()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.stop, cancel)
	defer stop()
	// Over HTTP, a client that closes its connection cancels its call.
	if req, ok := ctx.Value(requestKey{}).(context.Context); ok {
		stopReq := context.AfterFunc(req, cancel)
		defer stopReq()
	}

	res, raw = s.run(ctx, t, arguments, protocol, here)
	return res, raw, nil
}

// run runs one call and renders its result. Local builtins (pure Go,
// CPU-bound) run on the worker pool, or where they are (here: a
// long-lived goroutine whose stack has grown, which saves the hand-offs);
// the network builtins on the handler's goroutine, as they honour their
// context. Every other entry
// runs under a watchdog that only guards against an executor ignoring its
// context (the runner enforces the tool's timeout): a hung call still
// answers and never holds the server, or its shutdown, up.
//
// An MCP server's result (an mcp entry's) is passed on as it came, isError
// included: raw is its JSON, which the transports that write responses
// themselves send byte for byte.
func (s *Server) run(ctx context.Context, t *tool, arguments json.RawMessage, protocol string, here bool) (*sdk.CallToolResult, json.RawMessage) {
	// Set by call; read only once call's result has been received.
	var passed *sdk.CallToolResult
	var passedRaw json.RawMessage
	call := func() *sdk.CallToolResult {
		args, msg := decodeArguments(arguments)
		if msg != "" {
			return errorResult(fmt.Sprintf("ValidationError in %s: %s", t.name, msg))
		}
		r, err := s.opts.Runner.Run(ctx, t.spec, args)
		if m := mcpResult(r, err); m != nil {
			res, msg := s.passOn(t, m)
			if msg != "" {
				return errorResult(msg)
			}
			passed, passedRaw = res, m.Raw
			return res
		}
		if err != nil {
			return failure(err)
		}
		return s.result(t, r.Value, protocol)
	}
	if t.local {
		if here {
			return safely(t.name, call), nil
		}
		return s.pool.do(ctx, t.name, call), nil
	}
	if refused := s.acquire(ctx, t); refused != nil {
		return refused, nil
	}
	if t.spec.EntryKind() == spec.EntryBuiltin {
		defer s.release()
		return call(), nil
	}
	done := make(chan *sdk.CallToolResult, 1)
	go func() {
		// The slot is held until the executor returns, not until the
		// answer: a cancelled call's processes are gone before another
		// call starts its own.
		defer s.release()
		done <- safely(t.name, call)
	}()
	watchdog := time.NewTimer(s.watchdog(t))
	defer watchdog.Stop()
	select {
	case res := <-done:
		if res == passed {
			return res, passedRaw
		}
		return res, nil
	case <-ctx.Done():
		return s.cancelled(t, ""), nil
	case <-watchdog.C:
		s.log.printf("%s: the call did not return after its timeout and retries; abandoning it", t.name)
		return errorResult(fmt.Sprintf("TimeoutError in %s: no result within the tool's timeout", t.name)), nil
	}
}

// mcpResult is the MCP server's own result of an mcp entry's call, a
// success or isError; nil for any other outcome.
func mcpResult(r *run.Result, err error) *run.MCPResult {
	if err == nil {
		m, _ := r.Value.(*run.MCPResult)
		return m
	}
	var e *run.Error
	if errors.As(err, &e) && e.Kind == run.ToolExecutionError {
		if m, ok := e.Detail.(*run.MCPResult); ok && m.Result.IsError {
			return m
		}
	}
	return nil
}

// passOn is an MCP server's result to send as it is, or the message of
// the isError result to send instead: a result that does not conform to
// the tool's output schema (its returns section, which serve advertises
// as outputSchema) is not passed on.
func (s *Server) passOn(t *tool, m *run.MCPResult) (*sdk.CallToolResult, string) {
	if t.output != nil && !m.Result.IsError {
		v, err := m.Value()
		if err != nil {
			return nil, fmt.Sprintf("ToolExecutionError in %s: the MCP server's result cannot be read: %v", t.name, err)
		}
		data, err := marshal(v)
		if err != nil {
			return nil, fmt.Sprintf("ToolExecutionError in %s: the result cannot be written as JSON: %v", t.name, err)
		}
		if msg := checkOutput(t, v, data); msg != "" {
			return nil, msg
		}
	}
	return m.SDKResult(), ""
}

// cancelled is the answer to a call whose context ended: the client
// cancelled it (or went away), or the server is shutting down.
func (s *Server) cancelled(t *tool, when string) *sdk.CallToolResult {
	if s.stop.Err() != nil {
		return errorResult(fmt.Sprintf("ToolExecutionError in %s: cancelled%s: the server is shutting down", t.name, when))
	}
	return errorResult(fmt.Sprintf("ToolExecutionError in %s: cancelled by the client%s", t.name, when))
}

// acquire takes one of the MaxConcurrent slots for a call of t, waiting up
// to QueueWait for one to be released. It returns nil when the call may
// run (release gives the slot back), else the answer to send instead: the
// server is at its limit, or the call was cancelled while it waited.
//
// The refusal is a tool result with isError rather than a JSON-RPC error:
// the model sees it and can try again later ("Any errors that originate
// from the tool SHOULD be reported inside the result object ... Otherwise,
// the LLM would not be able to see that an error occurred and
// self-correct", 2025-06-18 schema.ts, CallToolResult.isError), where
// clients tend to end the turn on a protocol error; it is the same shape
// as the refusal of a call during shutdown.
func (s *Server) acquire(ctx context.Context, t *tool) *sdk.CallToolResult {
	select {
	case s.slots <- struct{}{}:
		return nil
	default:
	}
	n, wait := cap(s.slots), s.opts.QueueWait
	msg := fmt.Sprintf("RateLimitError in %s: not run: the server is at its limit of %d concurrent calls", t.name, n)
	waited := "at once"
	switch {
	case wait <= 0:
	case s.waiting.Add(1) > int64(maxQueued(n)):
		// The queue is bounded too: over stdio nothing else bounds the
		// calls a client can have waiting.
		s.waiting.Add(-1)
		msg += fmt.Sprintf(" with %d more waiting", maxQueued(n))
		waited = "at once, the queue being full"
	default:
		taken, cancelled := s.queue(ctx, wait)
		s.waiting.Add(-1)
		if taken {
			return nil
		}
		if cancelled {
			return s.cancelled(t, " before it started")
		}
		msg += fmt.Sprintf(" (it waited %s for one to end)", wait)
		waited = "after waiting " + wait.String()
	}
	msg += fmt.Sprintf("; retry later, or make fewer calls at once. To raise the limit, start toolctl serve with a higher --max-concurrent (now %d)", n)
	// One line per 10s at most: a flood must not flood the log.
	now := time.Now().UnixNano()
	total := s.refusals.Add(1)
	if last := s.lastRefusalLog.Load(); (last == 0 || now-last > int64(10*time.Second)) && s.lastRefusalLog.CompareAndSwap(last, now) {
		s.log.printf("at the limit of %d concurrent calls (--max-concurrent): refusing calls %s (%d so far)", n, waited, total)
	}
	return errorResult(msg)
}

// queue waits up to wait for a slot: taken, or the call's context ended.
func (s *Server) queue(ctx context.Context, wait time.Duration) (taken, cancelled bool) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case s.slots <- struct{}{}:
		return true, false
	case <-ctx.Done():
		return false, true
	case <-timer.C:
		return false, false
	}
}

// maxQueued is how many calls may wait for one of n slots.
func maxQueued(n int) int { return 16 * n }

// release gives back the slot acquire took.
func (s *Server) release() { <-s.slots }

// safely runs f, turning a panic into an isError result: the goroutine
// it runs on (a worker, a call's own) must not take the server down.
func safely(name string, f func() *sdk.CallToolResult) (res *sdk.CallToolResult) {
	defer func() {
		if p := recover(); p != nil {
			res = errorResult(fmt.Sprintf("internal error in toolctl serve while calling %s: %v; please report it", name, p))
		}
	}()
	return f()
}

// watchdog is the longest a call may take under its policy, plus slack.
func (s *Server) watchdog(t *tool) time.Duration {
	p := s.opts.Runner.PolicyFor(t.spec)
	n := time.Duration(p.Retries + 1)
	return p.Timeout*n + p.MaxDelay*(n-1) + 5*time.Second
}

// decodeArguments reads tools/call arguments as the runner takes input:
// a JSON object with exact numbers. Absent or null arguments are {}.
func decodeArguments(raw json.RawMessage) (map[string]any, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, ""
	}
	if raw[0] != '{' {
		return nil, "arguments must be a JSON object of parameters"
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Sprintf("arguments are not valid JSON: %v", err)
	}
	return m, ""
}

// result renders a successful call. A string is text content. Any other
// value is JSON: the text content holds its serialization ("a tool that
// returns structured content SHOULD also return the serialized JSON in a
// TextContent block", 2025-06-18 server/tools#structured-content), and
// structuredContent the value itself when the negotiated revision allows
// it: an object always, an array or scalar from 2026-07-28 on (SEP-2106).
// Older revisions get a non-object as text only rather than a wrapper
// such as {"result": v}, which would invent a shape the tool never
// declared.
func (s *Server) result(t *tool, v any, protocol string) *sdk.CallToolResult {
	if str, ok := v.(string); ok && t.output == nil {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: str}}}
	}
	data, err := marshal(v)
	if err != nil {
		return errorResult(fmt.Sprintf("ToolExecutionError in %s: the result cannot be written as JSON: %v", t.name, err))
	}
	_, isObject := v.(map[string]any)
	if !isObject {
		isObject = len(data) > 0 && data[0] == '{'
	}
	if t.output != nil {
		if msg := checkOutput(t, v, data); msg != "" {
			return errorResult(msg)
		}
	}
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(data)}}}
	if isObject || (v != nil && protocol >= anyStructuredContent) {
		res.StructuredContent = json.RawMessage(data)
	}
	return res
}

// checkOutput validates a result against the tool's output schema.
func checkOutput(t *tool, v any, data []byte) string {
	plain := plainJSON(v)
	if plain && validate.Conforms(t.outSchema, v) {
		return ""
	}
	if !plain {
		// Values the validator does not know (e.g. []string): validate
		// what the client receives.
		// A fresh value: decoding into v would fill the *spec.Map it
		// holds, which the validator does not take.
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var fresh any
		if err := dec.Decode(&fresh); err != nil {
			return ""
		}
		v = fresh
	}
	ps := validate.Validate(t.output, v)
	if len(ps) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ToolExecutionError in %s: the result does not match the tool's output schema (returns):", t.name)
	for _, p := range ps {
		where := validate.PointerLabel(p.Pointer)
		if where == "" {
			where = "the result"
		}
		fmt.Fprintf(&b, "\n- %s: %s", where, p.Message)
	}
	fmt.Fprintf(&b, "\nFix the tool or its returns section in %s. The result was:\n%s", t.spec.Path(), truncate(string(data), maxDetail))
	return b.String()
}

// plainJSON tells whether v holds only the types the validator takes.
func plainJSON(v any) bool {
	switch v := v.(type) {
	case nil, bool, string, json.Number, float64, float32, int, int64, int32, uint, uint64, uint32:
		return true
	case map[string]any:
		for _, x := range v {
			if !plainJSON(x) {
				return false
			}
		}
		return true
	case []any:
		for _, x := range v {
			if !plainJSON(x) {
				return false
			}
		}
		return true
	}
	return false
}

// marshal writes compact JSON without HTML escaping (a model reads it).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// marshalResult is marshal(res) for the results call makes, written
// without the SDK's reflection and double compaction (a tenth of a
// calculator call's CPU): one text content, structuredContent as the
// compact JSON result renders, isError. The bytes are the SDK's (HTML
// characters escaped, as its json.Marshal does; TestFastCallMatchesSDK).
// Anything else goes through marshal.
func marshalResult(res *sdk.CallToolResult) ([]byte, error) {
	text, ok := plainText(res)
	var structured json.RawMessage
	if ok && res.StructuredContent != nil {
		structured, ok = res.StructuredContent.(json.RawMessage)
	}
	if !ok {
		return marshal(res)
	}
	quoted, err := json.Marshal(text)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(quoted)+len(structured)+64)
	b = append(b, `{"content":[{"type":"text","text":`...)
	b = append(b, quoted...)
	b = append(b, "}]"...)
	if structured != nil {
		b = append(b, `,"structuredContent":`...)
		if bytes.ContainsAny(structured, "<>&") {
			var buf bytes.Buffer
			json.HTMLEscape(&buf, structured)
			b = append(b, buf.Bytes()...)
		} else {
			b = append(b, structured...)
		}
	}
	if res.IsError {
		b = append(b, `,"isError":true`...)
	}
	return append(b, '}'), nil
}

// plainText returns the text of a result that is one plain text content
// and nothing else but structuredContent and isError.
func plainText(res *sdk.CallToolResult) (string, bool) {
	if res.Meta != nil || len(res.Content) != 1 || res.InputRequests != nil || res.RequestState != "" {
		return "", false
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok || tc.Meta != nil || tc.Annotations != nil {
		return "", false
	}
	return tc.Text, true
}

// failure renders a run error the way toolctl run prints it: kind, tool
// and message, the attempts, and the detail (a response body, a
// traceback) the model may need to correct the call. Secrets are already
// redacted by the runner.
func failure(err error) *sdk.CallToolResult {
	var e *run.Error
	if !errors.As(err, &e) {
		return errorResult(err.Error())
	}
	msg := e.Error()
	if e.Attempts > 1 {
		msg += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	if e.Detail != nil && e.Kind != run.ValidationError {
		var d string
		if s, ok := e.Detail.(string); ok {
			d = strings.TrimRight(s, "\n")
		} else if raw, err := marshal(e.Detail); err == nil {
			d = string(raw)
		}
		if d != "" {
			msg += "\n" + truncate(d, maxDetail)
		}
	}
	return errorResult(msg)
}

func errorResult(msg string) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more bytes)", len(s)-cut)
}

// pool runs the local builtin calls on long-lived goroutines. The SDK
// starts a goroutine per request, and a new goroutine grows its stack
// again on every call: the JSON Schema validator's frames are large, and
// the copying was a fifth of a calculator call's CPU. A worker's stack
// has grown once.
type pool struct {
	jobs chan func()
}

func newPool(n int) *pool {
	p := &pool{jobs: make(chan func())}
	for range n {
		go p.work()
	}
	return p
}

// work runs jobs; they recover their own panics (safely, Server.call).
func (p *pool) work() {
	for f := range p.jobs {
		f()
	}
}

// do runs f on a worker, waiting for a free one unless ctx ends first.
func (p *pool) do(ctx context.Context, name string, f func() *sdk.CallToolResult) *sdk.CallToolResult {
	done := make(chan *sdk.CallToolResult, 1)
	select {
	case p.jobs <- func() { done <- safely(name, f) }:
	case <-ctx.Done():
		return errorResult(fmt.Sprintf("ToolExecutionError in %s: cancelled before it started", name))
	}
	return <-done
}

// try hands f to a worker that is free now, and reports whether one was.
func (p *pool) try(f func()) bool {
	select {
	case p.jobs <- f:
		return true
	default:
		return false
	}
}
