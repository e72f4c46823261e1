package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
)

// The checks, with the provider documentation they follow, live in pkg/compat,
// which export --strict runs too.
var ruleGeminiSchema = &Rule{
	ID:          "gemini-schema",
	Severity:    Warning,
	Target:      "gemini",
	Description: "The input schema uses no keyword Gemini ignores (allOf, oneOf, not, if/then/else, const, multipleOf, exclusive bounds, ...).",
	Explain: `Gemini supports a subset of JSON Schema in function declarations and silently
ignores the rest (https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support,
https://ai.google.dev/api/caching#Schema): a constraint written with allOf,
oneOf, not, if/then/else, dependentRequired, dependentSchemas,
patternProperties, const, multipleOf, exclusiveMinimum, exclusiveMaximum or
uniqueItems never reaches the model, which then produces arguments the
schema rejects.

Bad:
  properties:
    unit:
      const: celsius
    step: {type: number, exclusiveMinimum: 0}

Good:
  properties:
    unit:
      enum: [celsius]
    step: {type: number, minimum: 0.01}`,
	Tool: targetSchema(compat.Gemini),
}
