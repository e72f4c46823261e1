// Package sandbox runs a tool's program under a supervisor: a copy of the
// running binary, started before the program, that stays its parent for
// the whole call. On Linux the supervisor is a child subreaper
// (PR_SET_CHILD_SUBREAPER), so every process the program starts, even one
// that calls setsid or forks twice, stays its descendant; when the program
// exits, or the call is cancelled, or the process that made the call dies,
// the supervisor kills every descendant that is left before it exits. It
// also measures the memory of the whole tree (anonymous resident memory,
// shared pages counted proportionally) and kills the tree when it goes over
// the call's limit.
//
// The supervisor is this binary re-executed with a marker in argv[0]; this
// package's init function recognises it. The package imports nothing but
// the standard library, so that its init runs before those of the heavy
// packages a binary links, and the supervisor starts in about a
// millisecond.
//
// Elsewhere (no subreaper, no /proc) Supported is false and callers fall
// back to killing the program's process group.
package sandbox

import "time"

// Grace is how long the caller waits for the supervisor to clean up and
// exit after it was told to stop, before it kills the supervisor itself.
// The supervisor takes a few milliseconds; the grace is for a machine so
// loaded that it is not scheduled in time: killed, it could no longer
// kill what the program left (those would go to init), so it is given
// ample time rather than a tight one.
const Grace = time.Second

// Report is what the supervisor says about a finished call.
type Report struct {
	// StartErr is set when the program could not be started (it is an
	// *fs.PathError, as exec.Cmd.Start returns).
	StartErr error
	// MemoryExceeded: the supervisor killed the tree because its memory
	// went over the limit.
	MemoryExceeded bool
	// Peak is the highest memory of the tree the supervisor measured, in
	// bytes; 0 when it measured none.
	Peak int64
	// Leftovers is how many processes were still running when the program
	// exited and were killed.
	Leftovers int
}
