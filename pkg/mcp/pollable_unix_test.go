//go:build unix

package mcp

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestPollableRestoresBlocking: serving over pipes makes them non-blocking
// for the poller and blocking again afterwards, for whoever shares them.
func TestPollableRestoresBlocking(t *testing.T) {
	s, _ := newServer(t, copyTools(t), Options{})
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outR.Close()
	inW.Close() // EOF at once
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), inR, outW, time.Second) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not end at EOF")
	}
	rc, err := outW.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	rc.Control(func(fd uintptr) {
		f, _, _ := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		flags = int(f)
	})
	if flags&syscall.O_NONBLOCK != 0 {
		t.Error("stdout was left non-blocking")
	}
}
