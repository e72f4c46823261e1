package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/contract"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/mcpclient"
	"github.com/toolctl/toolctl/pkg/report"
	"github.com/toolctl/toolctl/pkg/run"
)

type testOptions struct {
	app      *App
	reports  reportList
	runExpr  string
	parallel int
	timeout  time.Duration
	offline  bool
	record   bool
	server   string
	url      string
	live     bool
	runner   runnerFlags
}

// testRule is the rule ID a failed example has in github and sarif reports.
const testRule = "example-failed"

func newCmdTest(app *App) *cobra.Command {
	opts := &testOptions{app: app}
	cmd := &cobra.Command{
		Use:   "test [paths...]",
		Short: "Run every tool's examples and compare the results with expected",
		Long: `Run each example of every tool (default: the tools directory) through the
runner of toolctl run (bind, defaults, validation, timeout, retries) and
compare its result with the example's expected value, like go test runs
Example functions.

expected is a subset match by default: every key of an expected object must be
in the result with a matching value, arrays match element by element (same
length), numbers exactly (1 and 1.0 match), strings exactly. An example may
refine it with an expect: object beside expected:

  expect:
    match: exact          # or subset (the default)
    tolerance: 0.01       # numbers match within it
    contains: "London"    # the result as text (JSON if not a string) contains it
    pattern: "^[a-z-]+$"  # ... matches this regular expression
    schema: {type: object, required: [slug]}
    error: {type: ValidationError, message: "text"}   # the call must fail so

The tool's output schema, when it has one, is always checked. Examples that
cannot run here are skipped with the reason: an llm_call, a secret (a bound
env variable or a ${VAR} of the entry) that is not set, the network under
--offline.

Cassettes: http entries, the http_request builtin and mcp entries replay
testdata/NAME.cassette.yaml beside the tool file when it exists, so CI needs
neither the network nor the secrets (an unset secret reads as a placeholder);
a request the cassette does not hold fails (the tool's request changed).
mcp entries replay their upstream server's messages from theirs without
starting it. --record calls the network and the servers and (re)writes the
cassettes, with every secret (bound env variables, ${VAR}s) redacted; --live
ignores them.

Output: a line per tool (ok, FAIL, skip and why), and for a failed example its
file:line:col and a diff by JSON path; -v adds a line per example with its
duration. --format json|junit|github|sarif (with --output FILE, repeatable)
writes reports beside the text.

Exit codes: 0 every selected example passed or was skipped; 1 an example
failed (or a file did not load); 2 usage (bad flag, missing path, no example
selected by --run, bad --run pattern).`,
		Example: `  toolctl test
  toolctl test tools/ -v --run 'calculator/Round'
  toolctl test --offline --format junit --output test-results.xml
  toolctl test --record tools/weather_forecast.yaml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			if err := emptyServerFlag(cmd, "server", "url"); err != nil {
				return err
			}
			return runTest(opts, args)
		},
	}
	f := cmd.Flags()
	f.Var(&formatFlag{&opts.reports}, "format", "report format: text, "+strings.Join(report.TestFormats, ", ")+" (repeatable)")
	f.Var(&outputFlag{&opts.reports}, "output", "write the report of the --format before it to `FILE` (default stdout)")
	f.StringVar(&opts.runExpr, "run", "", "run only the examples whose TOOL/SCENARIO matches `REGEX` (scenario spaces are underscores)")
	f.IntVarP(&opts.parallel, "parallel", "p", runtime.NumCPU(), "tools tested at once; the examples of one tool run in order")
	f.DurationVar(&opts.timeout, "timeout", 10*time.Minute, "deadline of the whole run (0: none); each call keeps its tool's runtime.timeout")
	f.BoolVar(&opts.offline, "offline", false, "skip the examples that need the network (http entries, http_request, mcp servers at a URL)")
	f.BoolVar(&opts.record, "record", false, "call the network (and mcp servers) and write each http and mcp tool's cassette, testdata/NAME.cassette.yaml beside its file (secrets redacted)")
	f.BoolVar(&opts.live, "live", false, "ignore cassettes: call the network even where a cassette exists")
	f.StringVar(&opts.server, "server", "", "test a live MCP server started with `CMD ARGS`: the files are the contract (schemas compared as toolctl breaking does, examples called through it)")
	f.StringVar(&opts.url, "url", "", "test a live MCP server at `URL` (Streamable HTTP), as --server does")
	f.Var(&opts.runner.retries, "retries", "retries after a retryable failure, overriding runtime.retries (0 disables)")
	f.StringVar(&opts.runner.root, "root", "", "directory file_reader is confined to (default: the working directory)")
	f.StringVar(&opts.runner.python, "python", "", "Python interpreter for python entries that name none (default python3)")
	return cmd
}

// emptyServerFlag is the usage error of a server flag given as "" (a
// script's unset variable): without it the command would quietly work on
// the local tool files instead of the server.
func emptyServerFlag(cmd *cobra.Command, names ...string) error {
	for _, name := range names {
		if v, _ := cmd.Flags().GetString(name); cmd.Flags().Changed(name) && strings.TrimSpace(v) == "" {
			return usageError(fmt.Errorf("--%s is empty; give the server's command line (--server 'toolctl serve tools') or URL (--url http://127.0.0.1:8080/mcp)", name))
		}
	}
	return nil
}

func runTest(opts *testOptions, args []string) error {
	app := opts.app
	if opts.parallel < 1 {
		return usageError(fmt.Errorf("-p %d: give at least 1 tool at a time", opts.parallel))
	}
	var filter *regexp.Regexp
	if opts.runExpr != "" {
		re, err := regexp.Compile(opts.runExpr)
		if err != nil {
			return usageError(fmt.Errorf("--run %q: %v", opts.runExpr, err))
		}
		filter = re
	}
	reports := opts.reports
	textOut := true
	for _, r := range reports {
		if r.output == "" && r.format != "text" {
			textOut = false // the one report on stdout is a machine format
		}
	}
	for _, r := range reports {
		if r.format == "text" && r.output != "" {
			return usageError(errors.New("--format text goes to standard output; give --output to json, junit, github or sarif"))
		}
	}
	paths, err := app.defaultPaths(args)
	if err != nil {
		return err
	}
	set, err := app.loadTools(paths)
	if err != nil {
		return err
	}
	bad := countBadFiles(set)
	for _, f := range set.Files {
		for _, e := range f.Errors {
			fmt.Fprintf(app.IO.ErrOut, "%s\n", e.Error())
		}
	}
	r, err := app.newRunner(&opts.runner)
	if err != nil {
		return err
	}
	r.Events = nil
	if opts.record && opts.live {
		return usageError(errors.New("--record and --live cannot be used together (--record calls the network already)"))
	}
	mode := contract.Replay
	switch {
	case opts.record:
		mode = contract.Record
	case opts.live:
		mode = contract.Live
	}
	if opts.record && opts.offline {
		return usageError(errors.New("--record needs the network; drop --offline"))
	}
	newRunner := func(getenv func(string) string, client *http.Client) *run.Runner {
		cr, err := app.newRunner(&opts.runner)
		if err != nil {
			return r // the same settings were read once already
		}
		cr.Events, cr.Getenv, cr.Options.HTTPClient = nil, getenv, client
		return cr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if opts.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.timeout)
		defer cancel()
	}
	var server *contract.Server
	if opts.server != "" || opts.url != "" {
		if opts.server != "" && opts.url != "" {
			return usageError(errors.New("--server and --url cannot be used together; give one server"))
		}
		if opts.record || opts.live {
			return usageError(errors.New("--record and --live are for the tools' own entries, not --server/--url"))
		}
		if opts.url != "" && !mcpclient.IsHTTPURL(opts.url) {
			return usageError(fmt.Errorf("--url %q: give an http:// or https:// URL (for a command, use --server)", opts.url))
		}
		where := firstNonEmpty(opts.server, opts.url)
		server, err = contract.Connect(ctx, where, app.IO.ErrOut)
		if err != nil {
			return usageError(err)
		}
		defer server.Close()
	}
	copts := contract.Options{
		Server: server,
		Runner: r, Getenv: app.Getenv, Offline: opts.offline, Filter: filter, Parallel: opts.parallel,
		Cassettes: mode, NewRunner: newRunner,
	}
	if textOut {
		// each tool's lines as soon as it and the tools before it finished
		copts.ToolDone = func(tr *contract.ToolResult) { writeToolText(app.IO.Out, tr, app.Verbose) }
	}
	results := contract.Run(ctx, set.Tools(), copts)
	if len(results) == 0 {
		what := "no tool in " + strings.Join(paths, ", ") + " has examples"
		if filter != nil {
			what = fmt.Sprintf("no example matches --run %q", opts.runExpr)
		}
		if bad > 0 {
			fmt.Fprintf(app.IO.ErrOut, "%s; %d file(s) did not load\n", what, bad)
			return problemsFound()
		}
		return usageError(errors.New(what))
	}
	if textOut {
		writeTestSummary(app.IO.Out, results)
	}
	cwd, _ := os.Getwd()
	cases := testCases(results)
	for _, rs := range reports {
		if rs.format == "text" {
			continue
		}
		if !slices.Contains(report.TestFormats, rs.format) {
			return usageError(fmt.Errorf("--format %s: test writes text, %s", rs.format, strings.Join(report.TestFormats, ", ")))
		}
		opt := report.Options{Root: cwd, Version: currentBuild().Version, Rules: []report.Rule{{ID: testRule, Description: "An example's result does not match its expected value", Severity: diag.Error}}}
		var buf strings.Builder
		if err := report.WriteTests(&buf, rs.format, testRule, cases, opt); err != nil {
			return usageError(err)
		}
		if rs.output == "" || rs.output == "-" {
			fmt.Fprint(app.IO.Out, buf.String())
		} else if err := writeFileAtomic(rs.output, []byte(buf.String())); err != nil {
			return usageError(err)
		}
	}
	for _, tr := range results {
		if tr.Status == contract.Fail {
			return problemsFound()
		}
	}
	if bad > 0 {
		return problemsFound()
	}
	return nil
}

// writeToolText writes a tool's part of go test's layout: its failed
// examples (every example with -v), then its line.
func writeToolText(w io.Writer, tr *contract.ToolResult, verbose bool) {
	for _, d := range tr.Problems {
		fmt.Fprintf(w, "--- FAIL: %s (input schema)\n    %s: the server's schema differs: %s [%s]\n", tr.Tool.Name, diag.Where(d.File, d.Span.Start), d.Message, d.Rule)
	}
	for _, o := range tr.Outcomes {
		switch {
		case o.Status == contract.Fail:
			fmt.Fprintf(w, "--- FAIL: %s (%s%s)\n", o.Name(), seconds(o.Duration), replayed(o))
			// A reason or a diff quotes the tool's answer: in a terminal or
			// a CI log it must not drive the display (escape sequences).
			fmt.Fprintf(w, "    %s: %s\n", o.Where(), run.Printable(o.Reason, true))
			for _, d := range o.Diffs {
				fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(run.Printable(d.String(), true), "\n", "\n    "))
			}
		case verbose && o.Status == contract.Skip:
			fmt.Fprintf(w, "--- SKIP: %s (%s)\n    %s\n", o.Name(), seconds(o.Duration), o.Reason)
		case verbose:
			fmt.Fprintf(w, "--- PASS: %s (%s%s)\n", o.Name(), seconds(o.Duration), replayed(o))
		}
	}
	switch tr.Status {
	case contract.Fail:
		fmt.Fprintf(w, "FAIL\t%s\t%s\n", tr.Tool.Name, seconds(tr.Duration))
	case contract.Skip:
		fmt.Fprintf(w, "skip\t%s\t(%s)\n", tr.Tool.Name, tr.Reason)
	default:
		fmt.Fprintf(w, "ok  \t%s\t%s%s\n", tr.Tool.Name, seconds(tr.Duration), skippedNote(tr))
	}
}

// writeTestSummary ends the text report: PASS, or FAIL when a tool failed.
func writeTestSummary(w io.Writer, results []*contract.ToolResult) {
	for _, tr := range results {
		if tr.Status == contract.Fail {
			fmt.Fprintln(w, "FAIL")
			return
		}
	}
	fmt.Fprintln(w, "PASS")
}

func skippedNote(tr *contract.ToolResult) string {
	n := 0
	for _, o := range tr.Outcomes {
		if o.Status == contract.Skip {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d of %d examples skipped)", n, len(tr.Outcomes))
}

func replayed(o *contract.Outcome) string {
	if o.Replayed {
		return ", replayed"
	}
	return ""
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }

func testCases(results []*contract.ToolResult) []report.TestCase {
	var out []report.TestCase
	for _, tr := range results {
		for _, d := range tr.Problems {
			out = append(out, report.TestCase{Suite: tr.Tool.Name, Name: tr.Tool.Name + "/input_schema", File: d.File, Pos: d.Span.Start,
				Status: string(contract.Fail), Message: "the server's schema differs: " + d.Message + " [" + d.Rule + "]"})
		}
		for _, o := range tr.Outcomes {
			var diff []string
			for _, d := range o.Diffs {
				diff = append(diff, d.String())
			}
			out = append(out, report.TestCase{
				Suite: tr.Tool.Name, Name: o.Name(), File: o.File, Pos: o.Pos,
				Status: string(o.Status), Message: o.Reason, Detail: strings.Join(diff, "\n"),
				Seconds: o.Duration.Seconds(),
			})
		}
	}
	return out
}
