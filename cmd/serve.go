package cmd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/mcp"
	"github.com/toolctl/toolctl/pkg/spec"
)

type serveOptions struct {
	app          *App
	http         string
	httpPath     string
	allowRemote  bool
	allowOrigins []string
	watch        bool
	lint         bool
	noLint       bool
	metaTools    bool
	grace        time.Duration
	// limits
	maxConcurrent  int
	queueWait      time.Duration
	maxRequestSize byteSize
	readTimeout    time.Duration
	maxConnections int
	// run holds the runner flags shared with toolctl run.
	run runnerFlags
}

const serveLong = `Serve the tools as an MCP server: tools/list gives every tool of the files
(bound parameters removed, schemas exactly as written), tools/call runs a tool
exactly as toolctl run does (bind, defaults, validation, timeout, retries).

Transports:
  stdio (default)  newline-delimited JSON-RPC on stdin/stdout; nothing but
                   protocol messages goes to stdout, logs go to stderr. The
                   server ends when stdin closes.
  --http ADDR      Streamable HTTP at http://ADDR/mcp (--http-path), stateless
                   (any instance can answer any request), Origin checked.
                   ADDR must be a loopback address (127.0.0.1:8080,
                   localhost:8080, [::1]:8080) unless --allow-remote is given.

A tool that fails — invalid arguments included — answers with isError and a
message the model can act on; a call of an unknown tool is a JSON-RPC
invalid-params error. Results that are JSON come back as structuredContent
with a text copy; strings as text. An mcp tool's result is the proxied
server's CallToolResult, passed on unchanged (images, audio, resources,
annotations, _meta, structuredContent, isError).

Before serving, the tools are linted with the settings of .toolctl.yaml:
lint errors stop the server from starting (--no-lint serves anyway).

With --watch, edits to the tool files are served at once and clients get
notifications/tools/list_changed (over --http only clients of protocol
2026-07-28 or later, which listen on subscriptions/listen; older ones see the
change on their next tools/list); a file that stops parsing (or gains lint
errors) keeps its last good version until it is fixed.

On SIGINT, SIGTERM or the end of stdin the server stops taking calls, gives
the calls in flight --grace to finish, then cancels them. After the end of
stdin, a client that also closes stdout (it is gone), or a signal, cancels
them at once.

Limits (a server may face more calls than it can run):
  --max-concurrent N   calls of command, python, javascript, http and mcp
                       tools (and the network builtins) that run at once;
                       default 2 per CPU, at least 4. A call over the limit
                       waits up to --queue-wait (5s) for another to end (16
                       calls per slot may wait), then is answered with
                       isError ("the server is at its limit of N concurrent
                       calls"). The local builtins (calculator, string_ops,
                       ...) are not counted: they take microseconds, start
                       nothing, and run on a pool of the same size.
  A call ends, and its processes are killed, when its client cancels it
  (notifications/cancelled) or, over --http, closes the connection.
  --http only: a request's headers must arrive within 10s and its body
  within --read-timeout (30s), at most --max-request-size (4MiB), else 408
  or 413; at most --max-connections (256) connections are open at once
  (more wait); an idle connection is closed after 2m. Responses have no
  time limit (calls and streams may last).

Exit codes: 0 stopped normally; 1 lint errors, or no tool can be served;
2 usage (bad flag, address or path, invalid config).`

func newCmdServe(app *App) *cobra.Command {
	opts := &serveOptions{app: app}
	cmd := &cobra.Command{
		Use:   "serve [paths...]",
		Short: "Serve the tools as an MCP server (stdio, or Streamable HTTP with --http)",
		Long:  serveLong,
		Example: `  toolctl serve                                  # ./tools over stdio
  toolctl serve tools/ --watch
  toolctl serve --http 127.0.0.1:8080            # http://127.0.0.1:8080/mcp
  toolctl serve --http 0.0.0.0:8080 --allow-remote
  toolctl serve --meta-tools --timeout 10s

  # Claude Desktop / Cursor / VS Code (mcp.json):
  #   {"command": "toolctl", "args": ["serve", "/path/to/tools"]}`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			return runServe(opts, cmd, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.http, "http", "", "serve Streamable HTTP on `ADDR` (host:port) instead of stdio")
	f.StringVar(&opts.httpPath, "http-path", "/mcp", "path of the HTTP endpoint")
	f.BoolVar(&opts.allowRemote, "allow-remote", false, "allow --http on an address other than loopback (anyone who reaches it can run the tools)")
	f.StringSliceVar(&opts.allowOrigins, "allow-origin", nil, "trust browser requests from `ORIGIN` (e.g. http://localhost:6274; repeatable)")
	f.BoolVar(&opts.watch, "watch", false, "reload the tool files when they change and notify clients")
	f.BoolVar(&opts.lint, "lint", true, "lint the tools first and refuse to start on errors")
	f.BoolVar(&opts.noLint, "no-lint", false, "serve without linting first (same as --lint=false)")
	f.BoolVar(&opts.metaTools, "meta-tools", false, "add get_tool_info, which returns a tool's full usage notes (Level 2)")
	f.DurationVar(&opts.grace, "grace", mcp.DefaultGrace, "how long calls in flight may finish after a shutdown starts")
	f.IntVar(&opts.maxConcurrent, "max-concurrent", 0, "calls of process, script and network tools run at once (0: 2 per CPU, at least 4)")
	f.DurationVar(&opts.queueWait, "queue-wait", mcp.DefaultQueueWait, "how long a call over --max-concurrent waits for a slot before it is refused (0 refuses at once)")
	opts.maxRequestSize = mcp.DefaultMaxRequestBytes
	f.Var(&opts.maxRequestSize, "max-request-size", "largest request body over --http (e.g. 512KiB, 16MiB)")
	f.DurationVar(&opts.readTimeout, "read-timeout", mcp.DefaultReadTimeout, "how long a client may take to send a request body over --http")
	f.IntVar(&opts.maxConnections, "max-connections", mcp.DefaultMaxConnections, "connections open at once over --http; more wait")
	opts.run.register(f)
	return cmd
}

func runServe(opts *serveOptions, cmd *cobra.Command, args []string) error {
	app := opts.app
	flags := cmd.Flags()
	if opts.http == "" {
		for _, name := range []string{"http-path", "allow-remote", "allow-origin", "max-request-size", "read-timeout", "max-connections"} {
			if flags.Changed(name) {
				return usageError(fmt.Errorf("--%s applies to --http; add --http ADDR or drop it", name))
			}
		}
	}
	if opts.noLint && flags.Changed("lint") && opts.lint {
		return usageError(errors.New("--lint and --no-lint cannot be used together"))
	}
	lintOn := opts.lint && !opts.noLint
	if opts.grace < 0 {
		return usageError(fmt.Errorf("--grace %s: use a duration ≥ 0, e.g. 10s", opts.grace))
	}
	if opts.maxConcurrent < 0 {
		return usageError(fmt.Errorf("--max-concurrent %d: use a number ≥ 1 (0 picks 2 per CPU, at least 4)", opts.maxConcurrent))
	}
	if opts.queueWait < 0 {
		return usageError(fmt.Errorf("--queue-wait %s: use a duration ≥ 0, e.g. 5s (0 refuses calls over --max-concurrent at once)", opts.queueWait))
	}
	if opts.readTimeout <= 0 {
		return usageError(fmt.Errorf("--read-timeout %s: use a positive duration, e.g. 30s", opts.readTimeout))
	}
	if opts.maxConnections < 1 {
		return usageError(fmt.Errorf("--max-connections %d: use a number ≥ 1, e.g. 256", opts.maxConnections))
	}
	if opts.http != "" {
		if err := checkListenAddr(opts.http, opts.allowRemote); err != nil {
			return usageError(err)
		}
		if !strings.HasPrefix(opts.httpPath, "/") {
			return usageError(fmt.Errorf("--http-path %q: the path must start with /, e.g. /mcp", opts.httpPath))
		}
	}

	paths, err := app.defaultPaths(args)
	if err != nil {
		return err
	}
	files, err := spec.Collect(paths)
	if err != nil {
		return usageError(err)
	}
	if len(files) == 0 && !opts.watch {
		return usageError(fmt.Errorf("no tool files to serve in %s (toolctl reads .yaml, .yml and .json); add some, or pass --watch to serve them as they appear", strings.Join(paths, ", ")))
	}
	set := spec.LoadFiles(files)

	var check func(*spec.Set) map[string]string
	if lintOn {
		cfg, ignore, err := app.lintConfig()
		if err != nil {
			return usageError(err)
		}
		check = func(set *spec.Set) map[string]string { return app.lintErrors(set, cfg, ignore, lintSet) }
		if bad := app.lintFindings(set, cfg, ignore, lintSet); len(bad) > 0 {
			app.printLintFindings(set, bad)
			return &exitError{ExitProblems, fmt.Errorf("not serving: lint found errors in %s (above); fix them (toolctl lint %s), or pass --no-lint to serve anyway", lint.Plural(len(bad), "file", "files"), strings.Join(paths, " "))}
		}
	}

	// A server's live heap is a few MB and its garbage plentiful: 800%
	// took a fifth off a calculator call's CPU for ~60 MB peak RSS under
	// load; the 256 MiB soft limit bounds a large tool set.
	app.tuneGC(800, 256<<20)
	r, err := app.newRunner(&opts.run)
	if err != nil {
		return err
	}
	srv, err := mcp.New(mcp.Options{
		Paths:     paths,
		Runner:    r,
		Log:       app.IO.ErrOut,
		Check:     check,
		MetaTools: opts.metaTools,
		Name:      "toolctl",
		Version:   currentBuild().Version,

		MaxConcurrent: opts.maxConcurrent,
		QueueWait:     queueWait(opts.queueWait),
	})
	if err != nil {
		return err
	}
	sum := srv.Update(set, nil)
	if sum.Served == 0 && !opts.watch {
		return &exitError{ExitProblems, fmt.Errorf("no tool in %s can be served (%s read); see the messages above", strings.Join(paths, ", "), lint.Plural(len(set.Files), "file", "files"))}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if opts.watch {
		watching := make(chan struct{})
		go func() {
			if err := srv.Watch(ctx, func() { close(watching) }); err != nil {
				fmt.Fprintf(app.IO.ErrOut, "toolctl serve: --watch: %v; the tools are served but not reloaded\n", err)
				close(watching)
			}
		}()
		<-watching
	}
	what := lint.Plural(sum.Served, "tool", "tools")
	if opts.metaTools {
		what += " and get_tool_info"
	}
	if opts.http == "" {
		if !app.Quiet {
			fmt.Fprintf(app.IO.ErrOut, "toolctl serve: serving %s from %s over stdio%s\n", what, strings.Join(paths, ", "), watchNote(opts.watch))
		}
		// A client that closes its end first must not kill the server with
		// SIGPIPE mid-shutdown: a failed write ends the session instead.
		signal.Ignore(syscall.SIGPIPE)
		if app.IO.StdinTTY {
			fmt.Fprintln(app.IO.ErrOut, "toolctl serve: stdin is a terminal: this speaks MCP (JSON-RPC) on stdin/stdout for an MCP client to start; use --http ADDR to serve over HTTP, Ctrl-D to stop")
		}
		return srv.ServeStdio(ctx, app.IO.In, app.IO.Out, opts.grace)
	}

	hopts := mcp.HTTPOptions{
		Path:            opts.httpPath,
		TrustedOrigins:  opts.allowOrigins,
		MaxRequestBytes: int64(opts.maxRequestSize),
		ReadTimeout:     opts.readTimeout,
		MaxConnections:  opts.maxConnections,
	}
	h, err := srv.HTTPHandler(hopts)
	if err != nil {
		return usageError(fmt.Errorf("--allow-origin: %v", err))
	}
	ln, err := net.Listen("tcp", opts.http)
	if err != nil {
		return usageError(fmt.Errorf("--http %s: %v", opts.http, unwrapListenError(err)))
	}
	if !app.Quiet {
		// The address is printed as bound, so that port 0 can be used.
		fmt.Fprintf(app.IO.ErrOut, "toolctl serve: serving %s from %s at http://%s%s (Streamable HTTP)%s\n", what, strings.Join(paths, ", "), ln.Addr(), opts.httpPath, watchNote(opts.watch))
	}
	return srv.ServeHTTP(ctx, ln, h, hopts, opts.grace)
}

// queueWait maps --queue-wait to mcp.Options.QueueWait, where 0 is the
// default and a negative value refuses at once.
func queueWait(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// byteSize is a flag of a size in bytes: a whole number, optionally with
// a unit (KiB, MiB, GiB; K, M, G and KB, MB, GB mean the same).
type byteSize int64

func (b *byteSize) String() string {
	n := int64(*b)
	for _, u := range []struct {
		unit string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.unit
		}
	}
	return strconv.FormatInt(n, 10)
}

func (b *byteSize) Type() string { return "size" }

func (b *byteSize) Set(s string) error {
	num := strings.TrimRightFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	unit := strings.ToLower(strings.TrimSpace(s[len(num):]))
	mult := map[string]int64{"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30}[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || mult == 0 || n <= 0 || n > (1<<40)/mult {
		return fmt.Errorf("expected a size such as 4MiB, 512KiB or 1048576 (bytes), got %q", s)
	}
	*b = byteSize(n * mult)
	return nil
}

func watchNote(on bool) string {
	if on {
		return ", watching for changes"
	}
	return ""
}

// checkListenAddr accepts host:port on a loopback address, or any address
// with allowRemote: a tools server runs commands and reads files for
// whoever can reach it.
func checkListenAddr(addr string, allowRemote bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: expected host:port, e.g. 127.0.0.1:8080", addr)
	}
	if port == "" {
		return fmt.Errorf("--http %q: the port is missing, e.g. 127.0.0.1:8080 (0 picks a free port)", addr)
	}
	if allowRemote {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() {
		return nil
	}
	where := host
	if host == "" {
		where = "every interface"
	}
	return fmt.Errorf("--http %s listens on %s, not a loopback address: anyone who reaches it could run the tools; use 127.0.0.1:%s, or pass --allow-remote to mean it", addr, where, port)
}

func unwrapListenError(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err
	}
	return err
}
