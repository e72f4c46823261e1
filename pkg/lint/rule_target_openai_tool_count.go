package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleOpenAIToolCount = &Rule{
	ID:          "openai-tool-count",
	Severity:    Warning,
	Target:      "openai",
	Description: "The linted set has at most 128 tools, the most OpenAI accepts in one request.",
	Explain: `OpenAI accepts at most 128 functions in one request ("A max of 128 functions
are supported", https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools);
a set exported as one request must stay within that. Models also choose
better among fewer tools: split large sets by task.

Bad:
  tools/ holds 140 tool files, exported together for one agent

Good:
  tools/billing/ and tools/support/, each exported for its own agent`,
	SetPins: pinName,
	Set: func(r *Reporter, tools []*spec.Tool) {
		if len(tools) <= compat.OpenAIMaxTools {
			return
		}
		t := tools[compat.OpenAIMaxTools]
		r.Report(t, "/name", "tool %q is tool number %d of this set of %d; OpenAI accepts at most %d tools in one request: split the set", t.Name, compat.OpenAIMaxTools+1, len(tools), compat.OpenAIMaxTools)
	},
}
