package lint

import (
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleDescriptionTrailingWhitespace = &Rule{
	ID:          "description-trailing-whitespace",
	Severity:    Warning,
	Description: "Descriptions do not end with spaces, tabs or blank lines.",
	Explain: `Trailing whitespace is sent in every prompt and makes exports differ for no
reason. A YAML block scalar (|) keeps one final newline: use |- or a plain
scalar.

Bad:
  description: |
    Sends an HTTP request.

Good:
  description: Sends an HTTP request.`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.Description != "" && strings.TrimRight(t.Description, " \t\r\n") != t.Description {
			r.Report(t, "/description", "description ends with whitespace; remove it (use |- instead of | for a block)")
		}
	},
}
