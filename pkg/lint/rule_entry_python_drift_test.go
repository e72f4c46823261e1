//go:build unix

package lint

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

// A module path that is a named pipe is not opened (opening one waits
// for a writer): lint finishes and says nothing about it.
func TestEntryPythonDriftSkipsNamedPipe(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	tool := filepath.Join(dir, "t.yaml")
	src := "name: t\ndescription: Adds two numbers. Use when a sum is needed.\ncategory: custom\nentry: {type: python, module: pipe, function: add}\ninput_schema: {type: object, properties: {a: {type: integer, description: A.}}}\n"
	if err := os.WriteFile(tool, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan []Finding, 1)
	go func() {
		set, err := spec.Load([]string{tool})
		if err != nil {
			t.Error(err)
		}
		done <- Run(set, Config{})
	}()
	select {
	case fs := <-done:
		for _, f := range fs {
			if f.Rule == "entry-python-drift" {
				t.Errorf("finding about a named pipe: %s", f)
			}
		}
	case <-time.After(30 * time.Second):
		t.Fatal("lint did not finish: it opened the named pipe")
	}
}
