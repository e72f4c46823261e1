package lint

import (
	"encoding/json"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleParamRequiredDefault = &Rule{
	ID:          "param-required-default",
	Severity:    Warning,
	Description: "Required parameters have no default (it would never be used).",
	Explain: `A required parameter must always be passed, so its default never applies:
toolctl run, serve and every validator refuse a call that leaves it out, and
a model reading the schema gets two answers to "may I leave this out?". It
usually means the parameter was meant to be optional with that default.
Nested properties are checked too (required in their own object).

Bad:
  input_schema:
    type: object
    properties:
      operation: {type: string, enum: [now, parse], default: now}
    required: [operation]

Good:
  input_schema:
    type: object
    properties:
      # optional: the default applies when it is left out
      operation: {type: string, enum: [now, parse], default: now}

Good:
  input_schema:
    type: object
    properties:
      # required: no default
      operation: {type: string, enum: [now, parse]}
    required: [operation]`,
	Tool: func(r *Reporter, t *spec.Tool) {
		for _, p := range r.Properties(t) {
			if !p.Required {
				continue
			}
			d, ok := p.Schema.Get("default")
			if !ok {
				continue
			}
			r.ReportKey(t, p.Ptr+"/default", "parameter %q is required, so its default %s is never used; make it optional (take it out of required) for the default to apply, or remove the default",
				p.Name, clipJSON(d))
		}
	},
}

// clipJSON renders a value as compact JSON for a message, at most 40
// characters.
func clipJSON(v any) string {
	b, err := json.Marshal(spec.Plain(v))
	if err != nil {
		return "(a value)"
	}
	s := []rune(string(b))
	if len(s) > 40 {
		return string(s[:39]) + "…"
	}
	return string(s)
}
