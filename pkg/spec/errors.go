package spec

import (
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"path/filepath"
	"runtime"
	"strings"
)

// Pos is a 1-based position in a source file (diag.Pos).
type Pos = diag.Pos

// Span is the source range of a value (diag.Span).
type Span = diag.Span

// Error is a problem with a file, positioned where possible: a
// diag.Diagnostic with its File, Span, Pointer (of the offending value,
// when it is about a value) and Message. It is a value: loading collects
// them per file and never stops at the first.
type Error = diag.Diagnostic

// IssuesURL is where toolctl's own bugs are reported.
const IssuesURL = "https://github.com/toolctl/toolctl/issues"

// InternalErrorMsg describes a panic recovered while reading name (a file
// or another input): the panic and the function it came from, never a
// stack trace. Call it in the deferred function that recovered, where the
// panicking frames are still on the stack.
func InternalErrorMsg(name string, p any) string {
	msg := truncate(fmt.Sprint(p), 200)
	if site := panicSite(); site != "" {
		msg += " (in " + site + ")"
	}
	return fmt.Sprintf("internal error while reading %s: %s; please report this at %s with the file", name, msg, IssuesURL)
}

// panicSite names the function that panicked, with its file and line:
// the first frame below runtime.gopanic outside the runtime.
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	panicking := false
	for {
		fr, more := frames.Next()
		switch {
		case fr.Function == "runtime.gopanic":
			panicking = true
		case panicking && !strings.HasPrefix(fr.Function, "runtime."):
			name := strings.TrimPrefix(fr.Function, "github.com/toolctl/toolctl/")
			return fmt.Sprintf("%s, %s:%d", name, filepath.Base(fr.File), fr.Line)
		}
		if !more {
			return ""
		}
	}
}

// internalError is the error of a file whose reading panicked (p is what
// was recovered): at the file's start, as where it failed is unknown.
func (f *File) internalError(p any) *Error {
	return &Error{File: f.Path, Span: Span{Start: Pos{Line: 1, Col: 1}, End: Pos{Line: 1, Col: 2}}, Message: InternalErrorMsg(f.Path, p)}
}
