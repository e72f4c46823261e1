package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/run"
)

// resultTypeProtocol is the first revision whose CallToolResult carries
// the SDK's "resultType" (multi round-trip results): the SDK sets it from
// unexported state, so those sessions stay on the SDK's path.
const resultTypeProtocol = "2026-07-28"

// fastCalls answers plain tools/call requests on the stdio transport
// without the SDK, once the session is initialized. The SDK decodes each
// request several times with a decoder that allocates 32 KB per decode,
// then dispatches and encodes through reflection: most of a calculator
// call's allocations. The call itself is the same code as the SDK's
// handler (Server.call), and the response the same bytes.
//
// Only what needs nothing from the SDK's session is taken: a single
// (non-batch) tools/call of a served tool, with params holding only
// name, arguments and a _meta with only a progressToken, after a successful initialize below 2026-07-28 and
// notifications/initialized. Everything else goes to the SDK unchanged.
type fastCalls struct {
	srv    *Server
	ctx    context.Context // ends when the connection closes
	cancel context.CancelFunc
	on     atomic.Bool

	mu       sync.Mutex
	initID   jsonrpc.ID
	initSeen bool // the first initialize request was read
	initBad  bool // its params did not decode here
	initOK   bool // and the SDK answered it with a result
	notified bool // notifications/initialized was read
	protocol string
	running  map[jsonrpc.ID]context.CancelFunc // intercepted calls in flight
	level    string                            // set by logging/setLevel; "" sends no log messages
	// canSample and canElicit: the client declared the sampling and
	// elicitation capabilities in initialize.
	canSample, canElicit bool
	asks                 pendingAsks // the calls' requests to the client
}

// asker sends a call's requests to the client on c, if it declared the
// capability each needs (2025-06-18 client/sampling: "Clients that
// support sampling MUST declare the sampling capability").
func (f *fastCalls) asker(c *lineConn) run.Asker {
	return askFunc(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		f.mu.Lock()
		can := f.canSample
		if method == run.MethodElicit {
			can = f.canElicit
		}
		f.mu.Unlock()
		if !can {
			capability := run.Capabilities[method]
			return nil, fmt.Errorf("the client did not declare the %s capability when it connected, so it cannot be sent %s", capability, method)
		}
		return f.asks.ask(ctx, c.writeRaw, method, params)
	})
}

// logLevel is the lowest level of the log messages sent ("" for none).
func (f *fastCalls) logLevel() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.level
}

func newFastCalls(s *Server) *fastCalls {
	f := &fastCalls{srv: s, running: map[jsonrpc.ID]context.CancelFunc{}}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	return f
}

// callParams are the tools/call params the direct path takes; the other
// fields are only read to send requests that have them to the SDK.
type callParams struct {
	Name           *string         `json:"name"`
	Arguments      json.RawMessage `json:"arguments"`
	Meta           json.RawMessage `json:"_meta"`
	InputResponses json.RawMessage `json:"inputResponses"`
	RequestState   json.RawMessage `json:"requestState"`
}

// takeAnswers hands the responses in msgs that answer the calls' requests
// to them and returns the other messages.
func (f *fastCalls) takeAnswers(msgs []jsonrpc.Message) []jsonrpc.Message {
	rest := msgs[:0:0]
	for _, m := range msgs {
		if resp, ok := m.(*jsonrpc.Response); ok && f.asks.answer(resp) {
			continue
		}
		rest = append(rest, m)
	}
	return rest
}

// take looks at a message read from a single line (not a batch), already
// tracked as unanswered. It reports whether it answers the message itself;
// if not, the SDK gets it. A call of a local builtin runs on the calling
// (reading) goroutine with onReader, before the next line is read, or
// else on a free worker of the pool.
func (f *fastCalls) take(c *lineConn, m jsonrpc.Message, onReader bool) bool {
	req, ok := m.(*jsonrpc.Request)
	if !ok {
		// The client's answer to a call's request (ask.go); the SDK's
		// own requests have other ids.
		resp, isResp := m.(*jsonrpc.Response)
		return isResp && f.asks.answer(resp)
	}
	switch req.Method {
	case "tools/call":
		if !req.IsCall() || !f.on.Load() {
			return false
		}
		var p callParams
		if json.Unmarshal(req.Params, &p) != nil || p.Name == nil || p.InputResponses != nil || p.RequestState != nil {
			return false
		}
		token, plainMeta := progressToken(p.Meta)
		if !plainMeta {
			return false
		}
		f.srv.mu.RLock()
		t := f.srv.tools[*p.Name]
		f.srv.mu.RUnlock()
		if t == nil {
			// The SDK answers: an unknown tool, or one of its own (get_tool_info).
			return false
		}
		ctx, cancel := context.WithCancel(f.ctx)
		f.mu.Lock()
		if _, dup := f.running[req.ID]; dup {
			// A reused id in flight: let the SDK sort it out.
			f.mu.Unlock()
			cancel()
			return false
		}
		f.running[req.ID] = cancel
		protocol := f.protocol
		f.mu.Unlock()
		id, name, args := req.ID, *p.Name, p.Arguments
		if !t.local {
			// What the tool reports goes out as notifications (notify.go).
			ctx = run.WithReporter(ctx, &sender{token: token, level: f.logLevel, send: func(method string, params any) {
				if data, err := notification(method, params); err == nil {
					_ = c.writeRaw(data)
				}
			}})
			ctx = run.WithAsker(ctx, f.asker(c))
		}
		switch {
		case t.local && onReader:
			f.answer(c, ctx, id, name, args, protocol, true)
		case t.local && f.srv.pool.try(func() { f.answer(c, ctx, id, name, args, protocol, true) }):
			// A free worker answers it.
		default:
			go f.answer(c, ctx, id, name, args, protocol, false)
		}
		return true
	case "logging/setLevel":
		// The SDK answers it and keeps the level for its own calls; the
		// direct path keeps it for its calls' log messages.
		var p struct {
			Level string `json:"level"`
		}
		if req.IsCall() && json.Unmarshal(req.Params, &p) == nil && run.LogLevel(p.Level) >= 0 {
			f.mu.Lock()
			f.level = p.Level
			f.mu.Unlock()
		}
	case "initialize":
		if !req.IsCall() {
			return false
		}
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
			Capabilities    struct {
				Sampling    json.RawMessage `json:"sampling"`
				Elicitation json.RawMessage `json:"elicitation"`
			} `json:"capabilities"`
		}
		err := json.Unmarshal(req.Params, &p)
		if err == nil && p.ProtocolVersion >= resultTypeProtocol {
			// The SDK answers an initialize of 2026-07-28 or later (or of
			// a revision it does not know) with 2025-11-25 — the stateless
			// revisions begin with server/discover — but goes on serving
			// the session as of the revision asked for (resultType,
			// input_required results, any structuredContent), which the
			// client, now speaking 2025-11-25, cannot read. It is asked
			// for what it will answer.
			if params, ok := withProtocolVersion(req.Params, newestLegacyProtocol); ok {
				req.Params, p.ProtocolVersion = params, newestLegacyProtocol
			}
		}
		f.mu.Lock()
		if !f.initSeen {
			// The SDK keeps the first initialize's params; a later one is refused.
			f.initSeen, f.initID, f.protocol, f.initBad = true, req.ID, p.ProtocolVersion, err != nil
			f.canSample = declared(p.Capabilities.Sampling)
			f.canElicit = declared(p.Capabilities.Elicitation)
		}
		f.mu.Unlock()
	case "notifications/initialized":
		if !req.IsCall() {
			f.mu.Lock()
			f.notified = true
			f.update()
			f.mu.Unlock()
		}
	case "notifications/cancelled":
		// The SDK sees it too (for its own calls); this cancels ours.
		var p struct {
			RequestID any `json:"requestId"`
		}
		if req.IsCall() || json.Unmarshal(req.Params, &p) != nil {
			return false
		}
		id, err := jsonrpc.MakeID(p.RequestID)
		if err != nil {
			return false
		}
		f.mu.Lock()
		cancel := f.running[id]
		f.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}
	return false
}

// newestLegacyProtocol is the revision the SDK answers an initialize of a
// later or unknown revision with.
const newestLegacyProtocol = "2025-11-25"

// withProtocolVersion is initialize params with protocolVersion set to v.
func withProtocolVersion(params json.RawMessage, v string) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(params, &m) != nil || m == nil {
		return nil, false
	}
	m["protocolVersion"], _ = json.Marshal(v)
	out, err := json.Marshal(m)
	return out, err == nil
}

// sent sees the responses the SDK writes, for the one to initialize.
func (f *fastCalls) sent(resp *jsonrpc.Response) {
	if f.on.Load() {
		return
	}
	f.mu.Lock()
	if f.initSeen && resp.ID == f.initID && resp.Error == nil {
		f.initOK = true
		f.update()
	}
	f.mu.Unlock()
}

// update turns the direct path on; f.mu is held.
func (f *fastCalls) update() {
	if f.initOK && f.notified && !f.initBad && f.protocol < resultTypeProtocol {
		f.on.Store(true)
	}
}

// answer runs one intercepted call and writes its response as the SDK
// would: Server.call's result or error, marshaled as its jsonrpc2 does.
func (f *fastCalls) answer(c *lineConn, ctx context.Context, id jsonrpc.ID, name string, args json.RawMessage, protocol string, here bool) {
	res, raw, err := f.srv.call(ctx, name, args, protocol, here)
	f.mu.Lock()
	cancel := f.running[id]
	// Removed before the response is written: the client may reuse the id then.
	delete(f.running, id)
	f.mu.Unlock()
	cancel()
	c.Write(context.Background(), callResponse(id, res, raw, err))
}

// callResponse is the response to the tools/call of id that Server.call
// answered with res, raw and err, as the SDK's jsonrpc2 would write it:
// the error, an MCP server's result as that server sent it (raw), or res
// marshaled. The stdio and HTTP direct paths both answer with it.
func callResponse(id jsonrpc.ID, res *sdk.CallToolResult, raw json.RawMessage, err error) *jsonrpc.Response {
	resp := &jsonrpc.Response{ID: id, Error: err}
	switch {
	case err != nil:
	case raw != nil:
		resp.Result = raw
	default:
		data, merr := marshalResult(res)
		if merr != nil {
			resp.Error = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "marshaling the result: " + merr.Error()}
		} else {
			resp.Result = data
		}
	}
	return resp
}

func (f *fastCalls) close() { f.cancel() }

// declared tells whether a capability is declared: present and not null.
func declared(v json.RawMessage) bool { return len(v) > 0 && string(v) != "null" }
