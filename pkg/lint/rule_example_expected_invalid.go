package lint

import (
	"fmt"
	"strconv"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

var ruleExampleExpectedInvalid = &Rule{
	ID:          "example-expected-invalid",
	Severity:    Warning,
	Description: "Every example's expected value conforms to the output schema.",
	Explain: `An example's expected value shows the model what the tool returns, and
toolctl test compares the real result with it. One that the output schema
rejects (a prose description, a field of the wrong type) teaches the model a
result the tool never gives, and its toolctl test fails.

expected is a subset of the result by default, so the schema's required
keywords are not checked unless the example says expect: {match: exact}. A
negative example (expect: {error: ...}) is not checked: its call fails; nor
is one whose result is an error the model sees (expect: {isError: true}).

Bad:
  output_schema:
    type: object
    properties:
      slug: {type: string, description: The slug.}
  examples:
    - scenario: Title of a post
      params: {text: "Hello World"}
      expected: "{slug: hello-world}"

Good:
  examples:
    - scenario: Title of a post
      params: {text: "Hello World"}
      expected: {slug: hello-world}`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if len(t.Examples) == 0 || t.OutputSchema == nil {
			return
		}
		var subset, exact *spec.Map
		for i, ex := range t.Examples {
			if ex.Expected == nil || negativeExample(ex) {
				continue
			}
			schema := subset
			if exactExample(ex) {
				if exact == nil {
					exact = t.OutputSchema
				}
				schema = exact
			} else if subset == nil {
				subset = withoutRequired(t.OutputSchema).(*spec.Map)
				schema = subset
			}
			if validate.Conforms(schema, ex.Expected) {
				continue
			}
			s, err := validate.Compile(schema)
			if err != nil {
				return // output-schema-invalid reports why
			}
			name := fmt.Sprintf("example %d", i+1)
			if ex.Scenario != "" {
				name += fmt.Sprintf(" (%s)", shorten(ex.Scenario, 40))
			}
			ptr := "/examples/" + strconv.Itoa(i) + "/expected"
			for _, p := range validate.Validate(s, spec.Plain(ex.Expected)) {
				where := ""
				if p.Pointer != "" {
					where = " at " + validate.PointerLabel(p.Pointer)
				}
				r.Report(t, ptr+p.Pointer, "%s: expected%s does not conform to the output schema: %s", name, where, p.Message)
			}
		}
	},
}

func negativeExample(ex spec.Example) bool {
	if ex.Expect == nil {
		return false
	}
	if ex.Expect.Has("error") {
		return true
	}
	isError, _ := ex.Expect.Get("isError")
	return isError == true
}

func exactExample(ex spec.Example) bool {
	if ex.Expect == nil {
		return false
	}
	m, _ := ex.Expect.GetString("match")
	return m == "exact"
}

// withoutRequired is a copy of a schema without its required keywords, at
// every level: a subset of a valid result conforms to it.
func withoutRequired(v any) any {
	switch x := v.(type) {
	case *spec.Map:
		out := spec.NewMap(x.Len())
		for i := 0; i < x.Len(); i++ {
			k, val := x.At(i)
			switch k {
			case "required":
				if _, isList := val.([]any); isList {
					continue
				}
				out.Set(k, val)
			case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
				if m, ok := val.(*spec.Map); ok {
					pm := spec.NewMap(m.Len())
					for j := 0; j < m.Len(); j++ {
						pk, pv := m.At(j)
						pm.Set(pk, withoutRequired(pv))
					}
					out.Set(k, pm)
					continue
				}
				out.Set(k, val)
			case "items", "additionalProperties", "not", "if", "then", "else", "contains", "unevaluatedProperties", "unevaluatedItems", "anyOf", "oneOf", "allOf", "prefixItems":
				out.Set(k, withoutRequired(val))
			default:
				out.Set(k, val)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withoutRequired(e)
		}
		return out
	}
	return v
}
