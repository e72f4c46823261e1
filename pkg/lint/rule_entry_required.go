package lint

import (
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleEntryRequired = &Rule{
	ID:          "entry-required",
	Severity:    Error,
	Profiles:    []string{ProfileDefault, ProfileFeagent},
	Description: "Feagent-dialect tools (every tool in the feagent profile) say how they run (entry).",
	Explain: `Without an entry a tool can be described but never executed; Feagent's loader
refuses it ("缺少必需字段: entry"). Definition-only tools in other dialects
may omit it.

Bad:
  name: llm_call
  description: Calls a chat model. Use when a step needs generated text.
  category: ai

Good:
  name: llm_call
  description: Calls a chat model. Use when a step needs generated text.
  category: ai
  entry:
    type: builtin
    handler: llm_call`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if !feagentRules(r, t) || t.Entry != nil || t.SDKType != "" {
			return
		}
		r.Report(t, "", "tool %q has no entry; add entry: {type: %s, ...} saying how it runs", t.Name, strings.Join(feagentEntryTypes, "|"))
	},
}
