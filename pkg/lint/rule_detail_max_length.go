package lint

import (
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleDetailMaxLength = &Rule{
	ID:          "detail-max-length",
	Severity:    Warning,
	Description: "detail is at most 2000 characters (lint.limits.detail_max).",
	Explain: `detail is returned whole when an agent asks for a tool's Level 2 text; keep it
to the notes that change how the tool is called.

Bad:
  detail: (a 5,000 character manual)

Good:
  detail: |
    Reads one file below the workspace root ...`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if n := utf8.RuneCountInString(t.Detail); n > r.Limits().DetailMax {
			r.Report(t, "/detail", "detail is %d characters, more than %d; shorten it or link to documentation", n, r.Limits().DetailMax)
		}
	},
}
