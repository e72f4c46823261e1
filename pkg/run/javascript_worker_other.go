//go:build !linux

package run

import "os/exec"

// jsWorkerProc: elsewhere the worker is killed alone (it starts no
// process).
func jsWorkerProc(cmd *exec.Cmd) { setpgid(cmd) }

// jsCapDataSegment: outside Linux RLIMIT_DATA does not bound what mmap
// maps (macOS), or is not there (Windows): the heap watch alone limits
// the worker's memory.
func jsCapDataSegment(limit int64) {}
