package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

var _ = register(&Rule{
	ID:          "openai-name",
	Severity:    Error,
	Target:      "openai",
	Description: "The tool name is valid for OpenAI: 1 to 64 letters, digits, _ or -.",
	Explain: `OpenAI rejects a request whose function name does not match
^[a-zA-Z0-9_-]{1,64}$ ("Must be a-z, A-Z, 0-9, or contain underscores and
dashes, with a maximum length of 64", FunctionDefinition.name in
https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools).
Dots, colons and spaces, fine in MCP or Gemini names, are not allowed.

Bad:
  name: get weather
  name: math.factorial

Good:
  name: get_weather
  name: math_factorial`,
	Tool: func(r *Reporter, t *spec.Tool) {
		reportProviderName(r, t, tgtOpenAIName, "OpenAI", "use only letters, digits, _ and - (at most 64 characters)")
	},
})

// reportProviderName reports t's name when it breaks a provider's rule:
// what is wrong, the rule, and a valid spelling.
func reportProviderName(r *Reporter, t *spec.Tool, nr tgtNameRule, provider, rule string) {
	if t.Name == "" || nr.valid(t.Name) {
		return // a missing name is name-required's finding
	}
	msg := "name %q is not valid for " + provider + ": it " + tgtNameProblem(nr, t.Name) + "; " + rule
	if s := nr.suggest(t.Name); s != "" {
		r.Report(t, "/name", msg+", e.g. %q", t.Name, s)
		return
	}
	r.Report(t, "/name", msg, t.Name)
}
