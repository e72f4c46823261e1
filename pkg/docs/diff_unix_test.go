//go:build unix

package docs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO or a symlink where a page goes is a foreign file: Diff never opens
// it (a FIFO would block) nor writes through it.
func TestDiffNonRegularPages(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "index.md"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "x.md")); err != nil {
		t.Fatal(err)
	}
	page := []byte("<!-- " + Marker + " -->\n")
	files := []File{{Name: "index.md", Data: page}, {Name: "x.md", Data: page}}
	done := make(chan error, 1)
	go func() { _, err := Diff(dir, files, Markdown); done <- err }()
	select {
	case err := <-done:
		var foreign *ForeignError
		if !errors.As(err, &foreign) || len(foreign.Files) != 2 {
			t.Errorf("FIFO and symlink pages: got %v, want a ForeignError naming both", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Diff blocked on a FIFO in the output directory")
	}
}
