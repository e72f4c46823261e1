//go:build !unix

package proc

import "os/exec"

// KillGroup: without process groups, the process itself is killed at the
// timeout (exec's default) and Wait stops waiting on its pipes soon after.
func KillGroup(cmd *exec.Cmd) {
	cmd.WaitDelay = WaitDelay
}

// Setpgid: there are no process groups.
func Setpgid(cmd *exec.Cmd) {}
