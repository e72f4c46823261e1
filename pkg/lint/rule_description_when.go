package lint

import (
	"regexp"

	"github.com/toolctl/toolctl/pkg/spec"
)

var _ = register(&Rule{
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
		if t.Description == "" || len(t.Triggers) > 0 || whenClause.MatchString(t.Description) {
			return
		}
		r.Report(t, "/description", "description does not say when to use the tool; add a \"Use when ...\" sentence, or a triggers list")
	},
})

// whenClause accepts the usual ways of saying when: "when", "whenever",
// "if", "before/after ...", "in case", and Chinese 当/时/用于/适用/需要.
var whenClause = regexp.MustCompile(`(?i)\b(?:when|whenever|if|before|after|once|in case|for (?:tasks|cases|questions|requests))\b|[当时於于]|适用|需要`)
