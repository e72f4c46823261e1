package spec

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadDirectory(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"b.yaml":            "name: b\ndescription: d\n",
		"a.json":            `{"name": "a", "description": "d"}`,
		"nested/c.yml":      "- name: c1\n  description: d\n- name: c2\n  description: d\n",
		"nested/broken.yml": "name: [\n",
		"README.md":         "# not a tool",
		"notes.txt":         "name: ignored",
		".hidden/h.yaml":    "name: hidden\ndescription: d\n",
		".toolctl.yaml":     "lint:\n  profile: strict\n",
		"nested/.dot.json":  `{"name": "dot", "description": "d"}`,
	})
	set, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range set.Tools() {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, ","); got != "a,b,c1,c2" {
		t.Errorf("tools %s", got)
	}
	if len(set.Files) != 4 {
		t.Errorf("%d files, want 4", len(set.Files))
	}
	// A hidden file named on its own is read.
	if set, err := Load([]string{filepath.Join(dir, "nested", ".dot.json")}); err != nil || len(set.Tools()) != 1 {
		t.Errorf("a hidden file named explicitly: %v %v", set, err)
	}
	errs := set.Errors()
	if len(errs) != 1 || !strings.HasSuffix(errs[0].File, "broken.yml") || errs[0].Span.Start.Line != 1 {
		t.Errorf("errors %v", errs)
	}
	if got := set.Lookup("c2"); len(got) != 1 || got[0].Index != 1 {
		t.Errorf("Lookup(c2) = %v", got)
	}
}

func TestLoadIsDeterministic(t *testing.T) {
	files := map[string]string{}
	for i := range 200 {
		files[filepath.Join("d"+string(rune('a'+i%7)), "t"+string(rune('a'+i%26))+string(rune('a'+i/26))+".yaml")] = "name: t\ndescription: d\n"
	}
	dir := writeFiles(t, files)
	first, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, _ := Load([]string{dir})
		for i := range first.Files {
			if first.Files[i].Path != again.Files[i].Path {
				t.Fatalf("file order differs at %d", i)
			}
		}
	}
}

func TestLoadPaths(t *testing.T) {
	dir := writeFiles(t, map[string]string{"t.yaml": "name: t\ndescription: d\n", "x.toml": "a = 1"})
	var pe *PathError
	if _, err := Load([]string{filepath.Join(dir, "missing")}); !errors.As(err, &pe) || !strings.Contains(err.Error(), "no such file or directory") {
		t.Errorf("missing path: %v", err)
	}
	if _, err := Load([]string{filepath.Join(dir, "x.toml")}); !errors.As(err, &pe) || !strings.Contains(err.Error(), "not a tool file") {
		t.Errorf("toml file: %v", err)
	}
	// A file named twice (directly and through its directory) loads once.
	set, err := Load([]string{filepath.Join(dir, "t.yaml"), dir})
	if err != nil || len(set.Files) != 1 {
		t.Errorf("duplicate path: %v, %d files", err, len(set.Files))
	}
	empty := t.TempDir()
	set, err = Load([]string{empty})
	if err != nil || len(set.Files) != 0 {
		t.Errorf("empty dir: %v %v", err, set)
	}
}

func TestLoadUnreadableFile(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("permissions are not enforced for root")
	}
	dir := writeFiles(t, map[string]string{"ok.yaml": "name: ok\ndescription: d\n", "secret.yaml": "name: s\n"})
	if err := os.Chmod(filepath.Join(dir, "secret.yaml"), 0); err != nil {
		t.Fatal(err)
	}
	set, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Tools()) != 1 || len(set.Errors()) != 1 || !strings.Contains(set.Errors()[0].Message, "permission denied") {
		t.Errorf("tools %d, errors %v", len(set.Tools()), set.Errors())
	}
}

func TestLoadLargeFileIsRefusedWithoutReading(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "huge.yaml")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	file := ReadFile(p)
	if len(file.Errors) != 1 || !strings.Contains(file.Errors[0].Error(), "huge.yaml:1:1: file is 50.0 MB") || file.Data != nil {
		t.Fatalf("errors %v", file.Errors)
	}
}

func TestToolFieldsAreAllKnown(t *testing.T) {
	for _, field := range ToolFields {
		src := "name: x\n" + field + ": null\n"
		if field == "name" {
			src = "name: x\n"
		}
		f := ParseFile("f.yaml", []byte(src))
		for _, tool := range f.Tools {
			if len(tool.UnknownFields) > 0 {
				t.Errorf("field %q is listed in ToolFields but parsed as unknown", field)
			}
		}
	}
	f := ParseFile("f.yaml", []byte("name: x\nnot_a_field: 1\n"))
	if len(f.Tools[0].UnknownFields) != 1 {
		t.Error("unknown field not reported")
	}
}
