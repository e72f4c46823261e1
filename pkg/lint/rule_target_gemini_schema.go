package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

// Gemini function declarations carry the input schema as
// parametersJsonSchema, of which Gemini supports "a subset of the JSON
// Schema specification" and "ignores unsupported properties"
// (https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support).
// The keywords below appear neither in that list (type, title, description,
// properties, required, additionalProperties, enum, format, minimum,
// maximum, items, prefixItems, minItems, maxItems, anyOf, $ref, $defs) nor
// among the fields of Gemini's Schema object
// (https://ai.google.dev/api/caching#Schema: ..., nullable, default,
// example, minLength, maxLength, pattern, minProperties, maxProperties,
// propertyOrdering), so the model never sees the constraint they state.
// The list is deliberately short: annotations and rarely used keywords are
// left out.
var tgtGeminiIgnored = []struct{ kw, fix string }{
	{"allOf", "merge the schemas into one"},
	{"oneOf", "use anyOf"},
	{"not", "state the rule in the description and check it in the tool"},
	{"if", "state the rule in the description and check it in the tool"},
	{"then", "state the rule in the description and check it in the tool"},
	{"else", "state the rule in the description and check it in the tool"},
	{"dependentRequired", "state the rule in the description and check it in the tool"},
	{"dependentSchemas", "state the rule in the description and check it in the tool"},
	{"patternProperties", "declare the keys as properties, or describe them"},
	{"const", "use an enum with one value"},
	{"multipleOf", "state it in the description and check it in the tool"},
	{"exclusiveMinimum", "use minimum"},
	{"exclusiveMaximum", "use maximum"},
	{"uniqueItems", "state it in the description and check it in the tool"},
}

var _ = register(&Rule{
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
	Tool: func(r *Reporter, t *spec.Tool) {
		tgtWalk(t, func(n *tgtNode) {
			for i := range n.Schema.Len() {
				kw, _ := n.Schema.At(i)
				for _, ig := range tgtGeminiIgnored {
					if kw == ig.kw {
						r.ReportKey(t, n.Ptr+"/"+escape(kw), "%s uses %s, which Gemini ignores, so the model never sees this constraint; %s", n.label(), kw, ig.fix)
					}
				}
			}
		})
	},
})
