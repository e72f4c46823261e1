package cmd

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/report"
	"github.com/toolctl/toolctl/pkg/spec"
)

// The lint gate: serve, export, docs and run lint the tools they use with
// the settings of .toolctl.yaml (rules turned off or downgraded, overrides,
// inline ignores, lint.ignore) and refuse tools with lint errors, so that a
// file lint rejects (an unknown field such as paramters:, a schema typo) is
// never served, exported, documented or run as if it were fine. Warnings do
// not block and are not printed: toolctl lint shows them. --no-lint skips
// the gate.

// lintScope says which rules the gate applies.
type lintScope int

const (
	// lintSet applies every enabled rule, those over the whole set
	// (name-unique, reference-unknown) included: serve, whose set is what
	// a client gets.
	lintSet lintScope = iota
	// lintEachFile applies the rules that judge one file or one tool on
	// its own (parse errors and the per-tool rules). export, docs and run
	// take any subset of a tools directory, where a reference to a tool
	// left out is fine (docs names it "not documented here"), and export
	// and docs refuse two tools with one name themselves.
	lintEachFile
)

// lintFindings lints the files of set that lint.ignore does not exclude
// and returns the error findings (scope lintEachFile: only per-file
// rules) by file, with the set's source of each file for excerpts.
func (app *App) lintFindings(set *spec.Set, cfg lint.Config, ignore []string, scope lintScope) map[string][]lint.Finding {
	sub := &spec.Set{}
	for _, f := range set.Files {
		if !app.ignored(ignore, f.Path) {
			sub.Files = append(sub.Files, f)
		}
	}
	if len(sub.Files) == 0 {
		return nil
	}
	// Token budgets are lint's CI check (toolctl lint), not a reason to
	// refuse a run, an export or a server: the gate leaves them out, and
	// never loads the tokenizer.
	cfg.Budget = lint.BudgetConfig{}
	byFile := map[string][]lint.Finding{}
	for _, f := range lint.Run(sub, cfg) {
		if f.Severity < lint.Error {
			continue
		}
		if scope == lintEachFile {
			if r, ok := lint.Lookup(f.Rule); ok && r.Set != nil && r.Tool == nil {
				continue
			}
		}
		byFile[f.File] = append(byFile[f.File], f)
	}
	if len(byFile) == 0 {
		return nil
	}
	return byFile
}

// lintErrors is lintFindings rendered as toolctl lint prints them (text
// with excerpts), by file: serve --watch logs them.
func (app *App) lintErrors(set *spec.Set, cfg lint.Config, ignore []string, scope lintScope) map[string]string {
	byFile := app.lintFindings(set, cfg, ignore, scope)
	if len(byFile) == 0 {
		return nil
	}
	out := make(map[string]string, len(byFile))
	for path, findings := range byFile {
		var b strings.Builder
		report.Write(&b, "text", findings, report.Summary{Files: []string{path}}, app.lintTextOptions(set))
		out[path] = b.String()
	}
	return out
}

// lintTextOptions renders lint findings on stderr with excerpts from set.
func (app *App) lintTextOptions(set *spec.Set) report.Options {
	byPath := make(map[string]*spec.File, len(set.Files))
	for _, f := range set.Files {
		byPath[f.Path] = f
	}
	cwd, _ := os.Getwd()
	return report.Options{
		Color:   app.ColorErr,
		Source:  func(p string) *spec.File { return byPath[p] },
		Root:    cwd,
		Version: currentBuild().Version,
		Rules:   reportRules(),
		Quiet:   true,
	}
}

// printLintFindings reports lintFindings in file order: as lint prints
// them with --error-format text, else with the command's other problems.
func (app *App) printLintFindings(set *spec.Set, bad map[string][]lint.Finding) {
	names := make([]string, 0, len(bad))
	for p := range bad {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		if !app.textErrors() {
			for i := range bad[p] {
				app.problems(&bad[p][i])
			}
			continue
		}
		var b strings.Builder
		report.Write(&b, "text", bad[p], report.Summary{Files: []string{p}}, app.lintTextOptions(set))
		fmt.Fprint(app.IO.ErrOut, b.String())
	}
}

// lintGate is the gate of export, docs and run: it lints the files of set
// (scope lintEachFile) and, when some have errors, prints the findings and
// returns an exit-1 error "<refusal>: lint found errors in N files (above);
// fix them (toolctl lint FILES), or pass --no-lint to <verb> anyway". FILES
// are the files with errors, or the paths given when there are many.
func (app *App) lintGate(set *spec.Set, paths []string, refusal, verb string) error {
	cfg, ignore, err := app.lintConfig()
	if err != nil {
		return usageError(err)
	}
	bad := app.lintFindings(set, cfg, ignore, lintEachFile)
	if len(bad) == 0 {
		return nil
	}
	app.printLintFindings(set, bad)
	if len(bad) <= 3 {
		paths = make([]string, 0, len(bad))
		for p := range bad {
			paths = append(paths, p)
		}
		slices.Sort(paths)
	}
	return &exitError{ExitProblems, fmt.Errorf("%s: lint found errors in %s (above); fix them (toolctl lint %s), or pass --no-lint to %s anyway",
		refusal, lint.Plural(len(bad), "file", "files"), strings.Join(paths, " "), verb)}
}

// fileSet is the set of the one file that defines t (run lints only it):
// every loaded tool has its File.
func fileSet(t *spec.Tool) *spec.Set {
	return &spec.Set{Files: []*spec.File{t.File}}
}

// reportRules is lint's rule catalog as the reports list it (sarif).
func reportRules() []report.Rule {
	rules := lint.Rules()
	out := make([]report.Rule, len(rules))
	for i, r := range rules {
		out[i] = report.Rule{ID: r.ID, Description: r.Description, Explain: r.Explain, Severity: r.Severity}
	}
	return out
}
