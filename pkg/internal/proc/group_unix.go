//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// KillGroup makes cmd the leader of a new process group and, when its
// context ends, kills the whole group: a tool that spawns children (a shell,
// a Python multiprocessing pool) leaves nothing of that group behind at the
// timeout. A child that starts its own session (setsid) escapes it: on
// Linux the supervisor (guard_linux.go) catches those too.
func KillGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		// the negative pid addresses the group
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	// A grandchild holding stdout open must not keep Wait blocked.
	cmd.WaitDelay = WaitDelay
}

// Setpgid puts cmd in a process group of its own.
func Setpgid(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
