package lint

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/toolctl/toolctl/pkg/spec"
)

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

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
		if t.Name == "" || snakeCase.MatchString(t.Name) {
			return
		}
		r.Report(t, "/name", "name %q is not snake_case; use %q", t.Name, toSnake(t.Name))
	},
})

// toSnake suggests a snake_case spelling: HttpRequest, http-request and
// "Http Request" all become http_request.
func toSnake(s string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			if prevLower {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			prevLower = false
		case unicode.IsLower(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			prevLower = true
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
			prevLower = false
		}
	}
	out := strings.Trim(b.String(), "_")
	if out == "" || !unicode.IsLetter(rune(out[0])) {
		out = "tool_" + out
	}
	return out
}
