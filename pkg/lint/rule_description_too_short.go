package lint

import (
	"github.com/toolctl/toolctl/pkg/diag"
	"strings"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleDescriptionTooShort = &Rule{
	ID:          "description-too-short",
	Severity:    Warning,
	Description: "Descriptions have at least 20 characters and 4 words (lint.limits).",
	Explain: `"Navigate to URL" tells a model neither what exactly happens nor when to
choose this tool over another.

Bad:
  description: Navigate to URL

Good:
  description: Opens a URL in the browser. Use when a task starts on a web page.`,
	Tool: func(r *Reporter, t *spec.Tool) {
		d := strings.TrimSpace(t.Description)
		if d == "" {
			return // description-required
		}
		l := r.Limits()
		chars, words := utf8.RuneCountInString(d), len(strings.Fields(d))
		switch {
		case hasCJK(d):
			// CJK has no spaces between words and says more per character:
			// half the characters, no word count.
			if chars < l.DescriptionMin/2 {
				r.Report(t, "/description", "description is too short (%d characters); say what the tool does and when to use it", chars)
			}
		case chars < l.DescriptionMin || words < l.DescriptionMinWords:
			r.Report(t, "/description", "description is too short (%d characters, %s); say what the tool does and when to use it", chars, Plural(words, "word", "words"))
		}
	},
}

func hasCJK(s string) bool {
	for _, r := range s {
		if r >= 0x2E80 && r <= 0x9FFF || r >= 0xAC00 && r <= 0xD7AF || r >= 0xF900 && r <= 0xFAFF {
			return true
		}
	}
	return false
}

// Plural counts: "1 file", "2 files".
func Plural(n int, one, many string) string { return diag.Plural(n, one, many) }
