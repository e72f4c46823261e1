package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
)

// The checks, with the provider documentation they follow, live in pkg/compat,
// which export --strict runs too.
var ruleAnthropicStrictSchema = &Rule{
	ID:          "anthropic-strict-schema",
	Severity:    Warning,
	Target:      "anthropic",
	Description: "The input schema fits Anthropic's strict tool use: a type on every schema, no numeric, length or array constraints, primitive enums, simple patterns, no recursion.",
	Explain: `With strict: true Anthropic compiles the input schema into a grammar that
guarantees matching arguments, and answers 400 to what it cannot compile: numeric
constraints (minimum, maximum, multipleOf, ...), minLength/maxLength, array
constraints beyond minItems 0 or 1, objects or lists in enum, formats other
than date-time, time, date, duration, email, hostname, uri, ipv4, ipv6 and
uuid, patterns with lookaround, backreferences or \b, recursive or external
$refs, $ref inside allOf, and additionalProperties other than false
(https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations).
Every schema needs a type (or an enum or anyOf), and oneOf is not supported.
Anthropic's SDKs move such constraints into the description; do the same and
check them in the tool. toolctl export --format anthropic --strict moves the
constraints and unsupported formats itself (with a warning), adds the type
an enum, const, properties or items implies, turns an exclusive oneOf into
anyOf and merges a one-schema allOf; it refuses the rest of what this rule
reports. A tool that sets strict: false is not checked. The limits across
tools are anthropic-strict-limits.

Bad:
  properties:
    count: {type: integer, minimum: 1, maximum: 50}
    code: {type: string, pattern: "^(?!0)[0-9]+$"}

Good:
  properties:
    count: {type: integer, description: How many results, 1 to 50.}
    code: {type: string, pattern: "^[1-9][0-9]*$"}`,
	Tool: targetSchema(compat.Anthropic),
}
