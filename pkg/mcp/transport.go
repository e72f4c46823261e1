package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultGrace is how long calls in flight may run on after a shutdown
// starts.
const DefaultGrace = 10 * time.Second

// ServeStdio serves one client over newline-delimited JSON-RPC on in and
// out until in ends (EOF) or ctx is done. Either way the requests in
// flight — read and not yet answered — get up to grace to be answered
// (calls are cancelled after it), and their responses are written: the
// SDK stops writing once its reader has seen EOF, so the EOF is held back
// until they are answered. After EOF no call can come; after ctx's end new calls are
// refused with an isError result.
//
// The grace period ends at once, cancelling the calls, when nobody reads
// out any more (the client is gone: a pipe or socket whose other end is
// closed), or when ctx ends after EOF: a client shuts a stdio server down
// by "closing the input stream to the child process (the server)", then
// "waiting for the server to exit, or sending SIGTERM if the server does
// not exit within a reasonable time" (2025-06-18 basic/lifecycle#stdio),
// so a signal after EOF means now.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, grace time.Duration) error {
	in, restoreIn := pollable(in)
	defer restoreIn()
	out, restoreOut := pollable(out)
	defer restoreOut()
	t := &lineTransport{w: out, srv: s}
	gate := &eofGate{r: in}
	cut := newCutter()
	gate.drain = func(refuse bool) {
		stop := watchReader(out, cut)
		defer stop()
		s.drain(grace, refuse, t.unanswered, cut)
	}
	t.r = gate
	// The session ends when run is cancelled, which happens only after the
	// calls in flight are answered: closing it earlier would drop them.
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	ended := make(chan struct{})
	defer close(ended)
	go func() {
		select {
		case <-ctx.Done():
			if gate.sawEOF.Load() {
				cut.cut("stopped while waiting for them after the end of stdin")
			}
			gate.drainOnce(true)
			cancel()
		case <-ended:
		}
	}()
	err := s.sdk.Run(runCtx, t)
	// EOF and a closed stdout (EPIPE: e.g. the answer to a subscription the
	// client cancelled while leaving) are the client going away.
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) || errors.Is(err, syscall.EPIPE) {
		return nil
	}
	return err
}

// watchReader cuts the grace period short when out is a pipe or socket
// whose reading end is closed: no answer can reach the client any more.
// It watches until stop is called.
func watchReader(out io.Writer, cut *cutter) (stop func()) {
	g, ok := out.(interface{ readerGone() bool })
	if !ok {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			if g.readerGone() {
				cut.cut("nobody reads stdout any more (the client is gone)")
				return
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// eofGate passes reads through and, at EOF, first lets the server drain.
type eofGate struct {
	r      io.Reader
	drain  func(refuse bool)
	once   sync.Once
	eof    bool
	sawEOF atomic.Bool // the reader has seen EOF (eof is the reader's own)
}

func (g *eofGate) Read(p []byte) (int, error) {
	if g.eof {
		g.drainOnce(false)
		return 0, io.EOF
	}
	n, err := g.r.Read(p)
	if err == io.EOF {
		g.sawEOF.Store(true)
		if n > 0 {
			// The last requests are read (and counted) first.
			g.eof = true
			return n, nil
		}
		g.drainOnce(false)
	}
	return n, err
}

func (g *eofGate) drainOnce(refuse bool) { g.once.Do(func() { g.drain(refuse) }) }

func (g *eofGate) Close() error {
	if c, ok := g.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// HTTPOptions configure the Streamable HTTP endpoint.
type HTTPOptions struct {
	// Path is the endpoint's path (default /mcp).
	Path string
	// TrustedOrigins are origins (scheme://host[:port]) allowed to call
	// from a browser page of another origin.
	TrustedOrigins []string
	// MaxRequestBytes bounds a request's body (DefaultMaxRequestBytes when
	// 0): a larger one is answered 413 without being read to its end.
	MaxRequestBytes int64
	// ReadTimeout bounds how long a client may take to send a request's
	// body once its headers are in (DefaultReadTimeout when 0); the
	// headers get min(ReadTimeout, 10s) (ServeHTTP). A slower client gets
	// 408 and its connection is closed.
	ReadTimeout time.Duration
	// MaxConnections bounds the connections open at once (ServeHTTP;
	// DefaultMaxConnections when 0); more wait to be accepted.
	MaxConnections int
}

// Defaults of HTTPOptions.
const (
	// DefaultMaxRequestBytes is the SDK's own default: a tool call's
	// arguments are far smaller, and the stdio transport's bound on a
	// message (16 MiB) would let a remote client hold 16 MiB per
	// connection.
	DefaultMaxRequestBytes = sdk.DefaultMaxRequestBodyBytes
	DefaultReadTimeout     = 30 * time.Second
	DefaultMaxConnections  = 256
	// maxHeaderTimeout bounds the read of a request's headers.
	maxHeaderTimeout = 10 * time.Second
	// maxHeaderBytes bounds a request's headers: an MCP request has a few
	// short ones (Go's default is 1 MiB).
	maxHeaderBytes = 64 << 10
	// idleTimeout closes a kept-alive connection no request uses.
	idleTimeout = 2 * time.Minute
)

func (o *HTTPOptions) defaults() {
	if o.Path == "" {
		o.Path = "/mcp"
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	if o.MaxConnections <= 0 {
		o.MaxConnections = DefaultMaxConnections
	}
}

// HTTPHandler returns the Streamable HTTP endpoint: stateless (every POST
// is complete in itself, so any instance behind a load balancer can answer
// it), JSON responses (SSE only where the protocol needs a stream), the
// SDK's DNS-rebinding protection (a loopback connection must name a
// loopback Host) and an Origin check: "Servers MUST validate the Origin
// header on all incoming connections to prevent DNS rebinding attacks"
// (2025-06-18 basic/transports#security-warning). A request without
// Origin (not from a browser) passes; a cross-origin browser request is
// refused with 403 unless its origin is trusted.
//
// Each request's body is read whole first, within opts.ReadTimeout and
// opts.MaxRequestBytes (see readBody), and a call ends — its processes
// killed — when the client's connection closes, whatever the protocol
// revision (the SDK's PropagateRequestCancellation covers 2026-07-28 and
// later only).
func (s *Server) HTTPHandler(opts HTTPOptions) (http.Handler, error) {
	opts.defaults()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, &sdk.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		// A client that disconnects cancels its call (2026-07-28 and later;
		// older revisions: withRequest below).
		PropagateRequestCancellation: true,
		MaxRequestBodyBytes:          opts.MaxRequestBytes,
	})
	// A tools/call that the direct path leaves to the SDK is answered with
	// an event stream, which carries its progress and log messages (a JSON
	// response has nowhere to put them; notify.go).
	s.httpStream = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, &sdk.StreamableHTTPOptions{
		Stateless:                    true,
		PropagateRequestCancellation: true,
		MaxRequestBodyBytes:          opts.MaxRequestBytes,
	})
	cop := http.NewCrossOriginProtection()
	for _, o := range opts.TrustedOrigins {
		if err := cop.AddTrustedOrigin(o); err != nil {
			return nil, err
		}
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "cross-origin request refused: origin "+r.Header.Get("Origin")+" is not trusted; start toolctl serve with --allow-origin "+r.Header.Get("Origin")+" to allow it", http.StatusForbidden)
	}))
	endpoint := cop.Handler(s.checkRPC(withRequest(h)))
	mux := http.NewServeMux()
	mux.Handle(opts.Path, endpoint)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no MCP endpoint at "+r.URL.Path+"; the endpoint is "+opts.Path, http.StatusNotFound)
	})
	// The endpoint's own path, as every call names it, skips the mux's
	// pattern matching; the mux answers the rest (redirects of unclean
	// paths, 404).
	route := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == opts.Path && r.Method != http.MethodConnect && r.URL.RawPath == "" {
			endpoint.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
	return &httpEndpoint{s: s, opts: opts, h: readBody(route, opts.MaxRequestBytes, opts.ReadTimeout)}, nil
}

// httpEndpoint is HTTPHandler's handler: ServeHTTP reads its connections
// itself (front.go).
type httpEndpoint struct {
	s    *Server
	opts HTTPOptions
	h    http.Handler
}

func (e *httpEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) { e.h.ServeHTTP(w, r) }

// readBody reads each request's body whole before next sees it, within
// timeout and maxBytes, then lifts the connection's read deadline: a
// client that sends its headers and then trickles the body (or never
// sends it) is answered 408 and disconnected after timeout, one that sends
// too much 413. The deadline must not outlive the read: the server's
// background read, which notices a client going away, would take its
// expiry for a disconnection and cancel the call (net/http lifts it too
// when that read starts; TestHTTPLongCallOutlivesReadTimeout).
func readBody(next http.Handler, maxBytes int64, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		// Not every ResponseWriter has deadlines (httptest's recorder):
		// then the server's own timeouts are all there is.
		hasDeadline := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
		body, err := readAll(http.MaxBytesReader(w, r.Body, maxBytes), r.ContentLength, maxBytes)
		r.Body.Close()
		if hasDeadline {
			rc.SetReadDeadline(time.Time{})
		}
		var tooBig *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &tooBig):
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("request body larger than %d bytes; send less, or start toolctl serve with a higher --max-request-size", tooBig.Limit), http.StatusRequestEntityTooLarge)
			return
		case errors.As(err, &ne) && ne.Timeout():
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("request body not received within %s; send the whole request at once (toolctl serve --read-timeout sets the limit)", timeout), http.StatusRequestTimeout)
			return
		case err != nil:
			// The client went away or sent a malformed body (chunking).
			w.Header().Set("Connection", "close")
			http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = &bufferedBody{Reader: bytes.NewReader(body), data: body}
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

// readAll is io.ReadAll sized by the request's Content-Length when it has
// one within maxBytes: one allocation and one read instead of a growing
// buffer. A body shorter or longer than declared is read as ReadAll would
// (net/http stops at the declared length).
func readAll(r io.Reader, contentLength, maxBytes int64) ([]byte, error) {
	if contentLength <= 0 || contentLength > maxBytes {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, contentLength+1) // +1: the read that sees EOF
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // more than declared: grow as ReadAll does
		}
	}
}

// bufferedBody is a request body read whole by readBody: the handlers
// after it read its bytes without copying them.
type bufferedBody struct {
	*bytes.Reader
	data []byte
}

func (*bufferedBody) Close() error { return nil }

// checkRPC answers a POST whose JSON-RPC messages are malformed with the
// JSON-RPC error that says why (jsonrpc.go), where the SDK would answer
// a text/plain 400 or, for an id of a type it does not expect, answer
// with another id: 400 with the error response (a batch: the error of
// each refused member) for what is not a valid message; for a request of
// a method the server does not have, 200 with the -32601 error response
// (from 2026-07-28 on the SDK answers that itself, with 404); a
// notification of an unknown method is accepted and ignored (202), as a
// JSON-RPC notification is never answered. A plain tools/call is answered
// without the SDK (httpfast.go).
func (s *Server) checkRPC(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bb, ok := r.Body.(*bufferedBody)
		if r.Method != http.MethodPost || !ok || !isJSONType(r.Header.Get("Content-Type")) {
			next.ServeHTTP(w, r)
			return
		}
		if s.tryDirect(w, r, bb.data) {
			return
		}
		p := parseBody(bb.data)
		if len(p.errors) == 0 && s.answered(r, p.msgs) {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if len(p.errors) > 0 {
			if hostAllowed(r) {
				// A malformed answer to a call's request fails it now.
				s.httpAsks.refuseMalformed(bb.data)
			}
			body := p.errors[0]
			if p.batch {
				body = joinArray(p.errors)
			}
			writeRPC(w, http.StatusBadRequest, body)
			return
		}
		if !p.batch {
			if req, ok := p.msgs[0].(*jsonrpc.Request); ok && s.directCall(w, r, req) {
				return
			}
			if req, ok := p.msgs[0].(*jsonrpc.Request); ok && s.httpStream != nil && s.streamed(req) {
				withRequest(s.httpStream).ServeHTTP(w, r)
				return
			}
		}
		if r.Header.Get("Mcp-Protocol-Version") < anyStructuredContent {
			for _, m := range p.msgs {
				req, ok := m.(*jsonrpc.Request)
				if !ok {
					continue
				}
				e, ignore := checkMethod(req)
				switch {
				case ignore && !p.batch:
					w.WriteHeader(http.StatusAccepted)
					return
				case e == nil:
				case e.code == codeMethodNotFound:
					writeRPC(w, http.StatusOK, e.response())
					return
				default:
					writeRPC(w, http.StatusBadRequest, e.response())
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// answered hands the client's responses in msgs to the calls' requests
// waiting for them (ask.go); true when msgs are all responses to such
// requests (answered 202, as the transport has a server accept them). The
// POST passes the same Origin and Host checks as a call.
func (s *Server) answered(r *http.Request, msgs []jsonrpc.Message) bool {
	if len(msgs) == 0 || !hostAllowed(r) {
		return false
	}
	for _, m := range msgs {
		resp, ok := m.(*jsonrpc.Response)
		if !ok {
			return false
		}
		if key, ok := resp.ID.Raw().(string); !ok || !strings.HasPrefix(key, askIDPrefix) {
			return false
		}
	}
	// A late answer (the call ended) is accepted and dropped.
	for _, m := range msgs {
		s.httpAsks.answer(m.(*jsonrpc.Response))
	}
	return true
}

// streamed tells whether the SDK answers req, a request the direct path
// did not take, with an event stream: a tools/call of a served tool (an
// unknown tool's error has nothing to stream). With httpSDKOnly (tests
// comparing the direct path with the SDK's JSON answers) only a call
// with a progressToken is.
func (s *Server) streamed(req *jsonrpc.Request) bool {
	if !isCall(req) {
		return false
	}
	if s.httpSDKOnly {
		return wantsProgress(req)
	}
	var p struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(req.Params, &p) != nil {
		return false
	}
	s.mu.RLock()
	_, ours := s.tools[p.Name]
	s.mu.RUnlock()
	return ours
}

// isJSONType tells application/json (with parameters) from other types,
// which the SDK refuses (415).
func isJSONType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

func writeRPC(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

// requestKey holds the context of the HTTP request a call came in.
type requestKey struct{}

// withRequest keeps the request's context where Server.call finds it: the
// SDK hands its handlers a context with the request's values but, before
// 2026-07-28, without its cancellation.
func withRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey{}, r.Context())))
	})
}

// ServeHTTP serves h on ln until ctx is done, then shuts down: calls in
// flight get up to grace, then are cancelled; open streams are closed.
// opts bounds the connections and the time to read a request's headers
// (as given to HTTPHandler); nothing bounds the write of a response, as
// a call or a subscriptions/listen stream may last.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, h http.Handler, opts HTTPOptions, grace time.Duration) error {
	opts.defaults()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: min(maxHeaderTimeout, opts.ReadTimeout),
		MaxHeaderBytes:    maxHeaderBytes,
		IdleTimeout:       idleTimeout,
	}
	ln = limitListener(ln, opts.MaxConnections)
	// The endpoint's connections are read by the front (front.go), which
	// hands net/http what it does not answer; any other handler is
	// net/http's alone.
	var f *front
	if e, ok := h.(*httpEndpoint); ok && e.s == s {
		f = newFront(s, ln.Addr(), e.opts)
	}
	errc := make(chan error, 1)
	if f != nil {
		go srv.Serve(f.pipes) // ends with Shutdown or Close
		go func() { errc <- f.serve(ln) }()
	} else {
		go func() { errc <- srv.Serve(ln) }()
	}
	select {
	case err := <-errc:
		if f != nil {
			srv.Close()
			f.closeAll()
			f.wg.Wait()
		}
		return err
	case <-ctx.Done():
	}
	// Stop accepting connections at once, and let the calls in flight
	// finish (or be cancelled after grace) while their requests are open.
	done := make(chan struct{})
	if f != nil {
		ln.Close()
		f.shutdown()
	}
	go func() {
		srv.Shutdown(context.Background())
		if f != nil {
			f.wg.Wait()
		}
		close(done)
	}()
	s.Shutdown(grace)
	// What may be left are subscription streams, which end only when
	// closed: give the last responses a moment to be written, then close.
	select {
	case <-done:
	case <-time.After(500 * time.Millisecond):
		srv.Close()
		if f != nil {
			f.closeAll()
		}
		<-done
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) && !(f != nil && errors.Is(err, net.ErrClosed)) {
		return err
	}
	return nil
}

// limitListener accepts at most n connections open at once; Accept waits
// for one to close beyond that (the kernel's backlog holds the rest).
func limitListener(ln net.Listener, n int) net.Listener {
	return &limitedListener{Listener: ln, sem: make(chan struct{}, n), done: make(chan struct{})}
}

type limitedListener struct {
	net.Listener
	sem       chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func (l *limitedListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.sem }}, nil
}

func (l *limitedListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// CloseWrite passes through to a TCP connection: net/http half-closes a
// connection whose request body it did not read, so the client sees the
// response before the reset.
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
