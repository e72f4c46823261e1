//go:build unix

package spec

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// LoadNamed does not open a named pipe among the files it looks through for
// the tool's name (opening one waits for a writer): the full load reports
// it, as Load does.
func TestLoadNamedSkipsNamedPipe(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "calc.yaml"), []byte("name: calc\ndescription: Adds two numbers.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	type result struct {
		set *Set
		err error
	}
	done := make(chan result, 1)
	go func() {
		set, err := LoadNamed([]string{dir}, "calc")
		done <- result{set, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("LoadNamed did not finish: it opened the named pipe")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := len(r.set.Lookup("calc")); got != 1 {
		t.Errorf("Lookup(calc) finds %d tools, want 1", got)
	}
}

// Source after Release reads the file again as a tool file: a named pipe
// put in its place is not opened.
func TestSourceAfterReleaseSkipsNamedPipe(t *testing.T) {
	f, path := readReleaseTool(t)
	f.Release(true)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan []byte, 1)
	go func() { done <- f.Source() }()
	select {
	case src := <-done:
		if len(src) != 0 {
			t.Errorf("Source() = %q, want no text", src)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Source did not finish: it opened the named pipe")
	}
}
