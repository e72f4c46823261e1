// Package proc runs the subprocesses of tool calls and MCP servers
// guarded: in a process group of their own, on Linux under a supervisor
// (package sandbox) that kills what they leave behind and enforces a
// memory limit, with the end of their stderr kept for messages.
package proc

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"time"
)

// Tail passes a subprocess's stderr through to the call's stderr and
// keeps its end for error messages.
type Tail struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

const (
	// TailBytes is how much of the end of stderr a Tail keeps.
	TailBytes = 4 << 10
	tailLines = 20
)

// WaitDelay bounds how long Wait waits, once the call's context has
// ended or the process has exited, for the process to die and for its
// pipes to close: a subprocess call takes at most its timeout plus this.
const WaitDelay = 250 * time.Millisecond

// Report is what the guard (guard_linux.go) learnt about a finished
// subprocess.
type Report struct {
	// StartErr: the program could not be started (the guard started, so
	// exec's Start did not say).
	StartErr       error
	MemoryExceeded bool
	Peak           int64 // the highest memory measured, bytes
	Leftovers      int   // processes still running when it exited, killed
}

// NewTail is a Tail passing stderr through to w (nil discards it).
func NewTail(w io.Writer) *Tail {
	if w == nil {
		w = io.Discard
	}
	return &Tail{w: w}
}

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = t.w.Write(p) // a closed terminal must not fail the tool
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*TailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-TailBytes:]...)
	}
	return len(p), nil
}

// Tail is the last lines of stderr (at most 20 lines and 4 KB).
func (t *Tail) Tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if len(b) > TailBytes {
		b = b[len(b)-TailBytes:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:] // drop the cut line
		}
	}
	lines := strings.Split(strings.TrimRight(string(bytes.ToValidUTF8(b, []byte("\uFFFD"))), "\n\r\t "), "\n")
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	return strings.Join(lines, "\n")
}

// Raw is the end of stderr as written: its last TailBytes bytes.
func (t *Tail) Raw() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf[max(0, len(t.buf)-TailBytes):])
}

// LastLine is ": " and the last non-empty line of stderr, for a message.
func (t *Tail) LastLine() string {
	lines := strings.Split(t.Tail(), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			if r := []rune(l); len(r) > 300 {
				l = string(r[:300]) + "..."
			}
			return ": " + l
		}
	}
	return ""
}
