package cmd

import (
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"io"
	"runtime/debug"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/toolctl/toolctl/pkg/spec"
)

// styles renders emphasis only when colour is on, so piped output is plain
// and byte-stable.
type styles struct {
	header, err lipgloss.Style
	on          bool
}

// styles for stdout; stderrStyles for stderr (each stream is a TTY or not).
func (app *App) styles() styles { return app.newStyles(app.IO.Out, app.Color) }

func (app *App) stderrStyles() styles { return app.newStyles(app.IO.ErrOut, app.ColorErr) }

func (app *App) newStyles(w io.Writer, on bool) styles {
	r := lipgloss.NewRenderer(w)
	r.SetColorProfile(termenv.ANSI)
	return styles{
		header: r.NewStyle().Bold(true),
		err:    r.NewStyle().Foreground(lipgloss.Color("1")).Bold(true),
		on:     on,
	}
}

func (s styles) render(st lipgloss.Style, text string) string {
	if !s.on {
		return text
	}
	return st.Render(text)
}

// writeTable prints aligned columns; widths count display cells, so CJK
// names and emoji line up.
func writeTable(w io.Writer, s styles, header []string, rows [][]string) {
	writeAlignedTable(w, s, header, rows, nil)
}

// writeAlignedTable is writeTable with the columns right reports true for
// aligned to the right (numbers); right may be nil.
func writeAlignedTable(w io.Writer, s styles, header []string, rows [][]string, right func(col int) bool) {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = lipgloss.Width(h)
	}
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], lipgloss.Width(cell))
		}
	}
	line := func(cells []string, style *lipgloss.Style) {
		var b strings.Builder
		for i, cell := range cells {
			text := cell
			if style != nil {
				text = s.render(*style, cell)
			}
			pad := strings.Repeat(" ", widths[i]-lipgloss.Width(cell))
			if right != nil && right(i) {
				b.WriteString(pad + text)
				pad = ""
			} else {
				b.WriteString(text)
			}
			if i < len(cells)-1 {
				b.WriteString(pad + "  ")
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(header, &s.header)
	for _, row := range rows {
		line(row, nil)
	}
}

// printFileErrors reports load errors ("file:line:col: error: message").
func (app *App) printFileErrors(errs []*spec.Error) {
	ds := make([]*diag.Diagnostic, len(errs))
	for i, e := range errs {
		c := *e
		c.Severity = diag.Error
		c.Rule = "" // a load error names no rule
		ds[i] = &c
	}
	app.problems(ds...)
}

// checkOutputFormat validates an --output value.
func checkOutputFormat(value string, allowed ...string) error {
	for _, a := range allowed {
		if value == a {
			return nil
		}
	}
	return usageError(fmt.Errorf("--output %q is not supported; use one of: %s", value, strings.Join(allowed, ", ")))
}

// tuneGC trades memory for CPU in commands whose live heap is small and
// whose garbage is plentiful (lint, serve): the GC target percent and a
// soft memory limit that bounds it. GOGC / GOMEMLIMIT set by the user win.
func (app *App) tuneGC(percent int, limit int64) {
	if app.Getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
	if app.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
}

// strs converts a list of string-typed names (formats, kinds) for flag
// help, messages and completion.
func strs[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, x := range list {
		out[i] = string(x)
	}
	return out
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// writeJSON prints v as indented JSON without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	out, err := spec.MarshalJSONIndent(v)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}
