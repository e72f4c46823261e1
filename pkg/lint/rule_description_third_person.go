package lint

import (
	"regexp"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var _ = register(&Rule{
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
		text := quoted.ReplaceAllStringFunc(t.Description, func(q string) string { return strings.Repeat(" ", len(q)) })
		if loc := addressing.FindStringIndex(text); loc != nil {
			word := strings.TrimSpace(t.Description[loc[0]:loc[1]])
			line, col := lineCol(t.Description, loc[0]+strings.Index(t.Description[loc[0]:loc[1]], word))
			p := t.TextPos("/description", line, col)
			r.ReportSpan(t, spec.Span{Start: p, End: spec.Pos{Line: p.Line, Col: p.Col + len([]rune(word))}},
				"description addresses someone (%q); write in the third person: \"Fetches ...\", \"Use when ...\"", word)
		}
	},
})

// addressing finds first- and second-person words. "I" must be a word on
// its own (not I/O, I-95); the Chinese pronouns need no word boundaries.
var quoted = regexp.MustCompile(`"[^"\n]*"|“[^”\n]*”|「[^」\n]*」|(?:^|[\s(])'[^'\n]+'(?:[\s,.;:)!?]|$)`)

var addressing = regexp.MustCompile(`(?:^|[^\pL\pN/'-])(?:I|I'm|I'll|I've|I'd)(?:[^\pL\pN/'-]|$)|(?i:\b(?:me|my|mine|myself|you|your|yours|yourself|you're|you'll|you've)\b)|[我你您]`)
