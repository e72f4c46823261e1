package cmd

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/report"
)

// The problems a command reports on stderr (a file that does not load, a
// config error, fmt's and import's errors, export --strict's refusals,
// the lint gate's findings, a tool that cannot run) go through
// app.problems, in the --error-format every command takes: text lines as
// they come, or one json, sarif, github or junit report when the command
// ends, so that CI reads every command's problems as it reads lint's.
// lint's own findings go to stdout in lint's --format.

// errorFormatUsage is --error-format's help: its values are report.Formats.
func errorFormatUsage() string {
	return "how problems are reported on stderr: " + strings.Join(report.Formats, ", ") + " (lint's findings: its --format)"
}

// setErrorFormat checks and keeps --error-format.
func (app *App) setErrorFormat(value string) error {
	if value == "" {
		value = "text"
	}
	if !slices.Contains(report.Formats, value) {
		return usageError(fmt.Errorf("--error-format %q is not a format; use one of %s", value, strings.Join(report.Formats, ", ")))
	}
	app.errorFormat = value
	return nil
}

// textErrors tells whether problems are reported as text (the default).
func (app *App) textErrors() bool { return app.errorFormat == "" || app.errorFormat == "text" }

// problems reports ds: with --error-format text at once, one line each
// (FILE:LINE:COL: severity: message [rule]); otherwise they are kept for
// the report written when the command ends (flushProblems).
func (app *App) problems(ds ...*diag.Diagnostic) {
	if app.textErrors() {
		_ = report.WriteLines(app.IO.ErrOut, ds, app.ColorErr)
		return
	}
	for _, d := range ds {
		app.pending = append(app.pending, *d)
	}
}

// errorProblem keeps err as a problem of the report when --error-format
// is not text and err is a positioned diagnostic (a config error, a tool
// that cannot run); it tells whether it did.
func (app *App) errorProblem(err error) bool {
	var d *diag.Diagnostic
	if app.textErrors() || !errors.As(err, &d) || d.File == "" {
		return false
	}
	c := *d
	c.Severity = diag.Error
	app.pending = append(app.pending, c)
	return true
}

// flushProblems writes the report of the problems kept by problems.
func (app *App) flushProblems() {
	if len(app.pending) == 0 {
		return
	}
	var files []string
	for _, d := range app.pending {
		if d.File != "" && !slices.Contains(files, d.File) {
			files = append(files, d.File)
		}
	}
	cwd, _ := os.Getwd()
	err := report.Write(app.IO.ErrOut, app.errorFormat, app.pending, report.Summary{Files: files}, report.Options{
		Root:    cwd,
		Version: currentBuild().Version,
		Rules:   reportRules(),
	})
	if err != nil {
		fmt.Fprintf(app.IO.ErrOut, "toolctl: %v\n", err)
	}
	app.pending = nil
}
