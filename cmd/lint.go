package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/config"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/report"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

type lintOptions struct {
	app         *App
	paths       []string
	reports     reportList
	failOn      string
	profile     string
	targets     []string
	listRules   bool
	explain     string
	baseline    string
	baselineOut string
	against     againstFlags
	timeout     time.Duration
}

func newCmdLint(app *App) *cobra.Command {
	opts := &lintOptions{app: app}
	cmd := &cobra.Command{
		Use:   "lint [paths...]",
		Short: "Check tool files: positions, rule IDs, every output CI needs",
		Long: `Lint tool files and directories (default: the tools directory). Every finding
has a file:line:col, a severity, a message that says how to fix it and a rule ID
(toolctl lint --list-rules; toolctl lint --explain RULE).

Settings come from the lint section of .toolctl.yaml: profile, targets, rules
(rule-id: off|info|warning|error), categories, limits, ignore (globs),
overrides ([{files: [globs], rules: {...}}], the last match wins), security
and budget ({model, format, tool, total}: token budgets, see toolctl tokens). In YAML files
a comment "# toolctl:ignore RULE -- reason" ignores a finding on its line (or,
on a line of its own, on the next line); "# toolctl:ignore-file RULE -- reason"
the whole file.

--against-server 'CMD ARGS' and --against-url URL (repeatable) list the
tools of MCP servers the model will have beside these tools (within
--timeout each): security-tool-shadowing then also reports a text that
directs the use of one of their tools. Their tools are not linted.

Several reports in one run: each --format may be followed by --output FILE,
e.g. --format sarif --output results.sarif --format text. An --output with no
--format before it takes the format from its extension: .json (json),
.sarif or .sarif.json (sarif), .xml (junit), .txt/.log/none (text).

Exit codes: 0 no finding at or above --fail-on; 1 findings at or above it;
2 usage or I/O error (bad flag, missing path, no tool files to lint, invalid
config, unwritable output). A file that cannot be read or parsed is a
parse-error finding (exit 1), and the other files are still linted.`,
		Example: `  toolctl lint
  toolctl lint tools/ --fail-on warning
  toolctl lint --format sarif --output toolctl.sarif --format text
  toolctl lint --profile feagent tools/
  toolctl lint --target openai,anthropic
  toolctl lint --explain example-params-invalid
  toolctl lint --baseline-out .toolctl-baseline.yaml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			opts.paths = args
			return runLint(opts)
		},
	}
	f := cmd.Flags()
	f.Var(&formatFlag{&opts.reports}, "format", "report format: "+strings.Join(report.Formats, ", ")+" (repeatable)")
	f.Var(&outputFlag{&opts.reports}, "output", "write the report of the --format before it to `FILE` (default stdout)")
	f.StringVar(&opts.failOn, "fail-on", "error", "lowest severity that fails the run: error, warning or info")
	f.StringVar(&opts.profile, "profile", "", "rule profile: default or feagent (overrides lint.profile)")
	f.StringSliceVar(&opts.targets, "target", nil, "provider packs to add: "+strings.Join(lint.Targets, ",")+" (overrides lint.targets)")
	f.BoolVar(&opts.listRules, "list-rules", false, "list the rules (with --format json: as JSON) and exit")
	f.StringVar(&opts.explain, "explain", "", "explain `RULE` with a bad and a good example, and exit")
	f.StringVar(&opts.baseline, "baseline", "", "apply the overrides of a baseline `FILE` (from --baseline-out)")
	f.StringVar(&opts.baselineOut, "baseline-out", "", "write a baseline `FILE` that ignores every current finding, and exit 0")
	opts.against.register(cmd)
	f.DurationVar(&opts.timeout, "timeout", 30*time.Second, "give up on an --against-server or --against-url server after this long")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(report.Formats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]string{"error", "warning", "info"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("profile", cobra.FixedCompletions(lint.ProfileNames, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("target", cobra.FixedCompletions(lint.Targets, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("explain", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		var ids []string
		for _, r := range lint.Rules() {
			ids = append(ids, r.ID+"\t"+r.Description)
		}
		return ids, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// reportSpec is one requested report: a format and where it goes.
type reportSpec struct {
	format string
	output string // "" is stdout
}

// reportList keeps --format and --output in command-line order, so each
// --output belongs to the --format before it.
type reportList []reportSpec

// orText returns the reports asked for (text on stdout when none was), or
// a usage error when more than one would go to stdout. lint, breaking,
// scan and verify share it.
func (l reportList) orText() (reportList, error) {
	if len(l) == 0 {
		return reportList{{format: "text"}}, nil
	}
	var toStdout []string
	for _, r := range l {
		if r.output == "" {
			toStdout = append(toStdout, r.format)
		}
	}
	if len(toStdout) > 1 {
		return nil, usageError(fmt.Errorf("--format %s: only one report can go to standard output (%s would run together); give the others --output FILE", strings.Join(toStdout, ", --format "), strings.Join(toStdout, " and ")))
	}
	return l, nil
}

type formatFlag struct{ list *reportList }

func (f *formatFlag) String() string {
	var names []string
	for _, r := range *f.list {
		names = append(names, r.format)
	}
	return strings.Join(names, ",")
}
func (f *formatFlag) Type() string { return "format" }
func (f *formatFlag) Set(v string) error {
	if !slices.Contains(report.Formats, v) {
		return fmt.Errorf("unknown format %q; use %s", v, strings.Join(report.Formats, ", "))
	}
	*f.list = append(*f.list, reportSpec{format: v})
	return nil
}

type outputFlag struct{ list *reportList }

func (f *outputFlag) String() string { return "" }
func (f *outputFlag) Type() string   { return "file" }
func (f *outputFlag) Set(v string) error {
	if v == "" {
		return errors.New("--output needs a file name")
	}
	l := *f.list
	switch {
	case len(l) == 0:
		// --output alone: the format follows the file's extension, so a
		// results.json never receives the text report.
		format, err := formatForOutput(v)
		if err != nil {
			return err
		}
		*f.list = append(l, reportSpec{format: format, output: v})
	case l[len(l)-1].output != "":
		return fmt.Errorf("two --output flags for one --format %s; give each --output its own --format", l[len(l)-1].format)
	default:
		l[len(l)-1].output = v
	}
	return nil
}

// formatForOutput is the report format an --output FILE given without its
// own --format implies: .json, .sarif and .xml name theirs; .txt, .log, no
// extension and "-" (stdout) get the text report; anything else is a usage
// error rather than a guess.
func formatForOutput(path string) (string, error) {
	if path == "-" {
		return "text", nil
	}
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".json":
		if strings.HasSuffix(strings.ToLower(path), ".sarif.json") {
			return "sarif", nil
		}
		return "json", nil
	case ".sarif":
		return "sarif", nil
	case ".xml":
		return "junit", nil
	case "", ".txt", ".log", ".text":
		return "text", nil
	default:
		return "", fmt.Errorf("--output %s: cannot tell the report format from the extension %s; put --format %s before --output", path, ext, strings.Join(report.Formats, "|"))
	}
}

func runLint(opts *lintOptions) error {
	app := opts.app
	if opts.explain != "" {
		return explainRule(app.IO.Out, opts.explain)
	}
	if opts.listRules {
		return listRules(app, opts)
	}
	failOn, err := lint.ParseSeverity(opts.failOn)
	if err != nil || failOn == lint.Off {
		return usageError(fmt.Errorf("--fail-on %q: use error, warning or info", opts.failOn))
	}
	cfg, ignore, err := app.lintConfig()
	if err != nil {
		return usageError(err)
	}
	if cfg.KnownTools, err = opts.against.known(context.Background(), app, opts.timeout); err != nil {
		return err
	}
	if opts.profile != "" {
		if !slices.Contains(lint.ProfileNames, opts.profile) {
			return usageError(fmt.Errorf("--profile %q: use %s", opts.profile, strings.Join(lint.ProfileNames, " or ")))
		}
		cfg.Profile = opts.profile
	}
	if opts.targets != nil {
		for _, t := range opts.targets {
			if !slices.Contains(lint.Targets, t) {
				return usageError(fmt.Errorf("--target %q: use one or more of %s", t, strings.Join(lint.Targets, ",")))
			}
		}
		cfg.Targets = opts.targets
	}
	if opts.baseline != "" {
		overrides, err := readBaseline(opts.baseline)
		if err != nil {
			return usageError(err)
		}
		cfg.Overrides = append(cfg.Overrides, overrides...)
	}
	reports, err := opts.reports.orText()
	if err != nil {
		return err
	}

	paths, err := app.defaultPaths(opts.paths)
	if err != nil {
		return err
	}
	start := time.Now()
	files, err := spec.Collect(paths)
	if err != nil {
		return usageError(err)
	}
	files = slices.DeleteFunc(files, func(f string) bool { return app.ignored(ignore, f) })
	if len(files) == 0 {
		return usageError(fmt.Errorf("no tool files to lint in %s (toolctl reads .yaml, .yml and .json%s)", strings.Join(paths, ", "), map[bool]string{true: "; lint.ignore excludes some", false: ""}[len(ignore) > 0]))
	}
	// Every file's parse tree is garbage once its rules ran and only what
	// the cross-file rules read is kept (~2.7 KB a file: ~27 MB live on
	// 10,000 files, ~55 MB on 20,000), so GOGC 300 lets the heap grow to
	// 4x the live one between collections: a third less GC work than the
	// default 100%, but 140 MB RSS at 10,000 files. The soft limit of
	// lintGC (48 MiB and 4 KiB a file) caps that at the same CPU time
	// (10,000 files: 98-102 MB, 20,000: 133-138 MB, against 135-144 and
	// 151-172 MB with GOGC 300 alone; 5 interleaved runs each), and
	// follows the large files the run reads (see lintGC).
	gc := newLintGC(len(files), 512<<20)
	app.tuneGC(300, gc.base)
	if app.Getenv("GOMEMLIMIT") == "" {
		cfg.Streaming, cfg.Whole = gc.streaming, gc.whole
	}
	set, findings := lint.RunFiles(files, cfg)
	app.logf("linted %s in %s: %s", lint.Plural(len(set.Files), "file", "files"), time.Since(start).Round(time.Millisecond), lint.Plural(len(findings), "finding", "findings"))

	if opts.baselineOut != "" {
		budgets, err := budgetBaseline(files, findings, cfg)
		if err != nil {
			return err
		}
		n, err := writeBaseline(opts.baselineOut, findings, budgets)
		if err != nil {
			return usageError(err)
		}
		if !app.Quiet {
			fmt.Fprintf(app.IO.ErrOut, "wrote %s: it ignores %s in %s; apply it with --baseline %s\n", opts.baselineOut, lint.Plural(len(findings), "finding", "findings"), lint.Plural(n, "file", "files"), opts.baselineOut)
		}
		return nil
	}

	byPath := make(map[string]*spec.File, len(set.Files))
	names := make([]string, len(set.Files))
	for i, f := range set.Files {
		byPath[f.Path] = f
		names[i] = f.Path
	}
	slices.Sort(names)
	return app.writeReports(reports, findings, byPath, names, failOn, report.Options{Rules: reportRules()})
}

// writeReports writes every report of findings (files, by path, give the
// source lines; names are the files read) and fails the run when a
// finding is at failOn or above: lint, breaking, scan and verify.
func (app *App) writeReports(reports reportList, findings []lint.Finding, byPath map[string]*spec.File, names []string, failOn lint.Severity, opt report.Options) error {
	cwd, _ := os.Getwd()
	opt.Source = func(p string) *spec.File { return byPath[p] }
	opt.Root = cwd
	opt.Version = currentBuild().Version
	opt.Quiet = app.Quiet
	for _, rs := range reports {
		opt.Color = app.Color && rs.output == ""
		if err := writeReport(app.IO.Out, rs, findings, report.Summary{Files: names}, opt); err != nil {
			return usageError(err)
		}
	}
	for _, f := range findings {
		if f.Severity >= failOn {
			return problemsFound()
		}
	}
	return nil
}

// writeReport writes one report to stdout or, atomically, to its file.
func writeReport(stdout io.Writer, rs reportSpec, findings []lint.Finding, sum report.Summary, opt report.Options) error {
	if rs.output == "" || rs.output == "-" {
		return report.Write(stdout, rs.format, findings, sum, opt)
	}
	var buf strings.Builder
	if err := report.Write(&buf, rs.format, findings, sum, opt); err != nil {
		return err
	}
	return writeFileAtomic(rs.output, []byte(buf.String()))
}

func explainRule(w io.Writer, id string) error {
	r, ok := lint.Lookup(id)
	if !ok {
		hint := "; see toolctl lint --list-rules"
		if s := spec.Suggest(id, lint.RuleIDs()); s != "" {
			hint = fmt.Sprintf("; did you mean %q?", s)
		}
		return usageError(fmt.Errorf("unknown rule %q%s", id, hint))
	}
	fmt.Fprintf(w, "%s (%s by default%s)\n\n%s\n\n%s\n", r.ID, r.Severity, ruleScope(r), r.Description, r.Explain)
	return nil
}

func ruleScope(r *lint.Rule) string {
	var parts []string
	if r.Target != "" {
		parts = append(parts, "with --target "+r.Target)
	}
	if r.Profiles != nil {
		parts = append(parts, "profiles: "+strings.Join(r.Profiles, ", "))
	}
	if r.Pack != "" {
		parts = append(parts, "pack: "+r.Pack+" (toolctl scan runs it alone)")
	}
	if r.Setting != "" {
		parts = append(parts, "off until "+r.Setting+" is set")
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, "; ")
}

// ruleItem is the JSON form of a rule in --list-rules; field names are
// stable.
type ruleItem struct {
	ID          string   `json:"id"`
	Severity    string   `json:"severity"`
	Profiles    []string `json:"profiles"`
	Target      string   `json:"target,omitempty"`
	Pack        string   `json:"pack,omitempty"`
	Setting     string   `json:"setting,omitempty"`
	Description string   `json:"description"`
}

func listRules(app *App, opts *lintOptions) error {
	format := "text"
	if len(opts.reports) > 0 {
		format = opts.reports[0].format
	}
	var items []ruleItem
	for _, r := range lint.Rules() {
		profiles := r.Profiles
		if profiles == nil {
			profiles = []string{lint.ProfileDefault}
		}
		items = append(items, ruleItem{ID: r.ID, Severity: r.Severity.String(), Profiles: profiles, Target: r.Target, Pack: r.Pack, Setting: r.Setting, Description: r.Description})
	}
	switch format {
	case "json":
		enc := json.NewEncoder(app.IO.Out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(items)
	case "text":
		rows := make([][]string, len(items))
		for i, it := range items {
			scope := strings.Join(it.Profiles, ",")
			if it.Target != "" {
				scope = "--target " + it.Target
			}
			if it.Setting != "" {
				scope = it.Setting
			}
			rows[i] = []string{it.ID, it.Severity, scope, it.Description}
		}
		writeTable(app.IO.Out, app.styles(), []string{"RULE", "SEVERITY", "IN", "CHECKS"}, rows)
		return nil
	}
	return usageError(fmt.Errorf("--list-rules prints text or json, not %s", format))
}

// --- baselines ----------------------------------------------------------

// baselineOverrides groups findings into one override per file that turns
// off the rules found there; a token budget exceeded is not turned off but
// raised to what the file costs now (budgets, by file as loaded), so that
// it cannot grow.
func baselineOverrides(root string, findings []lint.Finding, budgets map[string]lint.BudgetLimits) []lint.Override {
	var out []lint.Override
	index := map[string]int{}
	for _, f := range findings {
		rel := lint.RelativeTo(root, f.File)
		i, ok := index[rel]
		if !ok {
			i = len(out)
			index[rel] = i
			out = append(out, lint.Override{Files: []string{rel}, Rules: map[string]lint.Severity{}, Budget: budgets[f.File]})
		}
		if b := budgets[f.File]; (f.Rule == budgetToolRule && b.Tool > 0) || (f.Rule == budgetTotalRule && b.Total > 0) {
			continue
		}
		out[i].Rules[f.Rule] = lint.Off
	}
	return out
}

// writeBaseline writes the baseline and returns how many files it covers.
func writeBaseline(path string, findings []lint.Finding, budgets map[string]lint.BudgetLimits) (int, error) {
	var b strings.Builder
	// spec.BaselineHeader first: every command recognises the file as no
	// tool file, wherever it is.
	b.WriteString(spec.BaselineHeader + " turns off the rules that had findings in each file\n")
	b.WriteString("# when it was written. Apply it with toolctl lint --baseline " + filepath.ToSlash(path) + ";\n")
	b.WriteString("# delete entries as you fix them. Paths are relative to this file's directory.\n")
	b.WriteString("lint:\n  overrides:")
	overrides := baselineOverrides(filepath.Dir(path), findings, budgets)
	if len(overrides) == 0 {
		b.WriteString(" []\n")
	} else {
		b.WriteString("\n")
	}
	for _, o := range overrides {
		fmt.Fprintf(&b, "    - files: [%s]\n", yamlQuote(lint.EscapeGlob(o.Files[0])))
		if o.Budget.Tool > 0 || o.Budget.Total > 0 {
			b.WriteString("      budget: {")
			sep := ""
			if o.Budget.Tool > 0 {
				fmt.Fprintf(&b, "tool: %d", o.Budget.Tool)
				sep = ", "
			}
			if o.Budget.Total > 0 {
				fmt.Fprintf(&b, "%stotal: %d", sep, o.Budget.Total)
			}
			b.WriteString("}   # what it costs now: lower it as you trim\n")
		}
		if len(o.Rules) == 0 {
			continue
		}
		b.WriteString("      rules:\n")
		ids := make([]string, 0, len(o.Rules))
		for id := range o.Rules {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			fmt.Fprintf(&b, "        %s: off\n", id)
		}
	}
	return len(overrides), writeFileAtomic(path, []byte(b.String()))
}

func yamlQuote(s string) string {
	out, _ := json.Marshal(s)
	return string(out)
}

// readBaseline reads a baseline (or any config file's lint.overrides).
func readBaseline(path string) ([]lint.Override, error) {
	data, err := spec.ReadToolFile(path) // a regular file, bounded
	if err != nil {
		return nil, fmt.Errorf("baseline %s: %v", path, unwrapPathError(err))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("baseline %s: %v", path, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("baseline %s: expected a mapping with lint.overrides; write one with --baseline-out", path)
	}
	section, err := config.Get[config.Lint](config.FromNode(path, doc.Content[0]))
	if err != nil {
		return nil, err
	}
	if section.Node == nil {
		return nil, fmt.Errorf("baseline %s: no lint section; write one with --baseline-out", path)
	}
	cfg, _, err := lint.ParseConfig(section.File, section.Dir, section.Node)
	return cfg.Overrides, err
}

// lintGC is the soft memory limit of a lint run, set as it learns what
// it reads. It starts at base, for the set; it is never lower, and never
// above ceiling.
//
// When a large list of size bytes starts to be read a tool at a time
// (streaming), its live heap stays below 2.5 times its size (its text and
// ~1.2 KB a tool; ~20 MiB of the process's memory is not heap), so the
// limit becomes the live heap plus 16 MiB and 3 times the file: the peak
// RSS stays under 10x the file from ~5 MB up. When a large file starts to
// be parsed whole (whole), its tree is live at once, ~20 times its size,
// and with its model and compiled input schema one wide tool reaches 35
// to 50 times (30,000 parameters with defaults, 2.3 MB: 75 MB live; a
// 200,000-value enum, 2.1 MB: 100 MB), so the limit becomes the live heap
// plus 16 MiB and 80 times the file: below the live heap the GC runs
// without pause (at 192 MiB, a 11 MB file took 3x the time; at 40 times,
// those two took 2.4x and 1.7x the CPU time of 80). Each further large
// file adds as much.
type lintGC struct {
	mu                   sync.Mutex
	base, limit, ceiling int64
	raised               bool
}

// newLintGC returns the limit of a lint of files files: base is 48 MiB
// and 4 KiB a file.
func newLintGC(files int, ceiling int64) *lintGC {
	base := min(48<<20+int64(files)<<12, ceiling)
	return &lintGC{base: base, limit: base, ceiling: ceiling}
}

func (g *lintGC) streaming(size int) { g.raise(3 * int64(size)) }

func (g *lintGC) whole(size int) { g.raise(80 * int64(size)) }

// raise makes room for more bytes of a large file over the live heap.
func (g *lintGC) raise(more int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	want := 16<<20 + more
	if live[0].Value.Kind() == metrics.KindUint64 {
		want += int64(live[0].Value.Uint64())
	}
	if g.raised {
		want = max(want, g.limit+more)
	}
	g.raised = true
	g.limit = min(max(want, g.base), g.ceiling)
	debug.SetMemoryLimit(g.limit)
}
