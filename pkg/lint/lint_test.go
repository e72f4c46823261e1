package lint

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

var update = flag.Bool("update", false, "rewrite the golden .out files")

const fixtures = "../../testdata/lint"

func lintPaths(t *testing.T, paths ...string) []Finding {
	t.Helper()
	return lintWith(t, Config{}, paths...)
}

func lintWith(t *testing.T, cfg Config, paths ...string) []Finding {
	t.Helper()
	set, err := spec.Load(paths)
	if err != nil {
		t.Fatal(err)
	}
	return Run(set, cfg)
}

// fixtureRule maps a fixture name to its rule: the rule ID itself, or the
// ID and a variant (input-schema-invalid-list → input-schema-invalid).
func fixtureRule(name string) string {
	best := name
	for _, r := range Rules() {
		if name == r.ID {
			return name
		}
		if strings.HasPrefix(name, r.ID+"-") && (best == name || len(r.ID) > len(best)) {
			best = r.ID
		}
	}
	return best
}

// fixtureConfig enables what a rule's fixture needs: its profile when the
// rule is not in the default one, its provider pack.
func fixtureConfig(id string) Config {
	var cfg Config
	if r, ok := Lookup(id); ok {
		if !r.inProfile(ProfileDefault) {
			cfg.Profile = r.Profiles[0]
		}
		if r.Target != "" {
			cfg.Targets = []string{r.Target}
		}
		switch r {
		case ruleBudgetToolTokens:
			cfg.Budget = BudgetConfig{Tool: 40, Counter: fakeTokens}
		case ruleBudgetTotalTokens:
			cfg.Budget = BudgetConfig{Total: 50, Counter: fakeTokens}
		}
	}
	return cfg
}

func render(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		f.File = filepath.Base(f.File)
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Each testdata/lint/err/<rule>.yaml (rule ID with _ for -, so that the tool
// inside can be named after its file) must produce exactly its .out, which
// must include the rule it is named after.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "err", "*.yaml"))
	jsonFiles, _ := filepath.Glob(filepath.Join(fixtures, "err", "*.json"))
	files = append(files, jsonFiles...)
	covered := map[string]bool{}
	for _, p := range files {
		rule := fixtureRule(strings.ReplaceAll(strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)), "_", "-"))
		t.Run(filepath.Base(p), func(t *testing.T) {
			if rule == ruleEntryPythonDrift.ID {
				if _, err := exec.LookPath("python3"); err != nil {
					covered[rule] = true
					t.Skip("python3 is not installed: entry-python-drift reads the module with it")
				}
			}
			got := render(lintWith(t, fixtureConfig(rule), p))
			out := strings.TrimSuffix(p, filepath.Ext(p)) + ".out"
			if *update {
				if err := os.WriteFile(out, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(out)
			if err != nil {
				t.Fatalf("%v (run go test ./pkg/lint -update and review the file)", err)
			}
			if got != string(want) {
				t.Errorf("findings differ from %s\n got:\n%s\nwant:\n%s", out, got, want)
			}
			if !strings.Contains(got, "["+rule+"]") {
				t.Errorf("the fixture does not trigger %s", rule)
			}
			covered[rule] = true
		})
	}
	for _, r := range Rules() {
		if !covered[r.ID] {
			t.Errorf("rule %s has no fixture testdata/lint/err/%s.yaml", r.ID, strings.ReplaceAll(r.ID, "-", "_"))
		}
	}
}

func TestOKFixturesAndBundledToolsAreClean(t *testing.T) {
	for _, dir := range []string{filepath.Join(fixtures, "ok"), "../../tools"} {
		if fs := lintPaths(t, dir); len(fs) > 0 {
			t.Errorf("%s: unexpected findings:\n%s", dir, render(fs))
		}
	}
}

func TestRulesAreDocumented(t *testing.T) {
	for _, r := range Rules() {
		if r.Description == "" || !strings.Contains(r.Explain, "Bad:") || !strings.Contains(r.Explain, "Good:") {
			t.Errorf("%s: needs a description and an explain text with Bad: and Good: examples", r.ID)
		}
		engine := r.ID == ParseErrorID || r.ID == IgnoreUnusedID || r.ID == IgnoreNoReasonID
		if r.Tool == nil && r.Set == nil && !engine {
			t.Errorf("%s: set Tool, Set or both", r.ID)
		}
	}
}

func TestConfigSeverities(t *testing.T) {
	set, err := spec.Load([]string{filepath.Join(fixtures, "err", "version_semver.yaml"), filepath.Join(fixtures, "err", "parse_error.yaml"), filepath.Join(fixtures, "err", "name_matches_file.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	fs := Run(set, Config{Severities: map[string]Severity{"version-semver": Off, ParseErrorID: Warning, "name-matches-file": Info}})
	got := render(fs)
	if strings.Contains(got, "version-semver]") || !strings.Contains(got, "warning: YAML syntax error") || !strings.Contains(got, "info: the tool is named") {
		t.Errorf("severity overrides not applied:\n%s", got)
	}
	fs = Run(set, Config{Limits: Limits{DescriptionMax: 10}})
	if !strings.Contains(render(fs), "more than 10") {
		t.Errorf("limit override not applied")
	}
}

// RunFiles (per-file rules while loading, syntax trees released) must find
// exactly what Load + Run finds, positions of set rules included.
func TestRunFilesEqualsRun(t *testing.T) {
	dirs := []string{filepath.Join(fixtures, "err"), filepath.Join(fixtures, "ok"), "../../tools"}
	if _, err := os.Stat(corpusDir); err == nil {
		dirs = append(dirs, corpusDir)
	}
	for _, cfg := range []Config{{}, {Profile: ProfileFeagent}, {Targets: Targets}, {Targets: []string{"openai", "gemini", "mcp"}}} {
		files, err := spec.Collect(dirs)
		if err != nil {
			t.Fatal(err)
		}
		want := render(Run(spec.LoadFiles(files), cfg))
		_, fs := RunFiles(files, cfg)
		if got := render(fs); got != want {
			t.Errorf("profile %q targets %v: RunFiles differs from Run\n got %d bytes, want %d", cfg.Profile, cfg.Targets, len(got), len(want))
		}
	}
}

// RunFiles keeps the positions its set rules report at: a file whose only
// findings come from them (a dangling reference, a duplicate name) is not
// read or parsed again to place them, and what the set rules do not read
// is dropped.
func TestRunFilesSetRulesNeedNoReread(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const desc = "Fetches a web page and returns its text. Use when a URL is given."
	a := write("fetch_page.yaml", "name: fetch_page\ndescription: "+desc+"\ncategory: http\nrelated_tools:\n  - name: fetch_pages\n    relation: the same, for many\n")
	b := write("old/fetch_page.yaml", "name: fetch_page\ndescription: "+desc+"\ncategory: http\n")
	set, fs := RunFiles([]string{a, b}, Config{})
	var got strings.Builder
	for _, f := range fs {
		got.WriteString(f.String() + "\n")
	}
	for _, want := range []string{
		a + ":5:11: error: related tool \"fetch_pages\" is not a tool in the linted set; did you mean \"fetch_page\"? [reference-unknown]",
		b + ":1:7: error: name \"fetch_page\" is already used at " + a + ":1:7; rename one of the tools [name-unique]",
	} {
		if !strings.Contains(got.String(), want) {
			t.Errorf("missing %s\nin:\n%s", want, got.String())
		}
	}
	if len(fs) != 2 {
		t.Errorf("%d findings, want the 2 of the set rules:\n%s", len(fs), got.String())
	}
	for _, f := range set.Files {
		if f.Data != nil {
			t.Errorf("%s was read again to place a set rule's finding", f.Path)
		}
		if tl := f.Tools[0]; tl.Description != "" || tl.Name != "fetch_page" {
			t.Errorf("%s: the released tool keeps its description %q (name %q)", f.Path, tl.Description, tl.Name)
		}
	}
}

// Without python3 on PATH, entry-python-drift says nothing (and lint does
// not fail); with it, the fixture drifts.
func TestEntryPythonDriftWithoutPython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	p := filepath.Join(fixtures, "err", "entry_python_drift.yaml")
	if got := render(lintWith(t, Config{}, p)); !strings.Contains(got, "[entry-python-drift]") {
		t.Fatalf("with python3: no entry-python-drift finding:\n%s", got)
	}
	// the interpreter of run.python is the one used: one that is not
	// installed means nothing to compare with
	if got := render(lintWith(t, Config{Python: "no-such-python-xyz"}, p)); strings.Contains(got, "entry-python-drift") {
		t.Errorf("with a missing run.python: unexpected findings:\n%s", got)
	}
	t.Setenv("PATH", t.TempDir())
	if got := render(lintWith(t, Config{}, p)); strings.Contains(got, "entry-python-drift") || strings.Contains(got, "python") {
		t.Errorf("without python3: unexpected findings:\n%s", got)
	}
}
