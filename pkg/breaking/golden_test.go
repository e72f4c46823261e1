package breaking

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden compares testdata/golden/RULE/old with RULE/new and checks
// the findings against RULE/want.txt (-update rewrites it). Every rule has
// a case, and each case reports its rule; RULE--variant directories are
// more cases of RULE (inside $defs, items, anyOf...).
func TestGolden(t *testing.T) {
	dirs, err := os.ReadDir("testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		name := d.Name()
		rule, _, _ := strings.Cut(name, "--") // RULE--variant: more cases of a rule
		seen[rule] = true
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", "golden", name)
			got := compareDirs(t, dir)
			found := false
			for _, line := range strings.Split(got, "\n") {
				if strings.HasSuffix(line, "["+rule+"]") {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s finding:\n%s", rule, got)
			}
			want := filepath.Join(dir, "want.txt")
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			data, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (go test ./pkg/breaking -run TestGolden -update writes it)", err)
			}
			if string(data) != got {
				t.Errorf("findings differ from %s:\ngot:\n%s\nwant:\n%s", want, got, data)
			}
		})
	}
	for _, r := range Rules() {
		if !seen[r.ID] {
			t.Errorf("rule %s has no golden case in testdata/golden/%s", r.ID, r.ID)
		}
	}
}

// compareDirs compares DIR/old with DIR/new, every addition listed, the
// targets of DIR/targets checked; one finding a line.
func compareDirs(t *testing.T, dir string) string {
	t.Helper()
	old, err := LoadPaths([]string{filepath.Join(dir, "old")})
	if err != nil {
		t.Fatal(err)
	}
	nw, err := LoadPaths([]string{filepath.Join(dir, "new")})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Additions: true}
	if data, err := os.ReadFile(filepath.Join(dir, "targets")); err == nil {
		opts.Targets = strings.Fields(string(data))
	}
	var b strings.Builder
	for _, d := range Compare(old.Tools, nw.Tools, opts) {
		d.File = filepath.ToSlash(strings.TrimPrefix(d.File, filepath.Clean(dir)+string(filepath.Separator)))
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}
