package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
)

// The checks, with the provider documentation they follow, live in pkg/compat,
// which export --strict runs too.
var ruleOpenAIStrictSchema = &Rule{
	ID:          "openai-strict-schema",
	Severity:    Warning,
	Target:      "openai",
	Description: "The input schema fits OpenAI's strict mode (Structured Outputs): a type on every schema, items on arrays, no unsupported keywords or formats, within the size limits.",
	Explain: `With strict: true OpenAI guarantees arguments that match the schema, but only
for a subset of JSON Schema: no not, if/then/else, dependentRequired,
dependentSchemas or allOf (beyond one schema), formats limited to date-time,
time, date, duration, email, hostname, ipv4, ipv6 and uuid, an object (not
anyOf) at the root, and at most 5000 properties, 10 levels of nesting, 1000
enum values and 120,000 characters of names, enum values and consts
(https://platform.openai.com/docs/guides/structured-outputs#supported-schemas).
Every schema needs a type, every array its items (OpenAI refuses an array
without items even without strict mode), and oneOf is not permitted.
A schema outside the subset makes the request fail. These are exactly the
problems toolctl export --format openai --strict refuses. What the export
does by itself is not reported: additionalProperties: false, every key
required, optional ones nullable, the type an enum, const, properties or
items implies, a oneOf whose alternatives exclude each other (different
types, or different const values of a required property) as anyOf, a
one-schema allOf merged. An explicit additionalProperties other than false
is reported, since strict mode cannot express a free-form map. Unsupported
formats are reported although the export moves them into the description,
where the model reads them but nothing enforces them. A tool that sets
strict: false is exported without strict mode: only its arrays without
items are reported.

Bad:
  input_schema:
    type: object
    properties:
      site: {type: string, format: uri}
      mode:
        type: string
        not: {const: legacy}
      ids: {type: array}

Good:
  input_schema:
    type: object
    properties:
      site: {type: string, description: The site's URL (https://...).}
      mode: {type: string, enum: [fast, thorough]}
      ids: {type: array, items: {type: string}}`,
	Tool: targetSchema(compat.OpenAI),
}
