package spec

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

const baseline = BaselineHeader + " turns off the rules that had findings in each file\nlint:\n  overrides:\n    - files: [\"a.yaml\"]\n      rules:\n        description-when: off\n"

// A lint baseline is recognised by its first line wherever it is and
// whatever its name: never a tool file, never an error.
func TestBaselineIsNoToolFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.yaml":              "name: a\ndescription: d\n",
		"bl.yaml":             baseline,
		"sub/old-lint.yml":    "\xef\xbb\xbf" + baseline,
		"sub/b.json":          `{"name": "b", "description": "d"}`,
		"sub/not-quite.yaml":  "# toolctl lint baseline\nlint: {}\n", // not the header: a broken tool
		"sub/later-line.yaml": "# a comment\n" + baseline,            // the header must come first
	})
	if f := ParseFile("bl.yaml", []byte(baseline)); f.NotTool == "" || len(f.Tools) > 0 || len(f.Errors) > 0 {
		t.Errorf("ParseFile: NotTool %q, %d tools, errors %v", f.NotTool, len(f.Tools), f.Errors)
	}
	var called atomic.Int32
	set := LoadFilesFunc(mustCollect(t, dir), func(i int, f *File) {
		called.Add(1)
		if f.NotTool != "" {
			t.Errorf("each called on %s", f.Path)
		}
	})
	var names []string
	for _, f := range set.Files {
		names = append(names, filepath.ToSlash(strings.TrimPrefix(f.Path, dir+string(filepath.Separator))))
	}
	want := []string{"a.yaml", "sub/b.json", "sub/later-line.yaml", "sub/not-quite.yaml"}
	if !slices.Equal(names, want) || int(called.Load()) != len(want) {
		t.Errorf("files %v (each called %d times), want %v", names, called.Load(), want)
	}
	if n := len(set.Tools()); n != 2 || len(set.Errors()) != 2 {
		t.Errorf("%d tools, errors %v; want 2 tools and the 2 files that are not baselines as errors", n, set.Errors())
	}
	// Named on the command line: a usage error that says what it is.
	_, err := Collect([]string{filepath.Join(dir, "sub", "old-lint.yml")})
	if err == nil || !strings.Contains(err.Error(), "not a tool file: it is a toolctl lint baseline (written by toolctl lint --baseline-out); apply it with toolctl lint --baseline ") {
		t.Errorf("named baseline: %v", err)
	}
}

// The config file a command read is no tool file either, whatever its
// name, and however the directory walk reaches it.
func TestConfigFileIsNoToolFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.yaml":             "name: a\ndescription: d\n",
		"toolctl.yaml":       "tools_dir: .\n",
		"other/toolctl.yaml": "name: other\ndescription: d\n", // same name, another file: a tool
	})
	defer SetConfigFiles()
	SetConfigFiles(filepath.Join(dir, "toolctl.yaml"))
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	for _, root := range []string{dir, link} {
		files := mustCollect(t, root)
		var names []string
		for _, f := range files {
			names = append(names, filepath.ToSlash(strings.TrimPrefix(f, root+string(filepath.Separator))))
		}
		if want := []string{"a.yaml", "other/toolctl.yaml"}; !slices.Equal(names, want) {
			t.Errorf("%s: files %v, want %v", root, names, want)
		}
	}
	_, err := Collect([]string{filepath.Join(link, "toolctl.yaml")})
	if err == nil || !strings.Contains(err.Error(), "not a tool file: it is toolctl's config file") {
		t.Errorf("named config: %v", err)
	}
	// Without a config file, the same file is read as a (broken) tool.
	SetConfigFiles()
	if files := mustCollect(t, dir); len(files) != 3 {
		t.Errorf("without a config: %v", files)
	}
}

func mustCollect(t *testing.T, root string) []string {
	t.Helper()
	files, err := Collect([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
