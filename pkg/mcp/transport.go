package mcp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"

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
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, grace time.Duration) error {
	in, restoreIn := pollable(in)
	defer restoreIn()
	out, restoreOut := pollable(out)
	defer restoreOut()
	t := &lineTransport{w: out, srv: s}
	gate := &eofGate{r: in}
	gate.drain = func(refuse bool) { s.drain(grace, refuse, t.unanswered) }
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

// eofGate passes reads through and, at EOF, first lets the server drain.
type eofGate struct {
	r     io.Reader
	drain func(refuse bool)
	once  sync.Once
	eof   bool
}

func (g *eofGate) Read(p []byte) (int, error) {
	if g.eof {
		g.drainOnce(false)
		return 0, io.EOF
	}
	n, err := g.r.Read(p)
	if err == io.EOF {
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
func (s *Server) HTTPHandler(opts HTTPOptions) (http.Handler, error) {
	if opts.Path == "" {
		opts.Path = "/mcp"
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, &sdk.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		// A client that disconnects cancels its call (2026-07-28 and later;
		// older revisions cancel with notifications/cancelled).
		PropagateRequestCancellation: true,
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
	mux := http.NewServeMux()
	mux.Handle(opts.Path, cop.Handler(h))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no MCP endpoint at "+r.URL.Path+"; the endpoint is "+opts.Path, http.StatusNotFound)
	})
	return mux, nil
}

// ServeHTTP serves h on ln until ctx is done, then shuts down: calls in
// flight get up to grace, then are cancelled; open streams are closed.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Stop accepting connections at once, and let the calls in flight
	// finish (or be cancelled after grace) while their requests are open.
	done := make(chan struct{})
	go func() {
		srv.Shutdown(context.Background())
		close(done)
	}()
	s.Shutdown(grace)
	// What may be left are subscription streams, which end only when
	// closed: give the last responses a moment to be written, then close.
	select {
	case <-done:
	case <-time.After(500 * time.Millisecond):
		srv.Close()
		<-done
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
