package lint

import (
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleOutputSchemaInvalid = &Rule{
	ID:          "output-schema-invalid",
	Severity:    Error,
	Description: "The output schema (returns / output_schema / outputSchema) is valid JSON Schema and its references resolve.",
	Explain: `MCP clients validate structured results against outputSchema; an invalid one
breaks every call.

Bad:
  output_schema:
    type: object
    properties:
      count: {type: count}

Good:
  output_schema:
    type: object
    properties:
      count: {type: integer}`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.OutputSchema == nil {
			return
		}
		ps := checkMeta(t.OutputSchema)
		for _, p := range ps {
			r.Report(t, "/output_schema"+p.Pointer, "output schema%s: %s", schemaLabel(p.Pointer), p.Message)
		}
		if len(ps) > 0 {
			return
		}
		// serve validates results against it: a $ref that cannot resolve
		// leaves the schema uncompiled, and results unchecked.
		for _, p := range refProblems(t.OutputSchema) {
			r.Report(t, "/output_schema"+p.Pointer, "output schema%s: %s", schemaLabel(strings.TrimSuffix(p.Pointer, "/$ref")), strings.Replace(p.Message, "the input schema", "the output schema", 1))
		}
	},
}
