package lsp

import (
	"net/url"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// document is an open editor buffer: its text as the client last sent it
// (never the file on disk, which may be older).
type document struct {
	uri     string
	path    string // the file's path; the URI itself for a non-file URI
	version int32
	text    string

	// what is read from text, once for each version of the document (a
	// change makes a new document): requests and lints share them, so
	// that none parses a large file again
	linesOnce sync.Once
	starts    []int
	ix        *lineIndex
	treeOnce  sync.Once
	root      *yaml.Node
	fileOnce  sync.Once
	file      *spec.File
}

// lines is lineStarts(d.text).
func (d *document) lines() []int {
	d.linesOnce.Do(func() {
		d.starts = lineStarts(d.text)
		d.ix = newLineIndex(d.text, d.starts)
	})
	return d.starts
}

// index converts positions in d.text.
func (d *document) index() *lineIndex {
	d.lines()
	return d.ix
}

// tree is parseTree(d.text).
func (d *document) tree() *yaml.Node {
	d.treeOnce.Do(func() { d.root = parseTree(d.text) })
	return d.root
}

// parsed is d's text parsed as a tool file. The lint and the requests
// read it, never change it.
func (d *document) parsed() *spec.File {
	d.fileOnce.Do(func() { d.file = spec.ParseFile(d.path, []byte(d.text)) })
	return d.file
}

// pathOf is the file path of a file:// URI, or the URI itself for any
// other scheme (an untitled buffer): it then names no file on disk.
func pathOf(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri, false
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	return filepath.Clean(filepath.FromSlash(p)), true
}

// uriOf is the file:// URI of path.
func uriOf(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x -> /C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// lineStarts returns the byte offset of each line of text (\n, \r\n and
// a lone \r end a line, as in LSP).
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineText is line n (0-based) of text without its line end.
func lineText(text string, starts []int, n int) string {
	if n < 0 || n >= len(starts) {
		return ""
	}
	end := len(text)
	if n+1 < len(starts) {
		end = starts[n+1]
	}
	return strings.TrimRight(text[starts[n]:end], "\r\n")
}

// offset is the byte offset of an LSP position (UTF-16 code units within
// the line), clamped to the text.
func offset(text string, starts []int, p protocol.Position) int {
	line := int(p.Line)
	if line >= len(starts) {
		return len(text)
	}
	return starts[line] + advance(lineText(text, starts, line), 0, int(p.Character))
}

// advance is the byte index in s that lies units UTF-16 code units
// after byte index i (within s).
func advance(s string, i, units int) int {
	for i < len(s) && units > 0 {
		r, size := utf8.DecodeRuneInString(s[i:])
		units -= utf16.RuneLen(r)
		if units < 0 { // inside a surrogate pair: stay before it
			break
		}
		i += size
	}
	return i
}

// position is the LSP position of a byte offset.
func position(text string, starts []int, off int) protocol.Position {
	// the last line that starts at or before off (starts[0] is 0)
	line := max(sort.SearchInts(starts, off+1)-1, 0)
	s := text[starts[line]:min(off, len(text))]
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Len(s))}
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// fromDiag converts a 1-based position counting runes (diag.Pos) to LSP's
// 0-based line and UTF-16 character.
func fromDiag(text string, starts []int, p diag.Pos) protocol.Position {
	if !p.IsValid() {
		return protocol.Position{}
	}
	line := p.Line - 1
	if line >= len(starts) {
		// past the end (an error at the end of the file)
		last := len(starts) - 1
		return protocol.Position{Line: uint32(last), Character: uint32(utf16Len(lineText(text, starts, last)))}
	}
	s := lineText(text, starts, line)
	units, runes := 0, 0
	for _, r := range s {
		if runes >= p.Col-1 {
			break
		}
		units += utf16.RuneLen(r)
		runes++
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
}

// rangeOf is the LSP range of a span; a span without an end covers one
// character, one without a position the start of the file.
func rangeOf(text string, starts []int, s diag.Span) protocol.Range {
	start := fromDiag(text, starts, s.Start)
	end := start
	if s.End.IsValid() && (s.End.Line > s.Start.Line || (s.End.Line == s.Start.Line && s.End.Col > s.Start.Col)) {
		end = fromDiag(text, starts, s.End)
	} else if s.Start.IsValid() {
		end = fromDiag(text, starts, diag.Pos{Line: s.Start.Line, Col: s.Start.Col + 1})
	}
	return protocol.Range{Start: start, End: end}
}

// applyChange applies one content change of didChange to text.
func applyChange(text string, c any) string {
	switch c := c.(type) {
	case protocol.TextDocumentContentChangeEventWhole:
		return c.Text
	case protocol.TextDocumentContentChangeEvent:
		if c.Range == nil {
			return c.Text
		}
		starts := lineStarts(text)
		from, to := offset(text, starts, c.Range.Start), offset(text, starts, c.Range.End)
		if to < from {
			from, to = to, from
		}
		return text[:from] + c.Text + text[to:]
	}
	return text
}
