package lint

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

// OpenAI Structured Outputs, "Supported schemas" (function calling with
// strict: true uses the same subset):
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
//
//   - "Some type-specific keywords are not yet supported — Composition:
//     allOf, not, dependentRequired, dependentSchemas, if, then, else"
//   - format: "Currently supported: date-time, time, date, duration, email,
//     hostname, ipv4, ipv6, uuid"
//   - "Root objects must not be anyOf and must be an object"
//   - "A schema may have up to 5000 object properties total, with up to 10
//     levels of nesting."
//   - "total string length of all property names, definition names, enum
//     values, and const values cannot exceed 120,000 characters"
//   - "up to 1000 enum values across all enum properties"; "For a single enum
//     property with string values, the total string length of all enum
//     values cannot exceed 15,000 characters when there are more than 250
//     enum values."
//
// additionalProperties: false, every key in required and optional keys as
// [T, "null"] are what toolctl export --strict adds (as OpenAI's SDK does,
// flattening a one-element allOf too), so their absence is not reported;
// only what that transform cannot fix is.
var (
	tgtOpenAIFormats     = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
	tgtOpenAIUnsupported = []string{"not", "if", "then", "else", "dependentRequired", "dependentSchemas"}
)

const (
	tgtOpenAIMaxProperties = 5000
	tgtOpenAIMaxDepth      = 10
	tgtOpenAIMaxEnumValues = 1000
	tgtOpenAIMaxChars      = 120000
	tgtOpenAIBigEnum       = 250
	tgtOpenAIBigEnumChars  = 15000
)

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
	Tool: checkOpenAIStrict,
})

func checkOpenAIStrict(r *Reporter, t *spec.Tool) {
	var props, enums, chars int
	var depthDone, propsDone, enumsDone, charsDone bool
	addChars := func(s string, ptr string, key bool) {
		chars += utf8.RuneCountInString(s)
		if chars > tgtOpenAIMaxChars && !charsDone {
			charsDone = true
			msg := "the input schema's property names, definition names, enum values and consts pass 120,000 characters here; OpenAI strict mode allows at most 120,000 in all: shorten them or split the tool"
			if key {
				r.ReportKey(t, ptr, "%s", msg)
			} else {
				r.Report(t, ptr, "%s", msg)
			}
		}
	}
	tgtWalk(t, func(n *tgtNode) {
		s, label := n.Schema, n.label()
		if n.Kw == "" && s.Has("anyOf") {
			r.ReportKey(t, n.Ptr+"/anyOf", "the input schema is an anyOf at the top level; OpenAI strict mode needs a plain object there: move the alternatives into a parameter")
		}
		if n.Depth > tgtOpenAIMaxDepth && !depthDone {
			depthDone = true
			r.Report(t, n.Ptr, "%s is nested %d levels deep; OpenAI strict mode allows at most %d levels: flatten the schema", label, n.Depth, tgtOpenAIMaxDepth)
		}
		switch {
		case n.Prop:
			props++
			if props > tgtOpenAIMaxProperties && !propsDone {
				propsDone = true
				r.ReportKey(t, n.Ptr, "%s is property number %d of the input schema; OpenAI strict mode allows at most %d in all: split the tool", label, props, tgtOpenAIMaxProperties)
			}
			addChars(n.Key, n.Ptr, true)
		case n.Kw == "$defs" || n.Kw == "definitions":
			addChars(n.Key, n.Ptr, true)
		}
		for i := range s.Len() {
			kw, v := s.At(i)
			ptr := n.Ptr + "/" + escape(kw)
			switch {
			case slices.Contains(tgtOpenAIUnsupported, kw):
				r.ReportKey(t, ptr, "%s uses %s, which OpenAI strict mode does not support; remove it and state the rule in the description", label, kw)
			case kw == "allOf":
				if list, ok := v.([]any); ok && len(list) > 1 {
					r.ReportKey(t, ptr, "%s combines %d schemas with allOf, which OpenAI strict mode does not support (only a one-schema allOf is flattened); merge them into one schema", label, len(list))
				}
			case kw == "format":
				if f, ok := v.(string); ok && !slices.Contains(tgtOpenAIFormats, f) {
					r.Report(t, ptr, "%s has format %q, which OpenAI strict mode does not support; use %s, or describe the format in the description", label, f, tgtOrList(tgtOpenAIFormats))
				}
			case kw == "additionalProperties":
				if !tgtIsFalse(v) {
					r.ReportKey(t, ptr, "%s allows additional properties (%s); OpenAI strict mode needs additionalProperties: false, so declare the keys as properties", label, valueText(v))
				}
			case kw == "const":
				if c, ok := v.(string); ok {
					addChars(c, ptr, false)
				}
			case kw == "enum":
				list, ok := v.([]any)
				if !ok {
					continue
				}
				strs, strChars := 0, 0
				for j, x := range list {
					ep := ptr + "/" + strconv.Itoa(j)
					enums++
					if enums > tgtOpenAIMaxEnumValues && !enumsDone {
						enumsDone = true
						r.Report(t, ep, "%s: this is enum value number %d of the input schema; OpenAI strict mode allows at most %d in all: use a described string for long lists", label, enums, tgtOpenAIMaxEnumValues)
					}
					if x, ok := x.(string); ok {
						strs++
						strChars += utf8.RuneCountInString(x)
						addChars(x, ep, false)
					}
				}
				if strs > tgtOpenAIBigEnum && strChars > tgtOpenAIBigEnumChars {
					r.ReportKey(t, ptr, "%s has %d string enum values of %d characters in all; OpenAI strict mode allows at most %d characters in an enum of more than %d values", label, strs, strChars, tgtOpenAIBigEnumChars, tgtOpenAIBigEnum)
				}
			}
		}
	})
}
