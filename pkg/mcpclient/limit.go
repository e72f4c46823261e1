package mcpclient

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessage bounds one message a server sends over Streamable HTTP, as
// the SDK's stdio reader bounds a line (mcp.DefaultMaxLineLength): a JSON
// response body, or one event of an event stream. The SDK's HTTP client
// reads either whole, whatever its size.
const MaxMessage = mcp.DefaultMaxLineLength

// ErrMessageTooLarge is the read error of a response with a message over
// MaxMessage.
var ErrMessageTooLarge = fmt.Errorf("the MCP server sent a message larger than %d MiB (toolctl's limit)", MaxMessage>>20)

// LimitResponses wraps base (http.DefaultTransport when nil) so that a
// response body fails with ErrMessageTooLarge once one message in it goes
// over MaxMessage, before more is buffered: a hostile or broken server
// cannot make the client hold an unbounded result in memory. An event
// stream may go on for as long as its events are each within the limit.
func LimitResponses(base http.RoundTripper) *ResponseLimit {
	if base == nil {
		base = http.DefaultTransport
	}
	return &ResponseLimit{base: base}
}

// ResponseLimit is the http.RoundTripper of LimitResponses.
type ResponseLimit struct {
	base     http.RoundTripper
	exceeded atomic.Bool
}

// Exceeded tells whether a response went over the limit: the SDK reports
// a broken event stream only as "request terminated without response".
func (l *ResponseLimit) Exceeded() bool { return l != nil && l.exceeded.Load() }

func (l *ResponseLimit) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.base.RoundTrip(req)
	if err == nil && resp.Body != nil {
		sse := strings.HasPrefix(strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Type"))), "text/event-stream")
		resp.Body = &limitedBody{ReadCloser: resp.Body, sse: sse, max: MaxMessage, left: MaxMessage, exceeded: &l.exceeded}
	}
	return resp, err
}

// limitedBody counts the bytes of the current message: the whole body,
// or for an event stream the bytes since the last empty line.
type limitedBody struct {
	io.ReadCloser
	sse      bool
	max      int  // MaxMessage
	left     int  // bytes the current message may still have
	midLine  bool // sse: the last byte read was not a line end
	exceeded *atomic.Bool
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, ErrMessageTooLarge
	}
	n, err := b.ReadCloser.Read(p)
	if !b.sse {
		b.left -= n
	} else {
		b.count(p[:n])
	}
	if b.left < 0 {
		b.exceeded.Store(true)
		return 0, ErrMessageTooLarge
	}
	return n, err
}

// count charges chunk to the current event, starting a new one at each
// empty line ("\n\n", "\r\n\r\n").
func (b *limitedBody) count(chunk []byte) {
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			b.left -= len(chunk)
			b.midLine = b.midLine || len(bytes.TrimRight(chunk, "\r")) > 0
			return
		}
		line := bytes.TrimRight(chunk[:i], "\r")
		if !b.midLine && len(line) == 0 {
			b.left = b.max // an empty line ends the event
		} else if b.left -= i + 1; b.left < 0 {
			return // over: a later empty line must not reset it
		}
		b.midLine = false
		chunk = chunk[i+1:]
	}
}
