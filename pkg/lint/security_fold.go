package lint

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The pattern rules (security-hidden-instructions, -sensitive-data,
// -tool-shadowing) read a text's words in ASCII. A text that is not plain
// ASCII is read a second time folded (foldText): what a reader sees as
// the same words must match the same patterns, so that "Ｉｇｎｏｒｅ all
// previous instructions" (fullwidth), "ignore\u00a0all previous
// instructions" (a no-break space), "Ignоre ..." (a Cyrillic о) or
// "Don’t tell the user" (a typographic apostrophe) are found as their
// ASCII spelling is. Findings are mapped back to the original text.

// foldText returns s with every non-ASCII character that stands for ASCII
// replaced by it: Unicode spaces by a space, compatibility forms
// (fullwidth, mathematical letters, ligatures: NFKC) and TR39
// confusables with an ASCII prototype (Cyrillic and Greek look-alikes,
// typographic quotes) by their ASCII, format characters (zero-width,
// soft hyphen; security-invisible-unicode reports them) dropped; other
// characters are kept. at[i] is the byte offset in s of byte i of the
// result (len(at) is len(result)+1, the last entry len(s)). ok is false,
// and nothing is returned, when nothing folds that a pattern could read
// differently: CJK text with fullwidth commas, colons and brackets (most
// of it) is read once, as it is.
func foldText(s string) (folded string, at []int32, ok bool) {
	if !foldMatters(s) {
		return "", nil, false
	}
	b := make([]byte, 0, len(s))
	at = make([]int32, 0, len(s)+1)
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		if c < utf8.RuneSelf {
			b = append(b, byte(c))
			at = append(at, int32(i))
			i++
			continue
		}
		if rep, fold := foldRune(s[i:], c); fold {
			ok = true
			for j := 0; j < len(rep); j++ {
				b = append(b, rep[j])
				at = append(at, int32(i))
			}
		} else {
			for j := range size {
				b = append(b, s[i+j])
				at = append(at, int32(i+j))
			}
		}
		i += size
	}
	if !ok {
		return "", nil, false
	}
	return string(b), append(at, int32(len(s))), true
}

// foldMatters tells whether a character of s folds to something the
// patterns read other than as the character itself: a letter, digit,
// space, apostrophe or a character of a path, URL or tag (<>[]/.~|_-@),
// or nothing (a format character inside a word).
func foldMatters(s string) bool {
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		if c >= utf8.RuneSelf {
			if rep, fold := foldRune(s[i:], c); fold {
				if rep == "" {
					return true
				}
				for j := 0; j < len(rep); j++ {
					if byteClass[rep[j]]&classWord != 0 || strings.IndexByte(" <>[]/.~|_-@", rep[j]) >= 0 {
						return true
					}
				}
			}
		}
		i += size
	}
	return false
}

// foldRune is the ASCII that the character c (at the start of s) stands
// for, and whether it stands for any.
func foldRune(s string, c rune) (string, bool) {
	switch {
	case c >= 0x3400 && c <= 0x9FFF, c >= 0xAC00 && c <= 0xD7A3:
		// CJK ideographs and Hangul syllables (most of a CJK text): no
		// ASCII form
		return "", false
	case c == utf8.RuneError:
		return "", false
	case unicode.Is(unicode.Zs, c):
		return " ", true
	case unicode.Is(unicode.Cf, c):
		return "", true
	}
	if d := norm.NFKC.PropertiesString(s).Decomposition(); len(d) > 0 && asciiBytes(d) {
		return string(d), true
	}
	if i, found := slices.BinarySearch(confusableFrom[:], c); found && isASCII(confusableTo[i]) {
		return confusableTo[i], true
	}
	return "", false
}

func asciiBytes(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
