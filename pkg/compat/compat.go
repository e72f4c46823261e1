// Package compat holds the provider-compatibility checks: which tool names
// and input schemas OpenAI, Anthropic, Gemini and MCP accept. It is the one
// implementation behind both the lint --target rules (which add positions)
// and toolctl export --strict (which refuses what the checks report).
//
// The schema checks report only what export --strict cannot fix by itself:
// additionalProperties: false on every object, every key in required and
// optional keys made nullable are added by the transform, so their absence
// is never a problem here; the type a schema implies (InferType), a oneOf
// that can be an anyOf (Exclusive) and one-schema allOfs and $refs with
// siblings (Merge) are decided here for both. export --strict runs the
// checks on its output, lint on the source, so that lint reports what
// export refuses (pkg/export's TestLintParity compares them).
package compat

import (
	"fmt"

	"github.com/toolctl/toolctl/pkg/spec"
)

// The targets, as spelled by lint --target and export --format.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
	Gemini    = "gemini"
	MCP       = "mcp"
)

// Targets lists every target in a fixed order.
var Targets = []string{OpenAI, Anthropic, Gemini, MCP}

// Problem is one incompatibility.
type Problem struct {
	// Rule is the lint rule ID that reports it, e.g. "openai-strict-schema".
	Rule string
	// Pointer is a JSON pointer into the checked value: for schema checks
	// relative to the schema's root ("" is the root,
	// "/properties/q/format"), for name checks "".
	Pointer string
	// Message says what is wrong and how to fix it.
	Message string
	// Warning marks advisory problems (a name Gemini accepts but advises
	// against, a keyword Gemini ignores): the provider takes the request.
	Warning bool
	// Key tells the problem lies in the member's key (a parameter's name,
	// a keyword that should not be there) rather than in its value; lint
	// points at the key then.
	Key bool
}

// NameProblems checks a tool name against target's name rules; nil when the
// name is valid (and for unknown targets).
func NameProblems(target, name string) []Problem {
	nr, ok := nameRules[target]
	if !ok {
		return nil
	}
	rule := target + "-name"
	if !nr.valid(name) {
		if name == "" {
			return []Problem{{Rule: rule, Message: "the name is empty; " + nr.fix, Warning: nr.advisory}}
		}
		msg := fmt.Sprintf("name %q is not valid for %s: it %s; %s", name, nr.provider, nr.problem(name), nr.fix)
		// A suggestion that dropped letters without an ASCII spelling
		// would not say what the tool is: none then.
		if s, exact := nr.suggest(name); s != "" && exact {
			msg += fmt.Sprintf(", e.g. %q", s)
		}
		return []Problem{{Rule: rule, Message: msg, Warning: nr.advisory}}
	}
	if target == Gemini {
		if p, ok := geminiSeparator(name); ok {
			return []Problem{p}
		}
	}
	return nil
}

// MapName returns a name valid for target: name itself when it is valid
// already, otherwise name with Latin letters with diacritics
// transliterated (café is cafe) and other forbidden characters turned into
// _ (runs of _ collapsed, _ trimmed at the ends), "tool_" put first when the first
// character is not allowed, and cut to the maximum length; "tool" when
// nothing usable is left. "math.factorial" becomes "math_factorial" for
// OpenAI and Anthropic. Different names may map to the same one: finding
// such collisions is the caller's business. Unknown targets keep the name.
func MapName(target, name string) string {
	nr, ok := nameRules[target]
	if !ok || nr.valid(name) {
		return name
	}
	if s, _ := nr.suggest(name); s != "" {
		return s
	}
	return "tool"
}

// SchemaProblems checks an input schema against what target accepts after
// export --strict's transforms: the strict-mode subsets of OpenAI
// (openai-strict-schema) and Anthropic (anthropic-strict-schema), the JSON
// Schema subset of Gemini (gemini-schema, advisory: Gemini ignores the
// rest). MCP and unknown targets take any schema. bound holds the top-level
// parameters removed by bind, skipped with all they hold.
func SchemaProblems(target string, schema *spec.Map, bound map[string]bool) []Problem {
	if schema == nil {
		return nil
	}
	switch target {
	case OpenAI:
		return openAISchema(schema, bound)
	case Anthropic:
		return anthropicSchema(schema, bound)
	case Gemini:
		return geminiSchema(schema, bound)
	}
	return nil
}

// collector gathers the problems of one rule.
type collector struct {
	rule    string
	warning bool
	out     []Problem
}

// at adds a problem at the value of ptr; the message is format with args.
func (c *collector) at(ptr, format string, args ...any) { c.add(ptr, false, format, args) }

// atKey adds a problem at the key of ptr.
func (c *collector) atKey(ptr, format string, args ...any) { c.add(ptr, true, format, args) }

// warn adds an advisory problem at the value of ptr (the provider takes
// the schema).
func (c *collector) warn(ptr, format string, args ...any) {
	c.add(ptr, false, format, args)
	c.out[len(c.out)-1].Warning = true
}

func (c *collector) add(ptr string, key bool, format string, args []any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	c.out = append(c.out, Problem{Rule: c.rule, Pointer: ptr, Message: msg, Warning: c.warning, Key: key})
}

// MCPOutputSchemaProblem reports an output schema MCP cannot carry (rule
// mcp-output-schema): "outputSchema: An optional JSON Schema object
// defining the structure of the tool's output returned in the
// structuredContent field", and structuredContent is a JSON object, so the
// schema's type must be object
// (https://modelcontextprotocol.io/specification/2025-06-18/server/tools#output-schema).
// The pointer is relative to the output schema. Advisory: export --format
// mcp leaves such a schema out.
func MCPOutputSchemaProblem(schema *spec.Map) (Problem, bool) {
	if schema == nil {
		return Problem{}, false
	}
	typ, _ := schema.GetString("type")
	if typ == "object" {
		return Problem{}, false
	}
	what := "has no type"
	if v, ok := schema.Get("type"); ok {
		what = "has type " + valueText(v)
	}
	return Problem{Rule: "mcp-output-schema", Pointer: "/type", Warning: true,
		Message: fmt.Sprintf("the output schema %s; MCP's outputSchema must have type object (structuredContent is a JSON object), so export --format mcp leaves it out: wrap the result in an object", what)}, true
}
