package importer

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

// readAnthropic reads Anthropic client tools: a Messages request body
// {model, tools: [...]}, a list of tools or one tool, each
// {name, description, input_schema, strict?, input_examples?}.
//
// input_schema is kept as written, strict as set, and every input_examples
// item (an input object) becomes an example {params: ...}: export --format
// anthropic writes examples back as input_examples. Server and versioned
// client tools (type web_search_20250305, bash_20250124, ...) are defined
// by Anthropic, have no input_schema, and are skipped with a warning;
// cache_control and other request-level fields are not kept.
// https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools
func readAnthropic(r *reader, v any, at loc) {
	switch v := v.(type) {
	case []any:
		r.each(v, at, "tool", anthropicTool)
	case *spec.Map:
		if !v.Has("name") {
			if list, ok := v.Get("tools"); ok {
				if _, ok := r.list(list, at.key("tools"), "tools"); ok {
					readAnthropic(r, list, at.key("tools"))
				}
				return
			}
		}
		anthropicTool(r, v, at)
	default:
		r.errorf(at, "expected an Anthropic tool, a list of tools or a request body with \"tools\", got %s", kindOf(v))
	}
}

var anthropicKeys = map[string]bool{"type": true, "name": true, "description": true, "input_schema": true, "strict": true, "input_examples": true}

func anthropicTool(r *reader, m *spec.Map, at loc) {
	if typ := r.str(m, "type", at); typ != "" && typ != "custom" {
		name := builtinName(m, typ)
		r.warnf(RuleBuiltinSkipped, at, name, "skipped %q: Anthropic tools of type %q are defined by Anthropic and have no input_schema to import", name, typ)
		return
	}
	name, ok := r.toolName(m, at)
	if !ok {
		return
	}
	t := &spec.Tool{
		Name:        name,
		Description: r.str(m, "description", at),
		InputSchema: r.schema(m, "input_schema", at),
		Strict:      r.boolean(m, "strict", at),
	}
	if v, ok := m.Get("input_examples"); ok && v != nil {
		if list, ok := r.list(v, at.key("input_examples"), "input_examples"); ok {
			for i, item := range list {
				if params, ok := r.object(item, at.key("input_examples").index(i), "input_examples item"); ok {
					t.Examples = append(t.Examples, spec.Example{Params: params})
				}
			}
		}
	}
	r.ignored(m, at, name, anthropicKeys, " (cache_control and other request settings are not part of a tool file)")
	r.description(t, at)
	r.add(t, at)
}
