package run

import (
	"os/exec"

	"github.com/toolctl/toolctl/pkg/run/internal/sandbox"
)

// procGuard watches one subprocess of a call. On Linux it is a supervisor
// (package sandbox): a subreaper parent that kills every process the
// program started, even one that left its process group or session, when
// the program exits or the call ends, and that stops the whole tree when
// its memory goes over the limit. Without /proc/self/exe it falls back to
// killing the process group.
type procGuard struct {
	sup *sandbox.Supervised
}

// procKilled says what is killed when a call ends early.
func procKilled(g *procGuard) string {
	if g != nil && g.sup != nil {
		return "it and every process it started were killed"
	}
	return "its process group was killed"
}

// guardProc prepares cmd (Path and Args set, not started) to run guarded,
// with a memory limit in bytes (0: none).
func guardProc(cmd *exec.Cmd, memory int64) (*procGuard, error) {
	if !sandbox.Available() {
		killGroup(cmd)
		return &procGuard{}, nil
	}
	sup, err := sandbox.Prepare(cmd, memory)
	if err != nil {
		return nil, err
	}
	return &procGuard{sup: sup}, nil
}

// started is called once cmd.Start has succeeded.
func (g *procGuard) started() {
	if g.sup != nil {
		g.sup.Started()
	}
}

// finish is called once cmd.Wait has returned, or Start failed.
func (g *procGuard) finish() procReport {
	if g.sup == nil {
		return procReport{}
	}
	r := g.sup.Finish()
	return procReport{startErr: r.StartErr, memoryExceeded: r.MemoryExceeded, peak: r.Peak, leftovers: r.Leftovers}
}
