package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	// offsets maps a location to the offset of its value's first byte.
	offsets map[loc]int
	// text gives positions in data (spec.File.PosAt), made when first asked.
	text *spec.File
}

// loc names a value of the input: the document and a JSON pointer in it.
type loc struct {
	doc int
	ptr string
}

func (l loc) key(k string) loc { return loc{l.doc, l.ptr + spec.Pointer(k)} }
func (l loc) index(i int) loc  { return loc{l.doc, fmt.Sprintf("%s/%d", l.ptr, i)} }

// decodeSource reads data as a sequence of JSON values. A syntax error is
// returned as a *Diagnostic with its line and column.
func decodeSource(name string, data []byte) (*source, error) {
	src := &source{name: name, offsets: map[loc]int{}}
	// PowerShell's > writes UTF-16 with a byte order mark; read it as UTF-8.
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		u, _, err := transform.Bytes(unicode.BOMOverride(unicode.UTF8.NewDecoder()), data)
		if err != nil {
			return nil, &Diagnostic{File: name, Msg: fmt.Sprintf("invalid UTF-16: %v; save the file as UTF-8", err)}
		}
		data = u
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	src.data = data
	if !utf8.Valid(data) {
		return nil, src.diag(src.posAt(spec.FirstInvalidUTF8(data)), "invalid UTF-8; save the file as UTF-8")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Diagnostic{File: name, Msg: "the input is empty; expected JSON tool definitions"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	d := &jsonDecoder{src: src, dec: dec}
	for {
		start := d.skip(int(dec.InputOffset()))
		if start >= len(data) {
			break
		}
		v, err := d.value(loc{doc: len(src.docs)})
		if err != nil {
			return nil, d.syntaxError(err, start)
		}
		src.docs = append(src.docs, v)
	}
	return src, nil
}

type jsonDecoder struct {
	src *source
	dec *json.Decoder
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

func (d *jsonDecoder) value(at loc) (any, error) {
	d.src.offsets[at] = d.skip(int(d.dec.InputOffset()))
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
				v, err := d.value(at.key(key))
				if err != nil {
					return nil, err
				}
				if m.Has(key) {
					// encoding/json keeps the last; say so rather than lose
					// a value silently.
					return nil, &dupKeyError{key: key, at: at.key(key)}
				}
				m.Set(key, v)
			}
			_, err := d.dec.Token()
			return m, err
		case '[':
			list := []any{}
			for i := 0; d.dec.More(); i++ {
				v, err := d.value(at.index(i))
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

// syntaxError positions a decoding error in the document that starts at
// offset start.
func (d *jsonDecoder) syntaxError(err error, start int) *Diagnostic {
	src := d.src
	var se *json.SyntaxError
	var dup *dupKeyError
	switch {
	case errors.As(err, &dup):
		return src.diag(src.posOf(dup.at), fmt.Sprintf("JSON: key %q appears twice in this object; keep one", dup.key))
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
// when the exact one was not recorded.
func (s *source) posOf(at loc) spec.Pos {
	for {
		if off, ok := s.offsets[at]; ok {
			return s.posAt(off)
		}
		if at.ptr == "" {
			return spec.Pos{}
		}
		i := bytes.LastIndexByte([]byte(at.ptr), '/')
		at.ptr = at.ptr[:i]
	}
}

func (s *source) diag(p spec.Pos, msg string) *Diagnostic {
	return &Diagnostic{File: s.name, Pos: p, Msg: msg}
}
