// Package lint checks tool files. Each rule lives in its own file
// (rule_<id>.go) with its ID, default severity, description and --explain
// text; per-tool rules run concurrently, set rules once over all tools.
package lint

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Severity orders findings; Off disables a rule.
type Severity int

const (
	Off Severity = iota
	Info
	Warning
	Error
)

var severityNames = []string{"off", "info", "warning", "error"}

func (s Severity) String() string {
	if s < Off || s > Error {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity reads off, info, warning or error.
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if strings.EqualFold(s, n) {
			return Severity(i), nil
		}
	}
	return Off, fmt.Errorf("%q is not a severity; use off, info, warning or error", s)
}

// Finding is one problem at one place.
type Finding struct {
	File     string
	Span     spec.Span
	Severity Severity
	Rule     string
	Message  string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", f.File, f.Span.Start.Line, f.Span.Start.Col, f.Severity, f.Message, f.Rule)
}

// Rule is one check.
type Rule struct {
	ID          string
	Severity    Severity
	Description string
	// Explain is the --explain text: why, a bad and a good example.
	Explain string
	// Exactly one of Tool (run per tool, concurrently) and Set (run once
	// over every tool) is set.
	Tool func(r *Reporter, t *spec.Tool)
	Set  func(r *Reporter, tools []*spec.Tool)
}

// registry is filled by package initialisation (one register call per
// rule file) and only read afterwards.
var registry = map[string]*Rule{}

func register(r *Rule) *Rule {
	if _, dup := registry[r.ID]; dup {
		panic("lint: rule registered twice: " + r.ID)
	}
	registry[r.ID] = r
	return r
}

// Rules returns every rule, sorted by ID.
func Rules() []*Rule {
	out := make([]*Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup returns the rule with id.
func Lookup(id string) (*Rule, bool) {
	r, ok := registry[id]
	return r, ok
}

// Config tunes a run. The zero value is the default profile.
type Config struct {
	// Severities overrides rule severities (Off disables).
	Severities map[string]Severity
	Limits     Limits
	// Categories is the allowed set; nil means DefaultCategories.
	Categories []string
}

// Limits are the configurable sizes.
type Limits struct {
	NameMax             int
	DescriptionMin      int
	DescriptionMinWords int
	DescriptionMax      int
	DetailMax           int
}

// DefaultLimits are PRODUCT.md's numbers.
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

// Reporter collects the findings of one rule run.
type Reporter struct {
	rule     *Rule
	severity Severity
	limits   Limits
	findings []Finding
}

// Limits returns the limits in force.
func (r *Reporter) Limits() Limits { return r.limits }

// Report adds a finding at the value of a canonical pointer of t.
func (r *Reporter) Report(t *spec.Tool, ptr string, format string, args ...any) {
	r.add(t.Path(), t.Span(ptr), format, args...)
}

// ReportKey adds a finding at the key of a canonical pointer of t.
func (r *Reporter) ReportKey(t *spec.Tool, ptr string, format string, args ...any) {
	r.add(t.Path(), t.KeySpan(ptr), format, args...)
}

func (r *Reporter) add(file string, span spec.Span, format string, args ...any) {
	r.findings = append(r.findings, Finding{File: file, Span: span, Severity: r.severity, Rule: r.rule.ID, Message: fmt.Sprintf(format, args...)})
}

// Run lints a loaded set: file errors become parse-error findings, then every
// enabled rule runs. Findings are sorted by file, line, column and rule.
func Run(set *spec.Set, cfg Config) []Finding {
	var findings []Finding
	parseSeverity := Error
	if s, ok := cfg.Severities[ParseErrorID]; ok {
		parseSeverity = s
	}
	if parseSeverity != Off {
		for _, e := range set.Errors() {
			findings = append(findings, Finding{File: e.File, Span: e.Span, Severity: parseSeverity, Rule: ParseErrorID, Message: e.Msg})
		}
	}
	var toolRules, setRules []*Reporter
	limits := cfg.limits()
	for _, rule := range Rules() {
		sev := rule.Severity
		if s, ok := cfg.Severities[rule.ID]; ok {
			sev = s
		}
		if sev == Off || (rule.Tool == nil && rule.Set == nil) {
			continue
		}
		rep := &Reporter{rule: rule, severity: sev, limits: limits}
		if rule.Tool != nil {
			toolRules = append(toolRules, rep)
		} else {
			setRules = append(setRules, rep)
		}
	}
	tools := set.Tools()

	// Per-tool rules: one job per tool, each with its own reporters.
	perTool := make([][]Finding, len(tools))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(tools))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				var out []Finding
				for _, tmpl := range toolRules {
					rep := *tmpl
					rep.findings = nil
					rep.rule.Tool(&rep, tools[i])
					out = append(out, rep.findings...)
				}
				perTool[i] = out
			}
		}()
	}
	for i := range tools {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for _, fs := range perTool {
		findings = append(findings, fs...)
	}
	for _, rep := range setRules {
		rep.rule.Set(rep, tools)
		findings = append(findings, rep.findings...)
	}
	Sort(findings)
	return findings
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
