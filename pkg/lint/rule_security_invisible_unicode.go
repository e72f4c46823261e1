package lint

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleSecurityInvisibleUnicode = &Rule{
	ID:          "security-invisible-unicode",
	Severity:    Error,
	Pack:        PackSecurity,
	Description: "No invisible characters in what a model reads: Unicode tags, zero-width and other format characters, stray variation selectors, private use, controls.",
	Explain: `A model reads every character of a tool's name, description and schema;
a reviewer sees none of these: Unicode tag characters (U+E0000-E007F, which
spell out ASCII text invisibly), zero-width characters (U+200B-U+200F,
U+2060-U+2064, U+FEFF), variation selectors not after an emoji or ideograph
(a run of them encodes bytes), other format (Cf) characters, Hangul fillers,
private-use characters and control characters. They hide instructions from
review, or make two names that look the same differ. The finding is at the
first character of each run, and decodes what tag characters spell.

Bad:
  # the tag characters after "file." spell "rm -rf"
  description: "Reads a file.\U000E0072\U000E006D\U000E0020\U000E002D\U000E0072\U000E0066"

Good:
  description: Reads a file.`,
	Tool: func(r *Reporter, t *spec.Tool) {
		texts := r.texts(t)
	texts:
		for i := range texts {
			m := &texts[i]
			if m.isPlain() {
				continue texts
			}
			for _, run := range invisibleRuns(m.text) {
				r.reportText(t, m, run.start, run.start, "%s in the %s: %s; remove %s", run.describe(), m.label(), run.why(), map[bool]string{true: "it", false: "them"}[run.count == 1])
			}
		}
	},
}

// invisibleRun is a run of invisible characters of one class.
type invisibleRun struct {
	start, end int // byte offsets
	count      int
	class      string
	first      rune
	decoded    string // the ASCII that tag characters spell
}

func (v invisibleRun) describe() string {
	if v.count == 1 {
		return fmt.Sprintf("invisible %s U+%04X", v.class, v.first)
	}
	return fmt.Sprintf("%d invisible %ss from U+%04X", v.count, v.class, v.first)
}

func (v invisibleRun) why() string {
	switch {
	case v.decoded != "":
		return fmt.Sprintf("they spell %s, which the model reads and a reviewer does not see", quoteText(v.decoded, 120))
	case v.class == "variation selector":
		return "variation selectors outside an emoji or ideograph sequence can encode hidden data"
	default:
		return "the model reads what a reviewer does not see"
	}
}

// invisibleClass is the class of an invisible character, "" for a
// visible one or one that is fine where it is (prev and next are the
// characters around it, -1 at the ends).
func invisibleClass(r, prev, next rune) string {
	switch {
	case r < 0x80:
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7F {
			return "control character"
		}
		return ""
	case r >= 0xE0000 && r <= 0xE007F:
		return "tag character"
	case r >= 0x80 && r <= 0x9F:
		return "control character"
	case r == 0x200C || r == 0x200D:
		// Joiners are part of emoji sequences (ZWJ) and of Arabic and
		// Indic spelling (ZWNJ).
		if joinable(prev) && joinable(next) {
			return ""
		}
		return "zero-width character"
	case r >= 0x200B && r <= 0x200F, r >= 0x2060 && r <= 0x2064, r == 0xFEFF:
		return "zero-width character"
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return "" // security-bidi-override
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		if prev >= 0 && !isVariationSelector(prev) && variationBase(prev) {
			return ""
		}
		return "variation selector"
	case r == 0x115F || r == 0x1160 || r == 0x3164 || r == 0xFFA0:
		return "Hangul filler"
	case unicode.Is(unicode.Co, r):
		return "private-use character"
	case unicode.Is(unicode.Cf, r):
		if r == 0x00AD {
			return "soft hyphen"
		}
		return "format character"
	}
	return ""
}

func isVariationSelector(r rune) bool {
	return r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF
}

// variationBase: characters a variation selector legitimately follows:
// symbols and emoji (presentation selectors, keycaps 1️⃣), ideographs
// (ideographic variation sequences), and letters of the scripts that
// standardise variants (Mongolian, Myanmar, Phags-pa).
func variationBase(r rune) bool {
	return unicode.In(r, unicode.So, unicode.Sm, unicode.Sk, unicode.Han, unicode.Mongolian, unicode.Myanmar, unicode.Phags_Pa) ||
		r >= '0' && r <= '9' || r == '#' || r == '*' || r >= 0x2000 && r <= 0x2BFF || r >= 0x1F000 && r <= 0x1FAFF
}

// joinable: what a zero-width joiner or non-joiner legitimately sits
// between: emoji and symbols, modifiers, letters and marks of scripts
// other than Latin, Greek and Cyrillic.
func joinable(r rune) bool {
	if r < 0 {
		return false
	}
	if unicode.In(r, unicode.So, unicode.Sk) || r >= 0x1F000 && r <= 0x1FAFF || r >= 0x2600 && r <= 0x27BF || isVariationSelector(r) {
		return true
	}
	return (unicode.IsLetter(r) || unicode.IsMark(r)) && r >= 0x0590 && !unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic)
}

// invisibleRuns finds the runs of invisible characters of s.
func invisibleRuns(s string) []invisibleRun {
	var out []invisibleRun
	prev := rune(-1)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		next := rune(-1)
		if i+size < len(s) {
			next, _ = utf8.DecodeRuneInString(s[i+size:])
		}
		class := invisibleClass(r, prev, next)
		if class == "" {
			prev = r
			i += size
			continue
		}
		if n := len(out); n > 0 && out[n-1].end == i && out[n-1].class == class {
			out[n-1].end = i + size
			out[n-1].count++
		} else {
			out = append(out, invisibleRun{start: i, end: i + size, count: 1, class: class, first: r})
		}
		prev = r
		i += size
	}
	for k := range out {
		if out[k].class == "tag character" {
			out[k].decoded = decodeTags(s[out[k].start:out[k].end])
		}
	}
	return out
}

// decodeTags is the ASCII text tag characters spell (U+E0020-E007E map
// to ASCII 0x20-0x7E); "" when they spell none.
func decodeTags(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 0xE0020 && r <= 0xE007E {
			b.WriteRune(r - 0xE0000)
		}
	}
	return b.String()
}
