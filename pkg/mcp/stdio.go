package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineTransport is the stdio transport: newline-delimited JSON-RPC
// messages (2025-06-18 basic/transports#stdio) on a reader and a writer.
// It does what the SDK's IOTransport does, with two differences:
//
//   - It decodes each line once with encoding/json. The SDK's reader
//     decodes a line three times (as a batch, as a message, the method)
//     with a decoder that allocates a 32 KB buffer each time: a quarter of
//     the CPU of a calculator call.
//   - A line that is not JSON-RPC gets a JSON-RPC error (-32700 parse
//     error, -32600 invalid request) and the session goes on; the SDK's
//     ends the session.
//
// Batches (JSON arrays, allowed by 2025-03-26) are answered with one array
// of the responses, as the SDK does.
type lineTransport struct {
	r    io.ReadCloser
	w    io.Writer
	srv  *Server   // when set, plain tools/call requests bypass the SDK (fastcall.go)
	conn *lineConn // set by Connect
}

// maxLine bounds one message, as the SDK's DefaultMaxLineLength does.
const maxLine = sdk.DefaultMaxLineLength

// maxInlineLine is the longest tools/call the reader answers itself
// (fastcall.go): the local builtins are linear in their input, so this
// bounds how long the next message waits to be read.
const maxInlineLine = 4 << 10

func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &lineConn{
		r:        t.r,
		w:        t.w,
		incoming: make(chan lineItem),
		closed:   make(chan struct{}),
	}
	if t.srv != nil {
		c.fast = newFastCalls(t.srv)
	}
	t.conn = c
	go c.readLoop()
	return c, nil
}

// unanswered counts the requests read and not yet answered: the calls in
// flight as the client sees them, including those whose handler has not
// started yet. A subscriptions/listen stream (2026-07-28) stays open until
// the session ends, so it does not count.
func (t *lineTransport) unanswered() int {
	if t.conn == nil {
		return 0
	}
	t.conn.wmu.Lock()
	defer t.conn.wmu.Unlock()
	return len(t.conn.calls)
}

type lineItem struct {
	msgs []jsonrpc.Message
	err  error
}

type lineConn struct {
	r io.ReadCloser
	w io.Writer

	// incoming carries what readLoop decoded; Read returns the messages of
	// a batch one by one from queue.
	incoming chan lineItem
	queue    []jsonrpc.Message

	wmu     sync.Mutex
	batches map[jsonrpc.ID]*lineBatch // guarded by wmu
	calls   map[jsonrpc.ID]bool       // requests not yet answered; guarded by wmu

	fast *fastCalls // nil: everything goes to the SDK

	closeOnce sync.Once
	closed    chan struct{}
}

// lineBatch collects the responses to the calls of one incoming batch.
type lineBatch struct {
	index     map[jsonrpc.ID]int
	responses []*jsonrpc.Response
	left      int
	errors    [][]byte // the error responses to its invalid members
}

// readLoop reads lines on its own goroutine, so that Close unblocks Read
// even while the underlying read blocks (stdin cannot be interrupted).
func (c *lineConn) readLoop() {
	br := bufio.NewReaderSize(c.r, 64<<10)
	var long []byte
	skipping := false // the rest of a line that was too long
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !skipping && len(long)+len(chunk) > maxLine {
				c.writeRaw(errorResponse(nil, -32600, fmt.Sprintf("invalid request: a message is longer than %d bytes; it was skipped", maxLine)))
				skipping, long = true, nil
			}
			if !skipping {
				long = append(long, chunk...)
			}
			continue
		}
		line := chunk
		if skipping {
			line, skipping = nil, false
		} else if long != nil {
			line = append(long, chunk...)
			long = nil
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			msgs, reply := c.decode(line)
			if reply != nil {
				c.writeRaw(reply)
			}
			if c.fast != nil && (reply != nil || trimmed[0] == '[') {
				// A malformed answer to a call's request fails it now; the
				// answers in a batch (JSON-RPC batches, up to 2025-03-26)
				// reach their requests as single ones do.
				c.fast.asks.refuseMalformed(line)
				msgs = c.fast.takeAnswers(msgs)
			}
			if len(msgs) > 0 {
				c.track(msgs)
				// A small call with nothing else waiting is answered before
				// reading on: a local builtin takes microseconds on such an
				// input, less than handing it to another goroutine costs.
				// Anything queued behind it gets the concurrent path.
				onReader := len(line) <= maxInlineLine && br.Buffered() == 0
				if c.fast != nil && trimmed[0] != '[' && c.fast.take(c, msgs[0], onReader) {
					// Answered without the SDK.
				} else if !c.deliver(lineItem{msgs: msgs}) {
					return
				}
			}
		}
		if err != nil {
			c.deliver(lineItem{err: err})
			return
		}
	}
}

// track notes the requests, to know when all are answered.
func (c *lineConn) track(msgs []jsonrpc.Message) {
	for _, m := range msgs {
		if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() && req.Method != "subscriptions/listen" {
			c.wmu.Lock()
			if c.calls == nil {
				c.calls = map[jsonrpc.ID]bool{}
			}
			c.calls[req.ID] = true
			c.wmu.Unlock()
		}
	}
}

func (c *lineConn) deliver(it lineItem) bool {
	select {
	case c.incoming <- it:
		return true
	case <-c.closed:
		return false
	}
}

// decode turns one line into the messages to handle and the error
// response to write at once (nil if none): see jsonrpc.go. The errors of a
// batch that has calls are written with their responses, in one array.
func (c *lineConn) decode(line []byte) ([]jsonrpc.Message, []byte) {
	p := parseBody(line)
	if !p.batch {
		if len(p.errors) > 0 {
			return nil, p.errors[0]
		}
		return p.msgs, nil
	}
	b := &lineBatch{index: map[jsonrpc.ID]int{}}
	for _, m := range p.msgs {
		if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
			b.index[req.ID] = len(b.responses)
			b.responses = append(b.responses, nil)
		}
	}
	if len(b.responses) == 0 {
		if len(p.errors) == 0 {
			return p.msgs, nil
		}
		return p.msgs, joinArray(p.errors)
	}
	b.errors = p.errors
	b.left = len(b.responses)
	c.wmu.Lock()
	if c.batches == nil {
		c.batches = map[jsonrpc.ID]*lineBatch{}
	}
	for id := range b.index {
		c.batches[id] = b
	}
	c.wmu.Unlock()
	return p.msgs, nil
}

// joinArray writes JSON values as an array.
func joinArray(items [][]byte) []byte {
	out := []byte{'['}
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, it...)
	}
	return append(out, ']')
}

// errorResponse is a response written by the transport itself.
func errorResponse(id any, code int64, msg string) []byte {
	data, _ := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: code, Message: msg}})
	return data
}

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if len(c.queue) > 0 {
		m := c.queue[0]
		c.queue = c.queue[1:]
		return m, nil
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case it := <-c.incoming:
		if it.err != nil {
			return nil, it.err
		}
		c.queue = it.msgs[1:]
		return it.msgs[0], nil
	}
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return fmt.Errorf("marshaling message: %v", err)
		}
		return c.writeRaw(data)
	}
	if c.fast != nil {
		c.fast.sent(resp)
	}
	if resp.Error != nil {
		// An SDK error without a JSON-RPC code would go out as code 0.
		r := *resp
		r.Error = sdkError(resp.Error)
		resp = &r
	}
	c.wmu.Lock()
	delete(c.calls, resp.ID)
	b, inBatch := c.batches[resp.ID]
	left := 0
	if inBatch {
		delete(c.batches, resp.ID)
		b.responses[b.index[resp.ID]] = resp
		b.left--
		// Read under the lock: the responses of a batch are written from
		// several goroutines, and only the last one writes the array.
		left = b.left
	}
	c.wmu.Unlock()
	if !inBatch {
		data, err := encodeResponse(resp)
		if err != nil {
			return err
		}
		return c.writeRaw(data)
	}
	if left > 0 {
		return nil
	}
	items := b.errors
	for _, r := range b.responses {
		data, err := encodeResponse(r)
		if err != nil {
			return err
		}
		items = append(items, data)
	}
	return c.writeRaw(joinArray(items))
}

// encodeResponse writes a successful response around its result, which
// the SDK has just marshaled (compact, valid JSON), instead of having
// jsonrpc.EncodeMessage scan and copy it again; errors go the usual way.
func encodeResponse(r *jsonrpc.Response) ([]byte, error) {
	if r.Error != nil || len(r.Result) == 0 {
		return jsonrpc.EncodeMessage(r)
	}
	b := make([]byte, 0, len(r.Result)+48)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	switch id := r.ID.Raw().(type) {
	case int64:
		b = strconv.AppendInt(b, id, 10)
	case string:
		if needsJSONEscape(id) {
			return jsonrpc.EncodeMessage(r)
		}
		b = strconv.AppendQuote(b, id) // the same as JSON for printable ASCII
	default:
		return jsonrpc.EncodeMessage(r)
	}
	b = append(b, `,"result":`...)
	b = append(b, r.Result...)
	return append(b, '}'), nil
}

// needsJSONEscape reports characters strconv.Quote writes differently from
// encoding/json (control characters, non-ASCII).
func needsJSONEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return true
		}
	}
	return false
}

// writeRaw writes one line; writes are whole lines, never interleaved.
func (c *lineConn) writeRaw(data []byte) error {
	buf := make([]byte, 0, len(data)+1)
	buf = append(append(buf, data...), '\n')
	c.wmu.Lock()
	defer c.wmu.Unlock()
	select {
	case <-c.closed:
		return errors.New("connection closed")
	default:
	}
	_, err := c.w.Write(buf)
	return err
}

func (c *lineConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		if c.fast != nil {
			c.fast.close()
		}
		err = c.r.Close()
	})
	return err
}

func (c *lineConn) SessionID() string { return "" }
