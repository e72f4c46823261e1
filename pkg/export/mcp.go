package export

import (
	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

// MCP tools as in the 2025-06-18 schema
// (https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool,
// schema/2025-06-18/schema.ts): Tool is {name, title?, description?,
// inputSchema: {type: "object", ...}, outputSchema?: {type: "object", ...},
// annotations?, _meta?}; ListToolsResult is {tools: Tool[], nextCursor?}.
// Later revisions keep these fields.
func mcpTool(t *spec.Tool, name string, _ Options) (any, []Warning, []Problem) {
	var ws []Warning
	m := spec.NewMap(7)
	m.Set("name", name)
	if t.Title != "" {
		m.Set("title", t.Title)
	}
	if t.Description != "" {
		m.Set("description", t.Description)
	}
	m.Set("inputSchema", InputSchema(t))
	if t.OutputSchema != nil {
		// "outputSchema: An optional JSON Schema object defining the
		// structure of the tool's output returned in the structuredContent
		// field", typed object like inputSchema.
		if p, bad := compat.MCPOutputSchemaProblem(t.OutputSchema); !bad {
			m.Set("outputSchema", t.OutputSchema.Clone())
		} else {
			ws = append(ws, Warning{Tool: t.Name, Message: "output schema left out: MCP's outputSchema must have type object (structuredContent is a JSON object); wrap the result in an object to export it",
				Rule: p.Rule, Source: t, Places: []Place{{Pointer: "/output_schema" + p.Pointer}}})
		}
	}
	if a := t.Annotations; a != nil {
		am := spec.NewMap(5)
		if a.Title != "" {
			am.Set("title", a.Title)
		}
		for _, h := range []struct {
			key string
			v   *bool
		}{{"readOnlyHint", a.ReadOnlyHint}, {"destructiveHint", a.DestructiveHint}, {"idempotentHint", a.IdempotentHint}, {"openWorldHint", a.OpenWorldHint}} {
			if h.v != nil {
				am.Set(h.key, *h.v)
			}
		}
		if am.Len() > 0 {
			m.Set("annotations", am)
		}
	}
	if meta, ok := t.Extensions.Get("_meta"); ok {
		m.Set("_meta", spec.CloneValue(meta))
	}
	return m, ws, nil
}

// MCPTool returns t as one MCP Tool object.
func MCPTool(t *spec.Tool) (*spec.Map, []Warning) {
	m, ws, _ := one(t, Options{Format: MCP})
	return m, ws
}

// mcpDocument is the array of tools, or with Envelope a tools/list
// result.
func mcpDocument(r *Result) ([]byte, error) {
	if !r.Options.Envelope {
		return jsonArray(r)
	}
	m := spec.NewMap(1)
	m.Set("tools", r.values())
	return spec.MarshalJSONIndent(m)
}
