// Package diag is the one type for a positioned problem, whoever finds it:
// the parser, a lint rule, the config file, fmt, import, export --strict,
// a run that cannot start. pkg/report renders lists of them in every
// output format; Where is the one place that writes FILE:LINE:COL.
//
// It sits below every other package of toolctl (pkg/spec included) and
// imports none of them.
package diag

import (
	"fmt"
	"strconv"
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

// At is the span of one character at p.
func At(p Pos) Span { return Span{p, Pos{p.Line, p.Col + 1}} }

// Severity orders diagnostics; Off disables a rule.
type Severity int

const (
	Off Severity = iota
	Info
	Warning
	Error
)

var severityNames = []string{"off", "info", "warning", "error"}

func (s Severity) String() string {
	if s < Off || s > Error {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity reads off, info, warning or error.
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if strings.EqualFold(s, n) {
			return Severity(i), nil
		}
	}
	return Off, fmt.Errorf("%q is not a severity; use off, info, warning or error", s)
}

// Diagnostic is one problem at one place.
type Diagnostic struct {
	// File is the path as the user gave it ("" when the problem is about
	// no file, e.g. a whole input).
	File string
	Span Span
	// Pointer is the JSON pointer of the value at fault, when the problem
	// is about a value.
	Pointer  string
	Severity Severity
	// Rule is the rule ID that reports it (lint's, export --strict's), or
	// "" for a problem no rule names (a syntax error, a config error).
	Rule    string
	Message string
	// Tool is the name of the tool the problem is about, where the
	// position does not say it (import: the input's tool).
	Tool string
	// Secret is the credential the problem is about (secret-literal). No
	// report prints it: the text format masks it in every source excerpt
	// of the file, the other formats carry no source text.
	Secret string
}

// Where is "FILE:LINE:COL", or FILE when p is not a position.
func Where(file string, p Pos) string {
	if !p.IsValid() {
		return file
	}
	return file + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// Where is d's FILE:LINE:COL (FILE without a position).
func (d *Diagnostic) Where() string { return Where(d.File, d.Span.Start) }

// Error is "FILE:LINE:COL: message" ("FILE: message" without a position,
// the message alone without a file).
func (d *Diagnostic) Error() string {
	if d.File == "" {
		return d.Message
	}
	return d.Where() + ": " + d.Message
}

// String is the one-line form lint prints: "FILE:LINE:COL: severity:
// message [rule]".
func (d Diagnostic) String() string {
	return Where(d.File, d.Span.Start) + ": " + d.Severity.String() + ": " + d.Message + " [" + d.Rule + "]"
}

// Plural is "1 file", "2 files": n with the word for its count.
func Plural(n int, one, many string) string {
	if n == 1 {
		return strconv.Itoa(n) + " " + one
	}
	return strconv.Itoa(n) + " " + many
}
