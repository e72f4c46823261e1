package compat

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

// OpenAIMaxTools: "A max of 128 functions are supported." (tools,
// https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools)
const OpenAIMaxTools = 128

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
	// OpenAIFormats are the string formats OpenAI strict mode supports.
	OpenAIFormats     = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
	openAIUnsupported = []string{"not", "if", "then", "else", "dependentRequired", "dependentSchemas"}
)

// OpenAI strict-mode size limits (see above).
const (
	OpenAIMaxProperties = 5000
	OpenAIMaxDepth      = 10
	OpenAIMaxEnumValues = 1000
	OpenAIMaxChars      = 120000
	openAIBigEnum       = 250
	openAIBigEnumChars  = 15000
)

func openAISchema(schema *spec.Map, bound map[string]bool) []Problem {
	c := &collector{rule: "openai-strict-schema"}
	var props, enums, chars int
	var depthDone, propsDone, enumsDone, charsDone bool
	addChars := func(s string, ptr string, key bool) {
		chars += utf8.RuneCountInString(s)
		if chars > OpenAIMaxChars && !charsDone {
			charsDone = true
			c.add(ptr, key, "the input schema's property names, definition names, enum values and consts pass 120,000 characters here; OpenAI strict mode allows at most 120,000 in all: shorten them or split the tool", nil)
		}
	}
	walk(schema, bound, func(n *node) {
		s, label := n.schema, n.label()
		strictNode(c, "OpenAI", n, schema)
		if n.kw == "" && s.Has("anyOf") {
			c.atKey(n.ptr+"/anyOf", "the input schema is an anyOf at the top level; OpenAI strict mode needs a plain object there: move the alternatives into a parameter")
		}
		if n.depth > OpenAIMaxDepth && !depthDone {
			depthDone = true
			c.at(n.ptr, "%s is nested %d levels deep; OpenAI strict mode allows at most %d levels: flatten the schema", label, n.depth, OpenAIMaxDepth)
		}
		switch {
		case n.prop:
			props++
			if props > OpenAIMaxProperties && !propsDone {
				propsDone = true
				c.atKey(n.ptr, "%s is property number %d of the input schema; OpenAI strict mode allows at most %d in all: split the tool", label, props, OpenAIMaxProperties)
			}
			addChars(n.key, n.ptr, true)
		case n.kw == "$defs" || n.kw == "definitions":
			addChars(n.key, n.ptr, true)
		}
		n.keywords(func(kw string, v any, ptr string) {
			switch {
			case slices.Contains(openAIUnsupported, kw):
				c.atKey(ptr, "%s uses %s, which OpenAI strict mode does not support; remove it and state the rule in the description", label, kw)
			case kw == "allOf":
				if list, ok := v.([]any); ok && len(list) > 1 {
					c.atKey(ptr, "%s combines %d schemas with allOf, which OpenAI strict mode does not support (only a one-schema allOf is flattened); merge them into one schema", label, len(list))
				}
			case kw == "format":
				if f, ok := v.(string); ok && !slices.Contains(OpenAIFormats, f) {
					c.at(ptr, "%s has format %q, which OpenAI strict mode does not support; use %s, or describe the format in the description", label, f, orList(OpenAIFormats))
				}
			case kw == "additionalProperties":
				if !isFalse(v) {
					c.atKey(ptr, "%s allows additional properties (%s); OpenAI strict mode needs additionalProperties: false, so declare the keys as properties", label, valueText(v))
				}
			case kw == "const":
				if s, ok := v.(string); ok {
					addChars(s, ptr, false)
				}
			case kw == "enum":
				list := asList(v)
				strs, strChars := 0, 0
				for j, x := range list {
					ep := ptr + "/" + strconv.Itoa(j)
					enums++
					if enums > OpenAIMaxEnumValues && !enumsDone {
						enumsDone = true
						c.at(ep, "%s: this is enum value number %d of the input schema; OpenAI strict mode allows at most %d in all: use a described string for long lists", label, enums, OpenAIMaxEnumValues)
					}
					if x, ok := x.(string); ok {
						strs++
						strChars += utf8.RuneCountInString(x)
						addChars(x, ep, false)
					}
				}
				if strs > openAIBigEnum && strChars > openAIBigEnumChars {
					c.atKey(ptr, "%s has %d string enum values of %d characters in all; OpenAI strict mode allows at most %d characters in an enum of more than %d values", label, strs, strChars, openAIBigEnumChars, openAIBigEnum)
				}
			}
		})
	})
	strictGrowthProblems(c, schema, bound, OpenAIMaxDepth, "which OpenAI strict mode allows at most", depthDone, false)
	return c.out
}
