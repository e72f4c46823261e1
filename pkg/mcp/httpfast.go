package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolctl/toolctl/pkg/run"
)

// The Streamable HTTP endpoint answers plain tools/call requests itself,
// as the stdio transport does (fastcall.go). The SDK's stateless handler
// builds a session for every request (Server.Connect, its state, a
// transport and its streams), reads the body again, decodes the message
// three times with a decoder that allocates 32 KB each time and encodes
// the result through reflection: most of an HTTP call's CPU. A stateless
// tools/call needs none of it: the call is the same code as the SDK's
// handler (Server.call) and the response the same bytes, status and
// headers (TestHTTPDirectMatchesSDK).
//
// Only what the SDK would accept and answer with one JSON response is
// taken: a POST whose body is one tools/call request (params: name,
// arguments and a _meta holding only a progressToken) of a served tool, Content-Type application/json, an
// Accept that takes JSON and event streams, a protocol version header
// naming a revision before 2026-07-28 (or none: 2025-03-26) and, on a
// loopback listener, a loopback Host. Everything else goes to the SDK.

// legacyProtocols are the revisions the direct path answers (the SDK's
// own answer to a request of 2026-07-28 or later carries more).
var legacyProtocols = map[string]bool{"2024-11-05": true, "2025-03-26": true, "2025-06-18": true, "2025-11-25": true}

// plainCall is a POST body that is one tools/call request, decoded in one
// pass (parseBody and then the params would be two).
type plainCall struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  callParams      `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// tryDirect answers body when it is a plain tools/call the direct path
// takes; it reports whether it did. Anything else, malformed messages
// included, is left to checkRPC's validation and the SDK.
func (s *Server) tryDirect(w http.ResponseWriter, r *http.Request, body []byte) bool {
	if s.httpSDKOnly {
		return false
	}
	id, p, ok := plainCallOf(body)
	return ok && s.direct(w, r, id, p)
}

// plainCallOf decodes body when it is one tools/call request with a
// valid id: the id, its params and true.
func plainCallOf(body []byte) (jsonrpc.ID, *callParams, bool) {
	if !bytes.Contains(body, []byte(`"tools/call"`)) {
		return jsonrpc.ID{}, nil, false
	}
	var m plainCall
	if json.Unmarshal(body, &m) != nil || m.JSONRPC != "2.0" || m.Method != "tools/call" || m.Result != nil || m.Error != nil {
		return jsonrpc.ID{}, nil, false
	}
	id, ok, msg := parseID(m.ID)
	if !ok || msg != "" || !id.IsValid() {
		return jsonrpc.ID{}, nil, false
	}
	return id, &m.Params, true
}

// directCall answers req, the one message of a POST, when it can; it
// reports whether it did.
func (s *Server) directCall(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request) bool {
	if s.httpSDKOnly || req.Method != "tools/call" || !req.IsCall() {
		return false
	}
	var p callParams
	if json.Unmarshal(req.Params, &p) != nil {
		return false
	}
	return s.direct(w, r, req.ID, &p)
}

// direct answers the tools/call of id with params p, when the direct path
// takes it.
func (s *Server) direct(w http.ResponseWriter, r *http.Request, id jsonrpc.ID, p *callParams) bool {
	t, protocol, token, ok := s.takesDirect(r.Header, r.Host, r.Context().Value(http.LocalAddrContextKey), p)
	if !ok {
		return false
	}
	// The connection's goroutine is long-lived (keep-alive): a local
	// builtin runs here rather than on the pool. The request's context
	// ends the call when the client goes away.
	// What the tool reports turns the response into an event stream
	// (notify.go); a stateless request's log level is info, as the SDK's.
	sw := &streamWriter{w: w}
	ctx := run.WithReporter(r.Context(), &sender{token: token, level: func() string { return "info" }, send: sw.notify})
	// Its requests to the client (ctx.sample, ctx.elicit) go on the same
	// stream; the client POSTs the answers (checkRPC).
	ctx = run.WithAsker(ctx, askFunc(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		return s.httpAsks.ask(ctx, sw.message, method, params)
	}))
	sw.finish(s.directAnswer(ctx, id, t, p, protocol))
	return true
}

// takesDirect tells whether the direct path takes a tools/call with params
// p, sent with headers h and Host host to a listener at local (the
// request's http.LocalAddrContextKey value); it returns the tool, the
// protocol revision and the progress token.
func (s *Server) takesDirect(h http.Header, host string, local any, p *callParams) (t *tool, protocol string, token any, ok bool) {
	protocol = h.Get("Mcp-Protocol-Version")
	if protocol == "" {
		protocol = "2025-03-26" // the SDK's assumption
	} else if !legacyProtocols[protocol] {
		return nil, "", nil, false
	}
	if jsonOK, streamOK := accepts(h.Values("Accept")); !jsonOK || !streamOK {
		return nil, "", nil, false
	}
	if !hostAllowedAt(local, host) {
		return nil, "", nil, false
	}
	token, plainMeta := progressToken(p.Meta)
	if p.Name == nil || !plainMeta || p.InputResponses != nil || p.RequestState != nil {
		return nil, "", nil, false
	}
	s.mu.RLock()
	t = s.tools[*p.Name]
	s.mu.RUnlock()
	if t == nil {
		return nil, "", nil, false // an unknown tool, or get_tool_info: the SDK answers
	}
	return t, protocol, token, true
}

// directAnswer runs the call and returns the response's JSON.
func (s *Server) directAnswer(ctx context.Context, id jsonrpc.ID, t *tool, p *callParams, protocol string) []byte {
	res, raw, err := s.call(ctx, t.name, p.Arguments, protocol, true)
	body, err := encodeResponse(callResponse(id, res, raw, err))
	if err != nil {
		body = errorResponse(id.Raw(), codeInternalError, "encoding the response: "+err.Error())
	}
	return body
}

var (
	cacheControl = []string{"no-cache, no-transform"}
	contentJSON  = []string{"application/json"}
)

// accepts reads Accept as the SDK does (streamableAccepts).
func accepts(values []string) (jsonOK, streamOK bool) {
	for _, value := range values {
		for rest := value; rest != ""; {
			var raw string
			raw, rest, _ = strings.Cut(rest, ",")
			base, _, _ := strings.Cut(strings.TrimSpace(raw), ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK, streamOK
}

// hostAllowed is the SDK's DNS-rebinding check: a request to a loopback
// listener must name a loopback host.
func hostAllowed(r *http.Request) bool {
	return hostAllowedAt(r.Context().Value(http.LocalAddrContextKey), r.Host)
}

// hostAllowedAt is hostAllowed for a request with Host host to a listener
// at local.
func hostAllowedAt(local any, host string) bool {
	switch local := local.(type) {
	case *net.TCPAddr: // the usual listener: no string to build and parse
		return !local.IP.IsLoopback() || isLoopback(host)
	case net.Addr:
		return !isLoopback(local.String()) || isLoopback(host)
	}
	return true
}

func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
