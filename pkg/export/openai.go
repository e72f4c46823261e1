package export

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

// OpenAI function tools.
//
// Chat Completions takes tools: [{type: "function", function: {name,
// description, parameters, strict}}]
// (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools);
// the Responses API takes the flat {type: "function", name, description,
// parameters, strict}
// (https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools).
//
// strict is always emitted: "If you omit strict, the default depends on the
// API: Responses requests will normalize your schema into strict mode ...,
// while Chat Completions requests remain non-strict by default"
// (https://platform.openai.com/docs/guides/function-calling), so leaving it
// out would mean different things in the two APIs.
func openAIChatTool(t *spec.Tool, name string, opts Options) (any, []Warning, []Problem) {
	return openAITool(t, name, opts, false)
}

// openAIResponsesTool is a Responses API tool: the function's fields at
// the top level.
func openAIResponsesTool(t *spec.Tool, name string, opts Options) (any, []Warning, []Problem) {
	return openAITool(t, name, opts, true)
}

// openAITool builds a Chat Completions tool, or with flat a Responses API
// one.
func openAITool(t *spec.Tool, name string, opts Options, flat bool) (any, []Warning, []Problem) {
	params, strict, ws, ps := strictInput(t, strictOpenAI, opts)
	if len(ps) > 0 {
		return nil, ws, ps
	}
	fn := spec.NewMap(5)
	if flat {
		fn.Set("type", "function")
	}
	fn.Set("name", name)
	if t.Description != "" {
		fn.Set("description", t.Description)
	}
	fn.Set("parameters", params)
	fn.Set("strict", strict)
	if flat {
		return fn, ws, nil
	}
	out := spec.NewMap(2)
	out.Set("type", "function")
	out.Set("function", fn)
	return out, ws, nil
}

// OpenAITool returns t as one Chat Completions tool (strict applies the
// strict transform); the error is an *Error when strict mode refuses it.
func OpenAITool(t *spec.Tool, strict bool) (*spec.Map, []Warning, error) {
	return one(t, Options{Format: OpenAI, Strict: strict})
}

// one exports a single tool under the target's name for it.
func one(t *spec.Tool, opts Options) (*spec.Map, []Warning, error) {
	d := lookup(opts.Format)
	if d == nil {
		return nil, nil, fmt.Errorf("unknown format %q", opts.Format)
	}
	name, ws := exportName(t, opts)
	v, ws2, ps := d.Convert(t, name, opts)
	ws = append(ws, ws2...)
	if len(ps) > 0 {
		return nil, ws, &Error{Problems: ps}
	}
	m, _ := v.(*spec.Map)
	return m, ws, nil
}

// openAISetWarnings is the request-wide tool count: it depends on which
// tools are sent together, so it warns.
func openAISetWarnings(items []Item) []Warning {
	if len(items) <= compat.OpenAIMaxTools {
		return nil
	}
	first := items[compat.OpenAIMaxTools].Tool
	return []Warning{{Message: fmt.Sprintf("%d tools in one export; OpenAI accepts at most %d tools in one request: split the set, or send a subset per request", len(items), compat.OpenAIMaxTools),
		Rule: "openai-tool-count", Source: first, Places: []Place{{Pointer: "/name"}}}}
}

// strictInput returns the input schema to export and whether the tool is
// strict. The tool's own strict flag wins over opts.Strict, so that a tool
// that cannot be strict (a free-form map parameter) can opt out with
// strict: false while the rest of the set is strict.
func strictInput(t *spec.Tool, kind strictKind, opts Options) (*spec.Map, bool, []Warning, []Problem) {
	s := InputSchema(t)
	strict, fromFile := opts.Strict, false
	var ws []Warning
	if t.Strict != nil {
		if opts.Strict && !*t.Strict {
			ws = append(ws, optOutWarning(t, kind, s))
		}
		strict, fromFile = *t.Strict, *t.Strict && !opts.Strict
	}
	if !strict {
		if kind == strictOpenAI {
			for _, p := range compat.ArraysWithoutItems(s, nil) {
				ws = append(ws, problemWarning(t, p, "/input_schema"+p.Pointer))
			}
		}
		return s, false, ws, nil
	}
	out, strictWs, ps := strictTransform(t, kind, s, fromFile)
	return out, true, append(ws, strictWs...), ps
}

// OptOutNote starts the warning about a tool exported without strict mode
// under --strict because its file sets strict: false.
const OptOutNote = "exported without strict mode: the tool sets strict: false"

// optOutWarning says which tool --strict leaves non-strict and why: the
// tool's strict: false, and what strict mode would refuse in its schema
// (or that nothing would, so the opt-out can go).
func optOutWarning(t *spec.Tool, kind strictKind, s *spec.Map) Warning {
	_, _, ps := strictTransform(t, kind, s, false)
	msg := OptOutNote
	if len(ps) == 0 {
		msg += ", though its schema fits strict mode; remove strict: false to make it strict"
	} else {
		// The problem's first clause names the place and what is wrong.
		why, _, _ := strings.Cut(ps[0].Message, "; ")
		msg += ", as strict mode would refuse it: " + why
		if len(ps) > 1 {
			more := "problem"
			if len(ps) > 2 {
				more += "s"
			}
			msg += fmt.Sprintf(" (and %d other %s)", len(ps)-1, more)
		}
	}
	return Warning{Tool: t.Name, Message: msg, Source: t}
}

// strictTransform makes the input schema s of t strict for kind and
// checks the result: the schema, the warnings (keywords moved into the
// description, advisories) and the problems that refuse the tool.
func strictTransform(t *spec.Tool, kind strictKind, s *spec.Map, fromFile bool) (*spec.Map, []Warning, []Problem) {
	var ws []Warning
	out, tr := strictSchema(kind, s)
	target := compat.OpenAI
	if kind == strictAnthropic {
		target = compat.Anthropic
	}
	if tr.over {
		msg := fmt.Sprintf("the input schema grows past %d subschemas in strict mode, where each $ref with sibling keys (a description beside it) is replaced by a copy of its definition; keep such $refs bare (the description on the definition), or set strict: false on the tool", maxTransformNodes)
		if fromFile {
			msg += " (strict mode because the tool sets strict: true)"
		}
		return nil, ws, []Problem{{Tool: t, Pointer: "/input_schema", Rule: target + "-strict-schema", Message: msg}}
	}
	// Content the transform copied (a $ref's target inlined at each use)
	// is checked at every copy: one problem per source place, worded as
	// found in place (a definition's problem named after the definition).
	seen := map[string]int{}
	var ps []Problem
	var fromCopy []bool
	var advisories []Warning
	warned := map[string]bool{}
	for _, p := range compat.SchemaProblems(target, out, nil) {
		src, copied := tr.sourcePointer(p.Pointer)
		ptr := "/input_schema" + src
		if p.Warning {
			if !warned[ptr+"\x00"+p.Message] {
				warned[ptr+"\x00"+p.Message] = true
				advisories = append(advisories, problemWarning(t, p, ptr))
			}
			continue
		}
		msg := p.Message
		if fromFile {
			msg += " (strict mode because the tool sets strict: true)"
		}
		prob := Problem{Tool: t, Pointer: ptr, Key: p.Key, Rule: p.Rule, Message: msg}
		if i, ok := seen[ptr]; ok {
			if fromCopy[i] && !copied {
				ps[i], fromCopy[i] = prob, false
			}
			continue
		}
		seen[ptr] = len(ps)
		ps = append(ps, prob)
		fromCopy = append(fromCopy, copied)
	}
	if len(ps) == 0 && tr.deep {
		// What lies deeper was not made strict (no additionalProperties:
		// false there): refuse rather than send it as strict.
		msg := fmt.Sprintf("the input schema nests deeper than %d levels, below which strict mode does not transform it; flatten the schema, or set strict: false on the tool", maxTransformDepth)
		if fromFile {
			msg += " (strict mode because the tool sets strict: true)"
		}
		ps = append(ps, Problem{Tool: t, Pointer: "/input_schema", Rule: target + "-strict-schema", Message: msg})
	}
	if len(ps) > 0 {
		sortProblems(t, ps)
		return nil, append(ws, advisories...), ps
	}
	if len(tr.moved) > 0 {
		ws = append(ws, Warning{Tool: t.Name, Message: "strict mode cannot enforce " + andList(tr.moved) + "; moved into the description",
			Rule: target + "-strict-schema", Source: t, Places: tr.movedAt})
	}
	return out, append(ws, advisories...), nil
}

// problemWarning is an advisory compat problem as an export warning, at
// ptr (canonical) of t.
func problemWarning(t *spec.Tool, p compat.Problem, ptr string) Warning {
	return Warning{Tool: t.Name, Message: p.Message, Rule: p.Rule, Source: t, Places: []Place{{Pointer: ptr, Key: p.Key}}}
}

// sortProblems puts a tool's problems in source order, so that those of
// compat and of the transform interleave as the schema reads.
func sortProblems(t *spec.Tool, ps []Problem) {
	if t.File == nil {
		return
	}
	slices.SortStableFunc(ps, func(a, b Problem) int {
		pa, pb := t.Pos(a.Pointer), t.Pos(b.Pointer)
		return cmp.Or(cmp.Compare(pa.Line, pb.Line), cmp.Compare(pa.Col, pb.Col))
	})
}

// andList renders a list for a message: a, b and c.
func andList(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
