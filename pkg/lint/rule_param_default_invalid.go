package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleParamDefaultInvalid = &Rule{
	ID:          "param-default-invalid",
	Severity:    Error,
	Description: "A parameter's default matches its own type and enum.",
	Explain: `A default the schema itself rejects fails validation the moment it is used, or
tells the model something impossible.

Bad:
  - name: method
    type: string
    enum: [GET, POST]
    default: get

Good:
  - name: method
    type: string
    enum: [GET, POST]
    default: GET`,
	Tool: func(r *Reporter, t *spec.Tool) {
		for _, p := range r.Properties(t) {
			def, ok := p.Schema.Get("default")
			if !ok {
				continue
			}
			types := compat.Types(p.Schema)
			if !typeAllows(types, def) {
				r.Report(t, p.Ptr+"/default", "parameter %q: default %s is %s, but the type is %s", p.Name, valueText(def), article(spec.JSONType(def, spec.WholeValue)), typeList(types))
				continue
			}
			if enum, ok := p.Schema.Get("enum"); ok {
				if list, ok := enum.([]any); ok && !inEnum(list, def) {
					r.Report(t, p.Ptr+"/default", "parameter %q: default %s is not one of the enum values %s", p.Name, valueText(def), valueText(list))
				}
			}
		}
	},
}

func inEnum(list []any, v any) bool {
	for _, x := range list {
		if sameValue(x, v) {
			return true
		}
	}
	return false
}

func article(typ string) string {
	switch typ[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + typ
	}
	return "a " + typ
}
