package spec

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestCollectSamePathTwice: a path given in two spellings (tools and
// tools/, ./tools, its absolute path, a symbolic link to it), or a file
// and the directory holding it, is read once; Roots keeps the first
// spelling of each and drops what another root walks.
func TestCollectSamePathTwice(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, f := range []string{"tools/a.yaml", "tools/b.yaml", "tools/sub/c.yaml", "tools/.hidden/d.yaml", "other/e.yaml"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("name: x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("tools", "link"); err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(dir, "tools")
	all := []string{"tools/a.yaml", "tools/b.yaml", "tools/sub/c.yaml"}
	for _, tc := range []struct {
		paths, files, roots []string
	}{
		{[]string{"tools", "tools/"}, all, []string{"tools"}},
		{[]string{"tools", "./tools"}, all, []string{"tools"}},
		{[]string{"tools", abs}, all, []string{"tools"}},
		{[]string{"tools", "link"}, all, []string{"tools"}},
		{[]string{"tools", "tools/a.yaml"}, all, []string{"tools"}},
		{[]string{"tools/a.yaml", "tools"}, all, []string{"tools"}},
		{[]string{"tools", abs + "/b.yaml"}, all, []string{"tools"}},
		{[]string{"tools/a.yaml", "link/a.yaml"}, []string{"tools/a.yaml"}, []string{"tools/a.yaml"}},
		{[]string{"tools/sub", "tools"}, []string{"tools/sub/c.yaml", "tools/a.yaml", "tools/b.yaml"}, []string{"tools"}},
		// what the walk leaves out stays a root of its own
		{[]string{"tools", "tools/.hidden"}, append(all[:3:3], "tools/.hidden/d.yaml"), []string{"tools", "tools/.hidden"}},
		{[]string{"tools", "tools/.hidden/d.yaml"}, append(all[:3:3], "tools/.hidden/d.yaml"), []string{"tools", "tools/.hidden/d.yaml"}},
		// distinct paths: unchanged, in order
		{[]string{"other", "tools"}, append([]string{"other/e.yaml"}, all...), []string{"other", "tools"}},
	} {
		files, err := Collect(tc.paths)
		if err != nil {
			t.Fatalf("%v: %v", tc.paths, err)
		}
		if !reflect.DeepEqual(files, tc.files) {
			t.Errorf("Collect(%q) = %q, want %q", tc.paths, files, tc.files)
		}
		roots, err := Roots(tc.paths)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(roots, tc.roots) {
			t.Errorf("Roots(%q) = %q, want %q", tc.paths, roots, tc.roots)
		}
	}
}
