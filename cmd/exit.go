package cmd

import (
	"errors"
)

// Exit codes shared by every command. Commands with more outcomes (run)
// document theirs in their help.
const (
	// ExitOK: success.
	ExitOK = 0
	// ExitProblems: the command worked and found problems in tool files
	// (a file that does not load, lint findings at or above the fail level).
	ExitProblems = 1
	// ExitUsage: bad flags or arguments, a missing path, an unknown tool, an
	// unreadable or invalid config file.
	ExitUsage = 2
)

// exitError carries an exit code. A nil err means the message was already
// printed (e.g. the file errors after a table) and only the code matters.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func usageError(err error) error { return &exitError{ExitUsage, err} }

// problemsFound ends a command with exit code 1 after it printed its findings.
func problemsFound() error { return &exitError{code: ExitProblems} }

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// Cobra's own errors (unknown flag or command, wrong argument count)
	// are usage errors.
	return ExitUsage
}
