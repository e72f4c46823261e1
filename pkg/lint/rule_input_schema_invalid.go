package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

var _ = register(&Rule{
	ID:          "input-schema-invalid",
	Severity:    Error,
	Description: "The input schema is valid JSON Schema (checked against its meta-schema) and compiles.",
	Explain: `Providers reject a tool whose parameters are not valid JSON Schema, and
validation of calls cannot work. The finding points at the offending value.

Bad:
  input_schema:
    type: object
    properties:
      limit: {type: int}
    required: limit

Good:
  input_schema:
    type: object
    properties:
      limit: {type: integer}
    required: [limit]`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.InputSchema == nil {
			return
		}
		if ps := r.InputMeta(t); len(ps) > 0 {
			for _, p := range ps {
				r.Report(t, "/input_schema"+p.Pointer, "input schema%s: %s", schemaLabel(p.Pointer), p.Message)
			}
			return
		}
		// Only references can fail to compile once the meta-schema
		// passes; compiling is slow, so only schemas with $ref pay for it.
		if !hasKeyword(t.InputSchema, "$ref", 0) {
			return
		}
		if _, err := r.InputSchema(t); err != nil {
			r.Report(t, "/input_schema", "input schema does not compile: %v", err)
		}
	},
})

// schemaLabel names a place in a schema for a message: " at parameter
// \"q\" (type)" style when under properties, else the pointer as a path.
func schemaLabel(ptr string) string {
	if ptr == "" {
		return ""
	}
	return " at " + validate.PointerLabel(ptr)
}
