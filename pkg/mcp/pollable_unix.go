//go:build unix

package mcp

import (
	"os"
	"sync"
	"syscall"
)

// pollable returns a pipe or socket stdin/stdout as a file Go's poller
// serves, and a function that puts the descriptor back in blocking mode.
// A process's standard files are blocking, so every read and write holds a
// thread and its P in a system call, and a reader blocked on stdin delays
// the goroutines that answer: serve made 30-40% more calls a second with
// pollable pipes. Terminals and regular files are left alone (a terminal's
// file description is shared with the shell).
func pollable[T any](v T) (T, func()) {
	none := func() {}
	f, ok := any(v).(*os.File)
	if !ok {
		return v, none
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return v, none
	}
	// A duplicate descriptor of our own: a second *os.File on the caller's
	// descriptor would close it from its finalizer (or twice), closing
	// whatever file has reused the number by then.
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return v, none
	}
	syscall.CloseOnExec(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return v, none
	}
	dup := os.NewFile(uintptr(fd), f.Name())
	// Whoever shares the description after us (a shell running toolctl
	// from a script) expects it blocking again; the flag belongs to the
	// description, so it is restored through our descriptor before that
	// is closed.
	var once sync.Once
	done := func() {
		once.Do(func() {
			syscall.SetNonblock(fd, false)
			dup.Close()
		})
	}
	p, ok := any(&restoringFile{File: dup, done: done}).(T)
	if !ok {
		done()
		return v, none
	}
	return p, done
}

// restoringFile restores blocking mode before it closes (the transport
// closes its reader); done runs once, whoever calls it first.
type restoringFile struct {
	*os.File
	done func()
}

func (f *restoringFile) Close() error {
	f.done()
	return nil
}
