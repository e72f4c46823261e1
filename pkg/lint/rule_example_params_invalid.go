package lint

import (
	"fmt"
	"strconv"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

var ruleExampleParamsInvalid = &Rule{
	ID:          "example-params-invalid",
	Severity:    Error,
	Description: "Every example's params validate against the input schema.",
	Explain: `Examples teach the model how to call the tool (and become Anthropic
input_examples); an invalid example teaches it to make invalid calls. A
negative example (expect: {error: ...}, toolctl test) is left out: its params
may be invalid on purpose.

Bad:
  input_schema:
    type: object
    properties:
      limit: {type: integer, description: Maximum results.}
  examples:
    - scenario: Top five
      params: {limit: "5"}

Good:
  examples:
    - scenario: Top five
      params: {limit: 5}`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if len(t.Examples) == 0 || t.InputSchema == nil {
			return
		}
		call := validate.CallSchema(t)
		for i, ex := range t.Examples {
			if negativeExample(ex) {
				continue
			}
			var fast any = ex.Params
			if ex.Params == nil {
				fast = spec.NewMap(0)
			}
			if validate.Conforms(call, fast) {
				continue
			}
			s, err := r.InputSchema(t)
			if s == nil || err != nil {
				return // input-schema-invalid reports why
			}
			base := "/examples/" + strconv.Itoa(i)
			var params any
			ptr := base
			if ex.Params != nil {
				params = spec.Plain(ex.Params)
				ptr = base + "/params"
			}
			name := fmt.Sprintf("example %d", i+1)
			if ex.Scenario != "" {
				name += fmt.Sprintf(" (%s)", shorten(ex.Scenario, 40))
			}
			if ex.Params == nil {
				params = map[string]any{}
			}
			for _, p := range validate.Validate(s, params) {
				where := ""
				if p.Pointer != "" {
					where = " at " + validate.PointerLabel(p.Pointer)
				}
				r.Report(t, ptr+p.Pointer, "%s: params%s: %s", name, where, p.Message)
			}
		}
	},
}

func shorten(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}
