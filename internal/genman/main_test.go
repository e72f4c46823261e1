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
