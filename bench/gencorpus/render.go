package main

import (
	"fmt"
)

const schemaURL = "https://raw.githubusercontent.com/toolctl/toolctl/main/schema/tool.schema.json"

// render builds tool t in its dialect and returns the file's bytes.
func (p *plan) render(t *tool) []byte {
	p.chooseParams(t)
	var doc obj
	switch t.dialect {
	case feagent:
		doc = p.feagentDoc(t)
	case sdk:
		doc = p.sdkDoc(t)
	case openakita:
		doc = p.openakitaDoc(t)
	case mcp:
		doc = p.mcpDoc(t)
	case openai:
		doc = p.openaiDoc(t)
	}
	if t.json {
		return writeJSON(doc)
	}
	var comments []string
	if p.rng.IntN(3) == 0 {
		comments = append(comments, "yaml-language-server: $schema="+schemaURL)
	}
	if p.rng.IntN(4) == 0 {
		comments = append(comments, fmt.Sprintf("%s: %s %s in %s.", t.title(), t.action.base, t.noun.plural, t.service.display))
	}
	return writeYAML(comments, doc)
}

// inputSchema is the JSON Schema form of the parameters.
func (p *plan) inputSchema(t *tool, withType bool) obj {
	props := obj{}
	for _, prm := range t.params {
		props = append(props, kv{prm.name, prm.schema(t.cjk, !t.required[prm.name])})
	}
	s := obj{}
	if withType {
		s = append(s, kv{"type", "object"})
	}
	s = append(s, kv{"properties", props})
	if req := t.requiredNames(); len(req) > 0 {
		s = append(s, kv{"required", req})
	}
	if p.rng.IntN(5) == 0 {
		s = append(s, kv{"additionalProperties", false})
	}
	return s
}

// paramList is the Feagent list form.
func (p *plan) paramList(t *tool) []any {
	var out []any
	for _, prm := range t.params {
		item := obj{{"name", prm.name}, {"type", prm.typ}, {"description", prm.description(t.cjk)}, {"required", t.required[prm.name]}}
		if !t.required[prm.name] {
			item = append(item, kv{"default", prm.def})
		}
		if prm.enum != nil {
			item = append(item, kv{"enum", prm.enum})
		}
		out = append(out, append(item, prm.keywords...))
	}
	return out
}

func (p *plan) outputSchema(t *tool) obj {
	return obj{{"type", "object"}, {"properties", p.returnFields(t)}, {"required", []any{"ok"}}}
}

func (p *plan) runtime() obj {
	r := p.rng
	rt := obj{{"timeout", pick(r, []string{"10s", "30s", "1m", "2m30s"})}}
	if r.IntN(2) == 0 {
		rt = append(rt, kv{"retries", r.IntN(4)}, kv{"retry_delay", pick(r, []string{"250ms", "500ms", "1s"})}, kv{"backoff", pick(r, []string{"exponential", "fixed"})})
	}
	return rt
}

func (p *plan) annotations(t *tool) obj {
	readOnly := t.action.method == "GET"
	a := obj{{"readOnlyHint", readOnly}}
	if !readOnly {
		a = append(a, kv{"destructiveHint", t.action.method == "DELETE"})
	}
	return append(a, kv{"idempotentHint", t.action.method != "POST"}, kv{"openWorldHint", t.cat.name == "http" || t.cat.name == "notification"})
}

func (p *plan) feagentDoc(t *tool) obj {
	r := p.rng
	doc := obj{{"name", t.name}}
	if r.IntN(2) == 0 {
		doc = append(doc, kv{"title", t.title()})
	}
	doc = append(doc, kv{"description", p.description(t)})
	if t.big || r.IntN(3) == 0 {
		doc = append(doc, kv{"detail", block(p.detail(t))})
	}
	doc = append(doc,
		kv{"category", t.cat.name},
		kv{"version", quoted(p.version())},
		kv{"author", pick(r, authors)},
		kv{"tags", p.tags(t)},
		kv{"icon", pick(r, icons[t.cat.name])},
		kv{"shareable_scope", pick(r, []string{"private", "team", "team", "public"})},
		kv{"entry", p.entry(t, p.entryKind(t))},
		kv{"parameters", p.paramList(t)},
	)
	fields := p.returnFields(t)
	returns := obj{}
	short := r.IntN(2) == 0
	for _, f := range fields {
		typ := f.v.(obj)[0].v
		if short {
			returns = append(returns, kv{f.k, typ})
		} else {
			returns = append(returns, kv{f.k, obj{{"type", typ}, {"description", f.v.(obj)[1].v}}})
		}
	}
	doc = append(doc, kv{"returns", returns})
	if t.cjk {
		doc = append(doc, kv{"triggers", p.triggers(t)})
	}
	if t.big || r.IntN(2) == 0 {
		doc = append(doc, kv{"examples", p.examples(t)})
	}
	if r.IntN(3) == 0 {
		doc = append(doc, kv{"runtime", p.runtime()})
	}
	if t.big || r.IntN(5) == 0 {
		doc = append(doc, kv{"warnings", p.warnings(t)})
	}
	return doc
}

func (p *plan) sdkDoc(t *tool) obj {
	r := p.rng
	kind := p.entryKind(t)
	sdkType := map[string]string{"http": "REST", "builtin": "BUILTIN"}[kind]
	var doc obj
	if r.IntN(2) == 0 {
		doc = append(doc, kv{"$schema", schemaURL})
	}
	doc = append(doc, kv{"id", t.name}, kv{"name", t.name}, kv{"type", sdkType}, kv{"description", p.description(t)})
	// The SDK lets parameters omit type: object; most real files do.
	doc = append(doc, kv{"parameters", p.inputSchema(t, r.IntN(3) == 0)})
	// A quarter are definition-only, as SDK registries often are.
	if r.IntN(4) != 0 {
		doc = append(doc, kv{"entry", p.entry(t, kind)})
	}
	if r.IntN(3) == 0 {
		doc = append(doc, kv{"returns", p.outputSchema(t)})
	}
	if t.cjk {
		doc = append(doc, kv{"triggers", p.triggers(t)})
	}
	if t.big || r.IntN(2) == 0 {
		doc = append(doc, kv{"examples", p.examples(t)})
	}
	doc = append(doc, kv{"version", p.version()})
	meta := obj{{"category", t.cat.name}, {"tags", p.tags(t)}}
	if r.IntN(2) == 0 {
		meta = append(meta, kv{"documentationUrl", fmt.Sprintf("https://docs.example.com/tools/%s", t.name)})
	}
	doc = append(doc, kv{"metadata", meta})
	if r.IntN(2) == 0 {
		doc = append(doc, kv{"annotations", p.annotations(t)})
	}
	return doc
}

func (p *plan) openakitaDoc(t *tool) obj {
	r := p.rng
	doc := obj{
		{"name", t.name},
		{"category", t.cat.name},
		{"description", p.description(t)},
		{"detail", block(p.detail(t))},
		{"triggers", p.triggers(t)},
	}
	if pre := p.prerequisites(t); len(pre) > 0 {
		doc = append(doc, kv{"prerequisites", pre})
	}
	doc = append(doc,
		kv{"warnings", p.warnings(t)},
		kv{"examples", p.examples(t)},
		kv{"related_tools", p.relatedTools(t)},
		kv{"input_schema", p.inputSchema(t, true)},
	)
	if r.IntN(5) == 0 {
		doc = append(doc, kv{"output_schema", p.outputSchema(t)})
	}
	if t.big || r.IntN(8) == 0 {
		doc = append(doc, kv{"workflow", p.workflow(t)})
	}
	doc = append(doc, kv{"entry", p.entry(t, p.entryKind(t))}, kv{"version", quoted(p.version())})
	return doc
}

func (p *plan) mcpDoc(t *tool) obj {
	r := p.rng
	doc := obj{
		{"name", t.name},
		{"title", t.title()},
		{"description", p.description(t)},
		{"inputSchema", p.inputSchema(t, true)},
	}
	if r.IntN(2) == 0 {
		doc = append(doc, kv{"outputSchema", p.outputSchema(t)})
	}
	doc = append(doc, kv{"annotations", p.annotations(t)}, kv{"category", t.cat.name})
	if t.cjk {
		doc = append(doc, kv{"triggers", p.triggers(t)})
	}
	if t.big {
		doc = append(doc, kv{"detail", block(p.detail(t))}, kv{"examples", p.examples(t)})
	}
	version := any(quoted(p.version()))
	if t.json {
		version = string(version.(quoted))
	}
	doc = append(doc, kv{"entry", p.entry(t, p.entryKind(t))}, kv{"version", version})
	return doc
}

// openaiDoc is the Chat Completions wrapper or the flat Responses form;
// toolctl's canonical fields (category) go beside the OpenAI ones.
func (p *plan) openaiDoc(t *tool) obj {
	fn := obj{
		{"name", t.name},
		{"description", p.description(t)},
		{"parameters", p.inputSchema(t, true)},
		{"category", t.cat.name},
	}
	if t.cjk {
		fn = append(fn, kv{"triggers", p.triggers(t)})
	}
	if p.rng.IntN(2) == 0 {
		return obj{{"type", "function"}, {"function", fn}}
	}
	return append(obj{{"type", "function"}}, fn...)
}
