package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

var _ = register(&Rule{
	ID:          "name-snake-case",
	Severity:    Error,
	Description: "Tool names are snake_case: a lowercase letter, then lowercase letters, digits and underscores.",
	Explain: `snake_case names are valid for every provider (OpenAI, Anthropic, Gemini, MCP)
and read the same in every language.

Bad:
  name: HttpRequest
  name: http-request

Good:
  name: http_request`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.Name == "" || spec.IsSnakeCase(t.Name) {
			return
		}
		r.Report(t, "/name", "name %q is not snake_case; use %q", t.Name, spec.SnakeCase(t.Name))
	},
})
