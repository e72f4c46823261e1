package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/breaking"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/lock"
	"github.com/toolctl/toolctl/pkg/report"
	"github.com/toolctl/toolctl/pkg/spec"
)

type verifyOptions struct {
	app      *App
	paths    []string
	lock     string
	reports  reportList
	failOn   string
	upstream bool
	timeout  time.Duration
}

func newCmdVerify(app *App) *cobra.Command {
	opts := &verifyOptions{app: app}
	cmd := &cobra.Command{
		Use:   "verify [paths...]",
		Short: "Check the tools against toolctl.lock: report every changed, added or removed tool",
		Long: `Re-compute the canonical definition of every tool and compare it with
toolctl.lock (written by toolctl lock). Without paths, verify reads the paths
recorded in the lock. Each difference is an error finding:

  lock-tool-changed  the definition differs from the pinned one; one finding
                     per difference toolctl breaking reports (at its line:col),
                     or the canonical fields that differ
  lock-tool-added    a tool the lock does not pin
  lock-tool-removed  a pinned tool that is gone (at the lock file's entry)

With --upstream, verify also connects to the MCP servers of mcp entries
(starting stdio servers) and compares what they list with the servers the
lock pins (toolctl lock --upstream): lock-upstream-changed (a tool or the
serverInfo differs, with breaking's diff), lock-upstream-added (a server or
tool not pinned), lock-upstream-removed, at the entry.server of the first
tool calling the server. Off by default: it runs the commands the tool
files name.

Formatting, key order, comments and dialect are no changes. After reviewing a
change, run toolctl lock again and commit the lock with it.

Exit codes: 0 the tools match the lock; 1 findings at or above --fail-on;
2 usage (no lock file, a malformed lock file (FILE:LINE:COL), tool files that
do not load).`,
		Example: `  toolctl verify
  toolctl verify --format github
  toolctl verify --lock ci/tools.lock --format sarif --output verify.sarif`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			opts.paths = args
			return runVerify(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.lock, "lock", lock.FileName, "the lock `FILE` to check against")
	f.Var(&formatFlag{&opts.reports}, "format", "report format: "+strings.Join(report.Formats, ", ")+" (repeatable)")
	f.Var(&outputFlag{&opts.reports}, "output", "write the report of the --format before it to `FILE` (default stdout)")
	f.StringVar(&opts.failOn, "fail-on", "error", "lowest severity that fails the run: error, warning or info")
	f.BoolVar(&opts.upstream, "upstream", false, "also check the tools of the MCP servers mcp entries call (connects to them: starts stdio servers)")
	f.DurationVar(&opts.timeout, "timeout", 60*time.Second, "time limit for listing each upstream server")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(report.Formats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]string{"error", "warning", "info"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runVerify(opts *verifyOptions) error {
	app := opts.app
	failOn, err := diag.ParseSeverity(opts.failOn)
	if err != nil || failOn == diag.Off {
		return usageError(fmt.Errorf("--fail-on %q: use error, warning or info", opts.failOn))
	}
	reports, err := opts.reports.orText()
	if err != nil {
		return err
	}
	lf, err := readLock(opts.lock)
	if err != nil {
		return err
	}
	paths := opts.paths
	if len(paths) == 0 && len(lf.Paths) > 0 {
		dir := filepath.Dir(opts.lock)
		for _, p := range lf.Paths {
			paths = append(paths, filepath.Join(dir, filepath.FromSlash(p)))
		}
	}
	if paths, err = app.defaultPaths(paths); err != nil {
		return err
	}
	side, err := breaking.LoadPaths(paths)
	if err != nil {
		return usageError(err)
	}
	findings := lock.Verify(lf, side)
	if opts.upstream {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		for _, u := range lock.Upstreams(side) {
			res, err := lock.Connect(ctx, u, app.Getenv, opts.timeout)
			if err != nil {
				return usageError(fmt.Errorf("upstream server %s (%s): %w", u.Server, diag.Where(u.Tool.File, u.Tool.Span("/entry/server").Start), err))
			}
			findings = append(findings, lock.VerifyServer(lf, u, res)...)
		}
	} else if len(lf.Servers) > 0 && !app.Quiet {
		fmt.Fprintf(app.IO.ErrOut, "toolctl: note: %s pins %s; toolctl verify --upstream checks them\n", opts.lock, diag.Plural(len(lf.Servers), "upstream server", "upstream servers"))
	}
	slices.SortStableFunc(findings, func(a, b diag.Diagnostic) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Span.Start.Line != b.Span.Start.Line {
			return a.Span.Start.Line - b.Span.Start.Line
		}
		return a.Span.Start.Col - b.Span.Start.Col
	})
	app.logf("verified %s against %s: %s", diag.Plural(len(side.Tools), "tool", "tools"), opts.lock, diag.Plural(len(findings), "finding", "findings"))

	byPath := map[string]*spec.File{}
	var names []string
	for _, f := range side.Files {
		byPath[f.Path] = f
		names = append(names, f.Path)
	}
	slices.Sort(names)
	var rules []report.Rule
	for _, r := range lock.Rules {
		rules = append(rules, report.Rule{ID: r.ID, Description: r.Description, Severity: diag.Error})
	}
	return app.writeReports(reports, findings, byPath, names, failOn, report.Options{Rules: rules})
}
