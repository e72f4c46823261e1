//go:build !linux

package run

import (
	"os/exec"
	"runtime"
)

// procGuard: outside Linux there is no subreaper to keep a tool's
// descendants within reach and no portable way to measure their memory:
// the process group is killed when the call ends (on other Unix systems;
// on Windows the process itself), and no memory limit is enforced on
// subprocesses.
type procGuard struct{}

func procKilled(*procGuard) string {
	if runtime.GOOS == "windows" {
		return "it was killed"
	}
	return "its process group was killed"
}

func guardProc(cmd *exec.Cmd, memory int64) (*procGuard, error) {
	killGroup(cmd)
	return &procGuard{}, nil
}

func (g *procGuard) started() {}

func (g *procGuard) finish() procReport { return procReport{} }
