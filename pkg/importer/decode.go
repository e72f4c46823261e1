package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"io"
	"math"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/toolctl/toolctl/pkg/spec"
)

// source is the input being imported: one JSON document, or several (JSON
// Lines, as BFCL ships its function docs), decoded into spec values (objects
// as *spec.Map, so key order survives) with the byte offset of every value
// for messages.
type source struct {
	name string
	data []byte
	docs []any
	// paths locates the decoded values (nil for a live server's tools).
	paths *paths
	// text gives positions in data (spec.File.PosAt), made when first asked.
	text *spec.File
}

// paths is the tree of the values decoded, each node with the offset of
// its value's first byte. A step costs the same at any depth (a JSON
// pointer string would copy the whole path at each step: quadratic in the
// depth and the length of the keys).
type paths struct {
	kids   map[step]int32
	offset []int
	roots  []int32 // of each document
}

// step leads from a node to a member (index -1, key) or an item.
type step struct {
	parent int32
	index  int32
	key    string
}

// add records the value reached by s at offset off (a duplicate key's
// value replaces the first) and returns its node.
func (p *paths) add(s step, off int) int32 {
	if n, ok := p.kids[s]; ok {
		p.offset[n] = off
		return n
	}
	n := int32(len(p.offset))
	p.offset = append(p.offset, off)
	p.kids[s] = n
	return n
}

// loc names a value of the input: a node of the source's paths. A loc for
// a value that was not recorded stays at the nearest enclosing one.
type loc struct {
	paths *paths // nil: no positions
	node  int32
	lost  bool // the value itself is not recorded: node encloses it
}

func (l loc) key(k string) loc { return l.step(step{l.node, -1, k}) }
func (l loc) index(i int) loc  { return l.step(step{l.node, int32(min(i, math.MaxInt32)), ""}) }

func (l loc) step(s step) loc {
	if l.paths == nil || l.lost {
		return l
	}
	if n, ok := l.paths.kids[s]; ok {
		return loc{l.paths, n, false}
	}
	return loc{l.paths, l.node, true}
}

// root is the loc of document i.
func (s *source) root(i int) loc {
	if s.paths == nil || i >= len(s.paths.roots) {
		return loc{}
	}
	return loc{paths: s.paths, node: s.paths.roots[i]}
}

// decodeSource reads data as a sequence of JSON values. A syntax error is
// returned as a *Diagnostic with its line and column, and so is input past
// the limits of a tool file (spec.MaxFileSize, spec.MaxDepth,
// spec.MaxValues), before it costs more than a pass over its bytes.
func decodeSource(name string, data []byte) (*source, error) {
	src := &source{name: name, paths: &paths{kids: map[step]int32{}}}
	if len(data) > spec.MaxFileSize {
		return nil, &Diagnostic{File: name, Message: spec.TooLargeMsg(len(data))}
	}
	// PowerShell's > writes UTF-16 with a byte order mark; read it as UTF-8.
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		u, _, err := transform.Bytes(unicode.BOMOverride(unicode.UTF8.NewDecoder()), data)
		if err != nil {
			return nil, &Diagnostic{File: name, Message: fmt.Sprintf("invalid UTF-16: %v; save the file as UTF-8", err)}
		}
		data = u
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	src.data = data
	if !utf8.Valid(data) {
		return nil, src.diag(src.posAt(spec.FirstInvalidUTF8(data)), "invalid UTF-8; save the file as UTF-8")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Diagnostic{File: name, Message: "the input is empty; expected JSON tool definitions"}
	}
	if off := spec.TooDeep(data); off >= 0 {
		return nil, src.diag(src.posAt(off), spec.TooDeepMsg)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	d := &jsonDecoder{src: src, dec: dec}
	for {
		start := d.skip(int(dec.InputOffset()))
		if start >= len(data) {
			break
		}
		root := src.paths.add(step{parent: -1, index: int32(len(src.docs))}, start)
		src.paths.roots = append(src.paths.roots, root)
		v, err := d.value(root)
		if err != nil {
			return nil, d.syntaxError(err, start)
		}
		src.docs = append(src.docs, v)
	}
	// encoding/json reads half a surrogate pair as U+FFFD without a word.
	if bad := spec.FindUnpairedSurrogate(data); bad != nil {
		return nil, src.diag(src.posAt(bad.Offset), "invalid JSON string: "+bad.Error())
	}
	return src, nil
}

type jsonDecoder struct {
	src    *source
	dec    *json.Decoder
	values int // decoded so far, against spec.MaxValues
}

// skip returns the offset of the next token at or after off: blanks and
// the separators the decoder has not consumed yet are passed over.
func (d *jsonDecoder) skip(off int) int {
	data := d.src.data
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

// value decodes the value whose node is at (its offset recorded).
func (d *jsonDecoder) value(at int32) (any, error) {
	p := d.src.paths
	if d.values++; d.values > spec.MaxValues {
		return nil, &limitError{at: loc{paths: p, node: at}, msg: fmt.Sprintf("the input holds more than %d values, the most a tool file may have; toolctl stops reading it here", spec.MaxValues)}
	}
	tok, err := d.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := spec.NewMap(4)
			for d.dec.More() {
				kt, err := d.dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				kid := p.add(step{at, -1, key}, d.skip(int(d.dec.InputOffset())))
				v, err := d.value(kid)
				if err != nil {
					return nil, err
				}
				if m.Has(key) {
					// encoding/json keeps the last; say so rather than lose
					// a value silently.
					return nil, &dupKeyError{key: key, at: loc{paths: p, node: kid}}
				}
				m.Set(key, v)
			}
			_, err := d.dec.Token()
			return m, err
		case '[':
			list := []any{}
			for i := 0; d.dec.More(); i++ {
				kid := p.add(step{at, int32(min(i, math.MaxInt32)), ""}, d.skip(int(d.dec.InputOffset())))
				v, err := d.value(kid)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := d.dec.Token()
			return list, err
		}
		return nil, fmt.Errorf("unexpected %q", t)
	default:
		return t, nil
	}
}

type dupKeyError struct {
	key string
	at  loc
}

func (e *dupKeyError) Error() string { return "duplicate key " + e.key }

// limitError is input past a limit of spec, at the value at.
type limitError struct {
	at  loc
	msg string
}

func (e *limitError) Error() string { return e.msg }

// syntaxError positions a decoding error in the document that starts at
// offset start.
func (d *jsonDecoder) syntaxError(err error, start int) *Diagnostic {
	src := d.src
	var se *json.SyntaxError
	var dup *dupKeyError
	var lim *limitError
	switch {
	case errors.As(err, &dup):
		return src.diag(src.posOf(dup.at), fmt.Sprintf("JSON: key %q appears twice in this object; keep one", dup.key))
	case errors.As(err, &lim):
		return src.diag(src.posOf(lim.at), lim.msg)
	case errors.As(err, &se):
		// Token and Decode count SyntaxError.Offset differently; decoding
		// the document again in one piece gives Decode's count (just past
		// the offending byte) for every error.
		var raw json.RawMessage
		again := json.NewDecoder(bytes.NewReader(src.data[start:])).Decode(&raw)
		if errors.As(again, &se) {
			off := start + int(se.Offset) - 1
			hint := trailingComma(src.data, off)
			if c := src.data[start]; c != '{' && c != '[' {
				hint = "; import reads JSON (a YAML tool file needs no import: toolctl show prints its canonical form)"
			}
			return src.diag(src.posAt(off), "JSON syntax error: "+se.Error()+hint)
		}
		if errors.Is(again, io.ErrUnexpectedEOF) {
			return src.diag(src.posAt(len(src.data)), "JSON syntax error: unexpected end of input; a bracket or brace is not closed")
		}
		return src.diag(src.posAt(int(se.Offset)), "JSON syntax error: "+se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return src.diag(src.posAt(len(src.data)), "JSON syntax error: unexpected end of input; a bracket or brace is not closed")
	}
	return src.diag(src.posAt(int(d.dec.InputOffset())), "JSON syntax error: "+err.Error())
}

// trailingComma explains a closing bracket after a comma, which JSON (unlike
// JavaScript and YAML) does not allow.
func trailingComma(data []byte, off int) string {
	if off >= len(data) || data[off] != '}' && data[off] != ']' {
		return ""
	}
	prev := bytes.TrimRight(data[:off], " \t\r\n")
	if len(prev) > 0 && prev[len(prev)-1] == ',' {
		return "; remove the trailing comma before it"
	}
	return ""
}

// posAt converts a byte offset into a 1-based line and column (in runes).
func (s *source) posAt(off int) spec.Pos {
	if s.text == nil {
		s.text = &spec.File{Path: s.name, Data: s.data}
	}
	return s.text.PosAt(max(0, off))
}

// posOf is the position of a decoded value; the nearest enclosing value's
// when the exact one was not recorded; none without paths (a live server).
func (s *source) posOf(at loc) spec.Pos {
	if at.paths == nil {
		return spec.Pos{}
	}
	return s.posAt(at.paths.offset[at.node])
}

func (s *source) diag(p spec.Pos, msg string) *Diagnostic {
	return &Diagnostic{File: s.name, Span: diag.At(p), Message: msg}
}
