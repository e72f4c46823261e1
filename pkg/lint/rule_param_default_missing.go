package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

var ruleParamDefaultMissing = &Rule{
	ID:          "param-default-missing",
	Severity:    Info,
	Description: "Optional top-level parameters document their default.",
	Explain: `When a parameter may be left out, the model (and the reader) needs to know
what happens then. A default says it in a machine-readable way; bound
parameters (bind) are exempt.

Bad:
  parameters:
    - name: timeout
      type: number
      required: false

Good:
  parameters:
    - name: timeout
      type: number
      required: false
      default: 30`,
	Tool: func(r *Reporter, t *spec.Tool) {
		bound := validate.BoundParams(t)
		for _, p := range r.Properties(t) {
			if !p.TopLevel || p.Required || p.Schema.Has("default") || p.Schema.Has("const") || bound[p.Name] {
				continue
			}
			r.Report(t, p.Ptr, "optional parameter %q has no default; add default: (the value used when it is left out)", p.Name)
		}
	},
}
