package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
)

var ruleGeminiNameSeparator = &Rule{
	ID:          "gemini-name-separator",
	Severity:    Info,
	Target:      "gemini",
	Description: "The tool name avoids . : and -, which Gemini accepts but advises against.",
	Explain: `Gemini accepts dots, colons and dashes in function names, but its function
calling guide asks for names "without spaces, periods (.), or dashes (-)"
and suggests underscores or camelCase instead
(https://ai.google.dev/gemini-api/docs/function-calling, "Best practices");
some SDKs and proxies mishandle these characters.

Bad:
  name: math.factorial
  name: get-weather

Good:
  name: math_factorial
  name: get_weather`,
	Tool: targetName(compat.Gemini),
}
