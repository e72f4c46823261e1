package lint

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// TestEntryPythonDriftCtx: a function's ctx parameter, which toolctl's
// runner fills with the call's context (README "Rich results"), is not a
// parameter the schema lacks; another undeclared parameter still is.
func TestEntryPythonDriftCtx(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	tool := filepath.Join(dir, "t.yaml")
	src := "name: t\ndescription: Adds two numbers. Use when a sum is needed.\ncategory: custom\nentry: {type: python, module: m, function: add}\ninput_schema: {type: object, properties: {a: {type: integer, description: A.}}, required: [a]}\n"
	if err := os.WriteFile(tool, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.py"), []byte("def add(a, ctx, extra=None):\n    return a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := spec.Load([]string{tool})
	if err != nil {
		t.Fatal(err)
	}
	var drift []string
	for _, f := range Run(set, Config{}) {
		if f.Rule == "entry-python-drift" {
			drift = append(drift, f.Message)
		}
	}
	if len(drift) != 1 || !strings.Contains(drift[0], `"extra"`) {
		t.Errorf("entry-python-drift findings %q; want one, about extra (not ctx)", drift)
	}
}
