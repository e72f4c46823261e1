package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/report"
	"github.com/toolctl/toolctl/pkg/scan"
	"github.com/toolctl/toolctl/pkg/spec"
)

type scanOptions struct {
	app     *App
	paths   []string
	server  string
	url     string
	headers []string
	timeout time.Duration
	reports reportList
	failOn  string
}

func newCmdScan(app *App) *cobra.Command {
	opts := &scanOptions{app: app}
	cmd := &cobra.Command{
		Use:   "scan [paths...]",
		Short: "Check tool definitions for poisoning: hidden characters and instructions, look-alike names, links",
		Long: `Run lint's security rules (toolctl lint --list-rules: security-*) on tool
definitions without writing tool files first: tool files and directories
(default: the tools directory), a saved tools/list answer or a provider
export (any format toolctl import reads, detected), or a live MCP server
(--server 'CMD ARGS' for stdio, --url for Streamable HTTP).

Findings in tool files are at their file:line:col. Imported tools have no
file of their own: their findings name the tool and the JSON pointer of the
value (for a live server, into its tools/list answer: /tools/INDEX/...), at
the tool's line in a saved file.

Reports, --fail-on and exit codes are lint's: 0 no finding at or above
--fail-on; 1 findings at or above it; 2 usage or I/O error (a server that
cannot be reached). The lint section of .toolctl.yaml applies: rules
(severities), overrides, ignore and security (extra patterns, allowed hosts).`,
		Example: `  toolctl scan
  toolctl scan tools.json --fail-on warning
  toolctl scan --server 'npx -y @modelcontextprotocol/server-filesystem /tmp'
  toolctl scan --url https://mcp.example.org/mcp --format sarif --output scan.sarif`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			opts.paths = args
			return runScan(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.server, "server", "", "scan the tools of a stdio MCP server started with this command line")
	f.StringVar(&opts.url, "url", "", "scan the tools of a Streamable HTTP MCP server at this URL")
	f.StringArrayVar(&opts.headers, "header", nil, "HTTP header for --url, \"Name: value\" (repeatable; ${ENV} is expanded)")
	f.DurationVar(&opts.timeout, "timeout", 30*time.Second, "give up on a server after this long")
	f.Var(&formatFlag{&opts.reports}, "format", "report format: "+strings.Join(report.Formats, ", ")+" (repeatable)")
	f.Var(&outputFlag{&opts.reports}, "output", "write the report of the --format before it to `FILE` (default stdout)")
	f.StringVar(&opts.failOn, "fail-on", "error", "lowest severity that fails the run: error, warning or info")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(report.Formats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]string{"error", "warning", "info"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runScan(ctx context.Context, opts *scanOptions) error {
	app := opts.app
	failOn, err := lint.ParseSeverity(opts.failOn)
	if err != nil || failOn == lint.Off {
		return usageError(fmt.Errorf("--fail-on %q: use error, warning or info", opts.failOn))
	}
	live := opts.server != "" || opts.url != ""
	switch {
	case opts.server != "" && opts.url != "":
		return usageError(errors.New("--server and --url each name a server; give one"))
	case live && len(opts.paths) > 0:
		return usageError(errors.New("--server and --url scan a server; give paths in a separate run"))
	case len(opts.headers) > 0 && opts.url == "":
		return usageError(errors.New("--header applies to --url only"))
	}
	cfg, ignore, err := app.lintConfig()
	if err != nil {
		return usageError(err)
	}
	reports, err := opts.reports.orText()
	if err != nil {
		return err
	}

	var res *scan.Result
	if live {
		if ctx == nil {
			ctx = context.Background()
		}
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
		defer stop()
		res, err = scan.Server(ctx, importer.ServerOptions{
			Command: opts.server, URL: opts.url, Headers: opts.headers,
			Getenv: app.Getenv, Timeout: opts.timeout,
		}, cfg)
		if err != nil {
			return usageError(err)
		}
	} else {
		paths, err := app.defaultPaths(opts.paths)
		if err != nil {
			return err
		}
		files, err := scan.Collect(paths)
		if err != nil {
			return usageError(err)
		}
		files = slices.DeleteFunc(files, func(f string) bool { return app.ignored(ignore, f) })
		if len(files) == 0 {
			return usageError(fmt.Errorf("no tool files to scan in %s (toolctl scan reads .yaml, .yml, .json and .jsonl)", strings.Join(paths, ", ")))
		}
		if res, err = scan.Files(files, cfg); err != nil {
			return usageError(err)
		}
	}

	byPath := make(map[string]*spec.File, len(res.Set.Files))
	for _, f := range res.Set.Files {
		byPath[f.Path] = f
	}
	names := slices.Clone(res.Inputs)
	slices.Sort(names)
	cwd, _ := os.Getwd()
	for _, rs := range reports {
		opt := report.Options{
			Color:   app.Color && rs.output == "",
			Source:  func(p string) *spec.File { return byPath[p] },
			Root:    cwd,
			Version: currentBuild().Version,
			Rules:   reportRules(),
			Quiet:   app.Quiet,
		}
		if err := writeReport(app.IO.Out, rs, res.Findings, report.Summary{Files: names}, opt); err != nil {
			return usageError(err)
		}
	}
	for _, f := range res.Findings {
		if f.Severity >= failOn {
			return problemsFound()
		}
	}
	return nil
}
