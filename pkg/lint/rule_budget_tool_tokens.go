package lint

import (
	"fmt"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleBudgetToolTokens = &Rule{
	ID:          "budget-tool-tokens",
	Severity:    Warning,
	Configured:  budgetToolOn,
	Setting:     "lint.budget.tool",
	Description: "A tool costs at most lint.budget.tool tokens in the lint.budget format (off until configured).",
	Explain: `Every tool definition is sent with every request and paid for in context
tokens, whether the model calls the tool or not. lint.budget in .toolctl.yaml
sets what one tool may cost, counted as toolctl tokens counts it (exact
prompt tokens for OpenAI formats; an estimate for anthropic and gemini):

  lint:
    budget: {model: gpt-4.1, format: openai, tool: 1500, total: 20000}

The finding is at the tool's name and names its biggest part (the
description or a parameter) to trim first. toolctl tokens --by parameter
shows every part; toolctl tokens --suggest lists savings. Adopt it on a big
set with a baseline (toolctl lint --baseline-out) and remove entries as
tools get under budget.

Bad:
  lint.budget.tool: 300, and a tool whose description is a 2,000-character
  manual

Good:
  a one-paragraph description; the manual in detail (Level 2), which the
  model reads only through get_tool_info`,
	SetPins: pinName,
	Tool: func(r *Reporter, t *spec.Tool) {
		b := r.cfg.Budget
		c, err := r.budgetCount(t)
		if err != nil {
			r.Report(t, "/name", "cannot count the tokens of tool %q for lint.budget: %v", t.Name, err)
			return
		}
		limit, _, over, _ := r.cfg.budgetLimits(t.Path())
		if c.Tokens <= limit {
			return
		}
		part := "its structure"
		if p, ok := c.biggest(); ok {
			part = fmtPart(p, c.Tokens)
		}
		r.Report(t, "/name", "tool %q costs %d %s, more than %s; the biggest part is %s: shorten it (toolctl tokens --by parameter --suggest)", t.Name, c.Tokens, b.unit(c), limitName("tool", limit, over), part)
	},
}

// fmtPart is "its description (412 tokens, 61%)".
func fmtPart(p TokenPart, total int) string {
	pct := 0
	if total > 0 {
		pct = p.Tokens * 100 / total
	}
	return fmt.Sprintf("%s (%d tokens, %d%%)", p.Label, p.Tokens, pct)
}
