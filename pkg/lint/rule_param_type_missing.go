package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleParamTypeMissing = &Rule{
	ID:          "param-type-missing",
	Severity:    Warning,
	Description: "Every parameter says its type (or enum, const, $ref, anyOf/oneOf/allOf; type: any in the list form).",
	Explain: `Without a type the model guesses: "10" or 10, a string or a list. Say what
you accept; write type: any (list form) when anything really goes.

Bad:
  parameters:
    - name: limit
      description: Maximum number of results.

Good:
  parameters:
    - name: limit
      type: integer
      description: Maximum number of results.`,
	Tool: func(r *Reporter, t *spec.Tool) {
		for _, p := range r.Properties(t) {
			if hasAnyKey(p.Schema, "type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf", "not") || t.Has(p.Ptr+"/type") {
				continue
			}
			r.Report(t, p.Ptr, "parameter %q has no type; add type: string, number, integer, boolean, object or array", p.Name)
		}
	},
}

func hasAnyKey(m *spec.Map, keys ...string) bool {
	for _, k := range keys {
		if m.Has(k) {
			return true
		}
	}
	return false
}
