package lint

import (
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleDescriptionMaxLength = &Rule{
	ID:          "description-max-length",
	Severity:    Warning,
	Description: "Descriptions are at most 200 characters (lint.limits.description_max); details go in detail.",
	Explain: `Descriptions of every tool go into every prompt. Keep them short and move usage
notes to detail (Level 2), which an agent reads only when it needs it.

Bad:
  description: Reads a file. The path is relative ... (600 characters)

Good:
  description: Reads a text file in the workspace. Use when the answer depends on a local file.
  detail: |
    The path is relative ...`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if n := utf8.RuneCountInString(t.Description); n > r.Limits().DescriptionMax {
			r.Report(t, "/description", "description is %d characters, more than %d; move the details to detail", n, r.Limits().DescriptionMax)
		}
	},
}
