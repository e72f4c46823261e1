package lint

import (
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleCategoryRequired = &Rule{
	ID:          "category-required",
	Severity:    Error,
	Profiles:    []string{ProfileDefault, ProfileFeagent},
	Description: "Feagent-dialect tools (every tool in the feagent profile) have a category.",
	Explain: `Feagent's loader refuses a tool without a category; other dialects only
recommend one.

Bad:
  name: http_request
  description: Sends an HTTP request. Use when calling a web API.
  entry: {type: http, url: "{url}", method: GET}

Good:
  name: http_request
  description: Sends an HTTP request. Use when calling a web API.
  category: http
  entry: {type: http, url: "{url}", method: GET}`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if !feagentRules(r, t) || strings.TrimSpace(t.Category) != "" {
			return
		}
		cats, _ := r.Categories()
		r.Report(t, "", "tool %q has no category; add category: one of %s", t.Name, strings.Join(cats, ", "))
	},
}
