package spec

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// Pos is a 1-based position in a source file. Columns count characters
// (runes), as editors and yaml.v3 do. A zero Line means "no position".
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// IsValid reports whether p points somewhere.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Span is the source range of a value: Start inclusive, End exclusive.
type Span struct {
	Start Pos `json:"start"`
	End   Pos `json:"end"`
}

// Error is a problem with a file, positioned where possible. It is a value:
// loading collects them per file and never stops at the first.
type Error struct {
	File string
	Span Span
	// Pointer is the JSON pointer of the offending value in the source
	// document, when the error is about a value.
	Pointer string
	Msg     string
}

func (e *Error) Error() string {
	if e.Span.Start.IsValid() {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Span.Start.Line, e.Span.Start.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

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
	return &Error{File: f.Path, Span: Span{Pos{1, 1}, Pos{1, 2}}, Msg: InternalErrorMsg(f.Path, p)}
}
