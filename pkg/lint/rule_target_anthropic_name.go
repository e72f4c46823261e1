package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
)

var ruleAnthropicName = &Rule{
	ID:          "anthropic-name",
	Severity:    Error,
	Target:      "anthropic",
	Description: "The tool name is valid for Anthropic: 1 to 128 letters, digits, _ or -.",
	Explain: `Anthropic rejects a tool whose name does not match ^[a-zA-Z0-9_-]{1,128}$
(https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools;
older versions of the page said {1,64}, and OpenAI still stops at 64, which
name-max-length checks). Dots, colons and spaces are not allowed.

Bad:
  name: get weather
  name: math.factorial

Good:
  name: get_weather
  name: math_factorial`,
	Tool: targetName(compat.Anthropic),
}
