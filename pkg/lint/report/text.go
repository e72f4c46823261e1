package report

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

// textStyles colours the text format; with colour off every method returns
// its input, so piped output is byte-plain.
type textStyles struct {
	on                    bool
	err, warn, info, rule lipgloss.Style
}

func newTextStyles(w io.Writer, on bool) textStyles {
	r := lipgloss.NewRenderer(w)
	// Forced, not detected: the caller has already decided colour is on.
	r.SetColorProfile(termenv.ANSI)
	// Tabs are kept as tabs: carets must line up under tab-indented source.
	base := r.NewStyle().TabWidth(lipgloss.NoTabConversion)
	return textStyles{
		on:   on,
		err:  base.Foreground(lipgloss.Color("1")).Bold(true),
		warn: base.Foreground(lipgloss.Color("3")).Bold(true),
		info: base.Foreground(lipgloss.Color("6")),
		rule: base.Faint(true),
	}
}

func (s textStyles) severity(sev lint.Severity, text string) string {
	if !s.on {
		return text
	}
	switch sev {
	case lint.Error:
		return s.err.Render(text)
	case lint.Warning:
		return s.warn.Render(text)
	case lint.Info:
		return s.info.Render(text)
	}
	return text
}

func (s textStyles) dim(text string) string {
	if !s.on {
		return text
	}
	return s.rule.Render(text)
}

func writeText(b *bytes.Buffer, findings []lint.Finding, sum Summary, opt Options) {
	st := newTextStyles(b, opt.Color)
	for _, f := range findings {
		loc := f.File
		if hasPos(f.Span) {
			loc = fmt.Sprintf("%s:%d:%d", f.File, f.Span.Start.Line, f.Span.Start.Col)
		}
		fmt.Fprintf(b, "%s: %s: %s %s\n", loc, st.severity(f.Severity, f.Severity.String()), f.Message, st.dim("["+f.Rule+"]"))
		if hasPos(f.Span) && opt.Source != nil {
			if src := opt.Source(f.File); src != nil {
				writeExcerpt(b, st, f, src)
			}
		}
	}
	if !opt.Quiet {
		if len(findings) > 0 {
			b.WriteString("\n")
		}
		b.WriteString(summaryLine(countFindings(findings), len(sum.Files)))
		b.WriteString("\n")
	}
}

// summaryLine reads "2 errors, 1 warning in 11 files", naming only the
// severities that occurred.
func summaryLine(c counts, files int) string {
	var parts []string
	if c.errors > 0 {
		parts = append(parts, lint.Plural(c.errors, "error", "errors"))
	}
	if c.warnings > 0 {
		parts = append(parts, lint.Plural(c.warnings, "warning", "warnings"))
	}
	if c.info > 0 {
		parts = append(parts, lint.Plural(c.info, "info", "info"))
	}
	problems := "no problems"
	if len(parts) > 0 {
		problems = strings.Join(parts, ", ")
	}
	return problems + " in " + lint.Plural(files, "file", "files")
}

// writeExcerpt prints the finding's source line with a gutter and a caret
// underline, rustc style:
//
//	  |
//	3 | name: BadName
//	  |       ^^^^^^^
func writeExcerpt(b *bytes.Buffer, st textStyles, f lint.Finding, src *spec.File) {
	lineNo := f.Span.Start.Line
	// Line returns "" past the end of the file; a position there is stale.
	if lineNo > bytes.Count(src.Source(), []byte("\n"))+1 {
		return
	}
	line := displayRunes(src.Line(lineNo))
	start := clamp(f.Span.Start.Col-1, 0, len(line))
	end := start + 1
	if f.Span.End.Line == f.Span.Start.Line && f.Span.End.Col > f.Span.Start.Col {
		end = f.Span.End.Col - 1
	}
	end = clamp(end, start, len(line))

	num := strconv.Itoa(lineNo)
	blank := strings.Repeat(" ", len(num))
	fmt.Fprintf(b, " %s |\n", blank)
	if len(line) == 0 {
		fmt.Fprintf(b, " %s |\n", num)
	} else {
		fmt.Fprintf(b, " %s | %s\n", num, string(line))
	}
	fmt.Fprintf(b, " %s | %s%s\n", blank, cells(line[:start], ' '), st.severity(f.Severity, carets(line[start:end])))
}

// displayRunes returns the line as it is shown: control and bidi-control
// characters become U+FFFD so a crafted file cannot drive the terminal or
// reorder the excerpt, and the rune count (the column unit) stays the same.
func displayRunes(line string) []rune {
	rs := []rune(line)
	for i, r := range rs {
		if r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)) {
			rs[i] = unicode.ReplacementChar
		}
	}
	return rs
}

// cells returns text of the same display width as rs, made of fill, with
// rs's tabs kept so the terminal expands both lines to the same stops. Width
// is measured per tab-free run, so grapheme clusters (emoji, combining
// marks) count as the terminal draws them.
func cells(rs []rune, fill rune) string {
	var out, run strings.Builder
	flush := func() {
		out.WriteString(strings.Repeat(string(fill), lipgloss.Width(run.String())))
		run.Reset()
	}
	for _, r := range rs {
		if r == '\t' {
			flush()
			out.WriteByte('\t')
			continue
		}
		run.WriteRune(r)
	}
	flush()
	return out.String()
}

// carets underlines rs; a span of no visible width still gets one caret.
func carets(rs []rune) string {
	u := cells(rs, '^')
	if !strings.Contains(u, "^") {
		u += "^"
	}
	return u
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}
