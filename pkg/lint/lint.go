// Package lint checks tool files. Each rule lives in its own file
// (rule_<id>.go) with its ID, default severity, description and --explain
// text, and is listed in the rules table (rules.go); per-tool rules run
// concurrently, set rules once over all tools.
package lint

import (
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Severity orders findings; Off disables a rule (diag.Severity).
type Severity = diag.Severity

const (
	Off     = diag.Off
	Info    = diag.Info
	Warning = diag.Warning
	Error   = diag.Error
)

// ParseSeverity reads off, info, warning or error.
func ParseSeverity(s string) (Severity, error) { return diag.ParseSeverity(s) }

// Finding is one problem at one place: a diag.Diagnostic with its rule
// and severity.
type Finding = diag.Diagnostic

// Rule is one check.
type Rule struct {
	ID          string
	Severity    Severity
	Description string
	// Explain is the --explain text: why, a bad and a good example.
	Explain string
	// Profiles lists the profiles the rule belongs to; nil means only
	// ProfileDefault.
	Profiles []string
	// Pack names the group of default rules the rule belongs to
	// (PackSecurity: toolctl scan runs that pack alone); "" for none.
	Pack string
	// Target, when set, names the provider pack (--target) that enables
	// the rule; such rules are off otherwise.
	Target string
	// Configured, when set, tells whether the configuration gives the rule
	// what it checks (lint.budget); the rule is off until it does.
	// Setting names that setting for the rule catalog.
	Configured func(c *Config) bool
	Setting    string
	// Tool runs per tool, concurrently; Set once over every tool. A rule
	// has one or both (security-confusable-name checks each name, and
	// then the names against each other).
	Tool func(r *Reporter, t *spec.Tool)
	Set  func(r *Reporter, tools []*spec.Tool)
	// SetReadsBody marks a Set rule that reads more of a tool than its
	// name, category, strict flag and the names it refers to (related
	// tools, workflow step tools, check_tool). RunFiles drops the rest once
	// a file's per-tool rules ran (a tool's description, schemas, examples
	// ... are most of the model's memory) unless an enabled Set rule reads
	// them.
	SetReadsBody bool
	// SetPins lists the pointers of t a Set rule may report at. RunFiles
	// keeps their positions (spec.Tool.Pin) when it releases a file's
	// syntax tree; any other position costs a parse of the file again.
	SetPins func(t *spec.Tool, pin func(ptr string))
}

// Profiles.
const (
	ProfileDefault = "default"
	// ProfileFeagent reproduces the Feagent loader's verdicts and nothing
	// more: required name/description/category/entry, known category and
	// entry type (case-insensitive), Feagent's parameter types.
	ProfileFeagent = "feagent"
)

// ProfileNames lists the profiles.
var ProfileNames = []string{ProfileDefault, ProfileFeagent}

// Targets lists the provider packs of --target.
var Targets = compat.Targets

func (r *Rule) inProfile(p string) bool {
	if r.Profiles == nil {
		return p == ProfileDefault
	}
	return slices.Contains(r.Profiles, p)
}

// Config tunes a run. The zero value is the default profile.
type Config struct {
	// Profile is ProfileDefault ("" too) or ProfileFeagent.
	Profile string
	// Targets enables the provider packs named (see Targets).
	Targets []string
	// Pack, when set, runs only the rules of that pack (PackSecurity:
	// toolctl scan) and parse-error.
	Pack string
	// Severities overrides rule severities (Off disables).
	Severities map[string]Severity
	// Overrides change severities for the files they match; the last
	// matching override wins.
	Overrides []Override
	Limits    Limits
	// Categories is the allowed set; nil means DefaultCategories. Set, it
	// applies to every tool with a category, not just Feagent ones.
	Categories []string
	// Streaming, when set, is called (from any goroutine) as RunFiles
	// starts to read a large list one tool at a time, with the size
	// of its text. Its live heap is then small against the file (the text
	// and what the set rules keep of each tool), which a command may tell
	// the garbage collector.
	Streaming func(size int)
	// Whole, when set, is called (from any goroutine) as RunFiles starts
	// to parse a large file whole (no list it can read a tool at a time),
	// with its size: its syntax tree, many times that, is about to be
	// live at once.
	Whole func(size int)
	// Python is the interpreter entry-python-drift reads modules with
	// (run.python of .toolctl.yaml); "" is python3.
	Python string
	// Security extends the security pack (lint.security).
	Security SecurityConfig
	// KnownTools are tools outside the linted set, by name, and where
	// they are (the server of lint/scan --against-server): a text that
	// directs their use is security-tool-shadowing too. They are not
	// linted.
	KnownTools map[string]string
	// Budget configures the token budget rules (lint.budget).
	Budget BudgetConfig

	compiled *securityPatterns
	shared   *runState
	budget   *budgetState
}

// state is what the run's rules share (a zero Config gets its own).
func (c *Config) state() *runState {
	if c.shared == nil {
		c.shared = &runState{}
	}
	return c.shared
}

// SecurityConfig is the lint.security section: patterns added to the
// curated lists of security-hidden-instructions and
// security-sensitive-data (case-insensitive RE2 regular expressions), and
// hosts security-exfiltration-url accepts in links and e-mail addresses
// (a host and its subdomains).
type SecurityConfig struct {
	HiddenInstructions []string
	SensitiveData      []string
	AllowHosts         []string
}

// securityPatterns is SecurityConfig compiled.
type securityPatterns struct {
	hidden, sensitive []textPattern
	hosts             []string
}

// patterns returns the compiled lint.security patterns (none for a
// Config that newRun did not prepare).
func (c *Config) patterns() *securityPatterns {
	if c.compiled == nil {
		return &securityPatterns{}
	}
	return c.compiled
}

// compile compiles SecurityConfig; ParseConfig reports bad patterns with
// their positions, so an error here is a Config built in code.
func (s SecurityConfig) compile() (*securityPatterns, error) {
	hidden, err := compileUserPatterns("a configured pattern", s.HiddenInstructions)
	if err != nil {
		return nil, err
	}
	sensitive, err := compileUserPatterns("a configured pattern", s.SensitiveData)
	if err != nil {
		return nil, err
	}
	hosts := make([]string, len(s.AllowHosts))
	for i, h := range s.AllowHosts {
		hosts[i] = strings.ToLower(strings.TrimPrefix(h, "."))
	}
	return &securityPatterns{hidden: hidden, sensitive: sensitive, hosts: hosts}, nil
}

// Override sets rule severities for files matching any of its globs
// (slash-separated, relative to Root; ** matches across directories).
type Override struct {
	Files []string
	Rules map[string]Severity
	// Budget raises (or lowers) lint.budget for the files matched: what a
	// baseline records of a tool or set over budget, so that it may not
	// grow (BudgetConfig; the last matching override with a limit wins).
	Budget BudgetLimits
	// Root is the directory the globs are relative to ("" is the working
	// directory), normally the config file's directory.
	Root string
}

func (c *Config) profile() string {
	if c.Profile == "" {
		return ProfileDefault
	}
	return c.Profile
}

// enabled tells whether rule runs at all in this configuration, and its
// severity before per-file overrides.
func (c *Config) enabled(rule *Rule) (Severity, bool) {
	if !rule.inProfile(c.profile()) || (rule.Target != "" && !slices.Contains(c.Targets, rule.Target)) {
		return Off, false
	}
	if rule.Configured != nil && !rule.Configured(c) {
		return Off, false
	}
	if c.Pack != "" && rule.Pack != c.Pack && rule.ID != ParseErrorID {
		return Off, false
	}
	sev := rule.Severity
	if c.profile() == ProfileFeagent {
		sev = Error // Feagent's verdict is pass or fail
	}
	if s, ok := c.Severities[rule.ID]; ok {
		sev = s
	}
	if sev != Off {
		return sev, true
	}
	for _, o := range c.Overrides {
		if s, ok := o.Rules[rule.ID]; ok && s != Off {
			return sev, true
		}
	}
	return Off, false
}

// Limits are the configurable sizes.
type Limits struct {
	NameMax             int
	DescriptionMin      int
	DescriptionMinWords int
	DescriptionMax      int
	DetailMax           int
}

// DefaultLimits are the limits the README lists under "Rules" (lint.limits
// overrides them).
var DefaultLimits = Limits{NameMax: 64, DescriptionMin: 20, DescriptionMinWords: 4, DescriptionMax: 200, DetailMax: 2000}

// DefaultCategories is the default allowed category set.
var DefaultCategories = []string{"http", "database", "file", "ai", "notification", "custom"}

func (c *Config) limits() Limits {
	l := c.Limits
	d := DefaultLimits
	if l.NameMax == 0 {
		l.NameMax = d.NameMax
	}
	if l.DescriptionMin == 0 {
		l.DescriptionMin = d.DescriptionMin
	}
	if l.DescriptionMinWords == 0 {
		l.DescriptionMinWords = d.DescriptionMinWords
	}
	if l.DescriptionMax == 0 {
		l.DescriptionMax = d.DescriptionMax
	}
	if l.DetailMax == 0 {
		l.DetailMax = d.DetailMax
	}
	return l
}

// Reporter collects the findings of one rule run and gives rules what they
// share: the configuration and, per tool, the compiled input schema.
type Reporter struct {
	rule     *Rule
	severity Severity
	cfg      *Config
	limits   Limits
	tool     *toolState
	findings []Finding
}

// Limits returns the limits in force.
func (r *Reporter) Limits() Limits { return r.limits }

// Profile returns the profile in force.
func (r *Reporter) Profile() string { return r.cfg.profile() }

// Categories returns the allowed categories, and whether the configuration
// set them explicitly.
func (r *Reporter) Categories() ([]string, bool) {
	if r.cfg.Categories != nil {
		return r.cfg.Categories, true
	}
	return DefaultCategories, false
}

// Report adds a finding at the value of a canonical pointer of t.
func (r *Reporter) Report(t *spec.Tool, ptr string, format string, args ...any) {
	r.add(t.Path(), t.Span(ptr), format, args...)
}

// ReportKey adds a finding at the key of a canonical pointer of t.
func (r *Reporter) ReportKey(t *spec.Tool, ptr string, format string, args ...any) {
	r.add(t.Path(), t.KeySpan(ptr), format, args...)
}

// ReportSpan adds a finding at an explicit source range of t's file.
func (r *Reporter) ReportSpan(t *spec.Tool, span spec.Span, format string, args ...any) {
	r.add(t.Path(), span, format, args...)
}

// ReportSecret adds a finding about a literal credential at span; secret
// is kept out of every report (see Finding.Secret).
func (r *Reporter) ReportSecret(t *spec.Tool, span spec.Span, secret string, format string, args ...any) {
	r.add(t.Path(), span, format, args...)
	r.findings[len(r.findings)-1].Secret = secret
}

func (r *Reporter) add(file string, span spec.Span, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	r.findings = append(r.findings, Finding{File: file, Span: span, Severity: r.severity, Rule: r.rule.ID, Message: msg})
}

// Run lints a loaded set: file errors become parse-error findings, then every
// enabled rule runs, per-file overrides and inline ignores apply, and the
// findings are sorted by file, line, column and rule.
func Run(set *spec.Set, cfg Config) []Finding {
	r := newRun(cfg)
	// Per-file work (parse errors, per-tool rules) for one file at a time
	// on every CPU.
	perFile := make([][]Finding, len(set.Files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(set.Files))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				perFile[i] = r.file(set.Files[i])
			}
		}()
	}
	for i := range set.Files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return r.finish(set, perFile)
}

// RunTools lints tools that have no file of their own (imported from a
// provider export or a live server) as the set named name. Their
// findings have no position; each carries its tool's name and the JSON
// pointer of the value (Finding.Tool, Finding.Pointer) where the rule
// reports one.
func RunTools(name string, tools []*spec.Tool, cfg Config) []Finding {
	return Run(&spec.Set{Files: []*spec.File{{Path: name, Tools: tools}}}, cfg)
}

// RunFiles reads, parses and lints files (as listed by spec.Collect). The
// per-tool rules run as each file is parsed, after which its syntax tree
// and the parts of its tools no set rule reads are released: on large sets
// memory stays a fraction of Load + Run's, for the same findings. A large
// list (streamMin; JSON, or a YAML block sequence, at the root or as the
// "tools" of a container) is checked one tool at a time as it is parsed,
// and each tool released in turn: it is never in memory as a whole tree. The
// set is returned for reporting (file list, sources); its tools are
// partial (see Rule.SetReadsBody).
func RunFiles(files []string, cfg Config) (*spec.Set, []Finding) {
	return runFiles(files, cfg, streamMin)
}

// streamMin is the size from which RunFiles reads a list one tool at
// a time (spec.LoadFilesStream). The findings are the same either way;
// below it, a whole tree is small and parsing once (streaming checks the
// text, then parses it) is cheaper.
const streamMin = 1 << 20

func runFiles(files []string, cfg Config, streamMin int) (*spec.Set, []Finding) {
	r := newRun(cfg)
	keepBody := false
	for _, rep := range r.setRules {
		keepBody = keepBody || rep.rule.SetReadsBody
	}
	// release keeps of t what the set rules read, once its per-tool rules
	// ran.
	release := func(t *spec.Tool) {
		for _, rep := range r.setRules {
			if rep.rule.SetPins != nil {
				rep.rule.SetPins(t, func(ptr string) { t.Pin(ptr) })
			}
		}
		if !keepBody {
			slim(t)
		}
	}
	perFile := make([][]Finding, len(files))
	// The files read one tool at a time, and the findings of their tools.
	streamed := make([]bool, len(files))
	toolFindings := make([][]Finding, len(files))
	stream := spec.Stream{Min: streamMin, Tool: func(i int, t *spec.Tool) {
		if !streamed[i] && cfg.Streaming != nil {
			cfg.Streaming(len(t.File.Data))
		}
		streamed[i] = true
		toolFindings[i] = append(toolFindings[i], r.tool(t)...)
		release(t)
	}}
	if cfg.Whole != nil {
		stream.Whole = func(_ int, size int) { cfg.Whole(size) }
	}
	set := spec.LoadFilesStream(files, stream, func(i int, f *spec.File) {
		if streamed[i] {
			// Its tools were checked and released one by one (none
			// counts when a panic left the file without tools).
			perFile[i] = r.parseErrors(f)
			if len(f.Tools) > 0 {
				perFile[i] = append(perFile[i], toolFindings[i]...)
			}
			toolFindings[i] = nil
		} else {
			perFile[i] = r.file(f)
			for _, t := range f.Tools {
				release(t)
			}
		}
		// Keep the text of files that report findings now (source lines)
		// or hold ignore comments; the rest is read again if a set rule
		// reports on it.
		f.Release(len(perFile[i]) == 0 && !hasIgnores(f))
	})
	return set, r.finish(set, perFile)
}

// pinName is the SetPins of rules that report at a tool's name.
func pinName(_ *spec.Tool, pin func(string)) { pin("/name") }

// slim drops from t what no Set rule reads unless it says SetReadsBody:
// all but its name, category, strict flag and the names it refers to.
func slim(t *spec.Tool) {
	t.Title, t.Description, t.Detail, t.Version, t.Author, t.Icon = "", "", "", "", "", ""
	t.Tags, t.Triggers, t.Warnings, t.Examples, t.Bind, t.UnknownFields = nil, nil, nil, nil, nil, nil
	t.ShareableScope, t.ID, t.SDKType, t.DocumentationURL = "", "", "", ""
	t.Entry, t.InputSchema, t.OutputSchema, t.Annotations, t.Runtime, t.Extensions, t.Unknown = nil, nil, nil, nil, nil, nil, nil
	for i := range t.RelatedTools {
		t.RelatedTools[i].Relation = ""
	}
	if t.Workflow != nil {
		t.Workflow.Name = ""
		for i := range t.Workflow.Steps {
			st := &t.Workflow.Steps[i]
			st.Step, st.Action, st.Condition = nil, "", ""
		}
	}
	for i := range t.Prerequisites {
		p := &t.Prerequisites[i]
		p.Text, p.Condition, p.ActionIfNotMet = "", "", ""
	}
}

// run is one lint run's configuration, resolved once.
type run struct {
	cfg                 Config
	parseSev            Severity
	parseOn             bool
	toolRules, setRules []*Reporter
}

func newRun(cfg Config) *run {
	r := &run{cfg: cfg}
	if p, err := cfg.Security.compile(); err == nil {
		r.cfg.compiled = p
	}
	r.cfg.shared = &runState{}
	r.cfg.budget = &budgetState{counts: map[*spec.Tool]TokenCount{}}
	r.parseSev, r.parseOn = cfg.enabled(ruleParseError)
	limits := cfg.limits()
	for _, rule := range Rules() {
		sev, on := cfg.enabled(rule)
		if !on || (rule.Tool == nil && rule.Set == nil) {
			continue
		}
		if rule.Tool != nil {
			r.toolRules = append(r.toolRules, &Reporter{rule: rule, severity: sev, cfg: &r.cfg, limits: limits})
		}
		if rule.Set != nil {
			r.setRules = append(r.setRules, &Reporter{rule: rule, severity: sev, cfg: &r.cfg, limits: limits})
		}
	}
	return r
}

// file returns the parse errors of f and the per-tool findings of its
// tools. It is safe to call concurrently for different files: each tool's
// rules run in sequence and share its state (the schema is compiled once).
func (r *run) file(f *spec.File) []Finding {
	out := r.parseErrors(f)
	for _, t := range f.Tools {
		out = append(out, r.tool(t)...)
	}
	return out
}

// parseErrors returns the errors of f as parse-error findings.
func (r *run) parseErrors(f *spec.File) []Finding {
	var out []Finding
	if r.parseOn {
		for _, e := range f.Errors {
			out = append(out, Finding{File: e.File, Span: e.Span, Severity: r.parseSev, Rule: ParseErrorID, Message: e.Message})
		}
	}
	return out
}

// tool returns the findings of the per-tool rules on t.
func (r *run) tool(t *spec.Tool) []Finding {
	var out []Finding
	state := &toolState{}
	// One Reporter for all the rules of the tool: a copy per rule would
	// escape (rules take *Reporter) and cost an allocation per rule and
	// tool, the security pack's seven rules included.
	rep := new(Reporter)
	for _, tmpl := range r.toolRules {
		*rep = *tmpl
		rep.findings = nil
		rep.tool = state
		rep.rule.Tool(rep, t)
		out = append(out, rep.findings...)
	}
	if state.walk != nil {
		state.texts = nil
		state.walk.release()
	}
	return out
}

// finish runs the set rules, applies overrides and ignores, and sorts.
func (r *run) finish(set *spec.Set, perFile [][]Finding) []Finding {
	var findings []Finding
	for _, fs := range perFile {
		findings = append(findings, fs...)
	}
	tools := set.Tools()
	for _, rep := range r.setRules {
		rep.findings = nil
		rep.rule.Set(rep, tools)
		findings = append(findings, rep.findings...)
	}
	findings = applyOverrides(findings, r.cfg.Overrides)
	findings = applyIgnores(set, findings, &r.cfg)
	Sort(findings)
	return findings
}

// lazyRegexp compiles expr on first use, not at start-up: every toolctl
// command pays for package initialisation.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// Sort orders findings deterministically.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Span.Start.Line != b.Span.Start.Line {
			return a.Span.Start.Line < b.Span.Start.Line
		}
		if a.Span.Start.Col != b.Span.Start.Col {
			return a.Span.Start.Col < b.Span.Start.Col
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}
