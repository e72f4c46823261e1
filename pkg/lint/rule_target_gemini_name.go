package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
)

var ruleGeminiName = &Rule{
	ID:          "gemini-name",
	Severity:    Error,
	Target:      "gemini",
	Description: "The tool name is valid for Gemini: a letter or _ first, then up to 128 letters, digits, _ . : or -.",
	Explain: `Gemini's FunctionDeclaration.name "must start with a letter or an
underscore" and "must be a-z, A-Z, 0-9, or contain underscores, dots, colons
and dashes, with a maximum length of 128"
(https://ai.google.dev/api/caching#FunctionDeclaration,
https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Tool#FunctionDeclaration).

Bad:
  name: get weather
  name: 2fa_check

Good:
  name: get_weather
  name: check_2fa`,
	Tool: targetName(compat.Gemini),
}
