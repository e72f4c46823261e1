package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/breaking"
	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/config"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/report"
	"github.com/toolctl/toolctl/pkg/spec"
)

type breakingOptions struct {
	app           *App
	paths         []string
	against       string
	againstServer string
	againstURL    string
	server        string
	url           string
	headers       []string
	timeout       time.Duration
	reports       reportList
	failOn        string
	targets       []string
	explain       string
	listRules     bool
}

// toolctl:ignore comments may name breaking's rules: lint leaves them be.
func init() {
	lint.OtherRules = func(id string) bool { _, ok := breaking.Lookup(id); return ok }
}

func newCmdBreaking(app *App) *cobra.Command {
	opts := &breakingOptions{app: app}
	cmd := &cobra.Command{
		Use:   "breaking [paths...] --against REF|DIR|FILE",
		Short: "Report the changes that break agents' calls, against a git ref, files or a live MCP server",
		Long: `Compare the tools in paths (default: the tools directory) with an older version
and report what breaks the agents that call them: removed or renamed tools,
removed parameters, new required ones, narrowed types, removed enum values,
tightened bounds, closed objects (call, error); removed or retyped output fields
(result, error); weaker safety hints, another entry target, a shorter timeout
(behaviour, warning); changed descriptions, titles and examples (prompt, info);
a provider pack the new version fails (provider, with --target); and a break
without a major version bump (version). Additions that break nothing are listed
with -v. toolctl breaking --list-rules lists the rules; --explain RULE explains
one with a bad and a good example.

The old version (--against) is, in this order: a file or directory (tool files,
or any input toolctl import reads: an OpenAI, Anthropic or Gemini tools array,
an MCP tools/list result), else a git ref (main, origin/main, v1.2.0, HEAD~1):
the same paths at that revision, read with git without touching the work tree.
--against-server 'CMD ARGS' and --against-url URL compare with a live MCP
server; --server and --url make the new side a live server.

Comparisons are semantic: formatting, comments, key order, file layout and
dialect are no changes ($refs are resolved; type: [T, null], nullable: true and
anyOf [T, {type: null}] are the same). Tools are matched by name.

Findings point at the new file's line:col, removals at the old one
(REF:path:line:col for a git ref). Settings come from the breaking section of
.toolctl.yaml: rules (rule ID or category: off|info|warning|error, e.g.
prompt: warning), ignore (globs, both sides) and targets. Inline comments as
lint's: "# toolctl:ignore RULE -- reason" on a line (or the line before) of the
new file, "# toolctl:ignore-file RULE -- reason" anywhere in it (for removals of
its tool's parameters too).

Exit codes: 0 no finding at or above --fail-on; 1 findings at or above it;
2 usage (an unknown ref, not a git repository, files that do not load, an
unreachable server: the message says which).`,
		Example: `  toolctl breaking --against main
  toolctl breaking tools/ --against origin/main --format github
  toolctl breaking --against v1.2.0 --fail-on warning --target openai
  toolctl breaking --against snapshot/tools.json
  toolctl breaking --server 'python server.py' --against snapshot.json
  toolctl breaking --explain param-removed`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			opts.paths = args
			return runBreaking(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.against, "against", "", "the old version: a file, a directory or a git `REF`")
	f.StringVar(&opts.againstServer, "against-server", "", "the old version is the stdio MCP server started with this `command line`")
	f.StringVar(&opts.againstURL, "against-url", "", "the old version is the Streamable HTTP MCP server at `URL`")
	f.StringVar(&opts.server, "server", "", "the new version is the stdio MCP server started with this `command line` (instead of paths)")
	f.StringVar(&opts.url, "url", "", "the new version is the Streamable HTTP MCP server at `URL` (instead of paths)")
	f.StringArrayVar(&opts.headers, "header", nil, "HTTP header for --url/--against-url, \"Name: value\" (repeatable; ${ENV} is expanded)")
	f.DurationVar(&opts.timeout, "timeout", 60*time.Second, "time limit for reading a live server")
	f.Var(&formatFlag{&opts.reports}, "format", "report format: "+strings.Join(report.Formats, ", ")+" (repeatable)")
	f.Var(&outputFlag{&opts.reports}, "output", "write the report of the --format before it to `FILE` (default stdout)")
	f.StringVar(&opts.failOn, "fail-on", "error", "lowest severity that fails the run: error, warning or info")
	f.StringSliceVar(&opts.targets, "target", nil, "provider packs to check (provider rule): "+strings.Join(compat.Targets, ","))
	f.BoolVar(&opts.listRules, "list-rules", false, "list the rules (with --format json: as JSON) and exit")
	f.StringVar(&opts.explain, "explain", "", "explain `RULE` with a bad and a good example, and exit")
	_ = cmd.RegisterFlagCompletionFunc("against", func(c *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		// git refs, and files and directories (the shell's own completion)
		ctx := c.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		return breaking.GitRefs(ctx, "."), cobra.ShellCompDirectiveDefault
	})
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(report.Formats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]string{"error", "warning", "info"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("target", cobra.FixedCompletions(compat.Targets, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("explain", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		var ids []string
		for _, r := range breaking.Rules() {
			ids = append(ids, r.ID+"\t"+r.Description)
		}
		return ids, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func runBreaking(ctx context.Context, opts *breakingOptions) error {
	app := opts.app
	if opts.explain != "" {
		return explainBreaking(app.IO.Out, opts.explain)
	}
	if opts.listRules {
		return listBreakingRules(app, opts)
	}
	failOn, err := diag.ParseSeverity(opts.failOn)
	if err != nil || failOn == diag.Off {
		return usageError(fmt.Errorf("--fail-on %q: use error, warning or info", opts.failOn))
	}
	olds := 0
	for _, s := range []string{opts.against, opts.againstServer, opts.againstURL} {
		if s != "" {
			olds++
		}
	}
	if olds != 1 {
		return usageError(errors.New("give the old version with exactly one of --against REF|DIR|FILE, --against-server 'CMD ARGS' or --against-url URL"))
	}
	if opts.server != "" && opts.url != "" {
		return usageError(errors.New("--server and --url cannot be used together; pick one server"))
	}
	if (opts.server != "" || opts.url != "") && len(opts.paths) > 0 {
		return usageError(fmt.Errorf("give either paths (%s) or a live server (--server/--url) as the new version, not both", strings.Join(opts.paths, ", ")))
	}
	section, err := config.Get[config.Breaking](app.config)
	if err != nil {
		return usageError(err)
	}
	cfg, err := breaking.ParseConfig(section.File, section.Node)
	if err != nil {
		return usageError(err)
	}
	if opts.targets != nil {
		for _, t := range opts.targets {
			if !slices.Contains(compat.Targets, t) {
				return usageError(fmt.Errorf("--target %q: use one or more of %s", t, strings.Join(compat.Targets, ",")))
			}
		}
		cfg.Targets = opts.targets
	}
	reports, err := opts.reports.orText()
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()

	start := time.Now()
	var newSide *breaking.Side
	var paths []string
	if opts.server != "" || opts.url != "" {
		newSide, err = app.breakingServer(ctx, opts, opts.server, opts.url, "")
	} else {
		paths, err = app.defaultPaths(opts.paths)
		if err != nil {
			return err
		}
		newSide, err = breaking.LoadPaths(paths)
	}
	if err != nil {
		return usageError(err)
	}
	var oldSide *breaking.Side
	switch {
	case opts.againstServer != "" || opts.againstURL != "":
		oldSide, err = app.breakingServer(ctx, opts, opts.againstServer, opts.againstURL, "--against")
	case pathExists(opts.against):
		if !strings.ContainsAny(opts.against, `/\`) && breaking.IsGitRef(ctx, ".", opts.against) && !app.Quiet {
			fmt.Fprintf(app.IO.ErrOut, "toolctl: note: --against %s is both a path and a git ref; comparing with the path (write heads/%s or %s^{commit} for the ref)\n", opts.against, opts.against, opts.against)
		}
		oldSide, err = breaking.LoadPaths([]string{opts.against})
	default:
		if paths == nil { // the new side is a server: the tools directory at REF
			if paths, err = app.defaultPaths(nil); err != nil {
				return err
			}
		}
		oldSide, err = breaking.LoadGit(ctx, ".", opts.against, paths)
	}
	if err != nil {
		return usageError(err)
	}
	if len(oldSide.Tools) == 0 && !app.Quiet {
		fmt.Fprintf(app.IO.ErrOut, "toolctl: note: %s has no tools; every tool counts as new\n", oldSide.Label)
	}
	if len(newSide.Tools) == 0 && len(oldSide.Tools) > 0 && !app.Quiet {
		fmt.Fprintf(app.IO.ErrOut, "toolctl: note: %s has no tools; every tool counts as removed\n", newSide.Label)
	}
	if len(cfg.Ignore) > 0 {
		breaking.Drop(oldSide, newSide, func(file string) bool { return app.ignored(cfg.Ignore, file) })
	}
	findings := breaking.Compare(oldSide.Tools, newSide.Tools, breaking.Options{
		Severity: cfg.Severity, Additions: app.Verbose, Targets: cfg.Targets,
		Ignore: breaking.InlineIgnores(newSide),
	})
	app.logf("compared %s with %s (%s) in %s: %s", diag.Plural(len(newSide.Tools), "tool", "tools"), diag.Plural(len(oldSide.Tools), "tool", "tools"), oldSide.Label, time.Since(start).Round(time.Millisecond), diag.Plural(len(findings), "finding", "findings"))

	byPath := map[string]*spec.File{}
	var names []string
	for _, f := range oldSide.Files {
		byPath[f.Path] = f
	}
	for _, f := range newSide.Files {
		byPath[f.Path] = f
		names = append(names, f.Path)
	}
	slices.Sort(names)
	return app.writeReports(reports, findings, byPath, names, failOn, report.Options{Rules: breakingReportRules()})
}

// breakingServer lists a live server's tools for one side; prefix is
// that of its flags ("" for --server/--url, "--against" for
// --against-server/--against-url).
func (app *App) breakingServer(ctx context.Context, opts *breakingOptions, command, url, prefix string) (*breaking.Side, error) {
	var stderr io.Writer
	if app.Verbose {
		stderr = app.IO.ErrOut
	}
	return breaking.LoadServer(ctx, importer.ServerOptions{
		Command: command, URL: url, Headers: opts.headers,
		Getenv: app.Getenv, Stderr: stderr, Timeout: opts.timeout,
		Flag: flagName(prefix, "server"), URLFlag: flagName(prefix, "url"),
	})
}

// flagName is --NAME, or PREFIX-NAME.
func flagName(prefix, name string) string {
	if prefix == "" {
		return "--" + name
	}
	return prefix + "-" + name
}

func pathExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func explainBreaking(w io.Writer, id string) error {
	r, ok := breaking.Lookup(id)
	if !ok {
		hint := "; see toolctl breaking --list-rules"
		if s := spec.Suggest(id, breaking.RuleIDs()); s != "" {
			hint = fmt.Sprintf("; did you mean %q?", s)
		}
		return usageError(fmt.Errorf("unknown rule %q%s", id, hint))
	}
	fmt.Fprintf(w, "%s (%s, %s by default)\n\n%s\n\n%s\n", r.ID, r.Category, r.Severity, r.Description, r.Explain)
	return nil
}

// breakingRuleItem is the JSON form of a rule in --list-rules; field names
// are stable.
type breakingRuleItem struct {
	ID          string `json:"id"`
	Category    string `json:"category"`
	Severity    string `json:"severity"`
	Description string `json:"description"`
}

func listBreakingRules(app *App, opts *breakingOptions) error {
	format := "text"
	if len(opts.reports) > 0 {
		format = opts.reports[0].format
	}
	var items []breakingRuleItem
	for _, r := range breaking.Rules() {
		items = append(items, breakingRuleItem{r.ID, r.Category, r.Severity.String(), r.Description})
	}
	switch format {
	case "json":
		return writeJSON(app.IO.Out, items)
	case "text":
		rows := make([][]string, len(items))
		for i, it := range items {
			rows[i] = []string{it.ID, it.Category, it.Severity, it.Description}
		}
		writeTable(app.IO.Out, app.styles(), []string{"RULE", "CATEGORY", "SEVERITY", "CHECKS"}, rows)
		return nil
	}
	return usageError(fmt.Errorf("--list-rules prints text or json, not %s", format))
}

func breakingReportRules() []report.Rule {
	var out []report.Rule
	for _, r := range breaking.Rules() {
		out = append(out, report.Rule{ID: r.ID, Description: r.Description, Explain: r.Explain, Severity: r.Severity})
	}
	return out
}
