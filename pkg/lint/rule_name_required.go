package lint

import "github.com/toolctl/toolctl/pkg/spec"

var ruleNameRequired = &Rule{
	ID:          "name-required",
	Severity:    Error,
	Profiles:    []string{ProfileDefault, ProfileFeagent},
	Description: "Every tool has a non-empty name.",
	Explain: `The name is how agents call the tool and how other tools refer to it.

Bad:
  name: ""

Good:
  name: http_request`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.Name == "" {
			r.Report(t, "/name", "the tool has an empty name; give it a snake_case name such as http_request")
		}
	},
}
