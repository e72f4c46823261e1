package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/internal/testhook"
	"github.com/toolctl/toolctl/pkg/mcpclient"
	"github.com/toolctl/toolctl/pkg/spec"
)

// ServerOptions say which live MCP server to import from.
type ServerOptions struct {
	// Command is a command line that starts a stdio server; ${ENV} in it
	// is expanded for the connection and kept in the written entries.
	Command string
	// URL is a Streamable HTTP endpoint.
	URL string
	// Headers are extra HTTP headers ("Name: value", ${ENV} expanded).
	Headers []string
	// Getenv reads the environment for ${ENV}.
	Getenv func(string) string
	// Dir is the stdio server's working directory ("" for the current one).
	Dir string
	// Stderr receives the stdio server's stderr (nil discards it).
	Stderr io.Writer
	// HTTPClient is the client for URL (nil: http.DefaultClient's transport).
	HTTPClient *http.Client
	// Timeout bounds the whole import (0: none beyond ctx).
	Timeout time.Duration
	// NoEntry leaves the tools definition-only; by default each tool gets
	// an mcp entry that calls it on the same server.
	NoEntry bool
	// Flag names the option Command came from in errors ("" is
	// --from-server; scan --server, lint --against-server, an entry's
	// server).
	Flag string
	// URLFlag names the option URL came from in errors ("" is
	// --from-url; scan --url, lint --against-url, an entry's server).
	URLFlag string
}

// maxPages stops a server whose pagination never ends.
const maxPages = 10000

// ImportServer connects to a live MCP server, lists every tool (following
// nextCursor through all pages) and imports them as MCP tools.
//
// The go-sdk client decodes schemas into Go maps, which lose the key order
// (OpenAI emits arguments in schema key order, and a diff of the files
// would reorder every schema), so the raw tools/list results are read off
// the wire beside the SDK and the SDK's own list is only the cross-check.
func ImportServer(ctx context.Context, opts ServerOptions) (res *Result, err error) {
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	c := &liveConn{opts: opts, wire: &wire{}}
	defer recoverInput(c.name(), &res, &err)
	testhook.Check("import", c.name())
	if err := c.connect(ctx); err != nil {
		return nil, err
	}
	defer c.close()
	tools, err := c.listTools(ctx)
	if err != nil {
		return nil, err
	}
	if err := c.wire.tooMuch(c.name()); err != nil {
		return nil, err
	}
	var warnings []*Diagnostic
	raw := c.wire.tools()
	if !sameTools(raw, tools) {
		// Cannot happen with a well-behaved transport; keep the SDK's
		// view rather than fail, and say what is lost.
		raw = raw[:0]
		for _, t := range tools {
			b, err := json.Marshal(t)
			if err != nil {
				return nil, fmt.Errorf("tools/list of %s: cannot encode tool %q: %v", c.name(), t.Name, err)
			}
			v, err := spec.DecodeJSON(b)
			if err != nil {
				return nil, fmt.Errorf("tools/list of %s: cannot decode tool %q: %v", c.name(), t.Name, err)
			}
			raw = append(raw, v)
		}
		warnings = append(warnings, &Diagnostic{File: c.name(), Rule: RuleKeyOrder, Message: "the raw tools/list answers could not be read; schema keys are in alphabetical order instead of the server's"})
	}
	if err := checkLimits(c.name(), raw); err != nil {
		return nil, err
	}
	src := &source{name: c.name(), docs: []any{raw}}
	res, err = importSource(src, MCP)
	if err != nil {
		return res, err
	}
	res.Warnings = append(warnings, res.Warnings...)
	if ir := c.session.InitializeResult(); ir != nil && ir.ServerInfo != nil {
		res.ServerName, res.ServerVersion = ir.ServerInfo.Name, ir.ServerInfo.Version
	}
	if !opts.NoEntry {
		c.addEntries(res)
	}
	return res, nil
}

// sameTools reports whether the raw tools are the SDK's, in order.
func sameTools(raw []any, tools []*mcp.Tool) bool {
	if len(raw) != len(tools) {
		return false
	}
	for i, v := range raw {
		m, ok := v.(*spec.Map)
		if !ok {
			return false
		}
		if n, _ := m.GetString("name"); n != tools[i].Name {
			return false
		}
	}
	return true
}

// liveConn is one connection to the server being imported.
type liveConn struct {
	opts    ServerOptions
	wire    *wire
	argv    []string // stdio
	proc    *mcpclient.Server
	status  *statusRecorder // http
	session *mcp.ClientSession
	headers http.Header
}

// name names the server in messages.
func (c *liveConn) name() string {
	if c.opts.URL != "" {
		return c.opts.URL
	}
	return c.opts.Command
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expand replaces ${ENV} references; an unset variable is an error, since
// an empty token or argument would fail later in a less clear way.
func (c *liveConn) expand(s, where string) (string, error) {
	var missing []string
	out := envRef.ReplaceAllStringFunc(s, func(ref string) string {
		name := ref[2 : len(ref)-1]
		v := c.opts.Getenv(name)
		if v == "" {
			missing = append(missing, name)
		}
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("%s: the environment variable %s is not set; export it or write the value", where, missing[0])
	}
	return out, nil
}

func (c *liveConn) connect(ctx context.Context) error {
	var transport mcp.Transport
	if c.opts.URL != "" {
		if !mcpclient.IsHTTPURL(c.opts.URL) {
			return fmt.Errorf("%s %q: expected an http:// or https:// URL of a Streamable HTTP endpoint (for a command, use %s)", c.urlFlag(), c.opts.URL, c.flag())
		}
		c.headers = http.Header{}
		for _, h := range c.opts.Headers {
			k, v, ok := strings.Cut(h, ":")
			k = strings.TrimSpace(k)
			if !ok || k == "" || strings.ContainsAny(k, " \t") {
				return fmt.Errorf("--header %q: expected \"Name: value\", e.g. --header 'Authorization: Bearer ${TOKEN}'", h)
			}
			val, err := c.expand(strings.TrimSpace(v), "--header "+k)
			if err != nil {
				return err
			}
			c.headers.Add(k, val)
		}
		base := http.DefaultTransport
		if c.opts.HTTPClient != nil && c.opts.HTTPClient.Transport != nil {
			base = c.opts.HTTPClient.Transport
		}
		c.status = &statusRecorder{}
		hc := &http.Client{Transport: &liveRoundTripper{base: base, headers: c.headers, wire: c.wire, status: c.status}}
		// No standalone GET stream: listing tools needs no server-initiated
		// messages.
		transport = &mcp.StreamableClientTransport{Endpoint: c.opts.URL, HTTPClient: hc, DisableStandaloneSSE: true}
	} else {
		if len(c.opts.Headers) > 0 {
			return fmt.Errorf("--header applies to %s only; a stdio server takes its settings from its command line or environment", c.urlFlag())
		}
		flag := c.flag()
		argv, err := mcpclient.SplitCommandLine(c.opts.Command)
		if err != nil {
			return fmt.Errorf("%s: %v; fix the quoting", flag, err)
		}
		if len(argv) == 0 {
			return fmt.Errorf("%s is empty; give the command that starts the MCP server, e.g. %s 'uvx mcp-server-fetch'", flag, flag)
		}
		for i, a := range argv {
			if argv[i], err = c.expand(a, flag); err != nil {
				return err
			}
		}
		c.argv = argv
		proc, err := mcpclient.Start(ctx, argv, c.opts.Dir, c.opts.Stderr, 0)
		if err != nil {
			if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
				return mcpclient.FlagError(err, flag)
			}
			return fmt.Errorf("%s: cannot start %q: %v", flag, argv[0], errors.Unwrap(err))
		}
		c.proc = proc
		transport = proc.Transport(c.wire.reader)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "toolctl", Version: "import"}, &mcp.ClientOptions{
		// toolctl offers no roots, sampling or elicitation.
		Capabilities: &mcp.ClientCapabilities{},
	})
	session, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: mcpclient.ProtocolVersion})
	if err != nil {
		err = c.fail(ctx, "the initialize handshake", err)
		c.close()
		return err
	}
	c.session = session
	if ir := session.InitializeResult(); ir != nil && ir.Capabilities != nil && ir.Capabilities.Tools == nil {
		c.close()
		return fmt.Errorf("the MCP server %s offers no tools: its initialize result has no tools capability", c.name())
	}
	return nil
}

// listTools follows nextCursor through every page.
func (c *liveConn) listTools(ctx context.Context) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	seen := map[string]bool{}
	params := &mcp.ListToolsParams{}
	for page := 0; ; page++ {
		if page == maxPages {
			return nil, fmt.Errorf("the MCP server %s is still paginating tools/list after %d pages; it looks stuck", c.name(), maxPages)
		}
		res, err := c.session.ListTools(ctx, params)
		if err != nil {
			return nil, c.fail(ctx, "tools/list", err)
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" {
			return tools, nil
		}
		if seen[res.NextCursor] {
			return nil, fmt.Errorf("the MCP server %s returned the tools/list cursor %q twice; its pagination loops", c.name(), clip(res.NextCursor, 40))
		}
		seen[res.NextCursor] = true
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}

// close ends the session and stops a stdio server.
func (c *liveConn) close() {
	if c.session != nil {
		mcpclient.CloseSession(c.session)
		c.session = nil
	}
	if c.proc != nil {
		c.proc.Stop()
		c.proc = nil
	}
}

// fail explains a failed request: a timeout, an HTTP status, an
// unreachable URL, a JSON-RPC error, a server that exited, a server that
// sent too much.
// flag names the option the server's command line came from.
func (c *liveConn) flag() string {
	if c.opts.Flag == "" {
		return "--from-server"
	}
	return c.opts.Flag
}

// urlFlag names the option the server's URL came from.
func (c *liveConn) urlFlag() string {
	if c.opts.URLFlag == "" {
		return "--from-url"
	}
	return c.opts.URLFlag
}

func (c *liveConn) fail(ctx context.Context, what string, err error) error {
	if err := c.wire.tooMuch(c.name()); err != nil {
		return err
	}
	if c.wire.tooDeep() {
		// The SDK refuses it, for a reason of its own.
		return fmt.Errorf("%s: the MCP server %s sent values %s", what, c.name(), strings.TrimPrefix(spec.TooDeepMsg, "values are "))
	}
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			msg := fmt.Sprintf("the MCP server %s did not answer %s in time; raise --timeout", c.name(), what)
			if c.argv != nil && what == "the initialize handshake" {
				msg += " and check that the command starts an MCP stdio server (nothing else may write to its stdout)"
			}
			return c.withStderr(errors.New(msg))
		}
		return ctx.Err()
	}
	if c.status != nil {
		switch st := c.status.get(); {
		case st == http.StatusUnauthorized || st == http.StatusForbidden:
			return fmt.Errorf("the MCP server at %s refused %s (HTTP %d); pass its credentials, e.g. --header 'Authorization: Bearer ${TOKEN}'", c.opts.URL, what, st)
		case st == http.StatusNotFound:
			return fmt.Errorf("no MCP endpoint at %s (HTTP 404); check the URL (Streamable HTTP endpoints are often at /mcp)", c.opts.URL)
		case st >= 400 && mcpclient.ServerRPCError(err) == nil:
			return fmt.Errorf("the MCP server at %s failed %s (HTTP %d): %v", c.opts.URL, what, st, err)
		}
		if mcpclient.IsNetworkError(err) {
			return fmt.Errorf("cannot reach the MCP server at %s: %v; check the URL and that the server is running", c.opts.URL, mcpclient.RootCause(err))
		}
	}
	if werr := mcpclient.ServerRPCError(err); werr != nil {
		return fmt.Errorf("the MCP server %s rejected %s: %s (JSON-RPC error %d)", c.name(), what, werr.Message, werr.Code)
	}
	if c.proc != nil {
		if e := c.proc.ExitError(what, err); e != nil {
			if e.Start != nil {
				// the guard, not exec, found the program missing
				return mcpclient.FlagError(e, c.flag())
			}
			// with the kind the mcp executor gives this failure, as
			// import has always printed it
			return fmt.Errorf("ToolExecutionError: %w", e)
		}
	}
	return c.withStderr(fmt.Errorf("%s with the MCP server %s failed: %v", what, c.name(), err))
}

// withStderr adds the end of a stdio server's stderr to a message.
func (c *liveConn) withStderr(err error) error {
	if c.proc == nil {
		return err
	}
	if tail := strings.TrimSpace(c.proc.StderrTail()); tail != "" {
		lines := strings.Split(tail, "\n")
		if len(lines) > 5 {
			lines = lines[len(lines)-5:]
		}
		return fmt.Errorf("%w; its stderr ends with: %s", err, strings.Join(lines, "\n"))
	}
	return err
}

// addEntries gives every tool an mcp entry that calls it on the same
// server, under its name there. Headers are written only when they use
// ${ENV}: a literal credential must not end up in a tool file.
func (c *liveConn) addEntries(res *Result) {
	var headers *spec.Map
	for _, h := range c.opts.Headers {
		k, v, _ := strings.Cut(h, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !envRef.MatchString(v) {
			res.Warnings = append(res.Warnings, &Diagnostic{File: c.name(),
				Message: fmt.Sprintf("header %s is not written to the entries: its value is literal; pass it as ${ENV} (e.g. --header '%s: Bearer ${TOKEN}') to have it written", k, k)})
			continue
		}
		if headers == nil {
			headers = spec.NewMap(1)
		}
		headers.Set(k, v)
	}
	// toolctl run starts the server in the tool file's directory, not in
	// the one import ran in.
	for _, a := range c.argv {
		if a == "" || filepath.IsAbs(a) {
			continue
		}
		if _, err := os.Stat(filepath.Join(c.opts.Dir, a)); err == nil {
			res.Warnings = append(res.Warnings, &Diagnostic{File: c.name(),
				Message: fmt.Sprintf("the entries' server command names %q, a relative path; toolctl run starts the server in the tool file's directory, so write an absolute path or put the file there", a)})
			break
		}
	}
	for _, t := range res.Tools {
		t.Tool.Entry = &spec.Entry{Type: spec.EntryMCP, Server: c.name(), Tool: t.SourceName, Headers: headers}
	}
}

// wire keeps the raw bytes the server sent: the stdio stream, or each HTTP
// response body, in order. It takes spec.MaxFileSize bytes in all, as a
// tool file may have; past that, reading from the server fails.
type wire struct {
	mu      sync.Mutex
	streams []*stream
	total   int
	over    bool
}

// tooDeep reports whether the server sent values nested past
// spec.MaxDepth.
func (w *wire) tooDeep() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range w.streams {
		if spec.TooDeep(s.buf.Bytes()) >= 0 {
			return true
		}
	}
	return false
}

// errWireFull stops reading a server that sent more than a tool file may
// hold.
var errWireFull = fmt.Errorf("more than %d MB received", spec.MaxFileSize>>20)

// tooMuch explains a server that sent more than the wire takes.
func (w *wire) tooMuch(server string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.over {
		return nil
	}
	return fmt.Errorf("the MCP server %s sent more than %d MB, the most toolctl reads from a server (as from a tool file); import its tools from a file instead", server, spec.MaxFileSize>>20)
}

type stream struct {
	sse bool
	buf bytes.Buffer
}

func (w *wire) add(sse bool) *stream {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := &stream{sse: sse}
	w.streams = append(w.streams, s)
	return s
}

// reader wraps a stdio server's stdout.
func (w *wire) reader(r io.Reader) io.Reader {
	return &teeReader{r: r, w: w, s: w.add(false)}
}

type teeReader struct {
	r io.Reader
	w *wire
	s *stream
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.w.mu.Lock()
		defer t.w.mu.Unlock()
		if t.w.over || t.w.total+n > spec.MaxFileSize {
			t.w.over = true
			return 0, errWireFull
		}
		t.w.total += n
		t.s.buf.Write(p[:n])
	}
	return n, err
}

type teeBody struct {
	teeReader
	c io.Closer
}

func (t *teeBody) Close() error { return t.c.Close() }

// tools returns the tools of every tools/list result seen, in order.
func (w *wire) tools() []any {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []any
	for _, s := range w.streams {
		for _, msg := range s.messages() {
			out = append(out, listedTools(msg)...)
		}
	}
	return out
}

// messages splits a stream into JSON values: newline-delimited JSON on
// stdio and in JSON bodies, the data of each event in an SSE body.
func (s *stream) messages() []any {
	var payloads [][]byte
	sc := bufio.NewScanner(bytes.NewReader(s.buf.Bytes()))
	sc.Buffer(make([]byte, 0, 64*1024), spec.MaxFileSize)
	if s.sse {
		var data []byte
		flush := func() {
			if len(data) > 0 {
				payloads = append(payloads, data)
				data = nil
			}
		}
		for sc.Scan() {
			line := strings.TrimSuffix(sc.Text(), "\r")
			switch {
			case line == "":
				flush()
			case strings.HasPrefix(line, "data:"):
				if data != nil {
					data = append(data, '\n')
				}
				data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")...)
			}
		}
		flush()
	} else {
		whole := bytes.TrimSpace(s.buf.Bytes())
		if v, err := spec.DecodeJSON(whole); err == nil {
			return []any{v} // one (possibly multi-line) JSON body
		}
		for sc.Scan() {
			payloads = append(payloads, append([]byte(nil), sc.Bytes()...))
		}
	}
	var out []any
	for _, p := range payloads {
		if len(bytes.TrimSpace(p)) == 0 {
			continue
		}
		if v, err := spec.DecodeJSON(p); err == nil {
			out = append(out, v)
		}
	}
	return out
}

// checkLimits applies the limits of a tool file (spec.MaxDepth,
// spec.MaxValues) to the tools a server listed: what a server sends is no
// more trusted than a file.
func checkLimits(server string, tools []any) error {
	values := 0
	var walk func(v any, depth int) bool
	walk = func(v any, depth int) bool {
		if values++; values > spec.MaxValues || depth > spec.MaxDepth {
			return false
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				if !walk(e, depth+1) {
					return false
				}
			}
		case *spec.Map:
			for i := 0; i < x.Len(); i++ {
				if _, e := x.At(i); !walk(e, depth+1) {
					return false
				}
			}
		}
		return true
	}
	for i, t := range tools {
		if walk(t, 0) {
			continue
		}
		name := fmt.Sprintf("#%d", i+1)
		if m, ok := t.(*spec.Map); ok {
			if n, ok := m.GetString("name"); ok {
				name = fmt.Sprintf("%q", clip(n, 60))
			}
		}
		if values > spec.MaxValues {
			return fmt.Errorf("tools/list of %s: the tools hold more than %d values, the most a tool file may have (at tool %s); nothing was imported", server, spec.MaxValues, name)
		}
		return fmt.Errorf("tools/list of %s: tool %s: %s; nothing was imported", server, name, spec.TooDeepMsg)
	}
	return nil
}

// listedTools returns the tools of a tools/list result message (or of
// each message of a JSON-RPC batch); nil for any other message.
func listedTools(msg any) []any {
	switch m := msg.(type) {
	case []any:
		var out []any
		for _, e := range m {
			out = append(out, listedTools(e)...)
		}
		return out
	case *spec.Map:
		res, ok := m.GetMap("result")
		if !ok || !m.Has("id") {
			return nil
		}
		if tools, ok := res.Get("tools"); ok {
			if list, ok := tools.([]any); ok {
				return list
			}
		}
	}
	return nil
}

// liveRoundTripper adds the --header headers, records error statuses and
// keeps every POST response body.
type liveRoundTripper struct {
	base    http.RoundTripper
	headers http.Header
	wire    *wire
	status  *statusRecorder
}

func (t *liveRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header[k] = v
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode >= 400 && req.Method != http.MethodDelete {
		t.status.set(resp.StatusCode)
	}
	if req.Method == http.MethodPost && resp.Body != nil {
		sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
		resp.Body = &teeBody{teeReader{r: resp.Body, w: t.wire, s: t.wire.add(sse)}, resp.Body}
	}
	return resp, nil
}

type statusRecorder struct {
	mu     sync.Mutex
	status int
}

func (s *statusRecorder) set(st int) {
	s.mu.Lock()
	s.status = st
	s.mu.Unlock()
}

func (s *statusRecorder) get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}
