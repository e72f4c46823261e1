package lint

import (
	"strconv"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleInputSchemaRequiredUndefined = &Rule{
	ID:          "input-schema-required-undefined",
	Severity:    Error,
	Description: "Every name in required is a defined property.",
	Explain: `A required name with no property is usually a typo or a renamed parameter: no
call can ever satisfy it when additional properties are not allowed, and the
model is never told what it is.

Bad:
  input_schema:
    type: object
    properties:
      query: {type: string, description: Search terms.}
    required: [querry]

Good:
  input_schema:
    type: object
    properties:
      query: {type: string, description: Search terms.}
    required: [query]`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.InputSchema == nil {
			return
		}
		check := func(s *spec.Map, ptr string) {
			v, _ := s.Get("required")
			list, _ := v.([]any)
			props, _ := s.GetMap("properties")
			var names []string
			if props != nil {
				names = props.Keys()
			}
			for i, x := range list {
				name, ok := x.(string)
				if !ok || (props != nil && props.Has(name)) {
					continue
				}
				msg := "required names %q, which is not a property"
				args := []any{name}
				if s := spec.Suggest(name, names); s != "" {
					msg += "; did you mean %q?"
					args = append(args, s)
				} else {
					msg += "; define it under properties or remove it from required"
				}
				r.Report(t, ptr+"/required/"+strconv.Itoa(i), msg, args...)
			}
		}
		check(t.InputSchema, "/input_schema")
		for _, p := range r.Properties(t) {
			check(p.Schema, p.Ptr)
		}
	},
}
