package spec

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// IsSnakeCase reports whether name is a snake_case tool name:
// ^[a-z][a-z0-9_]*$.
func IsSnakeCase(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// SnakeCase suggests a snake_case spelling: HttpRequest, http-request and
// "Http Request" all become http_request; Latin letters with diacritics are
// transliterated (café_lookup becomes cafe_lookup, Straße straße); a name
// that would not start with a letter gets "tool_" in front. It returns ""
// when there is no sensible suggestion: the name holds letters or digits
// that have no ASCII spelling (查询天气, поиск), which dropping would lose,
// or nothing usable at all.
func SnakeCase(s string) string {
	s, ok := Transliterate(s)
	if !ok {
		return ""
	}
	var b strings.Builder
	prevLower := false
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			if prevLower {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			prevLower = false
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			prevLower = true
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
			prevLower = false
		}
	}
	out := strings.Trim(b.String(), "_")
	if out == "" {
		return ""
	}
	if out[0] < 'a' || out[0] > 'z' {
		out = "tool_" + out
	}
	return out
}

// translit spells the Latin letters that have no decomposition in ASCII.
var translit = map[rune]string{
	'ß': "ss", 'ẞ': "SS", 'æ': "ae", 'Æ': "AE", 'œ': "oe", 'Œ': "OE",
	'ø': "o", 'Ø': "O", 'ł': "l", 'Ł': "L", 'đ': "d", 'Đ': "D", 'ð': "d", 'Ð': "D",
	'þ': "th", 'Þ': "TH", 'ı': "i", 'ħ': "h", 'Ħ': "H", 'ŋ': "ng", 'Ŋ': "NG",
	'ĸ': "k", 'ſ': "s", 'ƒ': "f",
}

// Transliterate spells s in ASCII where it can: compatibility forms are
// decomposed (NFKD: é is e plus an accent, ﬁ is fi, full-width Ａ is A),
// combining marks dropped, and the Latin letters without a decomposition
// (ß, æ, ø, ł, ...) spelt out. Other characters are kept; ok is false when
// a letter or digit among them has no ASCII spelling (Chinese, Cyrillic,
// Greek, ...), so that dropping it would lose part of the name.
func Transliterate(s string) (out string, ok bool) {
	ok = true
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s, true
	}
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r):
			// a combining accent of the letter before it
		case translit[r] != "":
			b.WriteString(translit[r])
		default:
			if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r) {
				ok = false
			}
			b.WriteRune(r)
		}
	}
	return b.String(), ok
}
