package spec

import (
	"fmt"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
)

// yamlPrintable is the character set yaml.v3's reader accepts (YAML 1.2's
// c-printable): tab, line feed, carriage return, printable ASCII, NEL and
// the rest of Unicode but the C1 controls, surrogates and U+FFFE/U+FFFF.
// Any other character makes it fail with "control characters are not
// allowed" and no position.
func yamlPrintable(r rune) bool {
	switch {
	case r == 0x09, r == 0x0A, r == 0x0D:
	case r >= 0x20 && r <= 0x7E:
	case r == 0x85:
	case r >= 0xA0 && r <= 0xD7FF:
	case r >= 0xE000 && r <= 0xFFFD:
	case r >= 0x10000 && r <= 0x10FFFF:
	default:
		return false
	}
	return true
}

// controlCharError locates the character behind yaml.v3's "control
// characters are not allowed" (which names no place), or returns nil.
func (f *File) controlCharError() *Error {
	data := f.Source()
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r != utf8.RuneError || size > 1 {
			if !yamlPrintable(r) {
				p := f.PosAt(i)
				return &Error{File: f.Path, Span: Span{Start: p, End: Pos{Line: p.Line, Col: p.Col + 1}},
					Message: fmt.Sprintf("YAML syntax error: control character U+%04X is not allowed in YAML; remove it, or in a double-quoted string write it as \"\\u%04X\"", r, r)}
			}
		}
		i += size
	}
	return nil
}

// yamlSurrogateError locates the escape behind yaml.v3's "found invalid
// Unicode character escape code" at line (a \u escape of a UTF-16
// surrogate, which YAML takes for no character, or a \U escape past
// U+10FFFF), or returns nil. JSON writes a character past U+FFFF as a pair
// of such escapes (Python's json.dumps does for every emoji); YAML reads
// each \u escape as a character of its own.
func (f *File) yamlSurrogateError(line int) *Error {
	text := f.lineBytes(line)
	for i := 0; i+1 < len(text); i++ {
		if text[i] != '\\' {
			continue
		}
		var esc string
		var msg string
		switch text[i+1] {
		case 'u':
			r, ok := fastnode.Hex4(text, i+2)
			if !ok || r < 0xD800 || r > 0xDFFF {
				i++
				continue
			}
			esc = string(text[i : i+6])
			if c, w, bad := fastnode.SurrogatePair(text, i, r); bad == nil {
				esc = string(text[i : i+w])
				msg = fmt.Sprintf("%s is a UTF-16 surrogate pair, JSON's way to write %c; YAML reads each \\u escape as a character of its own, and a surrogate is none: write \\U%08X or the character itself (a .json file is read as JSON)", esc, c, c)
			} else {
				msg = fmt.Sprintf("%s is half of a UTF-16 surrogate pair, which is no character; write the character itself, or its \\UXXXXXXXX escape", esc)
			}
		case 'U':
			if i+10 > len(text) {
				i++
				continue
			}
			r, ok := fastnode.HexDigits(text[i+2 : i+10])
			if !ok || r <= 0x10FFFF && (r < 0xD800 || r > 0xDFFF) {
				i++
				continue
			}
			esc = string(text[i : i+10])
			msg = fmt.Sprintf("%s is no Unicode character (they end at \\U0010FFFF, and surrogates are none); write the character itself, or its escape", esc)
		default:
			i++ // an escaped character, maybe a backslash
			continue
		}
		p := f.PosAt(f.lines()[line-1] + i)
		return &Error{File: f.Path, Span: Span{Start: p, End: Pos{Line: p.Line, Col: p.Col + len(esc)}}, Message: "YAML syntax error: " + msg}
	}
	return nil
}
