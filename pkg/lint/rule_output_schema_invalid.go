package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

var _ = register(&Rule{
	ID:          "output-schema-invalid",
	Severity:    Error,
	Description: "The output schema (returns / output_schema / outputSchema) is valid JSON Schema.",
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
		for _, p := range checkMeta(t.OutputSchema) {
			r.Report(t, "/output_schema"+p.Pointer, "output schema%s: %s", schemaLabel(p.Pointer), p.Message)
		}
	},
})
