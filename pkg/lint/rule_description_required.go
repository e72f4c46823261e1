package lint

import (
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleDescriptionRequired = &Rule{
	ID:          "description-required",
	Severity:    Error,
	Profiles:    []string{ProfileDefault, ProfileFeagent},
	Description: "Every tool has a description.",
	Explain: `The description is the only thing a model reads before choosing a tool
(Level 1). Say what the tool does and when to use it.

Bad:
  name: http_request

Good:
  name: http_request
  description: Sends an HTTP request and returns the response. Use when a task needs a web API.`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if strings.TrimSpace(t.Description) == "" {
			r.Report(t, "/description", "the tool has no description; say what it does and when to use it")
		}
	},
}
