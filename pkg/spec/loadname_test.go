package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// where identifies the tools Lookup found.
func where(ts []*Tool) string {
	s := ""
	for _, t := range ts {
		s += fmt.Sprintf("%s#%d ", t.Path(), t.Index)
	}
	return s
}

// LoadNamed finds what Load finds, for every name of the bundled tools,
// the fixtures and the corpora, names in several files, escaped names and
// names nobody defines.
func TestLoadNamedFindsWhatLoadFinds(t *testing.T) {
	dirs := [][]string{{"../../tools"}, {"../../testdata/lint/ok"}, {"../../testdata/lint/err"}, {"../../tools", "../../testdata/lint/ok"}}
	if entries, err := os.ReadDir("../../../shared/corpora"); err == nil {
		for _, e := range entries {
			if e.IsDir() {
				dirs = append(dirs, []string{filepath.Join("../../../shared/corpora", e.Name())})
			}
		}
	}
	tmp := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const desc = "description: Adds two numbers and returns the sum. Use when asked to add.\n"
	write("calc.yaml", "name: calc\n"+desc) // named after it, unique
	write("dup.yaml", "name: dup\n"+desc)   // also in other/dup.json
	write("other/dup.json", `{"name": "dup", "description": "Adds numbers."}`)
	write("esc.yaml", "name: esc\n"+desc) // also escaped elsewhere
	write("hidden.json", `{"name": "\u0065sc", "description": "Adds numbers."}`)
	write("quoted.yaml", "name: quoted\n"+desc)
	write("q2.yaml", "name: \"qu\\x6Fted\"\n"+desc)                        // YAML escape
	write("wrong.yaml", "name: not_wrong\n"+desc)                          // file name says another tool
	write("list.yaml", "- name: in_list\n  "+desc+"- name: list\n  "+desc) // list is in list.yaml
	write("bad.yaml", "name: [unclosed\n")
	dirs = append(dirs, []string{tmp})

	for _, paths := range dirs {
		full, err := Load(paths)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{"no_such_tool": true, "wrong": true, "bad": true, "": true, "has space": true}
		for i, tl := range full.Tools() {
			if i%max(1, len(full.Tools())/80) == 0 { // at most ~80 a set: each is a LoadNamed
				names[tl.Name] = true
			}
		}
		fast := 0
		for name := range names {
			set, err := LoadNamed(paths, name)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := where(set.Lookup(name)), where(full.Lookup(name)); got != want {
				t.Errorf("%v: LoadNamed(%q) finds %s, Load finds %s", paths, name, got, want)
			}
			if len(set.Files) < len(full.Files) {
				fast++
			}
		}
		t.Logf("%v: %d names, %d loaded from their own file", paths, len(names), fast)
	}
	for name, wantFiles := range map[string]int{"calc": 1, "list": 1, "dup": 10, "esc": 10, "quoted": 10, "wrong": 10, "not_wrong": 10} {
		set, err := LoadNamed([]string{tmp}, name)
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Files) != wantFiles {
			t.Errorf("LoadNamed(%q) parsed %d files, want %d", name, len(set.Files), wantFiles)
		}
	}
}

// BenchmarkLoadNamed is what toolctl run calculator loads, against the
// whole directory it loaded before.
//
//	go test ./pkg/spec -run '^$' -bench LoadNamed -benchmem
func BenchmarkLoadNamed(b *testing.B) {
	paths := []string{"../../tools"}
	b.Run("named", func(b *testing.B) {
		for b.Loop() {
			if set, err := LoadNamed(paths, "calculator"); err != nil || len(set.Files) != 1 {
				b.Fatal(err, len(set.Files))
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			if _, err := Load(paths); err != nil {
				b.Fatal(err)
			}
		}
	})
}
