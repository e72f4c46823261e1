package report

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/toolctl/toolctl/pkg/diag"
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

func (s textStyles) severity(sev diag.Severity, text string) string {
	if !s.on {
		return text
	}
	switch sev {
	case diag.Error:
		return s.err.Render(text)
	case diag.Warning:
		return s.warn.Render(text)
	case diag.Info:
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

func writeText(b *bytes.Buffer, findings []diag.Diagnostic, sum Summary, opt Options) {
	st := newTextStyles(b, opt.Color)
	var lines lineCache
	secrets := secretsByFile(findings)
	for _, f := range findings {
		loc := f.Where()
		fmt.Fprintf(b, "%s: %s: %s %s\n", loc, st.severity(f.Severity, f.Severity.String()), f.Message, st.dim("["+f.Rule+"]"))
		if hasPos(f.Span) && opt.Source != nil {
			if src := opt.Source(f.File); src != nil {
				lines.use(src, secrets[f.File])
				writeExcerpt(b, st, f, &lines, src)
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
		parts = append(parts, diag.Plural(c.errors, "error", "errors"))
	}
	if c.warnings > 0 {
		parts = append(parts, diag.Plural(c.warnings, "warning", "warnings"))
	}
	if c.info > 0 {
		parts = append(parts, diag.Plural(c.info, "info", "info"))
	}
	problems := "no problems"
	if len(parts) > 0 {
		problems = strings.Join(parts, ", ")
	}
	return problems + " in " + diag.Plural(files, "file", "files")
}

// excerptWidth is the most display columns an excerpt's source text may
// take, "…" markers included. A wider line (a minified JSON file is one line
// of hundreds of kilobytes) is shown as a window around the finding.
const excerptWidth = 120

// excerptContext is the columns of source shown before a span too long for
// the window, so the finding keeps some of what leads up to it.
const excerptContext = 16

// excerptMaxRunes bounds a window's runes, for lines of zero-width runes.
const excerptMaxRunes = 4 * excerptWidth

// ellipsis marks text cut from a windowed line; it is one column wide.
const ellipsis = '…'

// lineCache holds the last source line shown, ready for display. Findings
// come sorted by file and position, so the many findings on one long line
// share one conversion, and each excerpt costs the window, not the line.
// A line longer than longLine bytes (a minified JSON file) is never
// converted whole: each excerpt converts a chunk of runes around its span,
// found from a cursor that moves forward with the sorted findings.
type lineCache struct {
	src  *spec.File
	n    int // the line number held; 0 for none
	rs   []rune
	wide bool // rs is wider than excerptWidth
	// secrets are masked wherever they occur in a line of src.
	secrets []string

	long           string // the masked text of a long line; "" otherwise
	runes          int    // its rune count
	curRune, curAt int    // a rune index of long and its byte offset
	walked         int    // runes the cursor has moved over (for the tests)
}

// longLine is the length in bytes past which a line is converted to runes
// a chunk at a time (a 16 MB line would take 64 MB as []rune).
var longLine = 64 << 10 // a variable for the tests

// use sets the file the next lines come from and the credentials to mask
// in them.
func (c *lineCache) use(src *spec.File, secrets []string) {
	if src != c.src {
		c.src, c.n, c.rs, c.long = src, 0, nil, ""
	}
	c.secrets = secrets
}

// line returns the part of line n of src that an excerpt of the rune span
// [start, end) can show, as displayRunes does, credentials masked: the runes
// from index off on, of total in the whole line. ok is false past the end of
// the file. start and end are clamped to the line.
func (c *lineCache) line(src *spec.File, n, start, end int) (rs []rune, off, total int, wide, ok bool) {
	if src != c.src {
		c.src, c.n, c.rs, c.long, c.secrets = src, 0, nil, "", nil
	}
	// Line returns "" past the end of the file; a position there is stale.
	if n > src.LineCount() {
		return nil, 0, 0, false, false
	}
	if n != c.n {
		c.n, c.rs, c.long = n, nil, ""
		text := maskSecrets(src.Line(n), c.secrets)
		if len(text) > longLine {
			c.long, c.runes, c.curRune, c.curAt = text, utf8.RuneCountInString(text), 0, 0
		} else {
			c.rs = displayRunes(text)
			c.wide = tooWide(c.rs)
		}
	}
	if c.long == "" {
		return c.rs, 0, len(c.rs), c.wide, true
	}
	// A chunk wide enough that excerptWindow, which looks at most
	// excerptMaxRunes around start, only meets the line's own ends.
	start = clamp(start, 0, c.runes)
	lo, hi := max(0, start-2*excerptMaxRunes), min(c.runes, start+2*excerptMaxRunes)
	from, to := c.byteAt(lo), c.byteAt(hi)
	return displayRunes(c.long[from:to]), lo, c.runes, true, true
}

// byteAt is the byte offset of rune index i of the long line, found from
// the cursor, forward or back (UTF-8 decodes backwards too), or from the
// line's start when that is nearer. Each excerpt asks for the start of
// its chunk, before the end of the previous one: going back from the
// cursor keeps that to the chunk's length, where starting over from the
// line's start cost the whole line for every finding on it.
func (c *lineCache) byteAt(i int) int {
	if i < c.curRune {
		if c.curRune-i > i {
			c.curRune, c.curAt = 0, 0
		}
		for c.curRune > i {
			_, size := utf8.DecodeLastRuneInString(c.long[:c.curAt])
			c.curAt -= size
			c.curRune--
			c.walked++
		}
	}
	for c.curRune < i && c.curAt < len(c.long) {
		_, size := utf8.DecodeRuneInString(c.long[c.curAt:])
		c.curAt += size
		c.curRune++
		c.walked++
	}
	return c.curAt
}

// secretsByFile collects the credentials findings are about (secret-literal),
// by file: a line that holds one is never printed as it is, whichever
// finding shows it.
func secretsByFile(findings []diag.Diagnostic) map[string][]string {
	var out map[string][]string
	for _, f := range findings {
		if f.Secret == "" {
			continue
		}
		if out == nil {
			out = map[string][]string{}
		}
		out[f.File] = append(out[f.File], f.Secret)
	}
	for _, list := range out {
		sort.Slice(list, func(i, j int) bool { return len(list[i]) > len(list[j]) })
	}
	return out
}

// maskSecrets replaces every occurrence of a secret in line by its first
// four characters and asterisks, as the finding's message shows it, keeping
// the character count so that the carets stay under their columns.
func maskSecrets(line string, secrets []string) string {
	// secrets come longest first (see secretsByFile): one that contains
	// another is masked whole
	for _, s := range secrets {
		if !strings.Contains(line, s) {
			continue
		}
		rs := []rune(s)
		keep := min(4, len(rs)/2)
		line = strings.ReplaceAll(line, s, string(rs[:keep])+strings.Repeat("*", len(rs)-keep))
	}
	return line
}

// writeExcerpt prints the finding's source line with a gutter and a caret
// underline, rustc style:
//
//	  |
//	3 | name: BadName
//	  |       ^^^^^^^
//
// A line wider than excerptWidth is cut to a window around the span, "…"
// marking each cut side, and the carets stop at the window's edge.
func writeExcerpt(b *bytes.Buffer, st textStyles, f diag.Diagnostic, lines *lineCache, src *spec.File) {
	lineNo := f.Span.Start.Line
	start := max(f.Span.Start.Col-1, 0)
	line, off, total, wide, ok := lines.line(src, lineNo, start, start)
	if !ok {
		return
	}
	// line holds the runes [off, off+len(line)) of the source line (all of
	// it unless the line is very long); start and end index into line.
	start = clamp(start-off, 0, len(line))
	end := start + 1
	if f.Span.End.Line == f.Span.Start.Line && f.Span.End.Col > f.Span.Start.Col {
		end = f.Span.End.Col - 1 - off
	}
	end = clamp(end, start, len(line))

	lo, hi := 0, len(line)
	if wide {
		lo, hi = excerptWindow(line, start, end)
	}
	var text, pad strings.Builder
	if off+lo > 0 {
		text.WriteRune(ellipsis)
		pad.WriteByte(' ')
	}
	text.WriteString(string(line[lo:hi]))
	if off+hi < total {
		text.WriteRune(ellipsis)
	}
	pad.WriteString(cells(line[lo:start], ' '))

	num := strconv.Itoa(lineNo)
	blank := strings.Repeat(" ", len(num))
	fmt.Fprintf(b, " %s |\n", blank)
	if len(line) == 0 {
		fmt.Fprintf(b, " %s |\n", num)
	} else {
		fmt.Fprintf(b, " %s | %s\n", num, text.String())
	}
	fmt.Fprintf(b, " %s | %s%s\n", blank, pad.String(), st.severity(f.Severity, carets(line[start:min(end, hi)])))
}

// runeCols is the columns r takes in the window arithmetic: lipgloss.Width
// of the rune alone, a tab as wide as a terminal may draw it (8), and
// U+FE0F as one, since it widens the symbol before it to two. Rune by rune
// keeps the work within the window (cells measures whole grapheme clusters,
// which needs their start); the sum is never less than what cells measures
// for the common clusters (emoji sequences, combining marks), so a window
// does not outgrow excerptWidth.
func runeCols(r rune) int {
	switch {
	case r == '\t':
		return 8
	case r < utf8.RuneSelf:
		return 1 // displayRunes has replaced the other control characters
	case r == '\ufe0f':
		return 1
	}
	return lipgloss.Width(string(r))
}

// tooWide reports whether rs takes more than excerptWidth columns, looking
// no further than the first excerptWidth+1 columns.
func tooWide(rs []rune) bool {
	w := 0
	for _, r := range rs {
		if w += runeCols(r); w > excerptWidth {
			return true
		}
	}
	return false
}

// joinsPrevious reports whether r belongs to the character before it
// (combining marks, variation selectors, joiners), so a window must not
// start with it.
func joinsPrevious(r rune) bool {
	return r == '\u200d' || r == '\ufe0f' || runeCols(r) == 0
}

// excerptWindow picks the runes [lo, hi) of a too-wide line to show for the
// span [start, end): the span centred when it fits, else excerptContext
// columns before it and as much of it as fits, and with the line's end in
// view the window reaches back to fill the width. The runes shown and the
// "…" of each cut side take at most excerptWidth columns. Work is bounded
// by the window, not the line.
func excerptWindow(line []rune, start, end int) (lo, hi int) {
	n := len(line)
	room := excerptWidth - 2 // both sides cut until shown otherwise
	spanCols := 0
	for i := start; i < end && i-start < excerptMaxRunes && spanCols <= room; i++ {
		spanCols += runeCols(line[i])
	}
	before := max(excerptContext, (room-spanCols)/2)

	lo = start
	for w := 0; lo > 0 && start-lo < excerptMaxRunes/2; lo-- {
		c := runeCols(line[lo-1])
		if w+c > before {
			break
		}
		w += c
	}
	if lo == 0 {
		room++ // no "…" on the left
	}
	used := 0
	for hi = lo; hi < n && hi-lo < excerptMaxRunes; hi++ {
		c := runeCols(line[hi])
		if used+c > room {
			break
		}
		used += c
	}
	if hi == n {
		// No "…" on the right either: spend its column and what is left
		// on more of the line before the span.
		room++
		for lo > 0 && hi-lo < excerptMaxRunes {
			c := runeCols(line[lo-1])
			if used+c > room {
				break
			}
			used += c
			lo--
		}
	}
	// Keep marks with their base: none opens the window, those after its
	// last character stay (they take no columns).
	for lo > 0 && lo < start && joinsPrevious(line[lo]) {
		lo++
	}
	for hi < n && hi-lo < excerptMaxRunes && line[hi] != '\u200d' && runeCols(line[hi]) == 0 {
		hi++
	}
	return lo, hi
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
