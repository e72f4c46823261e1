//go:build unix

package lock

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/breaking"
	"github.com/toolctl/toolctl/pkg/spec"
)

// A code file that is no regular file (a named pipe) is pinned as
// unreadable, without being read: lock does not wait for a writer.
func TestPinCodeNotRegular(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "j.yaml"), []byte("name: j\ndescription: Echoes when asked to echo.\nentry:\n  type: javascript\n  file: pipe.js\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := spec.ParseFile(filepath.Join(dir, "j.yaml"), []byte("name: j\ndescription: Echoes when asked to echo.\nentry:\n  type: javascript\n  file: pipe.js\n"))
	side := &breaking.Side{Tools: []*breaking.Tool{breaking.FromSpec(f.Tools[0])}}
	done := make(chan *File, 1)
	go func() {
		l, err := Build(side, dir, []string{dir})
		if err != nil {
			t.Error(err)
		}
		done <- l
	}()
	select {
	case l := <-done:
		if l == nil || len(l.Tools) != 1 || len(l.Tools[0].Code) != 1 || l.Tools[0].Code[0].SHA256 != "" {
			t.Fatalf("want the pipe pinned as unreadable, got %+v", l)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("lock did not end: it read the named pipe")
	}
}
