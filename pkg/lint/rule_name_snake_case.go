package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleNameSnakeCase = &Rule{
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
		if s := spec.SnakeCase(t.Name); s != "" {
			r.Report(t, "/name", "name %q is not snake_case; use %q", t.Name, s)
			return
		}
		// No ASCII spelling to offer (查询天气): say what a name needs.
		r.Report(t, "/name", "name %q is not snake_case; use lowercase ASCII letters, digits and _, starting with a letter (e.g. get_weather)", t.Name)
	},
}
