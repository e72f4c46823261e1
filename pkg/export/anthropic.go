package export

import (
	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Anthropic client tools: [{name, description, input_schema, strict?,
// input_examples?}]. "input_schema: A JSON Schema object defining the
// expected parameters for the tool"; "input_examples: (Optional) An array of
// example input objects to help Claude understand how to use the tool"
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools).
// strict: true turns on grammar-constrained sampling of the input
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use);
// it is emitted when the export is strict or the tool file sets it.
func anthropicTool(t *spec.Tool, name string, opts Options) (any, []Warning, []Problem) {
	schema, strict, ws, ps := strictInput(t, strictAnthropic, opts)
	if len(ps) > 0 {
		return nil, ws, ps
	}
	m := spec.NewMap(5)
	m.Set("name", name)
	if t.Description != "" {
		m.Set("description", t.Description)
	}
	m.Set("input_schema", schema)
	if strict || t.Strict != nil {
		m.Set("strict", strict)
	}
	// OpenAkita examples carry the same thing as input_examples: params
	// that are valid input (lint's example-params-invalid checks them).
	if ex := exampleParams(t); len(ex) > 0 {
		m.Set("input_examples", ex)
	}
	return m, ws, nil
}

// AnthropicTool returns t as one Anthropic tool (strict sets strict: true
// and applies the strict transform); the error is an *Error when strict
// mode refuses it.
func AnthropicTool(t *spec.Tool, strict bool) (*spec.Map, []Warning, error) {
	return one(t, Options{Format: Anthropic, Strict: strict})
}

// anthropicSetWarnings checks the limits Anthropic puts on the strict tools
// of one request taken together (20 strict tools, 24 optional and 16
// union-typed parameters; compat.AnthropicStrictLimits). They depend on
// which tools are sent together, so they warn.
func anthropicSetWarnings(items []Item) []Warning {
	var strict []compat.StrictTool
	var tools []*spec.Tool
	for _, it := range items {
		m, ok := it.Value.(*spec.Map)
		if !ok {
			continue
		}
		if v, _ := m.Get("strict"); v != true {
			continue
		}
		schema, _ := m.GetMap("input_schema")
		strict = append(strict, compat.StrictTool{Name: it.Name, Schema: schema})
		tools = append(tools, it.Tool)
	}
	var ws []Warning
	for _, p := range compat.AnthropicStrictLimits(strict) {
		// The schema counted is the exported one: a parameter's pointer
		// is its source pointer (Anthropic's transform moves none).
		place := Place{Pointer: "/input_schema" + p.Pointer, Key: p.Key}
		if p.Whole {
			place = Place{Pointer: "/name"}
		}
		t := tools[p.Tool]
		ws = append(ws, Warning{Tool: t.Name, Message: p.Message + " (sent together in one request, Anthropic refuses them)",
			Rule: p.Rule, Source: t, Places: []Place{place}})
	}
	return ws
}
