package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Validation of incoming JSON-RPC messages, for the stdio transport and
// the HTTP endpoint alike. What is malformed is answered here with the
// JSON-RPC error the specification names, rather than left to the SDK,
// which ignores some of it (a message with an id and nothing else) and
// answers the rest over HTTP with a text/plain 400:
//
//   - not JSON: -32700 parse error, id null;
//   - JSON that is not a request, notification or response object: -32600
//     invalid request, with the id when it can be read ("If there was an
//     error in detecting the id in the Request object (e.g. Parse
//     error/Invalid Request), it MUST be Null", JSON-RPC 2.0 section 5);
//   - "jsonrpc" other than "2.0", a method that is not a string, params
//     that are neither an object nor an array (JSON-RPC 2.0 section 4.2),
//     an id that is not a string or an integer, or is null ("Requests MUST
//     include a string or integer ID. Unlike base JSON-RPC, the ID MUST NOT
//     be null", MCP 2025-06-18 basic#requests), a message with an id but
//     no method, result or error: -32600;
//   - a batch is answered member by member (JSON-RPC 2.0 section 6): an
//     error for each invalid member, the valid ones run; an empty batch is
//     one -32600.

// Error codes of JSON-RPC 2.0 section 5.1.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInternalError  = -32603
)

// wireMessage is a JSON-RPC request, notification or response, each member
// as sent so that its type can be checked.
type wireMessage struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// rpcError is why a message is refused: the error response to send.
type rpcError struct {
	id   any // nil: null
	code int64
	msg  string
}

func (e *rpcError) response() []byte { return errorResponse(e.id, e.code, e.msg) }

// parseMessage decodes one JSON-RPC message. A decode failure is a parse
// error when data is not JSON, else an invalid request.
func parseMessage(data []byte) (jsonrpc.Message, *rpcError) {
	var w wireMessage
	if err := json.Unmarshal(data, &w); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) || !json.Valid(data) {
			return nil, &rpcError{nil, codeParseError, "parse error: " + err.Error()}
		}
		return nil, &rpcError{nil, codeInvalidRequest, "invalid request: a message must be a JSON object"}
	}
	return checkMessage(&w)
}

// checkMessage turns a decoded message into a request or response.
func checkMessage(w *wireMessage) (jsonrpc.Message, *rpcError) {
	id, idOK, msg := parseID(w.ID)
	var echo any // the id to answer with
	if idOK && id.IsValid() {
		echo = id.Raw()
	}
	if msg != "" {
		return nil, &rpcError{nil, codeInvalidRequest, "invalid request: " + msg}
	}
	if v, ok := jsonString(w.JSONRPC); !ok || v != "2.0" {
		got := "none"
		if len(w.JSONRPC) > 0 {
			got = string(w.JSONRPC)
		}
		return nil, &rpcError{echo, codeInvalidRequest, fmt.Sprintf(`invalid request: "jsonrpc" must be "2.0", got %s`, got)}
	}
	if w.Method != nil {
		method, ok := jsonString(w.Method)
		if !ok {
			return nil, &rpcError{echo, codeInvalidRequest, fmt.Sprintf(`invalid request: "method" must be a string, got %s`, w.Method)}
		}
		if p := bytes.TrimSpace(w.Params); len(p) > 0 && p[0] != '{' && p[0] != '[' && string(p) != "null" {
			return nil, &rpcError{echo, codeInvalidRequest, fmt.Sprintf(`invalid request: "params" of %q must be an object, got %s`, method, p)}
		}
		return &jsonrpc.Request{ID: id, Method: method, Params: w.Params}, nil
	}
	if !id.IsValid() {
		return nil, &rpcError{nil, codeInvalidRequest, `invalid request: a message needs a "method" (a request or notification), or an "id" and a "result" or "error" (a response)`}
	}
	if w.Result == nil && w.Error == nil {
		return nil, &rpcError{echo, codeInvalidRequest, `invalid request: the message has an "id" but no "method", "result" or "error": a request needs a "method"`}
	}
	resp := &jsonrpc.Response{ID: id, Result: w.Result}
	if w.Error != nil {
		var e jsonrpc.Error
		if err := json.Unmarshal(w.Error, &e); err != nil {
			return nil, &rpcError{echo, codeInvalidRequest, `invalid request: "error" must be an object with a code and a message`}
		}
		resp.Error = &e
	}
	return resp, nil
}

// maxExactID is the largest integer a float64 holds exactly.
const maxExactID = 1 << 53

// parseID reads an id: absent (ok, invalid ID), a string or an integer.
// msg says why any other value is refused.
func parseID(raw json.RawMessage) (id jsonrpc.ID, ok bool, msg string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return jsonrpc.ID{}, true, ""
	}
	switch {
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			id, err := jsonrpc.MakeID(s)
			return id, err == nil, ""
		}
	case string(raw) == "null":
		return jsonrpc.ID{}, false, `the id is null; MCP requires a string or an integer id (a notification has no "id" member)`
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			// The SDK keeps ids as float64 on the way in: a larger one
			// would be answered with another id.
			if n > maxExactID || n < -maxExactID {
				return jsonrpc.ID{}, false, fmt.Sprintf("the id %s is too large; use an integer of at most 2^53 or a string", raw)
			}
			id, err := jsonrpc.MakeID(float64(n))
			return id, err == nil, ""
		}
		return jsonrpc.ID{}, false, fmt.Sprintf("the id %s is not an integer; use a string or an integer id", raw)
	}
	return jsonrpc.ID{}, false, fmt.Sprintf("the id must be a string or an integer, got %s", truncate(string(raw), 40))
}

// jsonString reads a JSON string.
func jsonString(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// parsed is one line or HTTP body: the messages to handle, and the error
// responses of the members that were refused.
type parsed struct {
	batch  bool
	msgs   []jsonrpc.Message
	errors [][]byte
}

// parseBody decodes a message or a batch.
func parseBody(data []byte) parsed {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '[' {
		m, e := parseMessage(data)
		if e != nil {
			return parsed{errors: [][]byte{e.response()}}
		}
		return parsed{msgs: []jsonrpc.Message{m}}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return parsed{errors: [][]byte{errorResponse(nil, codeParseError, "parse error: "+err.Error())}}
	}
	if len(raws) == 0 {
		return parsed{errors: [][]byte{errorResponse(nil, codeInvalidRequest, "invalid request: empty batch")}}
	}
	p := parsed{batch: true}
	ids := map[jsonrpc.ID]bool{}
	for i, raw := range raws {
		m, e := parseMessage(raw)
		if e == nil {
			if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
				if ids[req.ID] {
					e = &rpcError{nil, codeInvalidRequest, fmt.Sprintf("invalid request: member %d of the batch uses the id %v again", i+1, idText(req.ID))}
				}
				ids[req.ID] = true
			}
		}
		if e != nil {
			p.errors = append(p.errors, e.response())
			continue
		}
		p.msgs = append(p.msgs, m)
	}
	return p
}

func idText(id jsonrpc.ID) string {
	if s, ok := id.Raw().(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(id.Raw())
}

// sdkError gives an error the SDK returned without a JSON-RPC code (which
// it would send as code 0) the code it should have. The one such error a
// client can provoke is a request before initialize: the lifecycle says
// "The client SHOULD NOT send requests other than pings before the server
// has responded to the initialize request" (MCP 2025-06-18
// basic/lifecycle#initialization), and the request is refused as an
// invalid request, -32600, as other MCP servers do (the specification
// names no code). Anything else is an internal error, -32603.
func sdkError(err error) error {
	if err == nil {
		return nil
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return err
	}
	msg := err.Error()
	if method, ok := strings.CutSuffix(msg, " is invalid during session initialization"); ok {
		method = strings.TrimPrefix(method, "method ")
		return &jsonrpc.Error{Code: codeInvalidRequest, Message: fmt.Sprintf("invalid request: %s before initialization: send initialize, then notifications/initialized, first (only ping may come before)", method)}
	}
	return &jsonrpc.Error{Code: codeInternalError, Message: msg}
}

// sdkMethods are the methods the SDK's server handles (go-sdk v1.8.0,
// mcp/server.go serverMethodInfos), true for notifications.
var sdkMethods = map[string]bool{
	"completion/complete":              false,
	"server/discover":                  false,
	"initialize":                       false,
	"ping":                             false,
	"prompts/list":                     false,
	"prompts/get":                      false,
	"tools/list":                       false,
	"tools/call":                       false,
	"resources/list":                   false,
	"resources/templates/list":         false,
	"resources/read":                   false,
	"logging/setLevel":                 false,
	"resources/subscribe":              false,
	"subscriptions/listen":             false,
	"resources/unsubscribe":            false,
	"notifications/cancelled":          true,
	"notifications/initialized":        true,
	"notifications/roots/list_changed": true,
	"notifications/progress":           true,
}

// checkMethod says why the SDK would not take a request of a method it
// does not know, or a request or notification of the wrong kind: the
// error response to send, and whether to send it at all (a notification
// of a method nobody handles is ignored, as JSON-RPC notifications are).
func checkMethod(req *jsonrpc.Request) (e *rpcError, ignore bool) {
	note, known := sdkMethods[req.Method]
	var echo any
	if req.IsCall() {
		echo = req.ID.Raw()
	}
	switch {
	case !known && req.IsCall():
		return &rpcError{echo, codeMethodNotFound, fmt.Sprintf("method not found: %q", req.Method)}, false
	case !known:
		return nil, true
	case note && req.IsCall():
		return &rpcError{echo, codeInvalidRequest, fmt.Sprintf("invalid request: %q is a notification: send it without an id", req.Method)}, false
	case !note && !req.IsCall():
		return &rpcError{nil, codeInvalidRequest, fmt.Sprintf("invalid request: %q is a request: it needs an id (a string or an integer)", req.Method)}, false
	}
	return nil, false
}
