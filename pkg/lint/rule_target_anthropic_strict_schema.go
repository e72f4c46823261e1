package lint

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Anthropic strict tool use shares the structured-outputs "JSON Schema
// limitations":
// https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations
// (strict tool use: https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use)
//
//   - supported: "enum (strings, numbers, bools, or nulls only - no complex
//     types)", "anyOf and allOf (with limitations - allOf with $ref not
//     supported)", "$ref, $def, and definitions (external $ref not
//     supported)", "String formats: date-time, time, date, duration, email,
//     hostname, uri, ipv4, ipv6, uuid", "Array minItems (only values 0 and 1
//     supported)"
//   - not supported: "Recursive schemas", "Complex types within enums",
//     "External $ref", "Numerical constraints (such as minimum, maximum,
//     multipleOf)", "String constraints (minLength, maxLength)", "Array
//     constraints beyond minItems of 0 or 1", "additionalProperties set to
//     anything other than false"
//   - regex: no "Backreferences to groups", "Lookahead/lookbehind
//     assertions", "Word boundaries: \b, \B"
//
// "If you use an unsupported feature, you'll receive a 400 error with
// details." additionalProperties: false on every object is added by toolctl
// export --strict, so only an explicit other value is reported.
var (
	tgtAnthropicFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
	tgtAnthropicNumeric = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
	tgtAnthropicString  = []string{"minLength", "maxLength"}
	tgtAnthropicArray   = []string{"maxItems", "uniqueItems", "contains", "minContains", "maxContains"}
)

var _ = register(&Rule{
	ID:          "anthropic-strict-schema",
	Severity:    Warning,
	Target:      "anthropic",
	Description: "The input schema fits Anthropic's strict tool use: no numeric, length or array constraints, primitive enums, simple patterns, no recursion.",
	Explain: `With strict: true Anthropic compiles the input schema into a grammar that
guarantees matching arguments, and answers 400 to what it cannot compile: numeric
constraints (minimum, maximum, multipleOf, ...), minLength/maxLength, array
constraints beyond minItems 0 or 1, objects or lists in enum, formats other
than date-time, time, date, duration, email, hostname, uri, ipv4, ipv6 and
uuid, patterns with lookaround, backreferences or \b, recursive or external
$refs, $ref inside allOf, and additionalProperties other than false
(https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations).
Anthropic's SDKs move such constraints into the description; do the same and
check them in the tool. The limits across tools are anthropic-strict-limits.

Bad:
  properties:
    count: {type: integer, minimum: 1, maximum: 50}
    code: {type: string, pattern: "^(?!0)[0-9]+$"}

Good:
  properties:
    count: {type: integer, description: How many results, 1 to 50.}
    code: {type: string, pattern: "^[1-9][0-9]*$"}`,
	Tool: checkAnthropicStrict,
})

func checkAnthropicStrict(r *Reporter, t *spec.Tool) {
	refs := tgtRefs(t)
	recursive := tgtRecursive(refs)
	for i, ref := range refs {
		label, ptr := ref.Node.label(), ref.Node.Ptr+"/$ref"
		switch {
		case ref.Target == "":
			r.Report(t, ptr, "%s refers to %q outside the input schema; Anthropic strict mode supports only local references (#/$defs/...): copy the definition into $defs", label, ref.Ref)
		case recursive[i]:
			r.Report(t, ptr, "%s refers to %q recursively; Anthropic strict mode does not support recursive schemas: spell out the levels you need", label, ref.Ref)
		case ref.Node.Kw == "allOf":
			r.Report(t, ptr, "%s uses $ref inside allOf, which Anthropic strict mode does not support; inline the referenced schema", label)
		}
	}
	tgtWalk(t, func(n *tgtNode) {
		s, label := n.Schema, n.label()
		for i := range s.Len() {
			kw, v := s.At(i)
			ptr := n.Ptr + "/" + escape(kw)
			switch {
			case slices.Contains(tgtAnthropicNumeric, kw):
				r.ReportKey(t, ptr, "%s uses %s, which Anthropic strict mode does not support (no numeric constraints); state the bound in the description and check it in the tool", label, kw)
			case slices.Contains(tgtAnthropicString, kw):
				r.ReportKey(t, ptr, "%s uses %s, which Anthropic strict mode does not support (no string length constraints); state the limit in the description and check it in the tool", label, kw)
			case slices.Contains(tgtAnthropicArray, kw):
				r.ReportKey(t, ptr, "%s uses %s, which Anthropic strict mode does not support (array constraints beyond minItems 0 or 1); state it in the description and check it in the tool", label, kw)
			case kw == "minItems":
				if num, ok := v.(json.Number); ok && num != "0" && num != "1" {
					r.Report(t, ptr, "%s has minItems %s; Anthropic strict mode supports only 0 and 1: use minItems: 1 and check the rest in the tool", label, num)
				}
			case kw == "enum":
				list, _ := v.([]any)
				for j, x := range list {
					kind := ""
					switch x.(type) {
					case *spec.Map:
						kind = "an object"
					case []any:
						kind = "a list"
					}
					if kind != "" {
						r.Report(t, ptr+"/"+strconv.Itoa(j), "%s: enum value %s is %s; Anthropic strict mode allows only strings, numbers, booleans and null in an enum", label, valueText(x), kind)
					}
				}
			case kw == "format":
				if f, ok := v.(string); ok && !slices.Contains(tgtAnthropicFormats, f) {
					r.Report(t, ptr, "%s has format %q, which Anthropic strict mode does not support; use %s, or describe the format in the description", label, f, tgtOrList(tgtAnthropicFormats))
				}
			case kw == "pattern":
				if p, ok := v.(string); ok {
					if feature := tgtRegexProblem(p); feature != "" {
						r.Report(t, ptr, "%s: pattern %s uses %s, which Anthropic strict mode does not support; simplify the pattern", label, valueText(p), feature)
					}
				}
			case kw == "additionalProperties":
				if !tgtIsFalse(v) {
					r.ReportKey(t, ptr, "%s allows additional properties (%s); Anthropic strict mode needs additionalProperties: false, so declare the keys as properties", label, valueText(v))
				}
			}
		}
	})
}
