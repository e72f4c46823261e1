package lock

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/breaking"
	"github.com/toolctl/toolctl/pkg/spec"
)

// A script the entry runs beside the tool file (a javascript entry's
// file, a python entry's module, a command's script) is pinned: changing,
// removing it or pointing the entry at an unpinned one fails verify at
// the entry field naming it, though no tool file changed. A module that
// is not a file there (installed) is not pinned.
func TestVerifyPinsEntryCode(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("js_tool.yaml", "name: js_tool\ndescription: Adds one when asked to add one.\nentry:\n  type: javascript\n  file: add.js\n")
	write("add.js", "function execute(input) { return input.a + 1 }\n")
	write("py_tool.yaml", "name: py_tool\ndescription: Adds one when asked to add one.\nentry:\n  type: python\n  module: pkg.addmod\n  function: add\n")
	if err := os.Mkdir(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("pkg/addmod.py", "def add(a):\n    return a + 1\n")
	write("sh_tool.yaml", "name: sh_tool\ndescription: Adds one when asked to add one.\nentry:\n  type: command\n  command: [sh, ./add.sh, '{a}']\n")
	write("add.sh", "echo $(($1 + 1))\n")
	// A program of the system is not pinned: an upgrade would fail verify.
	write("sys_tool.yaml", "name: sys_tool\ndescription: Prints when asked to print.\nentry:\n  type: command\n  command: [/bin/sh, -c, 'echo {a}']\n")
	write("lib_tool.yaml", "name: lib_tool\ndescription: Adds one when asked to add one.\nentry:\n  type: python\n  module: installed_elsewhere\n  function: add\n")

	load := func() *breaking.Side {
		t.Helper()
		set, err := spec.Load([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		s := &breaking.Side{}
		for _, f := range set.Files {
			for _, tl := range f.Tools {
				s.Tools = append(s.Tools, breaking.FromSpec(tl))
			}
		}
		return s
	}
	lockPath := filepath.Join(dir, FileName)
	built, err := Build(load(), dir, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(lockPath, built.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	pinned := 0
	for _, e := range f.Tools {
		pinned += len(e.Code)
	}
	if pinned != 3 {
		t.Fatalf("%d code files pinned, want 3 (add.js, pkg/addmod.py, add.sh):\n%s", pinned, built.Marshal())
	}
	if fs := Verify(f, load()); len(fs) != 0 {
		t.Fatalf("unchanged: %v", fs)
	}
	write("add.js", "function execute(input) { return input.a + 2 }\n")
	write("pkg/addmod.py", "import os\ndef add(a):\n    return a + 2\n")
	if err := os.Remove(filepath.Join(dir, "add.sh")); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range Verify(f, load()) {
		if d.Rule != RuleChanged {
			t.Errorf("unexpected %s: %s", d.Rule, d.Message)
		}
		got[d.Tool] = d.Message
		want := map[string]int{"js_tool": 5, "py_tool": 5}[d.Tool]
		if want != 0 && d.Span.Start.Line != want {
			t.Errorf("%s reported at line %d, want %d (the entry field naming the file)", d.Tool, d.Span.Start.Line, want)
		}
	}
	for tool, file := range map[string]string{"js_tool": "add.js", "py_tool": "pkg/addmod.py", "sh_tool": "add.sh"} {
		if !strings.Contains(got[tool], file) {
			t.Errorf("%s: want a finding naming %s, got %q", tool, file, got[tool])
		}
	}
	if len(got) != 3 {
		t.Errorf("findings for %d tools, want 3: %v", len(got), got)
	}
}
