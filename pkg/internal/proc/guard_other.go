//go:build !linux

package proc

import (
	"os/exec"
	"runtime"
)

// Guard: outside Linux there is no subreaper to keep a tool's
// descendants within reach and no portable way to measure their memory:
// the process group is killed when the call ends (on other Unix systems;
// on Windows the process itself), and no memory limit is enforced on
// subprocesses.
type Guard struct{}

// Killed says what is killed when a call ends early.
func (g *Guard) Killed() string {
	if runtime.GOOS == "windows" {
		return "it was killed"
	}
	return "its process group was killed"
}

// Prepare prepares cmd (Path and Args set, not started) to run guarded.
func Prepare(cmd *exec.Cmd, memory int64) (*Guard, error) {
	KillGroup(cmd)
	return &Guard{}, nil
}

// Started is called once cmd.Start has succeeded.
func (g *Guard) Started() {}

// Finish is called once cmd.Wait has returned, or Start failed.
func (g *Guard) Finish() Report { return Report{} }
