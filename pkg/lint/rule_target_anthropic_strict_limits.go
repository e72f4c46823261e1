package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

// Anthropic's explicit complexity limits for strict schemas, which "apply to
// the combined total across all strict schemas in a single request":
// https://platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits
//
//	Strict tools per request     20  "Non-strict tools don't count toward this limit."
//	Optional parameters          24  "Each parameter not listed in required counts"
//	Parameters with union types  16  "parameters that use anyOf or type arrays
//	                                 (for example, "type": ["string", "null"])"
const (
	tgtAnthropicMaxStrictTools = 20
	tgtAnthropicMaxOptional    = 24
	tgtAnthropicMaxUnions      = 16
)

var _ = register(&Rule{
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
	Set: checkAnthropicLimits,
})

// tgtUnionTyped tells whether a parameter's schema is a union in
// Anthropic's sense: anyOf, or a type list of more than one type.
func tgtUnionTyped(s *spec.Map) bool {
	if s.Has("anyOf") {
		return true
	}
	v, _ := s.Get("type")
	list, ok := v.([]any)
	return ok && len(list) > 1
}

func checkAnthropicLimits(r *Reporter, tools []*spec.Tool) {
	strict, optional, unions := 0, 0, 0
	for _, t := range tools {
		if t.Strict != nil && !*t.Strict {
			continue
		}
		strict++
		if strict == tgtAnthropicMaxStrictTools+1 {
			r.Report(t, "/name", "tool %q is strict tool number %d of this set; Anthropic allows at most %d strict tools in one request: set strict: false on tools that do not need guaranteed arguments, or send fewer tools", t.Name, strict, tgtAnthropicMaxStrictTools)
		}
		tgtWalk(t, func(n *tgtNode) {
			if !n.Prop {
				return
			}
			if !n.Required {
				optional++
				if optional == tgtAnthropicMaxOptional+1 {
					r.ReportKey(t, n.Ptr, "%s is optional parameter number %d across the strict tools of this set; Anthropic allows at most %d in one request: make parameters required (the model can pass the default) or set strict: false on some tools", n.label(), optional, tgtAnthropicMaxOptional)
				}
			}
			if tgtUnionTyped(n.Schema) {
				unions++
				if unions == tgtAnthropicMaxUnions+1 {
					r.ReportKey(t, n.Ptr, "%s is union-typed parameter number %d (anyOf or a type list) across the strict tools of this set; Anthropic allows at most %d in one request: use one type, or set strict: false on some tools", n.label(), unions, tgtAnthropicMaxUnions)
				}
			}
		})
	}
}
