//go:build unix

package run

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// entry.file is read as a tool file is: a regular file of bounded size. A
// named pipe there (or a link to /dev/zero) was read until it ended: the
// call hung before its timeout began, or filled memory.
func TestJavaScriptFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _ := jsTestCallYAML(t, "name: js_file\ndescription: A test tool.\nentry:\n  type: javascript\n  file: pipe.js\n", dir, nil)
	done := make(chan *Error, 1)
	go func() {
		_, e := jsRunCall(t, c, 5*time.Second)
		done <- e
	}()
	select {
	case e := <-done:
		if e == nil || e.Kind != DefinitionError || !strings.Contains(e.Message, `cannot read entry.file "pipe.js" (a named pipe (FIFO), not a regular file)`) {
			t.Fatalf("got %v", e)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call did not end: entry.file, a named pipe, was opened")
	}
}
