// Package report renders lint findings for people (text), programs (json),
// code-scanning services (sarif), GitHub Actions annotations (github) and CI
// test dashboards (junit). Every format is byte-stable: the same findings
// give the same bytes, so reports can be diffed and cached.
package report

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Formats lists the format names in documentation order.
var Formats = []string{"text", "json", "sarif", "github", "junit"}

// Rule describes a rule for the reports that list the catalog (sarif).
type Rule struct {
	ID          string
	Description string
	// Explain is the --explain text, sarif's help.
	Explain  string
	Severity diag.Severity
}

// Summary describes the run as a whole, beyond its findings.
type Summary struct {
	// Files is every linted file, sorted, as displayed; clean files count
	// too, so reports can say what was checked.
	Files []string
}

// Options tunes rendering. The zero value renders plain text without
// source excerpts.
type Options struct {
	// Color enables ANSI styling in the text format; the caller decides
	// (TTY, NO_COLOR). Other formats ignore it.
	Color bool
	// Source returns the parsed file at path for source excerpts in the
	// text format. It may be nil or return nil: then no excerpt.
	Source func(path string) *spec.File
	// Root is the directory paths in github, sarif and junit reports are
	// made relative to (usually the working directory). Relative finding
	// paths are taken as relative to Root already.
	Root string
	// Version is the toolctl version, for sarif's tool.driver.version.
	Version string
	// Rules is the rule catalog for sarif's rules array.
	Rules []Rule
	// Quiet drops the text format's summary line.
	Quiet bool
	// ToolPointers: a finding's tool and JSON pointer (Tool, Pointer)
	// also go where machines read them: SARIF logicalLocations and
	// properties, the JUnit test case name. toolctl scan sets it: the
	// tools it imports have no file of their own, so the pointer is their
	// position. (The messages hold both either way.)
	ToolPointers bool
}

// Write renders findings in format to w. Findings are written in the order
// given (lint.Run sorts them).
func Write(w io.Writer, format string, findings []diag.Diagnostic, sum Summary, opt Options) error {
	// Render into memory first: a report is written whole or not at all,
	// and there is one write error to handle.
	var buf bytes.Buffer
	var err error
	switch format {
	case "text":
		writeText(&buf, findings, sum, opt)
	case "json":
		err = writeJSON(&buf, findings, sum)
	case "sarif":
		err = writeSARIF(&buf, findings, sum, opt)
	case "github":
		writeGitHub(&buf, findings, opt)
	case "junit":
		err = writeJUnit(&buf, findings, sum, opt)
	default:
		return fmt.Errorf("unknown report format %q; use one of: %s", format, strings.Join(Formats, ", "))
	}
	if err != nil {
		return fmt.Errorf("rendering %s report: %w", format, err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("writing %s report: %w", format, err)
	}
	return nil
}

// counts tallies findings by severity.
type counts struct {
	errors, warnings, info int
}

func countFindings(findings []diag.Diagnostic) counts {
	var c counts
	for _, f := range findings {
		switch f.Severity {
		case diag.Error:
			c.errors++
		case diag.Warning:
			c.warnings++
		case diag.Info:
			c.info++
		}
	}
	return c
}

// relPath makes path relative to root with forward slashes, as CI services
// expect repository-relative paths. Paths outside root stay absolute;
// relative paths are taken as relative to root already.
func relPath(root, path string) string {
	if path == "" {
		return ""
	}
	clean := filepath.Clean(path)
	if root != "" && filepath.IsAbs(clean) {
		if rel, err := filepath.Rel(root, clean); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			clean = rel
		}
	}
	return filepath.ToSlash(clean)
}

// fileOrder lists the files of a report: every linted file, then any file
// with findings that the summary does not list, each once.
func fileOrder(sum Summary, findings []diag.Diagnostic) []string {
	seen := make(map[string]bool, len(sum.Files))
	var files []string
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, f := range sum.Files {
		add(f)
	}
	for _, f := range findings {
		add(f.File)
	}
	return files
}

// hasPos reports whether a finding points into its file.
func hasPos(s spec.Span) bool { return s.Start.IsValid() }

// hasEnd reports whether a span's end is usable: set and after its start.
func hasEnd(s spec.Span) bool {
	if !s.End.IsValid() || s.End.Line < s.Start.Line {
		return false
	}
	return s.End.Line > s.Start.Line || s.End.Col > s.Start.Col
}

// endOf returns the span's end, or the character after its start when the
// end is unset, as pkg/spec does for spans it cannot measure.
func endOf(s spec.Span) spec.Pos {
	if hasEnd(s) {
		return s.End
	}
	return spec.Pos{Line: s.Start.Line, Col: s.Start.Col + 1}
}
