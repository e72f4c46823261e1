package lint

import (
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleParamDescriptionMissing = &Rule{
	ID:          "param-description-missing",
	Severity:    Warning,
	Description: "Every parameter has a description.",
	Explain: `The parameter description is all the model knows about what to pass: units,
format, examples, what happens when it is left out.

Bad:
  properties:
    timeout: {type: number}

Good:
  properties:
    timeout: {type: number, description: Seconds to wait for a response (default 30).}`,
	Tool: func(r *Reporter, t *spec.Tool) {
		for _, p := range r.Properties(t) {
			d, _ := p.Schema.GetString("description")
			if strings.TrimSpace(d) != "" || p.Schema.Has("$ref") {
				continue
			}
			r.Report(t, p.Ptr, "parameter %q has no description; say what to pass and in which format", p.Name)
		}
	},
}
