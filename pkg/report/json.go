package report

import (
	"bytes"
	"encoding/json"

	"github.com/toolctl/toolctl/pkg/diag"
)

// jsonReport is the json format; field order is struct order, so output is
// stable.
type jsonReport struct {
	Findings []jsonFinding `json:"findings"`
	Summary  jsonSummary   `json:"summary"`
}

// jsonFinding positions are 1-based; 0 means the finding has no position
// (an unreadable file, say).
type jsonFinding struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Severity  string `json:"severity"`
	Rule      string `json:"rule"`
	Message   string `json:"message"`
	// Tool and Pointer name the tool and the JSON pointer of the value
	// where a finding has them (the security rules; toolctl scan of a
	// live server, whose findings have no file position).
	Tool    string `json:"tool,omitempty"`
	Pointer string `json:"pointer,omitempty"`
}

type jsonSummary struct {
	Files    int `json:"files"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Info     int `json:"info"`
}

func writeJSON(b *bytes.Buffer, findings []diag.Diagnostic, sum Summary) error {
	// Non-nil so an empty report reads "findings": [] rather than null.
	out := jsonReport{Findings: make([]jsonFinding, 0, len(findings))}
	for _, f := range findings {
		jf := jsonFinding{File: f.File, Severity: f.Severity.String(), Rule: f.Rule, Message: f.Message, Tool: f.Tool, Pointer: f.Pointer}
		if hasPos(f.Span) {
			end := endOf(f.Span)
			jf.Line, jf.Column = f.Span.Start.Line, f.Span.Start.Col
			jf.EndLine, jf.EndColumn = end.Line, end.Col
		}
		out.Findings = append(out.Findings, jf)
	}
	c := countFindings(findings)
	out.Summary = jsonSummary{Files: len(sum.Files), Errors: c.errors, Warnings: c.warnings, Info: c.info}
	return encodeJSON(b, out)
}

// encodeJSON writes v with 2-space indent and a trailing newline, leaving
// <, > and & readable: messages quote source text.
func encodeJSON(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
