package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
)

// The checks, with the provider documentation they follow, live in pkg/compat,
// which export --strict runs too.
var _ = register(&Rule{
	ID:          "openai-strict-schema",
	Severity:    Warning,
	Target:      "openai",
	Description: "The input schema fits OpenAI's strict mode (Structured Outputs): no unsupported keywords or formats, within the size limits.",
	Explain: `With strict: true OpenAI guarantees arguments that match the schema, but only
for a subset of JSON Schema: no not, if/then/else, dependentRequired,
dependentSchemas or allOf (beyond one schema), formats limited to date-time,
time, date, duration, email, hostname, ipv4, ipv6 and uuid, an object (not
anyOf) at the root, and at most 5000 properties, 10 levels of nesting, 1000
enum values and 120,000 characters of names, enum values and consts
(https://platform.openai.com/docs/guides/structured-outputs#supported-schemas).
A schema outside the subset makes the request fail. What toolctl export
--strict adds by itself (additionalProperties: false, every key required,
optional ones nullable) is not reported; an explicit additionalProperties
other than false is, since strict mode cannot express a free-form map.

Bad:
  input_schema:
    type: object
    properties:
      site: {type: string, format: uri}
      mode:
        type: string
        not: {const: legacy}

Good:
  input_schema:
    type: object
    properties:
      site: {type: string, description: The site's URL (https://...).}
      mode: {type: string, enum: [fast, thorough]}`,
	Tool: targetSchema(compat.OpenAI),
})
