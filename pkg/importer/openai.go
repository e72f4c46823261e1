package importer

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

// readOpenAI reads OpenAI function tools. Accepted shapes:
//
//   - a Chat Completions or Responses request body: {model, tools: [...]},
//     or the deprecated Chat Completions {functions: [...]};
//   - a list of tools, or one tool;
//   - Chat Completions tools {type: function, function: {name, description,
//     parameters, strict}};
//   - Responses tools {type: function, name, description, parameters, strict};
//   - a bare function {name, description, parameters} (the deprecated
//     functions list).
//
// parameters is kept as written (it is JSON Schema) and strict as set. Tools
// of other types (web_search, file_search, custom, mcp, ...) are OpenAI's
// built-in or free-form tools, which have no JSON Schema: they are skipped
// with a warning.
// https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
// https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
func readOpenAI(r *reader, v any, at loc) {
	switch v := v.(type) {
	case []any:
		r.each(v, at, "tool", openAITool)
	case *spec.Map:
		if !v.Has("name") && !v.Has("type") && !v.Has("function") {
			for _, key := range []string{"tools", "functions"} {
				if list, ok := v.Get(key); ok {
					if _, ok := r.list(list, at.key(key), key); ok {
						readOpenAI(r, list, at.key(key))
					}
					return
				}
			}
		}
		openAITool(r, v, at)
	default:
		r.errorf(at, "expected an OpenAI tool, a list of tools or a request body with \"tools\", got %s", kindOf(v))
	}
}

var (
	openAIWrapperKeys  = map[string]bool{"type": true, "function": true}
	openAIFunctionKeys = map[string]bool{"name": true, "description": true, "parameters": true, "strict": true}
	openAIFlatKeys     = map[string]bool{"type": true, "name": true, "description": true, "parameters": true, "strict": true}
)

func openAITool(r *reader, m *spec.Map, at loc) {
	typ := r.str(m, "type", at)
	if typ != "" && typ != "function" {
		name := builtinName(m, typ)
		r.warnf(RuleBuiltinSkipped, at, name, "skipped %q: OpenAI tools of type %q are built in or take free-form input, and have no JSON Schema to import", name, typ)
		return
	}
	fn, fnAt, known := m, at, openAIFlatKeys
	if f, ok := m.Get("function"); ok {
		if fm, ok := r.object(f, at.key("function"), "function"); ok {
			fn, fnAt, known = fm, at.key("function"), openAIFunctionKeys
			name, _ := fm.GetString("name")
			r.ignored(m, at, name, openAIWrapperKeys, "")
		} else {
			return
		}
	}
	name, ok := r.toolName(fn, fnAt)
	if !ok {
		return
	}
	t := &spec.Tool{
		Name:        name,
		Description: r.str(fn, "description", fnAt),
		InputSchema: r.schema(fn, "parameters", fnAt),
		Strict:      r.boolean(fn, "strict", fnAt),
	}
	r.ignored(fn, fnAt, name, known, " (OpenAI function tools have name, description, parameters and strict)")
	r.description(t, fnAt)
	r.add(t, fnAt)
}

// builtinName names a skipped tool in messages: its name, else its type.
func builtinName(m *spec.Map, typ string) string {
	if n, ok := m.GetString("name"); ok && n != "" {
		return n
	}
	return typ
}
