package spec

import (
	"fmt"
	"unicode/utf8"
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
				return &Error{File: f.Path, Span: Span{p, Pos{p.Line, p.Col + 1}},
					Msg: fmt.Sprintf("YAML syntax error: control character U+%04X is not allowed in YAML; remove it, or in a double-quoted string write it as \"\\u%04X\"", r, r)}
			}
		}
		i += size
	}
	return nil
}
