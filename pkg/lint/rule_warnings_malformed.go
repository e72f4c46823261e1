package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleWarningsMalformed = &Rule{
	ID:          "warnings-malformed",
	Severity:    Warning,
	Description: "warnings are non-empty, distinct sentences.",
	Explain: `Warnings are shown to the model at Level 2; an empty or repeated one wastes
its attention.

Bad:
  warnings:
    - Deletes files permanently.
    - Deletes files permanently.

Good:
  warnings:
    - Deletes files permanently.
    - Needs write access to the target directory.`,
	Tool: func(r *Reporter, t *spec.Tool) { checkTextList(r, t, "warnings", t.Warnings, nil) },
}
