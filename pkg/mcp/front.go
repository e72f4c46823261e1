package mcp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The HTTP listener's connections are read by a loop of toolctl's own
// (front), not by net/http's server. net/http's server reads ahead on a
// connection while each request is answered (to notice a client that goes
// away) and stops that read once the response is written: per request a
// goroutine started and stopped, deadlines set four times and, on an idle
// machine, two or three thread wake-ups. For a call of tens of
// microseconds that is most of its cost: net/http answering fixed bytes
// costs twice what a loop on net/http's parser alone does
// (bench/serve.sh, "connection loop").
//
// Each request is parsed here by net/http's own parser (http.ReadRequest)
// under the server's limits and timeouts. A plain tools/call of a local
// builtin (a computation of microseconds that reports nothing and asks
// nothing: ReadOnlyBuiltins) is answered on the connection's goroutine,
// with what the handler's direct path answers (httpfast.go). Every other
// request goes, byte for byte as it came, to net/http's server over an
// in-memory connection, and its response, byte for byte, back to the
// client: net/http stays the HTTP implementation of everything but that
// one answer. A request that is not plainly well-formed (chunked, Expect,
// Upgrade, HTTP/1.0, Connection: close, headers over the limit, anything
// the parser refuses, a body slower than the read timeout) hands the
// connection itself to net/http, from that request's first byte on.
//
// What the loop gives up: while a local builtin computes, nothing reads
// the connection, so a client that goes away does not cancel it (it ends
// within the tool's timeout); every other call is relayed while the
// connection is watched, and a client that goes away cancels it as before.

// aLongTimeAgo is a deadline in the past: it ends a read in progress.
var aLongTimeAgo = time.Unix(1, 0)

// front reads the connections of one HTTP listener.
type front struct {
	s     *Server
	pipes *pipeListener // net/http's side: relayed requests and handed connections

	path          string
	maxBody       int64
	headerTimeout time.Duration
	readTimeout   time.Duration

	mu      sync.Mutex
	conns   map[*frontConn]bool // true while waiting for a request
	closing bool
	wg      sync.WaitGroup
}

func newFront(s *Server, addr net.Addr, opts HTTPOptions) *front {
	return &front{
		s:             s,
		pipes:         &pipeListener{conns: make(chan net.Conn), done: make(chan struct{}), addr: addr},
		path:          opts.Path,
		maxBody:       opts.MaxRequestBytes,
		headerTimeout: min(maxHeaderTimeout, opts.ReadTimeout),
		readTimeout:   opts.ReadTimeout,
		conns:         map[*frontConn]bool{},
	}
}

// serve accepts ln's connections until ln is closed.
func (f *front) serve(ln net.Listener) error {
	var delay time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			// Out of file descriptors and the like: wait and retry, as
			// net/http's server does.
			if ne, ok := err.(net.Error); ok && ne.Temporary() { //nolint:staticcheck // as net/http
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				time.Sleep(delay)
				continue
			}
			return err
		}
		delay = 0
		fc := &frontConn{f: f, c: c}
		fc.rec.r = c
		fc.br = bufio.NewReaderSize(&fc.rec, 4<<10)
		fc.bw = bufio.NewWriterSize(c, 4<<10)
		f.mu.Lock()
		if f.closing {
			f.mu.Unlock()
			c.Close()
			continue
		}
		f.conns[fc] = false
		f.wg.Add(1)
		f.mu.Unlock()
		go fc.serve()
	}
}

// idle records whether fc waits for a request; false once the server is
// shutting down (fc is then to close).
func (f *front) idle(fc *frontConn, waiting bool) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closing {
		return false
	}
	f.conns[fc] = waiting
	return true
}

// shutdown closes the connections waiting for a request; the others close
// after their response.
func (f *front) shutdown() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closing = true
	for fc, waiting := range f.conns {
		if waiting {
			fc.c.Close()
		}
	}
}

// closeAll closes every connection still open.
func (f *front) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closing = true
	for fc := range f.conns {
		fc.c.Close()
	}
}

// frontConn is one client connection.
type frontConn struct {
	f  *front
	c  net.Conn
	br *bufio.Reader // reads rec
	bw *bufio.Writer
	// rec reads c, keeping what was read since the request's start: with
	// start (what br held then), the request's bytes as they came.
	rec      recorder
	start    []byte
	lastPOST bool
	handed   bool // c belongs to net/http now
}

// recorder reads r and keeps what it read in buf, up to limit bytes.
type recorder struct {
	r     io.Reader
	buf   []byte
	limit int
}

var errHeadersTooLong = errors.New("request headers too long")

func (r *recorder) Read(p []byte) (int, error) {
	if r.limit <= 0 {
		return 0, errHeadersTooLong
	}
	if len(p) > r.limit {
		p = p[:r.limit]
	}
	n, err := r.r.Read(p)
	r.limit -= n
	r.buf = append(r.buf, p[:n]...)
	return n, err
}

const noLimit = int(^uint(0) >> 1)

func (fc *frontConn) serve() {
	defer func() {
		fc.f.mu.Lock()
		delete(fc.f.conns, fc)
		fc.f.mu.Unlock()
		if !fc.handed {
			fc.c.Close()
		}
		fc.f.wg.Done()
	}()
	for first := true; ; first = false {
		if !fc.f.idle(fc, true) {
			return
		}
		// Wait for a request as net/http does: the first within the header
		// timeout, the next within the idle timeout.
		wait := idleTimeout
		if first {
			wait = fc.f.headerTimeout
		}
		fc.c.SetReadDeadline(time.Now().Add(wait))
		fc.rec.limit = maxHeaderBytes + 4096 // request() sets it from the request's start
		if _, err := fc.br.Peek(1); err != nil {
			return
		}
		if !fc.f.idle(fc, false) {
			return
		}
		if fc.lastPOST {
			// net/http tolerates a CR or LF after a POST's body (RFC 7230
			// section 3, old clients).
			peek, _ := fc.br.Peek(4)
			n := 0
			for n < len(peek) && (peek[n] == '\r' || peek[n] == '\n') {
				n++
			}
			fc.br.Discard(n)
		}
		if !first {
			fc.c.SetReadDeadline(time.Now().Add(fc.f.headerTimeout))
		}
		if !fc.request() {
			return
		}
	}
}

// request reads and answers one request; false when the connection is
// done (closed, or handed to net/http).
func (fc *frontConn) request() bool {
	buffered, _ := fc.br.Peek(fc.br.Buffered())
	fc.start = append(fc.start[:0], buffered...)
	fc.rec.buf = fc.rec.buf[:0]
	// net/http's bound on the headers: MaxHeaderBytes and its 4 KB of
	// slack, from the request's first byte.
	fc.rec.limit = maxHeaderBytes + 4096 - len(fc.start)
	req, err := http.ReadRequest(fc.br)
	if err != nil {
		if fc.rec.limit > 0 && commonReadError(err) {
			return false // gone or too slow: net/http closes too, without an answer
		}
		return fc.handover() // net/http reads the same bytes and answers: 400, 431, 505
	}
	fc.rec.limit = noLimit
	fc.lastPOST = req.Method == http.MethodPost
	if !fc.plain(req) {
		return fc.handover()
	}
	body := make([]byte, req.ContentLength)
	if fc.br.Buffered() < len(body) {
		fc.c.SetReadDeadline(time.Now().Add(fc.f.readTimeout))
	}
	if _, err := io.ReadFull(req.Body, body); err != nil {
		return fc.handover() // net/http waits for the rest itself: 408 or 400
	}
	// What was read is the request and what br holds of the next.
	all := fc.sinceStart()
	raw := all[:len(all)-fc.br.Buffered()]
	defer func() {
		if cap(fc.rec.buf) > 64<<10 {
			fc.rec.buf = nil // a large body's buffer is not kept
		}
	}()
	if out, ok := fc.hot(req, body); ok {
		return fc.write(out)
	}
	return fc.relay(req, raw)
}

// commonReadError tells the errors on which net/http's server closes a
// connection without an answer (its isCommonNetReadError): the client
// closed it, was too slow, or the read failed.
func commonReadError(err error) bool {
	if err == io.EOF {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "read"
}

// sinceStart is what was read since the request's start.
func (fc *frontConn) sinceStart() []byte {
	if len(fc.start) == 0 {
		return fc.rec.buf
	}
	return append(append([]byte(nil), fc.start...), fc.rec.buf...)
}

// plain tells a request this loop reads on from one it hands to net/http
// with its connection: an HTTP/1.1 request that keeps the connection
// alive, with a Content-Length within the limit, headers net/http's
// server accepts and a plain Host (held to less than the server allows:
// plainHost), so that what the loop answers the server would have.
func (fc *frontConn) plain(req *http.Request) bool {
	if req.ProtoMajor != 1 || req.ProtoMinor != 1 || req.Method == http.MethodConnect || req.Close ||
		len(req.TransferEncoding) > 0 || req.ContentLength < 0 || req.ContentLength > fc.f.maxBody {
		return false
	}
	// ReadRequest took Host out of the headers (it refuses two); in an
	// origin-form request ("/path", not "http://host/path") req.Host is
	// that header's. net/http's server judges it before reading the body,
	// so must the loop.
	if !strings.HasPrefix(req.RequestURI, "/") || !plainHost(req.Host) {
		return false
	}
	for k, vv := range req.Header {
		if !validHeaderName(k) {
			return false
		}
		for _, v := range vv {
			if !validHeaderValue(v) {
				return false
			}
		}
		switch k {
		case "Expect", "Upgrade", "Te", "Trailer":
			return false
		case "Connection":
			for _, v := range vv {
				if !strings.EqualFold(strings.TrimSpace(v), "keep-alive") {
					return false
				}
			}
		}
	}
	return true
}

// validHeaderName and validHeaderValue are net/http's server's checks
// (httpguts.ValidHeaderFieldName and ValidHeaderFieldValue; RFC 7230
// section 3.2), which http.ReadRequest, being lenient for proxies, does
// not make in full: a name is a token, a value has no control character
// but tab.
func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// plainHost tells a Host of letters, digits and . - : [ ] (a name, an
// address, a port) from anything else, which net/http's server judges.
func plainHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == ':' || c == '[' || c == ']') {
			return false
		}
	}
	return true
}

// hot answers a plain tools/call of a local builtin: the response's body
// and true; false for anything else.
func (fc *frontConn) hot(req *http.Request, body []byte) ([]byte, bool) {
	s := fc.f.s
	h := req.Header
	if s.httpSDKOnly || req.Method != http.MethodPost || req.RequestURI != fc.f.path ||
		h["Origin"] != nil || h["Sec-Fetch-Site"] != nil || !isJSONType(h.Get("Content-Type")) {
		return nil, false
	}
	id, p, ok := plainCallOf(body)
	if !ok {
		return nil, false
	}
	t, protocol, _, ok := s.takesDirect(h, req.Host, fc.c.LocalAddr(), p)
	if !ok || !t.local {
		return nil, false
	}
	return s.directAnswer(context.Background(), id, t, p, protocol), true
}

// write sends a 200 response with body: the bytes net/http writes for the
// direct path's JSON answer.
func (fc *frontConn) write(body []byte) bool {
	bw := fc.bw
	bw.WriteString("HTTP/1.1 200 OK\r\nCache-Control: no-cache, no-transform\r\nContent-Type: application/json\r\nDate: ")
	var date [len(http.TimeFormat)]byte
	bw.Write(time.Now().UTC().AppendFormat(date[:0], http.TimeFormat))
	bw.WriteString("\r\nContent-Length: ")
	var n [20]byte
	bw.Write(strconv.AppendInt(n[:0], int64(len(body)), 10))
	bw.WriteString("\r\n\r\n")
	bw.Write(body)
	return bw.Flush() == nil
}

// handover gives the connection to net/http, which reads it from the
// current request's first byte on.
func (fc *frontConn) handover() bool {
	replay := append([]byte(nil), fc.sinceStart()...)
	fc.rec.buf, fc.start = nil, nil
	fc.c.SetReadDeadline(time.Time{})
	if fc.f.pipes.push(&handedConn{Conn: fc.c, replay: replay}) {
		fc.handed = true
	}
	return false
}

// relay has net/http's server answer req, whose bytes are raw, over an
// in-memory connection, and copies its response to the client as it
// comes; false when the connection is to close.
func (fc *frontConn) relay(req *http.Request, raw []byte) bool {
	client, server := net.Pipe()
	defer client.Close()
	if !fc.f.pipes.push(&pipeConn{Conn: server, local: fc.c.LocalAddr(), remote: fc.c.RemoteAddr()}) {
		server.Close()
		return false
	}
	written := make(chan error, 1)
	go func() {
		_, err := client.Write(raw)
		written <- err
	}()
	// While net/http answers, a client that goes away cancels the request
	// (net/http notices its side of the pipe closing).
	fc.c.SetReadDeadline(time.Time{})
	var stopping atomic.Bool
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		if _, err := fc.br.Peek(1); err != nil && !stopping.Load() {
			client.Close()
		}
	}()
	keep := fc.relayResponse(client, req)
	stopping.Store(true)
	fc.c.SetReadDeadline(aLongTimeAgo)
	<-watched
	client.Close()
	if err := <-written; err != nil {
		keep = false // net/http did not read the whole request
	}
	return keep
}

// relayResponse copies net/http's response to req from pipe to the
// client, byte for byte; false when the connection is to close.
func (fc *frontConn) relayResponse(pipe net.Conn, req *http.Request) bool {
	r := bufio.NewReader(&teeReader{r: pipe, w: fc.c})
	for {
		resp, err := http.ReadResponse(r, req)
		if err != nil {
			return false
		}
		if resp.StatusCode >= 100 && resp.StatusCode < 200 && resp.StatusCode != http.StatusSwitchingProtocols {
			continue // an informational response; the final one follows
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return err == nil && !resp.Close && resp.StatusCode != http.StatusSwitchingProtocols
	}
}

// teeReader writes to w what it reads from r.
type teeReader struct {
	r io.Reader
	w io.Writer
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		if _, werr := t.w.Write(p[:n]); werr != nil {
			return n, werr
		}
	}
	return n, err
}

// pipeListener hands net/http the server ends of relays and the handed
// connections.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	addr  net.Addr
}

func (l *pipeListener) push(c net.Conn) bool {
	select {
	case l.conns <- c:
		return true
	case <-l.done:
		return false
	}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return l.addr }

// pipeConn is net/http's end of a relay: the client's addresses, so that
// the handlers see the connection the request came on.
type pipeConn struct {
	net.Conn
	local, remote net.Addr
}

func (c *pipeConn) LocalAddr() net.Addr  { return c.local }
func (c *pipeConn) RemoteAddr() net.Addr { return c.remote }

// handedConn is a client connection handed to net/http: what the loop
// read of it comes first.
type handedConn struct {
	net.Conn
	replay []byte
}

func (c *handedConn) Read(p []byte) (int, error) {
	if len(c.replay) > 0 {
		n := copy(p, c.replay)
		c.replay = c.replay[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// CloseWrite passes through (limitedConn.CloseWrite).
func (c *handedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
