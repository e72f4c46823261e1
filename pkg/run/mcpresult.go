package run

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPResult is what a call of an mcp entry returns: the server's
// CallToolResult as that server sent it, every content item (text, image,
// audio, resource_link, resource) with its annotations and _meta,
// structuredContent and isError. toolctl serve passes it on unchanged and
// toolctl run prints it whole (--output json) or summarised (text). Every
// other entry type returns one JSON value.
//
// An isError result is a ToolExecutionError whose Detail is the
// *MCPResult. The runner redacts it as it redacts any value: the secrets
// are replaced wherever they occur in its JSON.
type MCPResult struct {
	// Raw is the result's JSON, byte for byte as the server sent it (the
	// "result" member of its JSON-RPC response), secrets redacted.
	Raw json.RawMessage
	// Result is Raw as the SDK decodes it.
	Result *mcp.CallToolResult
}

// MarshalJSON writes the result as the server sent it.
func (m *MCPResult) MarshalJSON() ([]byte, error) { return m.Raw, nil }

// newMCPResult pairs a result with its JSON; raw nil (not seen on the
// wire) is res as the SDK writes it.
// Whitespace between tokens is removed (a pretty-printed response from an
// HTTP server must fit on one line of the stdio transport); nothing else
// changes.
func newMCPResult(raw json.RawMessage, res *mcp.CallToolResult) (*MCPResult, error) {
	if raw == nil {
		data, err := json.Marshal(res)
		if err != nil {
			return nil, err
		}
		raw = data
	} else if bytes.ContainsAny(raw, " \t\r\n") {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return nil, err
		}
		raw = b.Bytes()
	}
	return &MCPResult{Raw: raw, Result: res}, nil
}

// Value is the result as one JSON value, the way other entries return
// theirs: structuredContent when there is one; else the text of a single
// text item (kept a string even when it looks like JSON: a server that
// means structure says so with structuredContent); else the content items
// in wire form; nil without content. Numbers are json.Number.
func (m *MCPResult) Value() (any, error) {
	var w struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
	}
	if err := json.Unmarshal(m.Raw, &w); err != nil {
		return nil, err
	}
	if len(w.StructuredContent) > 0 && string(w.StructuredContent) != "null" {
		return decodeNumbers(w.StructuredContent)
	}
	if len(w.Content) == 1 && len(m.Result.Content) == 1 {
		if tc, ok := m.Result.Content[0].(*mcp.TextContent); ok {
			return tc.Text, nil
		}
	}
	if len(w.Content) == 0 {
		return nil, nil
	}
	items := make([]any, len(w.Content))
	for i, c := range w.Content {
		v, err := decodeNumbers(c)
		if err != nil {
			return nil, err
		}
		items[i] = v
	}
	return items, nil
}

func decodeNumbers(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// SDKResult is the result for an SDK server to send: Result, with
// structuredContent and every _meta value as the raw JSON the server sent
// (the SDK would decode their numbers to float64). What the SDK's content
// model does not keep is lost on that path: fields of no protocol revision
// the SDK knows, and an annotation priority of 0 (it omits a zero
// priority). Raw has everything.
func (m *MCPResult) SDKResult() *mcp.CallToolResult {
	res := *m.Result
	var w struct {
		Meta              map[string]json.RawMessage `json:"_meta"`
		Content           []json.RawMessage          `json:"content"`
		StructuredContent json.RawMessage            `json:"structuredContent"`
	}
	if json.Unmarshal(m.Raw, &w) != nil {
		return &res
	}
	if len(w.StructuredContent) > 0 && string(w.StructuredContent) != "null" {
		res.StructuredContent = w.StructuredContent
	}
	if w.Meta != nil {
		res.Meta = rawMeta(w.Meta)
	}
	if len(w.Content) == len(res.Content) {
		res.Content = make([]mcp.Content, len(m.Result.Content))
		for i, c := range m.Result.Content {
			var cw struct {
				Meta     map[string]json.RawMessage `json:"_meta"`
				Resource *struct {
					Meta map[string]json.RawMessage `json:"_meta"`
				} `json:"resource"`
			}
			res.Content[i] = c
			if json.Unmarshal(w.Content[i], &cw) != nil || (cw.Meta == nil && (cw.Resource == nil || cw.Resource.Meta == nil)) {
				continue
			}
			switch c := c.(type) {
			case *mcp.TextContent:
				x := *c
				x.Meta = rawMeta(cw.Meta)
				res.Content[i] = &x
			case *mcp.ImageContent:
				x := *c
				x.Meta = rawMeta(cw.Meta)
				res.Content[i] = &x
			case *mcp.AudioContent:
				x := *c
				x.Meta = rawMeta(cw.Meta)
				res.Content[i] = &x
			case *mcp.ResourceLink:
				x := *c
				x.Meta = rawMeta(cw.Meta)
				res.Content[i] = &x
			case *mcp.EmbeddedResource:
				x := *c
				x.Meta = rawMeta(cw.Meta)
				if x.Resource != nil && cw.Resource != nil && cw.Resource.Meta != nil {
					r := *x.Resource
					r.Meta = rawMeta(cw.Resource.Meta)
					x.Resource = &r
				}
				res.Content[i] = &x
			}
		}
	}
	return &res
}

// rawMeta is a _meta object whose values marshal to the bytes they were
// read from; nil stays nil (omitted).
func rawMeta(m map[string]json.RawMessage) mcp.Meta {
	if m == nil {
		return nil
	}
	out := make(mcp.Meta, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// redact returns the result with every form of the secrets replaced in
// its JSON. Text is replaced where it stands, so the key order and the
// numbers stay as the server wrote them. Should a secret have been found
// inside base64 data (an image of it), the data no longer decodes, and
// the result is withheld rather than passed on with the secret.
func (m *MCPResult) redact(r *redactor) any {
	s := r.Replace(string(m.Raw))
	if s == string(m.Raw) {
		return m
	}
	raw := json.RawMessage(s)
	if !json.Valid(raw) {
		// A secret that matched JSON syntax itself: redact the decoded
		// value's strings instead.
		v, err := decodeNumbers(m.Raw)
		if err != nil {
			return withheld(m)
		}
		data, err := json.Marshal(redactValue(v, r))
		if err != nil {
			return withheld(m)
		}
		raw = data
	}
	res := new(mcp.CallToolResult)
	if err := json.Unmarshal(raw, res); err != nil {
		return withheld(m)
	}
	return &MCPResult{Raw: raw, Result: res}
}

func withheld(m *MCPResult) *MCPResult {
	res := &mcp.CallToolResult{IsError: m.Result.IsError, Content: []mcp.Content{&mcp.TextContent{Text: "[the MCP server's result was withheld: a secret value occurs in its binary data]"}}}
	out, _ := newMCPResult(nil, res)
	return out
}

// Text renders the result for a terminal: text items as their text; an
// image or audio item as one line with its type and size, never its
// base64 data; a resource link as its URI and what it is; an embedded
// resource as its URI and type, then its text (a binary one by its size);
// without content, structuredContent as indented JSON. Items are
// separated by newlines. Annotations and _meta are left out: --output json
// shows everything.
func (m *MCPResult) Text() string {
	var parts []string
	for _, c := range m.Result.Content {
		parts = append(parts, contentText(c))
	}
	if len(parts) == 0 && m.Result.StructuredContent != nil {
		var w struct {
			StructuredContent json.RawMessage `json:"structuredContent"`
		}
		var b bytes.Buffer
		if json.Unmarshal(m.Raw, &w) == nil && json.Indent(&b, w.StructuredContent, "", "  ") == nil {
			parts = append(parts, b.String())
		}
	}
	return strings.Join(parts, "\n")
}

func contentText(c mcp.Content) string {
	switch c := c.(type) {
	case *mcp.TextContent:
		return strings.TrimSuffix(c.Text, "\n")
	case *mcp.ImageContent:
		return fmt.Sprintf("[image: %s, %s]", orUnknown(c.MIMEType), ByteSize(len(c.Data)))
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio: %s, %s]", orUnknown(c.MIMEType), ByteSize(len(c.Data)))
	case *mcp.ResourceLink:
		var what []string
		for _, s := range []string{c.Title, c.Name, c.MIMEType} {
			if s != "" && !containsString(what, s) {
				what = append(what, s)
			}
		}
		if c.Size != nil {
			what = append(what, ByteSize(int(*c.Size)))
		}
		line := "[resource link: " + c.URI
		if len(what) > 0 {
			line += " (" + strings.Join(what, ", ") + ")"
		}
		line += "]"
		if c.Description != "" {
			line += " " + c.Description
		}
		return line
	case *mcp.EmbeddedResource:
		r := c.Resource
		if r == nil {
			return "[resource]"
		}
		if r.Blob != nil {
			return fmt.Sprintf("[resource: %s, %s, %s]", r.URI, orUnknown(r.MIMEType), ByteSize(len(r.Blob)))
		}
		head := "[resource: " + r.URI
		if r.MIMEType != "" {
			head += ", " + r.MIMEType
		}
		return head + "]\n" + strings.TrimSuffix(r.Text, "\n")
	}
	data, _ := c.MarshalJSON()
	return string(data)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func orUnknown(mime string) string {
	if mime == "" {
		return "no MIME type"
	}
	return mime
}

// ByteSize writes n bytes for people: 512 B, 1.2 KB, 3.4 MB (1 KB = 1024 B).
func ByteSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
}

// mcpTap finds, among the JSON-RPC messages a client sends and receives,
// the tools/call request and keeps the result of its response as it came:
// the SDK decodes results into its own types, which lose what they do not
// model.
type mcpTap struct {
	// observe, when set, is told every message (Options.MCPWire).
	observe func(sent bool, data []byte)
	// notified, when set, is told how many progress and log notifications
	// a received message holds, before the SDK reads it.
	notified func(n int)

	mu     sync.Mutex
	callID jsonrpc.ID
	raw    json.RawMessage
}

// tapMessage is the part of a JSON-RPC message the tap reads.
type tapMessage struct {
	ID     any             `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
}

// messages decodes a message or a batch; nil for anything else.
func tapMessages(data []byte) []tapMessage {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	if data[0] == '[' {
		var batch []tapMessage
		if json.Unmarshal(data, &batch) != nil {
			return nil
		}
		return batch
	}
	var m tapMessage
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return []tapMessage{m}
}

// sent sees a message the client sends.
func (t *mcpTap) sent(data []byte) {
	if t != nil && t.observe != nil {
		t.observe(true, data)
	}
	if t == nil || !bytes.Contains(data, []byte(`"tools/call"`)) {
		return
	}
	for _, m := range tapMessages(data) {
		if m.Method != "tools/call" || m.ID == nil {
			continue
		}
		if id, err := jsonrpc.MakeID(m.ID); err == nil {
			t.mu.Lock()
			t.callID, t.raw = id, nil
			t.mu.Unlock()
		}
	}
}

// received sees a message the client receives.
func (t *mcpTap) received(data []byte) {
	if t != nil && t.observe != nil {
		t.observe(false, data)
	}
	if t != nil && t.notified != nil && bytes.Contains(data, []byte(`"notifications/`)) {
		n := 0
		for _, m := range tapMessages(data) {
			if m.ID == nil && (m.Method == "notifications/progress" || m.Method == "notifications/message") {
				n++
			}
		}
		if n > 0 {
			t.notified(n)
		}
	}
	if t == nil || !bytes.Contains(data, []byte(`"result"`)) {
		return
	}
	t.mu.Lock()
	want := t.callID
	t.mu.Unlock()
	if !want.IsValid() {
		return
	}
	for _, m := range tapMessages(data) {
		if m.Method != "" || m.ID == nil || len(m.Result) == 0 {
			continue
		}
		if id, err := jsonrpc.MakeID(m.ID); err == nil && id == want {
			t.mu.Lock()
			t.raw = bytes.Clone(m.Result)
			t.mu.Unlock()
		}
	}
}

// result is the tools/call result seen, nil when none was.
func (t *mcpTap) result() json.RawMessage {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.raw
}

// maxTapMessage bounds a message the tap keeps whole (the SDK's own bound
// on a stdio line); the tap skips a longer one, and the SDK refuses it.
const maxTapMessage = mcp.DefaultMaxLineLength

// lineTap passes bytes through and hands each complete line to see.
type lineTap struct {
	see  func([]byte)
	line []byte
	skip bool // the rest of a line longer than maxTapMessage
}

func (l *lineTap) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if !l.skip {
			if len(l.line)+len(chunk) > maxTapMessage {
				l.skip, l.line = true, nil
			} else {
				l.line = append(l.line, chunk...)
			}
		}
		if i < 0 {
			return
		}
		if !l.skip {
			l.see(l.line) // empty lines too: they end an SSE event
		}
		l.line, l.skip = l.line[:0], false
		p = p[i+1:]
	}
}

// tapReader and tapWriter observe a stdio server's stdout and stdin.
type tapReader struct {
	io.ReadCloser
	lines lineTap
}

func (r *tapReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	r.lines.feed(p[:n])
	return n, err
}

type tapWriter struct {
	io.WriteCloser
	mu    sync.Mutex
	lines lineTap
}

func (w *tapWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.lines.feed(p)
	w.mu.Unlock()
	return w.WriteCloser.Write(p)
}

// tapBody observes a Streamable HTTP response: a JSON body whole at its
// end, an event stream event by event (the data lines of an event joined
// with newlines, as the SSE format defines).
type tapBody struct {
	io.ReadCloser
	tap   *mcpTap
	sse   bool
	buf   []byte // JSON: the body so far
	over  bool   // JSON: longer than maxTapMessage
	lines lineTap
	event []byte // SSE: the data of the event so far
}

func newTapBody(body io.ReadCloser, contentType string, tap *mcpTap) *tapBody {
	b := &tapBody{ReadCloser: body, tap: tap, sse: strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "text/event-stream")}
	b.lines.see = b.sseLine
	return b
}

func (b *tapBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.sse {
		b.lines.feed(p[:n])
	} else if !b.over {
		if len(b.buf)+n > maxTapMessage {
			b.over, b.buf = true, nil
		} else {
			b.buf = append(b.buf, p[:n]...)
		}
		if err == io.EOF && !b.over {
			b.tap.received(b.buf)
			b.buf, b.over = nil, true
		}
	}
	return n, err
}

func (b *tapBody) sseLine(line []byte) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
		data = bytes.TrimPrefix(data, []byte(" "))
		if len(b.event) > 0 {
			b.event = append(b.event, '\n')
		}
		if len(b.event)+len(data) <= maxTapMessage {
			b.event = append(b.event, data...)
		}
		return
	}
	if len(line) == 0 && len(b.event) > 0 {
		b.tap.received(b.event)
		b.event = b.event[:0]
	}
}
