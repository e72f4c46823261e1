package lint

import (
	"strings"
	"unicode"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleDescriptionThirdPerson = &Rule{
	ID:          "description-third-person",
	Severity:    Warning,
	Description: "Descriptions are written in the third person: no I/me/my, you/your, 我, 你, 您.",
	Explain: `The description is read by a model choosing among tools, not by a user in a
chat: "I will fetch" or "you can fetch" confuses who acts. Say what the tool
does, in the third person.

Bad:
  description: I fetch the page for you. Use when you need its text.

Good:
  description: Fetches a web page and returns its text. Use when a task needs a page's content.`,
	Tool: func(r *Reporter, t *spec.Tool) {
		// Quoted text is what a user says ("stop reminding me"), not the
		// description addressing anyone; blank it out, keeping offsets.
		// (The regexp is slow; most descriptions never need it.)
		if _, word := addressingWord(t.Description); word == "" {
			return
		}
		text := quoted().ReplaceAllStringFunc(t.Description, func(q string) string { return strings.Repeat(" ", len(q)) })
		if at, word := addressingWord(text); word != "" {
			line, col := lineCol(t.Description, at)
			p := t.TextPos("/description", line, col)
			r.ReportSpan(t, spec.Span{Start: p, End: spec.Pos{Line: p.Line, Col: p.Col + len([]rune(word))}},
				"description addresses someone (%q); write in the third person: \"Fetches ...\", \"Use when ...\"", word)
		}
	},
}

// quoted text is blanked out before the scan.
var quoted = lazyRegexp(`"[^"\n]*"|“[^”\n]*”|「[^」\n]*」|(?:^|[\s(])'[^'\n]+'(?:[\s,.;:)!?]|$)`)

// addressingWord returns the byte offset and text of the first first- or
// second-person word: I (as a word: not I/O or I-95), me, my, you, your, ...,
// or the Chinese pronouns 我, 你, 您. A word scan, not a regexp: this runs on
// every description.
func addressingWord(s string) (int, string) {
	start := -1
	for i, r := range s + " " {
		if (unicode.IsLetter(r) && !isCJKPronoun(r)) || unicode.IsDigit(r) || r == '\'' || r == '’' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := s[start:i]
			joined := r == '/' || r == '-' || (start > 0 && (s[start-1] == '/' || s[start-1] == '-'))
			if !joined && (w == "I" || strings.HasPrefix(w, "I'") || strings.HasPrefix(w, "I’") || secondPerson[strings.ToLower(w)]) {
				return start, w
			}
			start = -1
		}
		if isCJKPronoun(r) {
			return i, string(r)
		}
	}
	return -1, ""
}

func isCJKPronoun(r rune) bool { return r == '我' || r == '你' || r == '您' }

var secondPerson = map[string]bool{"me": true, "my": true, "mine": true, "myself": true, "you": true, "your": true,
	"yours": true, "yourself": true, "you're": true, "you'll": true, "you've": true, "you’re": true}
