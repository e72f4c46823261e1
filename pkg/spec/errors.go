package spec

import (
	"fmt"
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
