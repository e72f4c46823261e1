//go:build !unix

package run

import "os/exec"

// killGroup: without process groups, the process itself is killed at the
// timeout (exec's default) and Wait stops waiting on its pipes soon after.
func killGroup(cmd *exec.Cmd) {
	cmd.WaitDelay = procWaitDelay
}

func setpgid(cmd *exec.Cmd) {}
