package compat

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
var geminiIgnored = []struct{ kw, fix string }{
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

// geminiSchema reports the keywords Gemini ignores: advisory, since Gemini
// takes the request and drops them.
func geminiSchema(schema *spec.Map, bound map[string]bool) []Problem {
	c := &collector{rule: "gemini-schema", warning: true}
	walk(schema, bound, func(n *node) {
		n.keywords(func(kw string, _ any, ptr string) {
			for _, ig := range geminiIgnored {
				if kw == ig.kw {
					c.atKey(ptr, "%s uses %s, which Gemini ignores, so the model never sees this constraint; %s", n.label(), kw, ig.fix)
				}
			}
		})
	})
	return c.out
}
