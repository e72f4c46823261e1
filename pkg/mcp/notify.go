package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/run"
)

// What a tool reports while it runs (run.Reporter: ctx.progress,
// ctx.log, a command's "##toolctl" stderr lines) goes to the client as
// notifications: notifications/progress when the request carried a
// progressToken, notifications/message at or above the session's
// logging/setLevel level. Each of the three paths a call takes has its
// reporter: the SDK's (its session sends them, and applies the level),
// the stdio direct path (fastcall.go: written on the connection, with the
// level it saw set) and the HTTP direct path (httpfast.go: the response
// becomes an event stream at the first notification).

// sender is a reporter that hands each notification to send, with the
// request's progress token (nil: no progress is sent) and the lowest log
// level sent (level() "" sends none).
type sender struct {
	token any
	level func() string
	send  func(method string, params any)
}

func (s *sender) Progress(p run.Progress) {
	if s.token == nil {
		return
	}
	s.send("notifications/progress", &sdk.ProgressNotificationParams{ProgressToken: s.token, Progress: p.Progress, Total: p.Total, Message: p.Message})
}

func (s *sender) Log(m run.LogMessage) {
	min := s.level()
	if min == "" || run.LogLevel(m.Level) < run.LogLevel(min) {
		return
	}
	s.send("notifications/message", &sdk.LoggingMessageParams{Level: sdk.LoggingLevel(m.Level), Logger: m.Logger, Data: m.Data})
}

// sdkReporter sends a call's reports through the SDK's session of req.
func sdkReporter(ctx context.Context, req *sdk.CallToolRequest) run.Reporter {
	ss := req.Session
	if ss == nil {
		return nil
	}
	var token any
	if req.Params != nil {
		token = req.Params.GetProgressToken()
	}
	return &sender{
		token: token,
		// The session applies the level set with logging/setLevel.
		level: func() string { return "debug" },
		send: func(method string, params any) {
			switch p := params.(type) {
			case *sdk.ProgressNotificationParams:
				_ = ss.NotifyProgress(ctx, p)
			case *sdk.LoggingMessageParams:
				_ = ss.Log(ctx, p)
			}
		},
	}
}

// notification is a JSON-RPC notification's bytes.
func notification(method string, params any) ([]byte, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	return jsonrpc.EncodeMessage(&jsonrpc.Request{Method: method, Params: raw})
}

// progressToken reads the _meta of a tools/call the direct paths take:
// the progress token when _meta holds nothing else; ok false for any
// other _meta, which the SDK handles.
func progressToken(meta json.RawMessage) (token any, ok bool) {
	if meta == nil {
		return nil, true
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(meta, &m) != nil || len(m) != 1 || m["progressToken"] == nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(m["progressToken"]))
	dec.UseNumber()
	if dec.Decode(&token) != nil {
		return nil, false
	}
	switch t := token.(type) {
	case string:
		return t, true
	case json.Number:
		if n, err := t.Int64(); err == nil {
			return n, true
		}
	}
	return nil, false
}

// streamWriter answers one HTTP tools/call: with a plain JSON response
// when the tool reports nothing, else with an event stream (the
// Streamable HTTP transport lets a server answer a POST either way; the
// client accepts both) that carries the notifications as they come and
// then the response.
type streamWriter struct {
	mu     sync.Mutex
	w      http.ResponseWriter
	stream bool // the event stream has started
	done   bool // the response was written: later notifications are dropped
}

// notify writes one notification, starting the stream if need be.
func (s *streamWriter) notify(method string, params any) {
	data, err := notification(method, params)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.start()
	s.event(data)
}

// message writes one JSON-RPC message (a request to the client) as an
// event, starting the stream if need be; an error once the response is
// written.
func (s *streamWriter) message(data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return errors.New("the call's response was written")
	}
	s.start()
	s.event(data)
	return nil
}

// start starts the event stream; s.mu is held.
func (s *streamWriter) start() {
	if s.stream {
		return
	}
	h := s.w.Header()
	h["Cache-Control"] = cacheControl
	h["Content-Type"] = []string{"text/event-stream"}
	s.w.WriteHeader(http.StatusOK)
	s.stream = true
}

// event writes one SSE event and flushes it; s.mu is held.
func (s *streamWriter) event(data []byte) {
	var b bytes.Buffer
	b.WriteString("event: message\ndata: ")
	b.Write(data)
	b.WriteString("\n\n")
	_, _ = s.w.Write(b.Bytes())
	_ = http.NewResponseController(s.w).Flush()
}

// finish writes the response: as the last event of a stream, or as the
// JSON body when nothing was streamed.
func (s *streamWriter) finish(body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	if s.stream {
		s.event(body)
		return
	}
	h := s.w.Header()
	h["Cache-Control"] = cacheControl
	h["Content-Type"] = contentJSON
	s.w.WriteHeader(http.StatusOK)
	_, _ = s.w.Write(body)
}

// isCall tells whether req is a tools/call request: one the direct path
// leaves to the SDK is answered with an event stream, which carries what
// the tool reports while it runs (a JSON response has nowhere to put it).
func isCall(req *jsonrpc.Request) bool {
	return req.Method == "tools/call" && req.IsCall()
}

// wantsProgress tells whether req is a tools/call whose _meta holds a
// progressToken. With httpSDKOnly (tests comparing the direct path with
// the SDK's JSON answers) only those calls get the event stream.
func wantsProgress(req *jsonrpc.Request) bool {
	if !isCall(req) {
		return false
	}
	var p struct {
		Meta struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	return json.Unmarshal(req.Params, &p) == nil && len(p.Meta.ProgressToken) > 0 && string(p.Meta.ProgressToken) != "null"
}
