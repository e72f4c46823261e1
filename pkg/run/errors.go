package run

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Kind is the type of a failed call (README "Running a tool"): the runner
// retries by kind and the CLI maps each kind to its own exit code.
type Kind string

const (
	// ValidationError: the input does not satisfy the input schema, or a
	// bound value cannot be resolved. Nothing was executed.
	ValidationError Kind = "ValidationError"
	// ToolExecutionError: the tool ran and failed (a thrown JS error, a
	// Python exception, a non-zero exit, an HTTP 4xx other than the below,
	// an MCP isError result).
	ToolExecutionError Kind = "ToolExecutionError"
	// TimeoutError: the call did not finish before its deadline.
	TimeoutError Kind = "TimeoutError"
	// NetworkError: the connection failed (refused, DNS, reset).
	NetworkError Kind = "NetworkError"
	// AuthenticationError: HTTP 401 or 403.
	AuthenticationError Kind = "AuthenticationError"
	// NotFoundError: HTTP 404.
	NotFoundError Kind = "NotFoundError"
	// RateLimitError: HTTP 429.
	RateLimitError Kind = "RateLimitError"
	// ServerError: HTTP 5xx.
	ServerError Kind = "ServerError"
	// MemoryLimitError: the call used more memory than its limit
	// (runtime.memory) and was stopped. Not retried: it would use as much
	// again.
	MemoryLimitError Kind = "MemoryLimitError"
	// DefinitionError: the tool cannot run for a reason in its file (no
	// entry, an unknown entry type or handler, a missing field, a python
	// module or script next to the tool file that is not there, a
	// placeholder that names no parameter or that would let a caller pick
	// the program or the host). Nothing was executed. It is a problem in a
	// tool file, so `toolctl run` exits 1, the code every command uses for
	// one, and says where (Error.Pointer).
	DefinitionError Kind = "DefinitionError"
)

// Kinds lists every kind in exit-code order.
var Kinds = []Kind{ValidationError, ToolExecutionError, TimeoutError, NetworkError, AuthenticationError, NotFoundError, RateLimitError, ServerError, MemoryLimitError}

// ExitCode is the process exit code `toolctl run` uses for a kind. 0, 1 and
// 2 are the codes every command shares (ok, problems in tool files, usage).
func (k Kind) ExitCode() int {
	if k == DefinitionError {
		return 1
	}
	for i, kk := range Kinds {
		if kk == k {
			return 3 + i
		}
	}
	return 4 // an unknown kind is an execution failure
}

// Retryable tells whether a failure of this kind may succeed when tried
// again: network errors, timeouts, rate limits and server errors.
func (k Kind) Retryable() bool {
	switch k {
	case NetworkError, TimeoutError, RateLimitError, ServerError:
		return true
	}
	return false
}

// Error is a failed call. Executors return one (or any error, which the
// runner converts to ToolExecutionError).
type Error struct {
	Kind Kind
	// Tool is the tool's name; the runner fills it.
	Tool string
	// Param is the parameter a ValidationError is about ("" for the whole
	// input) as a JSON pointer without the leading slash (e.g. "items/0").
	Param string
	// Message says what went wrong and, where it can, how to fix it.
	Message string
	// Status is the HTTP status for errors mapped from a response.
	Status int
	// RetryAfter is the server's Retry-After, honoured by the retry delay.
	RetryAfter time.Duration
	// Detail carries what the executor knows beyond the message: the
	// response body, a Python exception type, a JS stack, stderr's tail.
	Detail any
	// Attempts is how many times the call was tried; the runner fills it.
	Attempts int
	// Err is the underlying error, if any.
	Err error
	// Pointer is, for a DefinitionError, the canonical JSON pointer of the
	// field at fault in the tool (/entry/url, /entry/command/0); "" for
	// the tool itself. Tool.Span turns it into a position.
	Pointer string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Kind))
	if e.Tool != "" {
		b.WriteString(" in ")
		b.WriteString(e.Tool)
	}
	b.WriteString(": ")
	b.WriteString(e.Message)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of the given kind.
func Errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// DefinitionErrorf returns a DefinitionError about the field at ptr.
func DefinitionErrorf(ptr, format string, args ...any) *Error {
	return &Error{Kind: DefinitionError, Pointer: ptr, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error of the given kind whose message is msg and whose
// cause is err.
func Wrap(kind Kind, err error, msg string) *Error {
	return &Error{Kind: kind, Message: msg, Err: err}
}

// AsError returns err as an *Error: an *Error anywhere in the chain is
// returned as is, anything else becomes a ToolExecutionError.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var re *Error
	if errors.As(err, &re) {
		return re
	}
	return &Error{Kind: ToolExecutionError, Message: err.Error(), Err: err}
}
