package lint

import (
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var rulePrerequisitesMalformed = &Rule{
	ID:          "prerequisites-malformed",
	Severity:    Warning,
	Description: "prerequisites are non-empty strings, or objects with a condition (and an action_if_not_met when they name a check_tool).",
	Explain: `A prerequisite tells the agent what must hold before the call and, with
check_tool, how to verify it; without a condition there is nothing to check,
and without action_if_not_met the agent does not know how to recover.

Bad:
  prerequisites:
    - check_tool: file_exists

Good:
  prerequisites:
    - condition: The file exists
      check_tool: file_exists
      action_if_not_met: Ask the user for another path.`,
	Tool: func(r *Reporter, t *spec.Tool) {
		// The list form's text, or the object form's condition; an object
		// without a condition is reported below, not as empty.
		texts := make([]string, len(t.Prerequisites))
		noCondition := make([]bool, len(t.Prerequisites))
		for i, p := range t.Prerequisites {
			ptr := "/prerequisites/" + strconv.Itoa(i)
			object := p.Text == "" && (p.Condition != "" || p.CheckTool != "" || p.ActionIfNotMet != "")
			switch {
			case object && strings.TrimSpace(p.Condition) == "":
				r.Report(t, ptr, "prerequisites[%d] has no condition; say what must hold before the call", i)
			case object && p.CheckTool != "" && strings.TrimSpace(p.ActionIfNotMet) == "":
				r.Report(t, ptr, "prerequisites[%d] names check_tool %q but no action_if_not_met; say what to do when the check fails", i, p.CheckTool)
			}
			texts[i] = p.Text
			if object {
				texts[i] = p.Condition
				noCondition[i] = strings.TrimSpace(p.Condition) == ""
			}
		}
		checkTextList(r, t, "prerequisites", texts, func(i int) bool { return noCondition[i] })
	},
}
