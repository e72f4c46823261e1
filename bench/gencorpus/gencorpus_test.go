package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

// TestCorpusIsClean: the corpus must parse without errors, cover every
// dialect and produce no lint finding, or the benchmark would time output.
func TestCorpusIsClean(t *testing.T) {
	dir := t.TempDir()
	st, err := generate(dir, 200, 1, 50, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st.files != 200 || st.dirs != 4 {
		t.Fatalf("wrote %d files in %d directories, want 200 in 4", st.files, st.dirs)
	}
	set, err := spec.Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Files) != 200 {
		t.Fatalf("spec.Load read %d files, want 200", len(set.Files))
	}
	for _, e := range set.Errors() {
		t.Errorf("%s:%d:%d: %s", e.File, e.Span.Start.Line, e.Span.Start.Col, e.Message)
	}
	seen := map[spec.Dialect]int{}
	for _, tl := range set.Tools() {
		seen[tl.Dialect]++
	}
	for _, d := range []spec.Dialect{spec.DialectFeagent, spec.DialectSDK, spec.DialectOpenAkita, spec.DialectMCP, spec.DialectOpenAI} {
		if seen[d] == 0 {
			t.Errorf("no %s tool in the corpus (dialects: %v)", d, seen)
		}
	}
	for _, f := range lint.Run(set, lint.Config{}) {
		t.Error(f)
	}
	// Description style lint may not check yet: third person, says when.
	pronoun := regexp.MustCompile(`(?i)\b(i|me|my|you|your|we|our)\b|[我你您]`)
	for _, tl := range set.Tools() {
		d := tl.Description
		if m := pronoun.FindString(d); m != "" {
			t.Errorf("%s: description addresses someone (%q): %s", tl.Path(), m, d)
		}
		if !strings.Contains(d, "Use when") && len(tl.Triggers) == 0 {
			t.Errorf("%s: description has no \"Use when\" clause and no triggers: %s", tl.Path(), d)
		}
	}
}

// TestCorpusSeedLarge checks a bigger corpus under another seed, where name
// collisions and rare branches (big tools, CJK) occur often.
func TestCorpusSeedLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	dir := t.TempDir()
	if _, err := generate(dir, 2000, 7, 100, 0); err != nil {
		t.Fatal(err)
	}
	set, err := spec.Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	errs := set.Errors()
	findings := lint.Run(set, lint.Config{})
	for i, e := range errs {
		if i == 20 {
			break
		}
		t.Errorf("%s:%d:%d: %s", e.File, e.Span.Start.Line, e.Span.Start.Col, e.Message)
	}
	for i, f := range findings {
		if i == 20 {
			t.Errorf("... %d findings in all", len(findings))
			break
		}
		t.Error(f)
	}
}

func TestDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		if _, err := generate(d, 60, 42, 100, 0); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(a, "*", "*", "*"))
	if len(files) != 60 {
		t.Fatalf("found %d files, want 60", len(files))
	}
	for _, fa := range files {
		rel, _ := filepath.Rel(a, fa)
		da, _ := os.ReadFile(fa)
		db, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(da, db) {
			t.Fatalf("%s differs between two runs with the same seed", rel)
		}
	}
}

func TestRefusesNonEmptyDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := generate(dir, 1, 1, 100, 0); err == nil {
		t.Fatal("generate wrote into a non-empty directory")
	}
}

// TestDangling: -dangling 5 gives exactly 5% of the files one related tool
// that names no tool of the set, lint reports exactly those (typos and
// renames with a did-you-mean, foreign names without), and every other
// file has the same bytes as without the option.
func TestDangling(t *testing.T) {
	clean, dangling := t.TempDir(), t.TempDir()
	if _, err := generate(clean, 400, 3, 100, 0); err != nil {
		t.Fatal(err)
	}
	st, err := generate(dangling, 400, 3, 100, 5)
	if err != nil {
		t.Fatal(err)
	}
	if d := st.dangling; d.files != 20 || d.typo != 10 || d.renamed != 5 || d.foreign != 5 {
		t.Fatalf("dangling stats %+v, want 20 files: 10 typos, 5 renamed, 5 foreign", d)
	}
	set, err := spec.Load([]string{dangling})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range set.Tools() {
		names[tl.Name] = true
	}
	suggested, files := 0, map[string]bool{}
	for _, f := range lint.Run(set, lint.Config{}) {
		if f.Rule != "reference-unknown" {
			t.Errorf("unexpected finding: %s", f)
			continue
		}
		files[f.File] = true
		if m := regexp.MustCompile(`did you mean "([^"]+)"`).FindStringSubmatch(f.Message); m != nil {
			suggested++
			if !names[m[1]] {
				t.Errorf("%s: suggests %q, not a tool of the set", f, m[1])
			}
		}
	}
	if len(files) != 20 || suggested < 15 {
		t.Errorf("%d files with a dangling reference (want 20), %d suggestions (want at least the 15 typos and renames)", len(files), suggested)
	}
	all, _ := filepath.Glob(filepath.Join(clean, "*", "*", "*"))
	same := 0
	for _, fc := range all {
		rel, _ := filepath.Rel(clean, fc)
		a, _ := os.ReadFile(fc)
		b, err := os.ReadFile(filepath.Join(dangling, rel))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(a, b) {
			same++
		} else if !files[filepath.Join(dangling, rel)] {
			t.Errorf("%s differs but has no dangling reference", rel)
		}
	}
	if same != 380 {
		t.Errorf("%d files unchanged by -dangling, want 380", same)
	}
}
