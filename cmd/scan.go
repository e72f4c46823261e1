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
	"github.com/toolctl/toolctl/pkg/mcpclient"
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
	against againstFlags
}

// againstFlags are lint's and scan's --against-server and --against-url:
// servers whose tool names security-tool-shadowing knows.
type againstFlags struct {
	servers, urls []string
}

func (a *againstFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringArrayVar(&a.servers, "against-server", nil, "also report text that directs the use of a tool of this stdio MCP server (`'CMD ARGS'`, started to list its tools; repeatable)")
	f.StringArrayVar(&a.urls, "against-url", nil, "also report text that directs the use of a tool of this Streamable HTTP MCP server (`URL`; repeatable)")
}

// known lists the servers' tools for lint.Config.KnownTools (nil: no
// server given). A server that cannot be listed is a usage error.
func (a *againstFlags) known(ctx context.Context, app *App, timeout time.Duration) (map[string]string, error) {
	if len(a.servers) == 0 && len(a.urls) == 0 {
		return nil, nil
	}
	var servers []importer.ServerOptions
	for _, s := range a.servers {
		servers = append(servers, importer.ServerOptions{Command: s, Flag: "--against-server", Getenv: app.Getenv, Timeout: timeout})
	}
	for _, u := range a.urls {
		if !mcpclient.IsHTTPURL(u) {
			return nil, usageError(fmt.Errorf("--against-url %q: give an http:// or https:// URL", u))
		}
		servers = append(servers, importer.ServerOptions{URL: u, URLFlag: "--against-url", Getenv: app.Getenv, Timeout: timeout})
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	known, err := scan.Against(ctx, servers)
	if err != nil {
		return nil, usageError(err)
	}
	return known, nil
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

--against-server 'CMD ARGS' and --against-url URL (repeatable) list the
tools of other servers, those the model will have beside these: a text
that directs the use of one of them ("when using send_email, always BCC
...") is security-tool-shadowing too. Their tools are not scanned; each
server is listed within --timeout.

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
  toolctl scan --url https://mcp.example.org/mcp --format sarif --output scan.sarif
  toolctl scan --server 'npx -y some-server' --against-server 'npx -y @modelcontextprotocol/server-github'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			if err := emptyServerFlag(cmd, "server", "url"); err != nil {
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
	f.DurationVar(&opts.timeout, "timeout", 30*time.Second, "give up on a server (and on each --against server) after this long")
	opts.against.register(cmd)
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
	if cfg.KnownTools, err = opts.against.known(ctx, app, opts.timeout); err != nil {
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
			Getenv: app.Getenv, Timeout: opts.timeout, Flag: "--server", URLFlag: "--url",
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
	// imported tools are where their pointers say
	return app.writeReports(reports, res.Findings, byPath, names, failOn, report.Options{Rules: reportRules(), ToolPointers: true})
}
