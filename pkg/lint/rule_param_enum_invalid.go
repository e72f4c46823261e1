package lint

import (
	"strconv"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleParamEnumInvalid = &Rule{
	ID:          "param-enum-invalid",
	Severity:    Error,
	Description: "Enum values match the parameter's type, and none is repeated.",
	Explain: `An enum value of the wrong type can never be passed: the model picks it and
the call fails validation.

Bad:
  - name: retries
    type: integer
    enum: ["1", "2", "3"]

Good:
  - name: retries
    type: integer
    enum: [1, 2, 3]`,
	Tool: func(r *Reporter, t *spec.Tool) {
		for _, p := range r.Properties(t) {
			v, ok := p.Schema.Get("enum")
			if !ok {
				continue
			}
			list, ok := v.([]any)
			if !ok {
				continue // input-schema-invalid
			}
			types := compat.Types(p.Schema)
			seen := map[string]int{}
			for i, x := range list {
				ptr := p.Ptr + "/enum/" + strconv.Itoa(i)
				if !typeAllows(types, x) {
					r.Report(t, ptr, "parameter %q: enum value %s is %s, but the type is %s", p.Name, valueText(x), article(spec.JSONType(x, spec.WholeValue)), typeList(types))
					continue
				}
				key := valueKey(x)
				if j, dup := seen[key]; dup {
					r.Report(t, ptr, "parameter %q: enum value %s is repeated (first at position %d); remove it", p.Name, valueText(x), j+1)
					continue
				}
				seen[key] = i
			}
		}
	},
}
