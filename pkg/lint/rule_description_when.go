package lint

import (
	"strings"
	"unicode"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleDescriptionWhen = &Rule{
	ID:          "description-when",
	Severity:    Warning,
	Description: "The description says when to use the tool (a \"when ...\" clause), or the tool lists triggers.",
	Explain: `Models pick tools by matching the situation to the description. "Reads a
file" says what; "Use when the user names a local file" says when, and keeps
the model from reaching for it otherwise. A triggers list does the same job.

Bad:
  description: Reads a text file and returns its content.

Good:
  description: Reads a text file and returns its content. Use when the user names a local file.`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.Description == "" || len(t.Triggers) > 0 || saysWhen(t.Description) {
			return
		}
		r.Report(t, "/description", "description does not say when to use the tool; add a \"Use when ...\" sentence, or a triggers list")
	},
}

// saysWhen accepts the usual ways of saying when: "when", "whenever", "if",
// "before/after ...", "in case", and Chinese 当/时/于/适用/需要. A word scan,
// not a regexp: this runs on every description.
func saysWhen(s string) bool {
	if strings.ContainsAny(s, "当时於于") || strings.Contains(s, "适用") || strings.Contains(s, "需要") {
		return true
	}
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
	for i, w := range words {
		switch w {
		case "when", "whenever", "if", "before", "after", "once":
			return true
		case "case":
			if i > 0 && words[i-1] == "in" {
				return true
			}
		}
	}
	return false
}
