//go:build unix

package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"testing"
	"testing/iotest"
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

// TestPollableReadWrite: the pollable file's own reads and writes wait
// when the pipe is empty or full, report EOF, and fail with EPIPE when
// the other end is gone.
func TestPollableReadWrite(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	pr, doneR := pollable(io.ReadCloser(r))
	defer doneR()
	pw, doneW := pollable(io.Writer(w))
	if _, ok := pw.(*restoringFile); !ok {
		t.Fatalf("a pipe was not made pollable: %T", pw)
	}
	// Several times a pipe's buffer: the writer must wait for the reader.
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<16)
	wrote := make(chan error, 1)
	go func() {
		n, err := pw.Write(want)
		if err == nil && n != len(want) {
			err = fmt.Errorf("wrote %d of %d bytes", n, len(want))
		}
		doneW()
		w.Close()
		wrote <- err
	}()
	got, err := io.ReadAll(iotest.OneByteReader(io.LimitReader(pr, 10)))
	if err != nil || string(got) != "0123456789" {
		t.Fatalf("first bytes: %q, %v", got, err)
	}
	rest, err := io.ReadAll(pr)
	if err != nil {
		t.Fatalf("reading to EOF: %v", err)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(append(got, rest...), want) {
		t.Fatalf("read %d bytes, not the %d written", len(got)+len(rest), len(want))
	}
	if n, err := pr.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Fatalf("after EOF: %d, %v", n, err)
	}

	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	pw2, done2 := pollable(io.Writer(w2))
	defer done2()
	r2.Close()
	if _, err := pw2.Write([]byte("x\n")); !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("writing to a pipe without a reader: %v, want EPIPE", err)
	}
}
