package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestGoreleaser checks .goreleaser.yaml with goreleaser check and builds
// a snapshot release for this machine's platform in a
// copy of the repository's files (its before hooks run go mod tidy and
// write completions/ and manpages/): the archive and the Homebrew cask
// must be there, the cask pointing at the archives. It skips when
// goreleaser is not installed.
func TestGoreleaser(t *testing.T) {
	gr, err := exec.LookPath("goreleaser")
	if err != nil {
		t.Skip("goreleaser is not installed")
	}
	if testing.Short() {
		t.Skip("builds a release")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	run := func(dir string, name string, args ...string) string {
		t.Helper()
		c := exec.CommandContext(ctx, name, args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GOFLAGS=", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	run(".", gr, "check")

	// the tracked files (and the changes to them) in a git repository of
	// their own
	dir := t.TempDir()
	files := strings.Fields(run(".", "git", "ls-files", "--cached", "--others", "--exclude-standard"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // deleted in the work tree
		}
		info, _ := os.Stat(f)
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	// one platform, this machine's: the same archives and cask, 1/6 of
	// the builds (goreleaser release has no --single-target)
	cfgPath := filepath.Join(dir, ".goreleaser.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	one := strings.Replace(string(cfg), "goos: [linux, darwin, windows]", "goos: ["+runtime.GOOS+"]", 1)
	one = strings.Replace(one, "goarch: [amd64, arm64]", "goarch: ["+runtime.GOARCH+"]", 1)
	if one == string(cfg) || strings.Count(one, runtime.GOOS+"]") == 0 {
		t.Fatal(".goreleaser.yaml has no goos/goarch lines to narrow")
	}
	if err := os.WriteFile(cfgPath, []byte(one), 0o644); err != nil {
		t.Fatal(err)
	}
	run(dir, "git", "init", "-q")
	run(dir, "git", "add", "-A")
	run(dir, "git", "commit", "-q", "-m", "snapshot")
	run(dir, gr, "release", "--snapshot", "--clean", "--skip=publish,sign,sbom")

	dist := filepath.Join(dir, "dist")
	archives, _ := filepath.Glob(filepath.Join(dist, "toolctl_*_"+runtime.GOOS+"_"+runtime.GOARCH+".*"))
	if len(archives) != 1 {
		entries, _ := os.ReadDir(dist)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("want one archive toolctl_VERSION_%s_%s.*, dist has: %s", runtime.GOOS, runtime.GOARCH, strings.Join(names, ", "))
	}
	// Homebrew's manpage stanza takes a file, not a glob
	defer func() {
		if cask, err := os.ReadFile(filepath.Join(dist, "homebrew", "Casks", "toolctl.rb")); err == nil && strings.Contains(string(cask), "*") {
			t.Errorf("the cask has a glob:\n%s", cask)
		}
	}()
	casks, _ := filepath.Glob(filepath.Join(dist, "homebrew", "Casks", "toolctl.rb"))
	if len(casks) != 1 {
		t.Fatalf("no Homebrew cask in %s/homebrew/Casks", dist)
	}
	cask, err := os.ReadFile(casks[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`cask "toolctl"`,
		"https://github.com/toolctl/toolctl/releases/download/",
		`binary "toolctl"`,
		"completions/toolctl.bash",
		`manpage "manpages/toolctl-lint.1"`,
	} {
		if !strings.Contains(string(cask), want) {
			t.Errorf("the cask has no %q:\n%s", want, cask)
		}
	}
}
