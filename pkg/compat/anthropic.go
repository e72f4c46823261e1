package compat

import (
	"encoding/json"
	"fmt"
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
	// AnthropicFormats are the string formats Anthropic strict mode supports.
	AnthropicFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
	anthropicNumeric = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
	anthropicString  = []string{"minLength", "maxLength"}
	anthropicArray   = []string{"maxItems", "uniqueItems", "contains", "minContains", "maxContains"}
	// AnthropicUnenforced are the keywords above that Anthropic strict mode
	// refuses and export --strict moves into the description.
	AnthropicUnenforced = slices.Concat(anthropicNumeric, anthropicString, anthropicArray)
)

func anthropicSchema(schema *spec.Map, bound map[string]bool) []Problem {
	c := &collector{rule: "anthropic-strict-schema"}
	rs := refs(schema, bound)
	rec := recursive(rs)
	for i, r := range rs {
		label, ptr := r.node.label(), r.node.ptr+"/$ref"
		switch {
		case !r.local:
			c.at(ptr, "%s refers to %q outside the input schema; Anthropic strict mode supports only local references (#/$defs/...): copy the definition into $defs", label, r.ref)
		case rec[i]:
			c.at(ptr, "%s refers to %q recursively; Anthropic strict mode does not support recursive schemas: spell out the levels you need", label, r.ref)
		case r.node.kw == "allOf" && !r.node.merged: // a one-schema allOf is merged
			c.at(ptr, "%s uses $ref inside allOf, which Anthropic strict mode does not support; inline the referenced schema", label)
		}
	}
	walk(schema, bound, func(n *node) {
		strictNode(c, "Anthropic", n, schema)
		label := n.label()
		n.keywords(func(kw string, v any, ptr string) {
			switch {
			case slices.Contains(anthropicNumeric, kw):
				c.atKey(ptr, "%s uses %s, which Anthropic strict mode does not support (no numeric constraints); state the bound in the description and check it in the tool", label, kw)
			case slices.Contains(anthropicString, kw):
				c.atKey(ptr, "%s uses %s, which Anthropic strict mode does not support (no string length constraints); state the limit in the description and check it in the tool", label, kw)
			case slices.Contains(anthropicArray, kw):
				c.atKey(ptr, "%s uses %s, which Anthropic strict mode does not support (array constraints beyond minItems 0 or 1); state it in the description and check it in the tool", label, kw)
			case kw == "minItems":
				if num, ok := v.(json.Number); ok && num != "0" && num != "1" {
					c.at(ptr, "%s has minItems %s; Anthropic strict mode supports only 0 and 1: use minItems: 1 and check the rest in the tool", label, num)
				}
			case kw == "enum":
				for j, x := range asList(v) {
					if kind := complexKind(x); kind != "" {
						c.at(ptr+"/"+strconv.Itoa(j), "%s: enum value %s is %s; Anthropic strict mode allows only strings, numbers, booleans and null in an enum", label, valueText(x), kind)
					}
				}
			case kw == "const":
				// export --strict turns a const into a one-value enum.
				if kind := complexKind(v); kind != "" && !n.schema.Has("enum") {
					c.at(ptr, "%s: const value %s is %s; Anthropic strict mode allows only strings, numbers, booleans and null in an enum (a const is sent as a one-value enum)", label, valueText(v), kind)
				}
			case kw == "format":
				if f, ok := v.(string); ok && !slices.Contains(AnthropicFormats, f) {
					c.at(ptr, "%s has format %q, which Anthropic strict mode does not support; use %s, or describe the format in the description", label, f, orList(AnthropicFormats))
				}
			case kw == "pattern":
				if p, ok := v.(string); ok {
					if feature := regexProblem(p); feature != "" {
						c.at(ptr, "%s: pattern %s uses %s, which Anthropic strict mode does not support; simplify the pattern", label, valueText(p), feature)
					}
				}
			case kw == "additionalProperties":
				if !isFalse(v) {
					c.atKey(ptr, "%s allows additional properties (%s); Anthropic strict mode needs additionalProperties: false, so declare the keys as properties", label, valueText(v))
				}
			}
		})
	})
	strictGrowthProblems(c, schema, bound, StrictMaxDepth, "below which strict mode does not transform it", false, false)
	return c.out
}

// Anthropic's explicit complexity limits for strict schemas, which "apply to
// the combined total across all strict schemas in a single request":
// https://platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits
//
//	Strict tools per request     20  "Non-strict tools don't count toward this limit."
//	Optional parameters          24  "Each parameter not listed in required counts"
//	Parameters with union types  16  "parameters that use anyOf or type arrays
//	                                 (for example, "type": ["string", "null"])"
const (
	AnthropicMaxStrictTools = 20
	AnthropicMaxOptional    = 24
	AnthropicMaxUnions      = 16
)

// StrictTool is one tool of a request sent with strict: true, as
// AnthropicStrictLimits counts it.
type StrictTool struct {
	Name string
	// Schema is the input schema as written (before export --strict's
	// transform: a parameter optional there counts as optional); nil when
	// the tool has none.
	Schema *spec.Map
	// Bound holds the top-level parameters removed by bind: they do not
	// count.
	Bound map[string]bool
}

// ToolProblem is a Problem of one tool of a set.
type ToolProblem struct {
	// Tool indexes the tools passed in.
	Tool int
	// Whole tells the problem concerns the tool as a whole (one strict tool
	// too many; Pointer is ""): lint reports it at the tool's name.
	// Otherwise Pointer is relative to the tool's input schema.
	Whole bool
	Problem
}

// AnthropicStrictLimits checks the limits Anthropic puts on the strict tools
// of one request taken together (rule anthropic-strict-limits): at most 20
// strict tools, 24 optional parameters and 16 union-typed ones (anyOf, or a
// type list of more than one type), nested properties included. tools are
// the strict tools of the request in order (leave out strict: false ones).
// Each limit is reported once, at the first tool or parameter past it.
func AnthropicStrictLimits(tools []StrictTool) []ToolProblem {
	var out []ToolProblem
	add := func(tool int, whole bool, ptr, format string, args ...any) {
		p := Problem{Rule: "anthropic-strict-limits", Pointer: ptr, Message: fmt.Sprintf(format, args...), Key: !whole}
		out = append(out, ToolProblem{Tool: tool, Whole: whole, Problem: p})
	}
	optional, unions := 0, 0
	for i, t := range tools {
		if i == AnthropicMaxStrictTools {
			add(i, true, "", "tool %q is strict tool number %d of this set; Anthropic allows at most %d strict tools in one request: set strict: false on tools that do not need guaranteed arguments, or send fewer tools", t.Name, i+1, AnthropicMaxStrictTools)
		}
		walk(t.Schema, t.Bound, func(n *node) {
			if !n.prop {
				return
			}
			if !n.required {
				optional++
				if optional == AnthropicMaxOptional+1 {
					add(i, false, n.ptr, "%s is optional parameter number %d across the strict tools of this set; Anthropic allows at most %d in one request: make parameters required (the model can pass the default) or set strict: false on some tools", n.label(), optional, AnthropicMaxOptional)
				}
			}
			if unionTyped(n.schema) {
				unions++
				if unions == AnthropicMaxUnions+1 {
					add(i, false, n.ptr, "%s is union-typed parameter number %d (anyOf or a type list) across the strict tools of this set; Anthropic allows at most %d in one request: use one type, or set strict: false on some tools", n.label(), unions, AnthropicMaxUnions)
				}
			}
		})
	}
	return out
}

// unionTyped tells whether a parameter's schema is a union in Anthropic's
// sense: anyOf, or a type list of more than one type.
func unionTyped(s *spec.Map) bool {
	if s.Has("anyOf") {
		return true
	}
	v, _ := s.Get("type")
	return len(asList(v)) > 1
}

// complexKind names a value's kind when it is an object or a list, which
// an Anthropic strict enum cannot hold; "" otherwise.
func complexKind(v any) string {
	switch v.(type) {
	case *spec.Map:
		return "an object"
	case []any:
		return "a list"
	}
	return ""
}
