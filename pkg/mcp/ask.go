package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/run"
)

// A served tool's requests to the client (run.Asker: ctx.sample,
// ctx.elicit) go out on the path its call came in, as the notifications
// do (notify.go): the SDK's session sends them for the calls it answers;
// the stdio direct path writes them on the connection and takes the
// client's response out of what it reads; the HTTP direct path writes
// them on the call's event stream, and the client POSTs its response
// (2025-06-18 basic/transports: "The server MAY send JSON-RPC requests
// and notifications before sending the JSON-RPC response"). A stateless
// server has no session to tie that POST to the call, so the request's
// id is an unguessable token: only the client that got the stream can
// answer it.

// askIDPrefix starts the ids of the requests the direct paths send; the
// SDK's own requests have numeric ids.
const askIDPrefix = "toolctl-"

// maxPendingAsks bounds the requests waiting for an answer on a server.
const maxPendingAsks = 4096

// pendingAsks are the requests sent to clients and not yet answered.
type pendingAsks struct {
	mu      sync.Mutex
	waiting map[string]chan *jsonrpc.Response
}

// ask sends method with params through send (one JSON-RPC message's
// bytes) and waits for the answer or ctx's end; on the end it tells the
// client to stop (notifications/cancelled).
func (p *pendingAsks) ask(ctx context.Context, send func([]byte) error, method string, params json.RawMessage) (json.RawMessage, error) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	key := askIDPrefix + hex.EncodeToString(b[:])
	id, err := jsonrpc.MakeID(key)
	if err != nil {
		return nil, err
	}
	ch := make(chan *jsonrpc.Response, 1)
	p.mu.Lock()
	if p.waiting == nil {
		p.waiting = map[string]chan *jsonrpc.Response{}
	}
	if len(p.waiting) >= maxPendingAsks {
		p.mu.Unlock()
		return nil, fmt.Errorf("%d requests to clients are waiting for an answer already; try again later", maxPendingAsks)
	}
	p.waiting[key] = ch
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.waiting, key)
		p.mu.Unlock()
	}()
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Request{ID: id, Method: method, Params: params})
	if err != nil {
		return nil, err
	}
	if err := send(data); err != nil {
		return nil, fmt.Errorf("sending %s to the client: %w", method, err)
	}
	select {
	case resp := <-ch:
		return askResult(method, resp)
	case <-ctx.Done():
		if n, err := notification("notifications/cancelled", map[string]any{"requestId": key, "reason": "the tool's call ended"}); err == nil {
			_ = send(n)
		}
		return nil, ctx.Err()
	}
}

// askResult is the result of the client's response, or its error as a
// *run.AskError.
func askResult(method string, resp *jsonrpc.Response) (json.RawMessage, error) {
	if resp.Error != nil {
		ae := &run.AskError{Method: method, Code: -32603, Message: resp.Error.Error()}
		var we *jsonrpc.Error
		if errors.As(resp.Error, &we) {
			ae.Code, ae.Message = we.Code, we.Message
		}
		return nil, ae
	}
	if len(resp.Result) == 0 || !json.Valid(resp.Result) {
		return nil, &run.AskError{Method: method, Code: -32603, Message: "the response has no valid result"}
	}
	return resp.Result, nil
}

// answer hands resp to the request waiting for it; false when none is
// (not one of ours, answered already, or given up).
func (p *pendingAsks) answer(resp *jsonrpc.Response) bool {
	key, ok := resp.ID.Raw().(string)
	if !ok || !strings.HasPrefix(key, askIDPrefix) {
		return false
	}
	p.mu.Lock()
	ch := p.waiting[key]
	delete(p.waiting, key)
	p.mu.Unlock()
	if ch == nil {
		return false
	}
	ch <- resp
	return true
}

// refuseMalformed fails the requests that data (a message or a batch the
// transport refused as malformed) holds a response to: a response with
// one of our ids whose "error" is not an object, or without a result,
// fails its request at once, saying why, instead of leaving the tool
// waiting until its timeout for an answer that will not come.
func (p *pendingAsks) refuseMalformed(data []byte) {
	data = bytes.TrimSpace(data)
	// data may be the reader's buffer: it is only read (json.Unmarshal
	// into a RawMessage holding it would write into it).
	var raws []json.RawMessage
	if len(data) > 0 && data[0] == '[' {
		if json.Unmarshal(data, &raws) != nil {
			return
		}
	} else {
		raws = []json.RawMessage{data}
	}
	for _, raw := range raws {
		var w wireMessage
		if json.Unmarshal(raw, &w) != nil || w.Method != nil {
			continue
		}
		key, ok := jsonString(w.ID)
		if !ok || !strings.HasPrefix(key, askIDPrefix) {
			continue
		}
		_, e := checkMessage(&w)
		if e == nil {
			continue
		}
		if id, err := jsonrpc.MakeID(key); err == nil {
			p.answer(&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: codeInvalidRequest, Message: "its response is malformed (" + e.msg + ")"}})
		}
	}
}

// askFunc is a run.Asker.
type askFunc func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)

func (f askFunc) Ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	return f(ctx, method, params)
}

// sdkAsker asks through the SDK's session of req: a stdio client, or a
// stateful one. A stateless HTTP session cannot send requests; the
// calls the HTTP direct path leaves to the SDK get the SDK's refusal.
func sdkAsker(req *sdk.CallToolRequest) run.Asker {
	ss := req.Session
	if ss == nil {
		return nil
	}
	return askFunc(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		ir, err := inputRequest(method, params)
		if err != nil {
			return nil, err
		}
		var res any
		switch p := ir.(type) {
		case *sdk.CreateMessageWithToolsParams:
			res, err = ss.CreateMessageWithTools(ctx, p)
		case *sdk.ElicitParams:
			res, err = ss.Elicit(ctx, p)
		}
		if err != nil {
			var we *jsonrpc.Error
			if errors.As(err, &we) {
				return nil, &run.AskError{Method: method, Code: we.Code, Message: we.Message}
			}
			if strings.Contains(err.Error(), "stateless") {
				return nil, fmt.Errorf("this request cannot ask the client: %v (toolctl serve --http asks the client on the calls it answers itself: a tools/call whose _meta holds at most a progressToken, of protocol 2025-11-25 or earlier)", err)
			}
			return nil, err
		}
		return json.Marshal(res)
	})
}

// inputRequest decodes a tool's request to the client into the SDK's
// params of method: *sdk.CreateMessageWithToolsParams or *sdk.ElicitParams.
func inputRequest(method string, params json.RawMessage) (sdk.InputRequest, error) {
	var ir sdk.InputRequest
	switch method {
	case run.MethodSample:
		ir = &sdk.CreateMessageWithToolsParams{}
	case run.MethodElicit:
		ir = &sdk.ElicitParams{}
	default:
		return nil, fmt.Errorf("cannot send %s", method)
	}
	if err := json.Unmarshal(params, ir); err != nil {
		return nil, fmt.Errorf("the %s params do not fit the MCP schema: %v", method, err)
	}
	return ir, nil
}
