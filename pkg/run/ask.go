package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"
)

// A tool may ask the MCP client its call came from (README "Asking the
// client"): for a completion from the client's model (sampling/
// createMessage, 2025-06-18 client/sampling) or for input from its user
// (elicitation/create, client/elicitation). javascript tools call
// ctx.sample and ctx.elicit, python tools the same methods of their ctx.
// serve sends the request to its client and hands back the answer; mcp
// entries pass their server's requests on to it the same way.

// Methods a tool may send to the client.
const (
	MethodSample = "sampling/createMessage"
	MethodElicit = "elicitation/create"
)

// Asker sends a request to the client of a call and returns its result.
// serve gives one to each call whose client can be asked.
type Asker interface {
	// Ask sends method (MethodSample or MethodElicit) with params, a JSON
	// object, and returns the client's result; an error the client
	// answered is an *AskError.
	Ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
}

// AskError is the error a client answered to a request.
type AskError struct {
	Method  string
	Code    int64
	Message string
}

func (e *AskError) Error() string {
	if e.Code == 0 {
		return fmt.Sprintf("the client answered %s with an error: %s", e.Method, e.Message)
	}
	return fmt.Sprintf("the client answered %s with an error: %s (code %d)", e.Method, e.Message, e.Code)
}

type askerKey struct{}

// WithAsker returns ctx carrying a: a call run with it may ask a's client.
func WithAsker(ctx context.Context, a Asker) context.Context {
	return context.WithValue(ctx, askerKey{}, a)
}

// AskerFrom is the Asker ctx carries, nil if none.
func AskerFrom(ctx context.Context) Asker { return askerFrom(ctx) }

func askerFrom(ctx context.Context) Asker {
	a, _ := ctx.Value(askerKey{}).(Asker)
	return a
}

// Bounds on a call's requests to the client: each one waits for a model
// or a person, so a tool that loops on them must not run up a bill.
const (
	maxAsks       = 100
	maxAskParams  = 1 << 20 // bytes of a request's params
	maxAskResult  = 4 << 20 // bytes of the client's answer
	errNoAskerMsg = "there is no MCP client to ask (toolctl run asks the person at the terminal only when stdin and stderr are terminals): serve the tool to an MCP client that supports %s, or test it with the client's answers in an example's expect.client"
)

// asks is a call's way to its client, with the bounds and the redaction.
type asks struct {
	to      Asker
	secrets *Secrets
	n       atomic.Int64
	waiting atomic.Pointer[string] // the method of the request waiting for its answer
}

// waitingFor is what a call that ended was doing if it waited for the
// client's answer then ("" if not): a timeout message says so, rather
// than blame the tool's code.
func (c *Call) waitingFor() string {
	if c.asks == nil {
		return ""
	}
	if m := c.asks.waiting.Load(); m != nil {
		return "it was waiting for the client's answer to " + *m
	}
	return ""
}

// ask sends method and params (a JSON object) on behalf of the tool.
// Secrets the call substituted are redacted from the request, as from
// its log messages: the client's model or user must not see them.
func (c *Call) ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if method != MethodSample && method != MethodElicit {
		return nil, fmt.Errorf("a tool may send %s or %s to the client, not %q", MethodSample, MethodElicit, method)
	}
	a := c.asks
	if a == nil || a.to == nil {
		return nil, fmt.Errorf(errNoAskerMsg, Capabilities[method])
	}
	if a.n.Add(1) > maxAsks {
		return nil, fmt.Errorf("the tool sent more than %d requests to the client in one call", maxAsks)
	}
	if len(params) > maxAskParams {
		return nil, fmt.Errorf("the %s request is %s, more than the %s a request to the client may have", method, ByteSize(len(params)), ByteSize(maxAskParams))
	}
	var v any
	if err := decodeExact(params, &v); err != nil {
		return nil, fmt.Errorf("the %s params are not JSON: %v", method, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, params); err == nil {
		params = compact.Bytes()
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("the %s params must be a JSON object", method)
	}
	if a.secrets != nil {
		var err error
		if params, err = redactParams(a.secrets, params, v); err != nil {
			return nil, err
		}
	}
	a.waiting.Store(&method)
	if ctx.Err() != nil {
		// The call is over: nothing to ask the client for.
		return nil, fmt.Errorf("the call ended before %s could be sent to the client", method)
	}
	res, err := a.to.Ask(ctx, method, params)
	if ctx.Err() == nil {
		// At the call's end the wait stays noted for its error message.
		a.waiting.Store(nil)
	}
	if err != nil {
		var ae *AskError
		if errors.As(err, &ae) {
			return nil, ae
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("the call ended while waiting for the client's answer to %s", method)
		}
		return nil, err
	}
	if len(res) > maxAskResult {
		return nil, fmt.Errorf("the client's answer to %s is %s, more than the %s toolctl accepts", method, ByteSize(len(res)), ByteSize(maxAskResult))
	}
	if err := CheckAnswer(method, res); err != nil {
		return nil, err
	}
	return res, nil
}

// CheckAnswer refuses a client's answer that is not the result MCP
// defines for method (expect.client holds an example's answers to the
// same rules): a sampling result has content (an object, or a list of
// them), an elicitation result an action of accept, decline or cancel
// and content only as an object. The tool gets the error where it would
// have got the answer, instead of a value its code does not expect (the
// client may be anything; the SDK's session refuses such answers too).
func CheckAnswer(method string, res json.RawMessage) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(res, &m); err != nil || m == nil {
		return fmt.Errorf("the client's answer to %s is not a JSON object: %s", method, showAnswer(res))
	}
	isObject := func(raw json.RawMessage) bool {
		raw = bytes.TrimSpace(raw)
		return len(raw) > 0 && raw[0] == '{'
	}
	if method == MethodSample {
		content := bytes.TrimSpace(m["content"])
		ok := isObject(content)
		if len(content) > 0 && content[0] == '[' {
			var items []json.RawMessage
			ok = json.Unmarshal(content, &items) == nil && len(items) > 0
			for _, it := range items {
				ok = ok && isObject(it)
			}
		}
		if !ok {
			return fmt.Errorf("the client's answer to %s has no content (an object such as {\"type\": \"text\", \"text\": ...}): %s", method, showAnswer(res))
		}
		return nil
	}
	var action string
	if json.Unmarshal(m["action"], &action) != nil || action != "accept" && action != "decline" && action != "cancel" {
		return fmt.Errorf("the client's answer to %s has no action of accept, decline or cancel: %s", method, showAnswer(res))
	}
	if content, ok := m["content"]; ok && string(bytes.TrimSpace(content)) != "null" && !isObject(content) {
		return fmt.Errorf("the client's answer to %s has content that is not an object: %s", method, showAnswer(res))
	}
	return nil
}

// redactParams is params (decoded: v) without the call's secrets. Params
// without any are kept as written, their key order too (a form's fields
// come in the order of its properties); else the text is redacted if that
// leaves valid JSON with no secret in it, or the value re-encoded.
func redactParams(secrets *Secrets, params json.RawMessage, v any) (json.RawMessage, error) {
	clean := secrets.RedactValue(v)
	if reflect.DeepEqual(clean, v) {
		return params, nil
	}
	if text := json.RawMessage(secrets.Redact(string(params))); json.Valid(text) {
		var again any
		if decodeExact(text, &again) == nil && reflect.DeepEqual(secrets.RedactValue(again), again) {
			return text, nil
		}
	}
	return MarshalJSON(clean)
}

// Capabilities are the client capability each request method needs,
// which is also the name of its list in an example's expect.client.
var Capabilities = map[string]string{MethodSample: "sampling", MethodElicit: "elicitation"}

// showAnswer is the start of an answer, for an error message.
func showAnswer(res json.RawMessage) string {
	const max = 200
	if len(res) <= max {
		return string(res)
	}
	cut := max
	for cut > 0 && res[cut]&0xC0 == 0x80 {
		cut--
	}
	return string(res[:cut]) + "…"
}
