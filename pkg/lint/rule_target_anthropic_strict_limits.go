package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// The limits, with Anthropic's documentation, live in pkg/compat, which
// export --strict runs too.
var ruleAnthropicStrictLimits = &Rule{
	ID:           "anthropic-strict-limits",
	Severity:     Warning,
	SetReadsBody: true,
	Target:       "anthropic",
	Description:  "Sent together with strict: true, the tools stay within Anthropic's limits: 20 strict tools, 24 optional and 16 union-typed parameters in all.",
	Explain: `Anthropic limits the strict schemas of one request as a whole: at most 20
strict tools, 24 optional parameters (not in required) and 16 parameters that
use anyOf or a type list such as [string, "null"], counted across every strict
tool; past them the request fails
(https://platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits).
Every linted tool counts as strict unless it sets strict: false; nested
properties count too, bound parameters do not.

Bad:
  # other strict tools already declare 24 optional parameters
  properties:
    limit: {type: integer}
  required: []

Good:
  properties:
    limit: {type: integer, description: How many results (use 10 when unsure).}
  required: [limit]

  # or, for a tool that does not need guaranteed arguments:
  strict: false`,
	SetPins: pinName,
	Set:     checkAnthropicLimits,
}

// checkAnthropicLimits counts the tools that are strict unless they say
// strict: false, as Anthropic would receive them.
func checkAnthropicLimits(r *Reporter, tools []*spec.Tool) {
	var strict []compat.StrictTool
	var from []*spec.Tool
	for _, t := range tools {
		if t.Strict != nil && !*t.Strict {
			continue
		}
		strict = append(strict, compat.StrictTool{Name: t.Name, Schema: t.InputSchema, Bound: validate.BoundParams(t)})
		from = append(from, t)
	}
	for _, p := range compat.AnthropicStrictLimits(strict) {
		t := from[p.Tool]
		if p.Whole {
			r.Report(t, "/name", "%s", p.Message)
		} else {
			reportProblem(r, t, "/input_schema", p.Problem)
		}
	}
}
