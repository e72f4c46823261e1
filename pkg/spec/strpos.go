package spec

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// StringSpan returns the source range of bytes [from, to) of the string at a
// canonical pointer: of the mapping key the pointer ends at when key is set
// (for a parameter given as a list item, its name: value), else of the
// value. It is exact for every scalar style: plain and quoted scalars over
// several lines (line folding), escapes of double-quoted YAML and JSON
// strings (\u200b is the six characters of the escape), ” in single
// quotes, literal and folded blocks. from and to are byte offsets of the
// decoded string at rune boundaries; from == to is the character at from.
// When the source cannot be matched with the string (a value toolctl
// converted, a released file whose text changed), the range is the
// value's, and exact is false.
func (t *Tool) StringSpan(ptr string, key bool, from, to int) (span Span, exact bool) {
	n := t.stringNode(ptr, key)
	if n == nil {
		return t.Span(ptr), false
	}
	whole := t.File.span(n)
	if n.Kind != yaml.ScalarNode || from < 0 || to < from || to > len(n.Value) {
		return whole, false
	}
	start, end, ok := t.File.scalarRange(n, from, to)
	if !ok {
		return whole, false
	}
	return Span{Start: start, End: end}, true
}

// stringNode is the scalar node StringSpan measures in.
func (t *Tool) stringNode(ptr string, key bool) *yaml.Node {
	v, k, found := t.locate(ptr)
	if !key {
		if !found {
			return nil
		}
		return resolve(v)
	}
	if found && k != nil {
		return k
	}
	// A parameter of a list (Feagent's parameters, Docker's arguments):
	// its name is the item's name value.
	tokens := SplitPointer(ptr)
	if len(tokens) < 2 || tokens[len(tokens)-2] != "properties" {
		return nil
	}
	nv, _, ok := t.locate(ptr + "/name")
	if !ok || nv == nil {
		return nil
	}
	nv = resolve(nv)
	if nv.Kind != yaml.ScalarNode || nv.Value != tokens[len(tokens)-1] {
		return nil
	}
	return nv
}

// scalarRange maps bytes [from, to) of n.Value to source positions by
// reading the scalar's source alongside its value (see StringSpan).
func (f *File) scalarRange(n *yaml.Node, from, to int) (Pos, Pos, bool) {
	if n.Line < 1 || n.Column < 1 {
		return Pos{}, Pos{}, false
	}
	data := f.Source()
	ls := f.lines()
	if n.Line > len(ls) {
		return Pos{}, Pos{}, false
	}
	line := f.lineBytes(n.Line)
	i := ls[n.Line-1] + f.colOffset(n.Line, n.Column, line)
	m := scalarMatcher{data: data, i: i}
	switch {
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		// Content starts on the line after the header (| or >, its
		// indicators and a comment).
		if n.Line >= len(ls) {
			return Pos{}, Pos{}, false
		}
		m.i = ls[n.Line]
	case n.Style&yaml.DoubleQuotedStyle != 0:
		if i >= len(data) || data[i] != '"' {
			return Pos{}, Pos{}, false
		}
		m.i, m.double = i+1, true
	case n.Style&yaml.SingleQuotedStyle != 0:
		if i >= len(data) || data[i] != '\'' {
			return Pos{}, Pos{}, false
		}
		m.i, m.single = i+1, true
	}
	val := n.Value
	var start, end int
	for vi := 0; ; {
		if vi == to && to > from {
			end = m.i
			break
		}
		if vi >= len(val) {
			if from == to && from == len(val) {
				return f.PosAt(m.i), f.PosAt(m.i), true
			}
			return Pos{}, Pos{}, false
		}
		r, size := utf8.DecodeRuneInString(val[vi:])
		at, ok := m.match(r)
		if !ok {
			return Pos{}, Pos{}, false
		}
		if vi == from {
			start = at
			if from == to {
				end = m.i
				break
			}
		}
		vi += size
	}
	return f.PosAt(start), f.PosAt(end), true
}

// scalarMatcher reads a scalar's source one value character at a time.
type scalarMatcher struct {
	data           []byte
	i              int
	double, single bool
}

// match finds the source of the value's next character r: its byte
// offset, with m.i moved past it. Indentation, line breaks folded away and
// escaped line breaks are skipped; anything else that is not r fails.
func (m *scalarMatcher) match(r rune) (int, bool) {
	for steps := 0; m.i < len(m.data) && steps < 1<<16; steps++ {
		c, size := utf8.DecodeRune(m.data[m.i:])
		if c == '\r' && m.i+1 < len(m.data) && m.data[m.i+1] == '\n' {
			c, size = '\n', 2
		}
		switch {
		case m.double && c == '\\':
			d, n := unescape(m.data[m.i:])
			if n == 0 {
				return 0, false
			}
			at := m.i
			m.i += n
			if d < 0 { // an escaped line break: nothing in the value
				continue
			}
			return at, d == r
		case m.double && c == '"':
			return 0, false
		case m.single && c == '\'':
			if r == '\'' && m.i+1 < len(m.data) && m.data[m.i+1] == '\'' {
				at := m.i
				m.i += 2
				return at, true
			}
			return 0, false
		case c == r:
			at := m.i
			m.i += size
			return at, true
		case c == '\n' || c == '\r':
			at := m.i
			m.i += size
			if r == ' ' || r == '\n' {
				return at, true // a folded line break
			}
		case c == ' ' || c == '\t':
			m.i += size // indentation
		default:
			return 0, false
		}
	}
	return 0, false
}

// unescape decodes the escape sequence at the start of b (which starts
// with a backslash): the character and the length of the sequence, -1 for
// an escaped line break, length 0 for no valid escape. \uD83D\uDE00
// (JSON's surrogate pair) is one character.
func unescape(b []byte) (rune, int) {
	if len(b) < 2 {
		return 0, 0
	}
	hex := func(k int) (rune, bool) {
		if len(b) < 2+k {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[2:2+k]), 16, 32)
		return rune(v), err == nil
	}
	switch b[1] {
	case 'x', 'u', 'U':
		k := map[byte]int{'x': 2, 'u': 4, 'U': 8}[b[1]]
		r, ok := hex(k)
		if !ok {
			return 0, 0
		}
		if b[1] == 'u' && r >= 0xD800 && r < 0xDC00 && len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
			if lo, err := strconv.ParseUint(string(b[8:12]), 16, 32); err == nil && lo >= 0xDC00 && lo < 0xE000 {
				return surrogate(r, rune(lo)), 12
			}
		}
		return r, 2 + k
	case '\n':
		return -1, 2
	case '\r':
		if len(b) > 2 && b[2] == '\n' {
			return -1, 3
		}
		return -1, 2
	}
	if r, ok := simpleEscapes[b[1]]; ok {
		return r, 2
	}
	return 0, 0
}

func surrogate(hi, lo rune) rune { return (hi-0xD800)<<10 + (lo - 0xDC00) + 0x10000 }

// simpleEscapes are YAML's one-character escapes (JSON's are a subset).
var simpleEscapes = map[byte]rune{'0': 0, 'a': 7, 'b': 8, 't': 9, '\t': 9, 'n': 10, 'v': 11, 'f': 12, 'r': 13,
	'e': 0x1b, ' ': ' ', '"': '"', '/': '/', '\\': '\\', 'N': 0x85, '_': 0xA0, 'L': 0x2028, 'P': 0x2029}

// valueOffset is the byte offset in s of 1-based line and character
// column col.
func valueOffset(s string, line, col int) (int, bool) {
	off := 0
	for ; line > 1; line-- {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	for ; col > 1; col-- {
		if off >= len(s) || s[off] == '\n' {
			return 0, false
		}
		_, size := utf8.DecodeRuneInString(s[off:])
		off += size
	}
	return off, true
}

// exactTextPos is TextPos for the scalars whose source and text columns
// differ: escapes, folding, several lines.
func (t *Tool) exactTextPos(v *yaml.Node, line, col int) (Pos, bool) {
	off, ok := valueOffset(v.Value, line, col)
	if !ok || t.File == nil {
		return Pos{}, false
	}
	start, _, ok := t.File.scalarRange(v, off, off)
	return start, ok
}
