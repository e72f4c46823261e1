package lsp

import (
	"sort"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/toolctl/toolctl/pkg/diag"
)

// lineIndex converts positions in a text (byte offsets, LSP's UTF-16
// columns, diag's rune columns) as offset, position and fromDiag do,
// without reading a long line from its start for each: a JSON document on
// one line would cost its length for each of its parameters. A long line
// gets marks as it is first asked about: every markEvery bytes, the runes
// and UTF-16 units before; a conversion reads on from the last mark
// before it, the same loop as the functions' from the line's start.
type lineIndex struct {
	text   string
	starts []int

	mu    sync.Mutex
	marks map[int][]colMark // by line
}

// colMark is a place in a line where its decoding passes: b bytes from
// the line's start, after r runes and u UTF-16 units.
type colMark struct{ b, r, u int }

const (
	longLine  = 1024 // a line from this length gets marks
	markEvery = 256
)

func newLineIndex(text string, starts []int) *lineIndex {
	return &lineIndex{text: text, starts: starts}
}

// lineMarks are the marks of line n (0-based), nil for a short line.
func (ix *lineIndex) lineMarks(n int) []colMark {
	if n < 0 || n >= len(ix.starts) {
		return nil
	}
	end := len(ix.text)
	if n+1 < len(ix.starts) {
		end = ix.starts[n+1]
	}
	if end-ix.starts[n] < longLine {
		return nil
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if m, ok := ix.marks[n]; ok {
		return m
	}
	var marks []colMark
	runes, units, next := 0, 0, 0
	for i, r := range ix.text[ix.starts[n]:end] {
		if i >= next {
			marks = append(marks, colMark{i, runes, units})
			next = i + markEvery
		}
		runes++
		units += utf16.RuneLen(r)
	}
	if ix.marks == nil {
		ix.marks = map[int][]colMark{}
	}
	ix.marks[n] = marks
	return marks
}

// lastMark is the last of marks for which ok holds (they hold for a
// prefix of the marks), the zero mark when none does.
func lastMark(marks []colMark, ok func(colMark) bool) colMark {
	i := sort.Search(len(marks), func(i int) bool { return !ok(marks[i]) })
	if i == 0 {
		return colMark{}
	}
	return marks[i-1]
}

func (ix *lineIndex) lineText(n int) string { return lineText(ix.text, ix.starts, n) }

// offset is offset(text, starts, p).
func (ix *lineIndex) offset(p protocol.Position) int {
	line := int(p.Line)
	if line >= len(ix.starts) {
		return len(ix.text)
	}
	s := ix.lineText(line)
	units := int(p.Character)
	m := lastMark(ix.lineMarks(line), func(m colMark) bool { return m.u <= units && m.b <= len(s) })
	return ix.starts[line] + advance(s, m.b, units-m.u)
}

// position is position(text, starts, off).
func (ix *lineIndex) position(off int) protocol.Position {
	line := max(sort.SearchInts(ix.starts, off+1)-1, 0)
	end := min(off, len(ix.text)) - ix.starts[line]
	m := lastMark(ix.lineMarks(line), func(m colMark) bool { return m.b <= end })
	s := ix.text[ix.starts[line]+m.b : ix.starts[line]+max(end, m.b)]
	return protocol.Position{Line: uint32(line), Character: uint32(m.u + utf16Len(s))}
}

// runeCol is the diag position (1-based, runes) of byte offset off on
// line n (0-based): as utf8.RuneCountInString(text[starts[n]:off]) + 1.
func (ix *lineIndex) runeCol(n, off int) diag.Pos {
	end := off - ix.starts[n]
	m := lastMark(ix.lineMarks(n), func(m colMark) bool { return m.b <= end })
	return diag.Pos{Line: n + 1, Col: m.r + utf8.RuneCountInString(ix.text[ix.starts[n]+m.b:off]) + 1}
}

// fromDiag is fromDiag(text, starts, p).
func (ix *lineIndex) fromDiag(p diag.Pos) protocol.Position {
	if !p.IsValid() {
		return protocol.Position{}
	}
	line := p.Line - 1
	if line >= len(ix.starts) {
		// past the end (an error at the end of the file)
		last := len(ix.starts) - 1
		return protocol.Position{Line: uint32(last), Character: uint32(ix.position(ix.starts[last] + len(ix.lineText(last))).Character)}
	}
	s := ix.lineText(line)
	m := lastMark(ix.lineMarks(line), func(m colMark) bool { return m.r <= p.Col-1 && m.b <= len(s) })
	units, runes := m.u, m.r
	for _, r := range s[m.b:] {
		if runes >= p.Col-1 {
			break
		}
		units += utf16.RuneLen(r)
		runes++
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
}

// rangeOf is rangeOf(text, starts, s).
func (ix *lineIndex) rangeOf(s diag.Span) protocol.Range {
	start := ix.fromDiag(s.Start)
	end := start
	if s.End.IsValid() && (s.End.Line > s.Start.Line || (s.End.Line == s.Start.Line && s.End.Col > s.Start.Col)) {
		end = ix.fromDiag(s.End)
	} else if s.Start.IsValid() {
		end = ix.fromDiag(diag.Pos{Line: s.Start.Line, Col: s.Start.Col + 1})
	}
	return protocol.Range{Start: start, End: end}
}
