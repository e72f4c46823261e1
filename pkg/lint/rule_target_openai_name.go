package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
)

var ruleOpenAIName = &Rule{
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
	Tool: targetName(compat.OpenAI),
}
