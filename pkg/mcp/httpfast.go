package mcp

import (
	"encoding/json"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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
// taken: a POST whose body is one tools/call request (params: name and
// arguments only) of a served tool, Content-Type application/json, an
// Accept that takes JSON and event streams, a protocol version header
// naming a revision before 2026-07-28 (or none: 2025-03-26) and, on a
// loopback listener, a loopback Host. Everything else goes to the SDK.

// legacyProtocols are the revisions the direct path answers (the SDK's
// own answer to a request of 2026-07-28 or later carries more).
var legacyProtocols = map[string]bool{"2024-11-05": true, "2025-03-26": true, "2025-06-18": true, "2025-11-25": true}

// directCall answers req, the one message of a POST, when it can; it
// reports whether it did.
func (s *Server) directCall(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request) bool {
	if s.httpSDKOnly || req.Method != "tools/call" || !req.IsCall() {
		return false
	}
	protocol := r.Header.Get("Mcp-Protocol-Version")
	if protocol == "" {
		protocol = "2025-03-26" // the SDK's assumption
	} else if !legacyProtocols[protocol] {
		return false
	}
	if jsonOK, streamOK := accepts(r.Header.Values("Accept")); !jsonOK || !streamOK {
		return false
	}
	if !hostAllowed(r) {
		return false
	}
	var p callParams
	if json.Unmarshal(req.Params, &p) != nil || p.Name == nil || p.Meta != nil || p.InputResponses != nil || p.RequestState != nil {
		return false
	}
	s.mu.RLock()
	_, ours := s.tools[*p.Name]
	s.mu.RUnlock()
	if !ours {
		return false // an unknown tool, or get_tool_info: the SDK answers
	}
	// The connection's goroutine is long-lived (keep-alive): a local
	// builtin runs here rather than on the pool. The request's context
	// ends the call when the client goes away.
	res, raw, err := s.call(r.Context(), *p.Name, p.Arguments, protocol, true)
	resp := &jsonrpc.Response{ID: req.ID, Error: err}
	switch {
	case err != nil:
	case raw != nil:
		resp.Result = raw
	default:
		data, merr := marshalResult(res)
		if merr != nil {
			resp.Error = &jsonrpc.Error{Code: codeInternalError, Message: "marshaling the result: " + merr.Error()}
		} else {
			resp.Result = data
		}
	}
	body, err := encodeResponse(resp)
	if err != nil {
		body = errorResponse(req.ID.Raw(), codeInternalError, "encoding the response: "+err.Error())
	}
	h := w.Header()
	h["Cache-Control"] = cacheControl
	h["Content-Type"] = contentJSON
	w.WriteHeader(http.StatusOK)
	w.Write(body)
	return true
}

var (
	cacheControl = []string{"no-cache, no-transform"}
	contentJSON  = []string{"application/json"}
)

// accepts reads Accept as the SDK does (streamableAccepts).
func accepts(values []string) (jsonOK, streamOK bool) {
	for _, value := range values {
		for _, raw := range strings.Split(value, ",") {
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
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil {
		return true
	}
	return !isLoopback(local.String()) || isLoopback(r.Host)
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
