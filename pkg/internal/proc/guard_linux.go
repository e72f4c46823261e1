package proc

import (
	"os/exec"

	"github.com/toolctl/toolctl/pkg/internal/sandbox"
)

// Guard watches one subprocess of a call. On Linux it is a supervisor
// (package sandbox): a subreaper parent that kills every process the
// program started, even one that left its process group or session, when
// the program exits or the call ends, and that stops the whole tree when
// its memory goes over the limit. Without /proc/self/exe it falls back to
// killing the process group.
type Guard struct {
	sup *sandbox.Supervised
}

// Killed says what is killed when a call ends early.
func (g *Guard) Killed() string {
	if g != nil && g.sup != nil {
		return "it and every process it started were killed"
	}
	return "its process group was killed"
}

// Prepare prepares cmd (Path and Args set, not started) to run guarded,
// with a memory limit in bytes (0: none).
func Prepare(cmd *exec.Cmd, memory int64) (*Guard, error) {
	if !sandbox.Available() {
		KillGroup(cmd)
		return &Guard{}, nil
	}
	sup, err := sandbox.Prepare(cmd, memory)
	if err != nil {
		return nil, err
	}
	return &Guard{sup: sup}, nil
}

// Started is called once cmd.Start has succeeded.
func (g *Guard) Started() {
	if g.sup != nil {
		g.sup.Started()
	}
}

// Finish is called once cmd.Wait has returned, or Start failed.
func (g *Guard) Finish() Report {
	if g.sup == nil {
		return Report{}
	}
	r := g.sup.Finish()
	return Report{StartErr: r.StartErr, MemoryExceeded: r.MemoryExceeded, Peak: r.Peak, Leftovers: r.Leftovers}
}
