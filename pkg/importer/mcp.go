package importer

import (
	"encoding/json"

	"github.com/toolctl/toolctl/pkg/spec"
)

// readMCP reads MCP tools. Accepted shapes:
//
//   - a tools/list result {tools: [...], nextCursor?}, or the JSON-RPC
//     response that carries it {jsonrpc, id, result: {tools: [...]}};
//   - a list of Tools, or one Tool {name, title?, description?,
//     inputSchema, outputSchema?, annotations?, icons?, _meta?};
//   - Docker's MCP registry tools.json, whose tools may give their
//     parameters in a compact list instead of inputSchema (dockerArguments);
//   - a catalogue of servers with their tools (catalogue.go).
//
// inputSchema and outputSchema are kept as written; title, annotations and
// _meta are kept; the first icon's src becomes icon.
// https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
func readMCP(r *reader, v any, at loc) {
	switch v := v.(type) {
	case []any:
		r.each(v, at, "tool", mcpItem)
	case *spec.Map:
		if isCatalogueServer(v) {
			readCatalogueServer(r, v, at)
			return
		}
		if !v.Has("name") {
			if res, ok := v.GetMap("result"); ok && v.Has("jsonrpc") {
				readMCP(r, res, at.key("result"))
				return
			}
			if e, ok := v.Get("error"); ok && v.Has("jsonrpc") {
				r.errorf(at.key("error"), "this is a JSON-RPC error response, not a tools/list result: %s", jsonText(e))
				return
			}
			if list, ok := v.Get("tools"); ok {
				if _, ok := r.list(list, at.key("tools"), "tools"); ok {
					readMCP(r, list, at.key("tools"))
				}
				return
			}
		}
		mcpTool(r, v, at)
	default:
		r.errorf(at, "expected an MCP tool, a list of tools or a tools/list result {tools: [...]}, got %s", kindOf(v))
	}
}

// mcpItem reads an item of a list: a tool, or a server of a catalogue.
func mcpItem(r *reader, m *spec.Map, at loc) {
	if isCatalogueServer(m) {
		readCatalogueServer(r, m, at)
		return
	}
	mcpTool(r, m, at)
}

var mcpKeys = map[string]bool{
	"name": true, "title": true, "description": true, "inputSchema": true, "outputSchema": true,
	"annotations": true, "icons": true, "_meta": true, "arguments": true,
}

func mcpTool(r *reader, m *spec.Map, at loc) {
	name, ok := r.toolName(m, at)
	if !ok {
		return
	}
	t := &spec.Tool{
		Name:         name,
		Title:        r.str(m, "title", at),
		Description:  r.str(m, "description", at),
		InputSchema:  r.schema(m, "inputSchema", at),
		OutputSchema: r.schema(m, "outputSchema", at),
	}
	if args, ok := m.Get("arguments"); ok && args != nil {
		if t.InputSchema != nil {
			r.errorf(at.key("arguments"), "tool %q has both inputSchema and arguments; keep one", name)
		} else {
			t.InputSchema = dockerArguments(r, args, at.key("arguments"))
		}
	}
	t.Annotations = mcpAnnotations(r, m, at, name)
	t.Icon = mcpIcon(r, m, at, name)
	if meta, ok := m.Get("_meta"); ok && meta != nil {
		if mm, ok := r.object(meta, at.key("_meta"), "_meta"); ok {
			t.Extensions = spec.NewMap(1)
			t.Extensions.Set("_meta", mm)
		}
	}
	r.ignored(m, at, name, mcpKeys, "")
	r.description(t, at)
	r.add(t, at)
}

var mcpAnnotationKeys = map[string]bool{"title": true, "readOnlyHint": true, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true}

// mcpAnnotations reads annotations; null (as LiveMCPBench's captures have)
// and {} are no annotations.
func mcpAnnotations(r *reader, m *spec.Map, at loc, name string) *spec.Annotations {
	v, ok := m.Get("annotations")
	if !ok || v == nil {
		return nil
	}
	am, ok := r.object(v, at.key("annotations"), "annotations")
	if !ok || am.Len() == 0 {
		return nil
	}
	aat := at.key("annotations")
	a := &spec.Annotations{
		Title:           r.str(am, "title", aat),
		ReadOnlyHint:    r.boolean(am, "readOnlyHint", aat),
		DestructiveHint: r.boolean(am, "destructiveHint", aat),
		IdempotentHint:  r.boolean(am, "idempotentHint", aat),
		OpenWorldHint:   r.boolean(am, "openWorldHint", aat),
	}
	for _, k := range am.Keys() {
		if !mcpAnnotationKeys[k] {
			r.warnf(RuleFieldDropped, aat.key(k), name, "tool %q: annotation %q is not kept (MCP defines title, readOnlyHint, destructiveHint, idempotentHint and openWorldHint)", name, k)
		}
	}
	return a
}

// mcpIcon keeps the first icon's src (toolctl has one icon, an emoji or a
// URL) and warns about the rest.
func mcpIcon(r *reader, m *spec.Map, at loc, name string) string {
	v, ok := m.Get("icons")
	if !ok || v == nil {
		return ""
	}
	list, ok := r.list(v, at.key("icons"), "icons")
	if !ok || len(list) == 0 {
		return ""
	}
	icon, ok := r.object(list[0], at.key("icons").index(0), "icons item")
	if !ok {
		return ""
	}
	src := r.str(icon, "src", at.key("icons").index(0))
	if len(list) > 1 || icon.Len() > 1 {
		r.warnf(RuleFieldDropped, at.key("icons"), name, "tool %q: only the first icon's src is kept (toolctl's icon is one emoji or URL)", name)
	}
	return src
}

// dockerArguments converts Docker's compact parameter list
// [{name, type, desc, items?, optional?}] into an inputSchema with
// spec.DockerArguments, the conversion toolctl uses when it reads such a
// file directly (the docker dialect). Its problems are errors at their
// item; a key that is no argument key is kept as a schema keyword (lint
// reports what it is).
func dockerArguments(r *reader, v any, at loc) *spec.Map {
	list, ok := r.list(v, at, "arguments")
	if !ok {
		return nil
	}
	schema, problems := spec.DockerArguments(list, kindOf)
	for _, p := range problems {
		if p.Unknown {
			continue
		}
		pat := at.index(p.Index)
		if p.Key != "" {
			pat = pat.key(p.Key)
		}
		r.errorf(pat, "%s", p.Message)
	}
	return schema
}

// jsonText renders a value as compact JSON for a message.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return kindOf(v)
	}
	return clip(string(b), 300)
}
