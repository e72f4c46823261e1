package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleInputSchemaNotObject = &Rule{
	ID:          "input-schema-not-object",
	Severity:    Error,
	Description: "The input schema's top-level type is object.",
	Explain: `Every provider passes tool arguments as one JSON object of named parameters;
OpenAI, Anthropic, Gemini and MCP all reject another top-level type.

Bad:
  input_schema:
    type: string

Good:
  input_schema:
    type: object
    properties:
      text: {type: string, description: The text to analyse.}`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.InputSchema == nil {
			return
		}
		types := compat.Types(t.InputSchema)
		typ, _ := t.InputSchema.Get("type")
		switch {
		case len(types) == 0 && !t.InputSchema.Has("type"):
			r.Report(t, "/input_schema", "the input schema has no type; add type: object")
		case len(types) != 1 || types[0] != "object":
			r.Report(t, "/input_schema/type", "the input schema's type is %s; it must be object (parameters are named properties)", valueText(typ))
		}
	},
}
