// Package mcp serves tool files as an MCP server (toolctl serve): tools/list
// comes from the files, tools/call goes through the same runner as
// toolctl run, and github.com/modelcontextprotocol/go-sdk speaks the
// protocol over stdio or Streamable HTTP.
//
// Tools are registered with the SDK's low-level Server.AddTool and their
// schemas as json.RawMessage, so every keyword and the key order of the
// file reach the client unchanged; validation, binding, timeouts and
// retries are the runner's, so a call behaves exactly like toolctl run.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Options configure a Server.
type Options struct {
	// Paths are the files and directories served; Reload and Watch read
	// them again.
	Paths []string
	// Runner runs the calls (required). It is shared by concurrent calls.
	Runner *run.Runner
	// Log receives what the server reports: reloads, files that fail to
	// load, shutdown. Never stdout in stdio mode. nil discards.
	Log io.Writer
	// Check, when set, lints a freshly read set on reload and returns the
	// files with errors, each with the report to log; those files keep
	// their last good version, as files that stop parsing do.
	Check func(set *spec.Set) map[string]string
	// MetaTools adds get_tool_info (OpenAkita's Level 2, progressive
	// disclosure).
	MetaTools bool
	// PageSize is the tools/list page size (the SDK's default when 0).
	PageSize int
	// Name and Version identify the server in the handshake.
	Name, Version string
	// Debounce is how long Watch waits for a burst of file events to end
	// before reloading (100ms when 0).
	Debounce time.Duration
	// MaxConcurrent bounds the calls that run at once of every tool but
	// the local builtins: processes (command, python, an mcp server),
	// JavaScript, and network calls (http, mcp, the network builtins).
	// DefaultMaxConcurrent() when 0.
	MaxConcurrent int
	// QueueWait is how long a call over MaxConcurrent waits for another
	// to finish before it is refused (DefaultQueueWait when 0; a negative
	// value refuses at once).
	QueueWait time.Duration
}

// DefaultQueueWait is how long a call waits for a free slot by default.
const DefaultQueueWait = 5 * time.Second

// DefaultMaxConcurrent is the default bound on concurrent calls: two per
// CPU the process may use, at least 4. A call of a process or script tool
// keeps a CPU busy, or a process, its memory and a thread waiting on it;
// network calls mostly wait, and the floor leaves room for them on a small
// machine.
func DefaultMaxConcurrent() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

// Server is an MCP server over a set of tool files. It is safe for
// concurrent use; one Server can serve stdio and HTTP at once.
type Server struct {
	opts Options
	sdk  *sdk.Server
	log  *logger

	// updateMu serializes updates; files belongs to them.
	updateMu sync.Mutex
	files    map[string]*fileState
	mu       sync.RWMutex
	tools    map[string]*tool // by MCP name

	calls tracker
	pool  *pool
	// slots holds a token per call running that MaxConcurrent bounds.
	slots chan struct{}
	// refusals counts the calls refused at the limit; lastRefusalLog is
	// when one was last logged (UnixNano), so that a flood logs a line
	// every 10s, not one per call.
	refusals       atomic.Int64
	lastRefusalLog atomic.Int64
	// waiting counts the calls waiting for a slot.
	waiting atomic.Int64
	// httpSDKOnly turns the HTTP endpoint's direct tools/call path off
	// (tests compare the two).
	httpSDKOnly bool
	// httpStream is the SDK's handler that answers with event streams,
	// for the tools/call requests the direct path does not take.
	httpStream http.Handler
	// httpAsks are the HTTP direct path's requests to clients waiting
	// for the POST of their answer (ask.go).
	httpAsks pendingAsks
	// stateKeyBytes signs the request states of multi round-trip calls
	// (mrtr.go), made on first use.
	stateKeyOnce  sync.Once
	stateKeyBytes []byte
	// stop cancels every run still going when the grace period ends.
	stop     context.Context
	stopRuns context.CancelFunc
}

// New returns a server with no tools yet; Update (or Reload) loads them.
func New(opts Options) (*Server, error) {
	if opts.Runner == nil {
		return nil, errors.New("mcp: Options.Runner is required")
	}
	if opts.Name == "" {
		opts.Name = "toolctl"
	}
	if opts.Debounce <= 0 {
		opts.Debounce = 100 * time.Millisecond
	}
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = DefaultMaxConcurrent()
	}
	if opts.QueueWait == 0 {
		opts.QueueWait = DefaultQueueWait
	}
	s := &Server{
		opts:  opts,
		log:   &logger{w: opts.Log},
		tools: map[string]*tool{},
		files: map[string]*fileState{},
		slots: make(chan struct{}, opts.MaxConcurrent),
	}
	s.stop, s.stopRuns = context.WithCancel(context.Background())
	s.pool = newPool(max(4, 2*runtime.GOMAXPROCS(0)))
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: opts.Name, Title: "toolctl", Version: opts.Version}, &sdk.ServerOptions{
		PageSize: opts.PageSize,
		// The logging capability: tools send log messages (ctx.log, a
		// command's "##toolctl" stderr lines; notify.go). The tools
		// capability says listChanged: Update notifies on every change.
		Capabilities: &sdk.ServerCapabilities{Logging: &sdk.LoggingCapabilities{}, Tools: &sdk.ToolCapabilities{ListChanged: true}},
	})
	if opts.MetaTools {
		s.addMetaTools()
	}
	return s, nil
}

// SDK returns the go-sdk server, e.g. to connect it to another transport.
func (s *Server) SDK() *sdk.Server { return s.sdk }

// Tools returns the MCP names of the tools served, sorted, without the
// meta tools.
func (s *Server) Tools() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	names := make([]string, 0, len(s.tools))
	for n := range s.tools {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Shutdown stops taking calls (new ones get an isError result), waits up to
// grace for the calls in flight, then cancels those still running and waits
// a moment for them to answer. It reports whether every call finished
// within the grace period. ServeHTTP calls it when its context ends;
// ServeStdio drains by its own count of unanswered calls.
func (s *Server) Shutdown(grace time.Duration) bool {
	return s.drain(grace, true, s.calls.count, nil)
}

// drain waits up to grace until pending() is 0, then cancels the runs
// still going and waits a moment more. With refuse, calls that have not
// started yet are answered with an error rather than run. A cut (may be
// nil) ends the grace period when it fires.
func (s *Server) drain(grace time.Duration, refuse bool, pending func() int, cut *cutter) bool {
	if refuse {
		s.calls.close()
	}
	// At EOF waiting is the normal end of a piped session: say nothing
	// unless the grace period runs out.
	if n := pending(); n > 0 && refuse {
		s.log.printf("shutting down: waiting up to %s for %d request(s) in flight", grace, n)
	}
	if waitFor(grace, cut.done(), func() bool { return pending() == 0 }) {
		return true
	}
	if n := pending(); n > 0 {
		if why := cut.reason(); why != "" {
			s.log.printf("shutting down: cancelling the %d request(s) still running: %s", n, why)
		} else {
			s.log.printf("shutting down: cancelling the %d request(s) still running after %s", n, grace)
		}
	}
	s.calls.close()
	s.stopRuns()
	// Cancelled runs answer at once (the call handler does not wait for an
	// executor that ignores its context), so this is short.
	waitFor(2*time.Second, nil, func() bool { return pending() == 0 })
	return false
}

// A cutter ends a drain's grace period at once (a nil one never does).
type cutter struct {
	once sync.Once
	c    chan struct{}
	why  string // set before c is closed
}

func newCutter() *cutter { return &cutter{c: make(chan struct{})} }

// cut ends the grace period; why says why in the log.
func (c *cutter) cut(why string) {
	c.once.Do(func() {
		c.why = why
		close(c.c)
	})
}

func (c *cutter) done() <-chan struct{} {
	if c == nil {
		return nil
	}
	return c.c
}

func (c *cutter) reason() string {
	if c == nil {
		return ""
	}
	select {
	case <-c.c:
		return c.why
	default:
		return ""
	}
}

// waitFor polls cond until it holds, d has passed or abort is closed
// (shutdown only).
func waitFor(d time.Duration, abort <-chan struct{}, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		select {
		case <-abort:
			return false
		case <-time.After(5 * time.Millisecond):
		}
	}
	return true
}

// tracker counts calls in flight and refuses new ones once closed.
type tracker struct {
	mu     sync.Mutex
	n      int
	closed bool
}

func (t *tracker) begin() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.n++
	return true
}

func (t *tracker) end() {
	t.mu.Lock()
	t.n--
	t.mu.Unlock()
}

func (t *tracker) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
}

func (t *tracker) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// logger writes whole lines, so that concurrent messages never interleave.
type logger struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *logger) printf(format string, args ...any) {
	if l.w == nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
		b.WriteString("toolctl serve: ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	l.mu.Lock()
	io.WriteString(l.w, b.String())
	l.mu.Unlock()
}
