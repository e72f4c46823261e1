package lint

import (
	"fmt"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleBudgetTotalTokens = &Rule{
	ID:          "budget-total-tokens",
	Severity:    Warning,
	Configured:  budgetTotalOn,
	Setting:     "lint.budget.total",
	Description: "The linted set costs at most lint.budget.total tokens in the lint.budget format (off until configured).",
	Explain: `All tool definitions of a request share the model's context window: large
sets crowd out the conversation and make the model choose worse. Agents warn
from about 25,000 tokens of definitions; providers recommend tool search
beyond about 10,000. lint.budget.total in .toolctl.yaml sets what the whole
linted set may cost (the tools, plus what the provider adds once per
request), counted as toolctl tokens counts it:

  lint:
    budget: {format: anthropic, total: 20000}

The finding is at the name of the costliest tool, the first to trim or to
move to a set of its own.

Bad:
  lint.budget.total: 20000, and one agent's tools/ holds 90 tools costing
  45,000 tokens

Good:
  tools/billing/ and tools/support/, each under budget, each exported for the
  agent that needs it`,
	SetPins: pinName,
	Tool: func(r *Reporter, t *spec.Tool) {
		// Count while the tool is whole: RunFiles slims tools before the
		// set rules run. The error is budget-tool-tokens' to report when
		// it is on, and this rule's otherwise.
		if _, err := r.budgetCount(t); err != nil && !budgetToolOn(r.cfg) {
			r.Report(t, "/name", "cannot count the tokens of tool %q for lint.budget: %v", t.Name, err)
		}
	},
	Set: func(r *Reporter, tools []*spec.Tool) {
		b := r.cfg.Budget
		sum, perRequest, counted := 0, 0, 0
		var top *spec.Tool
		var topCount TokenCount
		for _, t := range tools {
			c, err := r.budgetCount(t)
			if err != nil {
				continue
			}
			counted++
			sum += c.Tokens
			perRequest = c.PerRequest
			if top == nil || c.Tokens > topCount.Tokens {
				top, topCount = t, c
			}
		}
		if top == nil {
			return
		}
		total := sum + perRequest
		_, limit, _, over := r.cfg.budgetLimits(top.Path())
		if total <= limit {
			return
		}
		per := ""
		if perRequest > 0 {
			per = fmt.Sprintf(" (with %d per request)", perRequest)
		}
		r.Report(top, "/name", "the %s cost %d %s%s, more than %s; the costliest is tool %q (%s): trim it, or split the set", Plural(counted, "tool", "tools"), total, b.unit(topCount), per, limitName("total", limit, over), top.Name, fmtShare(topCount.Tokens, total))
	},
}

// fmtShare is "4,100 tokens, 17%".
func fmtShare(n, total int) string {
	return fmt.Sprintf("%d tokens, %d%%", n, n*100/max(total, 1))
}
