package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerate writes every man page (the release's before hook does):
// no command's help may stop it, and help texts come out as written.
func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	if len(pages) < 10 {
		t.Fatalf("%d man pages", len(pages))
	}
	data, err := os.ReadFile(filepath.Join(dir, "toolctl-test.1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`pattern: "^[a-z-]+$"`, "toolctl-test - Run every"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("toolctl-test.1 has no %s", want)
		}
	}
}

// TestCaskManpages: the Homebrew cask of .goreleaser.yaml lists every man
// page genman writes, and no other (Homebrew's manpage takes no glob: a
// page not listed is not installed, one that does not exist fails the
// install).
func TestCaskManpages(t *testing.T) {
	cfg, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Skip("no .goreleaser.yaml")
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(string(cfg), "\n") {
		// the cask's list, not the archive's manpages/* glob
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "- manpages/"); ok && strings.HasSuffix(name, ".1") {
			listed[name] = true
		}
	}
	dir := t.TempDir()
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	for _, p := range pages {
		name := filepath.Base(p)
		if !listed[name] {
			t.Errorf(".goreleaser.yaml's homebrew_casks manpages has no manpages/%s: add it", name)
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf(".goreleaser.yaml lists manpages/%s, which genman does not write: remove it", name)
	}
}
