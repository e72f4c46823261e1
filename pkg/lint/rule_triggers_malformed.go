package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleTriggersMalformed = &Rule{
	ID:          "triggers-malformed",
	Severity:    Warning,
	Description: "triggers are non-empty, distinct sentences.",
	Explain: `Each trigger is a situation in which the agent should use the tool; an empty or
repeated one is noise in the prompt.

Bad:
  triggers:
    - When the user names a file
    - ""
    - when the user names a file

Good:
  triggers:
    - When the user names a file
    - When a previous step produced a file path`,
	Tool: func(r *Reporter, t *spec.Tool) { checkTextList(r, t, "triggers", t.Triggers, nil) },
}
