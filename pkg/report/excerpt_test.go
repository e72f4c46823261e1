package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
)

// excerptOf renders one finding on line 1 of text and returns the excerpt's
// source and caret lines, without their gutters.
func excerptOf(t *testing.T, text string, span spec.Span, color bool) (src, underline string) {
	t.Helper()
	file := spec.ParseFile("long.json", []byte(text+"\n"))
	opt := Options{Source: func(string) *spec.File { return file }, Quiet: true, Color: color}
	f := diag.Diagnostic{File: "long.json", Span: span, Severity: diag.Error, Rule: "r", Message: "m"}
	out := string(render(t, "text", []diag.Diagnostic{f}, Summary{}, opt))
	lines := strings.Split(out, "\n")
	if len(lines) != 5 || lines[1] != "   |" || lines[4] != "" {
		t.Fatalf("output is not one excerpt:\n%q", out)
	}
	src, ok := strings.CutPrefix(lines[2], " 1 | ")
	if !ok {
		t.Fatalf("source line = %q", lines[2])
	}
	underline, ok = strings.CutPrefix(lines[3], "   | ")
	if !ok {
		t.Fatalf("caret line = %q", lines[3])
	}
	return src, underline
}

// ascii is a 500-column line whose every column is told apart by its
// neighbours, so a wrong window shows in the diff.
func ascii() []rune {
	rs := []rune(strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789", 14)[:500])
	return rs
}

func cols(from, to int) spec.Span {
	return spec.Span{Start: spec.Pos{Line: 1, Col: from}, End: spec.Pos{Line: 1, Col: to}}
}

// TestExcerptLongLines checks the window a line wider than excerptWidth is
// cut to: which runes it shows, the "…" on each cut side, and carets that
// start under the span and stop at the window's edge.
func TestExcerptLongLines(t *testing.T) {
	with := func(rs []rune, at map[int]rune) []rune {
		rs = append([]rune(nil), rs...)
		for i, r := range at {
			rs[i] = r
		}
		return rs
	}
	cjk := []rune(strings.Repeat("検索ツール", 40)) // 200 runes, 400 columns
	tabbed := append([]rune(strings.Repeat("\t", 20)), ascii()[:200]...)
	cases := []struct {
		name   string
		line   []rune
		span   spec.Span
		lo, hi int // the runes shown
		pad    int // bytes before the carets: spaces and tabs, one for a "…"
		carets int
	}{
		// The line's start is in view: fill the width from there.
		{"near start", ascii(), cols(3, 8), 0, 119, 2, 5},
		// Centred: 54 columns before the 10-column span.
		{"middle", ascii(), cols(250, 260), 195, 313, 1 + 54, 10},
		// The line's end is in view: reach back to fill the width.
		{"near end", ascii(), cols(495, 498), 381, 500, 1 + 113, 3},
		{"past the end of the line", ascii(), cols(501, 502), 381, 500, 1 + 119, 1},
		// 16 columns of context, then carets to the window's edge.
		{"span longer than the window", ascii(), cols(100, 400), 83, 201, 1 + 16, 201 - 99},
		{"span to the end of a long line", ascii(), cols(10, 501), 0, 119, 9, 119 - 9},
		{"one column over the limit", ascii()[:121], cols(1, 2), 0, 119, 0, 1},
		// Wide runes count two columns: 28 of them (56 columns) before.
		{"wide runes", cjk, cols(100, 102), 71, 130, 1 + 56, 4},
		// The window would end inside 検: it stops before it, one column
		// short of the limit, rather than split or overflow it.
		{"wide rune at the cut", with(ascii(), map[int]rune{118: '検'}), cols(3, 8), 0, 118, 2, 5},
		// A combining mark is not cut from its base: not left of the
		// window (it would join the "…"), kept at its right end.
		{"combining marks at the cuts", with(ascii(), map[int]rune{193: 'e', 194: '\u0301', 312: 'e', 313: '\u0301'}), cols(250, 260), 195, 314, 1 + 54, 10},
		// A tab counts as 8 columns; the caret line keeps the tabs.
		// 4 columns and 6 of the 20 tabs before the span.
		{"tabs", tabbed, cols(25, 30), 14, 90, 1 + 6 + 4, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, underline := excerptOf(t, string(c.line), c.span, false)
			want := string(c.line[c.lo:c.hi])
			if c.lo > 0 {
				want = "…" + want
			}
			if c.hi < len(c.line) {
				want += "…"
			}
			if src != want {
				t.Errorf("source line:\n%q\nwant:\n%q", src, want)
			}
			if !utf8.ValidString(src) {
				t.Errorf("source line is not valid UTF-8: %q", src)
			}
			if w := colsOf(src); w > excerptWidth {
				t.Errorf("source line counts %d columns, more than %d", w, excerptWidth)
			}
			// The carets start under the span's first rune and are as
			// wide as the part of the span in the window.
			before := string(c.line[c.lo : c.span.Start.Col-1])
			if c.lo > 0 {
				before = "…" + before
			}
			pad, _, _ := strings.Cut(underline, "^")
			if got, want := lipgloss.Width(expandTabs(pad)), lipgloss.Width(expandTabs(before)); got != want {
				t.Errorf("carets start at column %d, the span at %d\n%s\n%s", got, want, src, underline)
			}
			if len(pad) != c.pad {
				t.Errorf("%d columns before the carets, want %d", len(pad), c.pad)
			}
			if n := strings.Count(underline, "^"); n != c.carets || !strings.HasSuffix(underline, "^") {
				t.Errorf("caret line %q has %d carets, want %d", underline, n, c.carets)
			}
			// Colour adds styling to the carets only.
			csrc, cunder := excerptOf(t, string(c.line), c.span, true)
			if csrc != src || ansiSeq.ReplaceAllString(cunder, "") != underline || !strings.Contains(cunder, "\x1b[") {
				t.Errorf("coloured excerpt:\n%q\n%q", csrc, cunder)
			}
		})
	}
}

// colsOf sums runeCols, the window's own measure.
func colsOf(s string) int {
	w := 0
	for _, r := range s {
		w += runeCols(r)
	}
	return w
}

// TestExcerptLimit checks that a line of exactly excerptWidth columns is
// shown whole, as every short line is.
func TestExcerptLimit(t *testing.T) {
	line := string(ascii()[:excerptWidth])
	src, underline := excerptOf(t, line, cols(120, 121), false)
	if src != line || underline != strings.Repeat(" ", 119)+"^" {
		t.Errorf("excerpt:\n%q\n%q", src, underline)
	}
	// 60 wide runes are 120 columns too.
	line = strings.Repeat("検", 60)
	if src, _ := excerptOf(t, line, cols(1, 2), false); src != line {
		t.Errorf("60 wide runes: %q", src)
	}
	if src, _ := excerptOf(t, line+"x", cols(1, 2), false); !strings.HasSuffix(src, "…") {
		t.Errorf("60 wide runes and one more: %q", src)
	}
}

// TestExcerptMinifiedFile renders 2000 findings on a 400 KB line, as linting
// a minified JSON file does: the report must stay a few lines per finding,
// not the line per finding it was (about 1 GB).
func TestExcerptMinifiedFile(t *testing.T) {
	var text strings.Builder
	var findings []diag.Diagnostic
	text.WriteString("[")
	runes := 1
	for i := 0; text.Len() < 400_000; i++ {
		if i > 0 {
			text.WriteString(",")
			runes++
		}
		col := runes + 1
		tool := fmt.Sprintf(`{"name":"Tool%d","description":"ツール %d: x","parameters":{"type":"object","properties":{}}}`, i, i)
		text.WriteString(tool)
		runes += utf8.RuneCountInString(tool)
		if len(findings) < 2000 {
			findings = append(findings, diag.Diagnostic{File: "min.json", Span: cols(col+9, col+9+len(fmt.Sprint(i))+6), Severity: diag.Error, Rule: "name-snake-case", Message: "m"})
			// Every tenth finding spans the rest of the line.
			if i%10 == 0 {
				findings = append(findings, diag.Diagnostic{File: "min.json", Span: cols(col, 1<<30), Severity: diag.Warning, Rule: "r", Message: "m"})
			}
		}
	}
	text.WriteString("]")
	if text.Len() < 400_000 || len(findings) < 2000 {
		t.Fatalf("fixture: %d bytes, %d findings", text.Len(), len(findings))
	}
	file := spec.ParseFile("min.json", []byte(text.String()))
	for _, color := range []bool{false, true} {
		opt := Options{Source: func(string) *spec.File { return file }, Color: color}
		out := render(t, "text", findings, Summary{Files: []string{"min.json"}}, opt)
		// Four lines a finding, none much over excerptWidth bytes.
		if limit := len(findings) * 600; len(out) > limit {
			t.Fatalf("color=%v: %d bytes of report for %d findings, want at most %d", color, len(out), len(findings), limit)
		}
		for _, l := range bytes.Split(out, []byte("\n")) {
			if src, ok := bytes.CutPrefix(l, []byte(" 1 | ")); ok && colsOf(string(src)) > excerptWidth {
				t.Fatalf("excerpt line of %d columns: %q", colsOf(string(src)), l)
			}
		}
	}
}

// TestExcerptLongLineChunks: a line past longLine is converted a chunk at a
// time, and the report is byte-identical to converting it whole; findings
// out of order (the cursor moving back) and at both ends included.
func TestExcerptLongLineChunks(t *testing.T) {
	text, findings, runes := longLineFindings(300_000, 97, func(i int) int { return i % 400 })
	findings = append(findings,
		diag.Diagnostic{File: "l.json", Span: cols(1, 3), Severity: diag.Error, Rule: "start", Message: "m"},
		diag.Diagnostic{File: "l.json", Span: cols(runes, runes+1), Severity: diag.Error, Rule: "end", Message: "m"},
		diag.Diagnostic{File: "l.json", Span: cols(runes/2, 1<<30), Severity: diag.Error, Rule: "rest", Message: "m"})
	file := spec.ParseFile("l.json", []byte(text))
	opt := Options{Source: func(string) *spec.File { return file }}
	chunked := render(t, "text", findings, Summary{Files: []string{"l.json"}}, opt)
	defer func(n int) { longLine = n }(longLine)
	longLine = 1 << 30
	whole := render(t, "text", findings, Summary{Files: []string{"l.json"}}, opt)
	if !bytes.Equal(chunked, whole) {
		t.Errorf("chunked excerpts differ from whole-line ones:\n%s\n---\n%s", chunked[:min(len(chunked), 2000)], whole[:min(len(whole), 2000)])
	}
	if !bytes.Contains(whole, []byte("…")) {
		t.Error("fixture: no windowed excerpt")
	}
}

// TestExcerptLongLineCloseFindings: findings close together on a long line
// (a minified list with a finding every few hundred characters) cost the
// line once, not the line up to each finding: the chunk of each excerpt
// starts before the end of the previous one, and the cursor goes back to
// it instead of starting over at the line's start (3 s for 540 findings
// on a 10 MB line). The excerpts are those of the line converted whole.
func TestExcerptLongLineCloseFindings(t *testing.T) {
	text, findings, runes := longLineFindings(400_000, 25, func(int) int { return 7 })
	file := spec.ParseFile("l.json", []byte(text))
	var lines lineCache
	var chunked bytes.Buffer
	for _, f := range findings {
		writeExcerpt(&chunked, newTextStyles(&chunked, false), f, &lines, file)
	}
	if limit := runes + len(findings)*8*excerptMaxRunes; lines.walked > limit {
		t.Errorf("%d findings on a line of %d runes: the cursor moved over %d runes, want at most %d", len(findings), runes, lines.walked, limit)
	}
	defer func(n int) { longLine = n }(longLine)
	longLine = 1 << 30
	var whole bytes.Buffer
	lines = lineCache{}
	for _, f := range findings {
		writeExcerpt(&whole, newTextStyles(&whole, false), f, &lines, file)
	}
	if !bytes.Equal(chunked.Bytes(), whole.Bytes()) {
		t.Errorf("chunked excerpts differ from whole-line ones")
	}
}

// longLineFindings is one line of JSON-like text of at least size bytes
// (CJK, emoji, accents and tabs in it), a finding every every pieces of
// it, width(i) runes wide, and its length in runes.
func longLineFindings(size, every int, width func(i int) int) (string, []diag.Diagnostic, int) {
	var text strings.Builder
	var findings []diag.Diagnostic
	runes := 0
	for i := 0; text.Len() < size; i++ {
		piece := fmt.Sprintf(`"k%d":"ツール😀 %d é\tx",`, i, i)
		if i%every == 0 {
			findings = append(findings, diag.Diagnostic{File: "l.json", Span: cols(runes+1, runes+1+width(i)), Severity: diag.Error, Rule: "r", Message: "m"})
		}
		text.WriteString(piece)
		runes += utf8.RuneCountInString(piece)
	}
	return text.String(), findings, runes
}
