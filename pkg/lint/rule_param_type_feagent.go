package lint

import (
	"slices"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

// feagentTypes are the parameter types Feagent's loader accepts (any is
// written in the file and means no type).
var feagentTypes = []string{"string", "number", "boolean", "object", "array", "any"}

var ruleParamTypeFeagent = &Rule{
	ID:          "param-type-feagent",
	Severity:    Error,
	Profiles:    []string{ProfileFeagent},
	Description: "Feagent profile: parameter types are string, number, boolean, object, array or any.",
	Explain: `Feagent's loader rejects other parameter types, integer included (use number).

Bad:
  parameters:
    - name: max_tokens
      type: integer

Good:
  parameters:
    - name: max_tokens
      type: number`,
	Tool: func(r *Reporter, t *spec.Tool) {
		for _, p := range r.Properties(t) {
			if !p.TopLevel {
				continue
			}
			for _, typ := range compat.Types(p.Schema) {
				if !slices.Contains(feagentTypes, typ) {
					hint := ""
					if typ == "integer" {
						hint = " (use number)"
					}
					r.Report(t, p.Ptr+"/type", "parameter %q: type %q is not one Feagent accepts: string, number, boolean, object, array or any%s", p.Name, typ, hint)
				}
			}
		}
	},
}
