package importer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// detect picks the format of an input from the shapes of its tools
// (--from auto). Each tool votes by the keys only one format has:
//
//   - openai: type: function, or a function wrapper, or a request body
//     with functions;
//   - anthropic: input_schema or input_examples;
//   - gemini: functionDeclarations, parametersJsonSchema, or parameters
//     whose type is upper case (OBJECT);
//   - mcp: inputSchema, outputSchema, annotations, or Docker's arguments
//     list; a JSON-RPC response; a catalogue of servers {name, tools:
//     {SERVER: {tools: [...]}}} (catalogue.go);
//   - bfcl: parameters (or response) of type dict, or a question record
//     with a function list;
//   - a bare {name, description, parameters} with a JSON Schema is an
//     OpenAI function (the deprecated functions list).
//
// Tools with nothing format-specific (only name and description) read the
// same in every format and do not vote; when no tool votes the input is
// read as MCP. Votes for two formats are an error that names a tool of
// each: pass --from.
func detect(src *source) (Format, string, error) {
	v := &voter{src: src, first: map[Format]loc{}, why: map[Format]string{}}
	for i, doc := range src.docs {
		v.container(doc, src.root(i))
	}
	switch len(v.first) {
	case 0:
		return MCP, "no format-specific field found; read as MCP (the result is the same in every format)", nil
	case 1:
		for f := range v.first {
			return f, v.why[f], nil
		}
	}
	formats := make([]string, 0, len(v.first))
	for f := range v.first {
		formats = append(formats, string(f))
	}
	sort.Strings(formats)
	var parts []string
	for _, f := range formats {
		p := src.posOf(v.first[Format(f)])
		parts = append(parts, fmt.Sprintf("%s at line %d (%s)", f, p.Line, v.why[Format(f)]))
	}
	return "", "", &Diagnostic{File: src.name, Message: fmt.Sprintf("cannot tell the format: the input has tools that look like %s; pass --from with the format to read", strings.Join(parts, " and "))}
}

type voter struct {
	src   *source
	first map[Format]loc
	why   map[Format]string
}

func (v *voter) vote(f Format, at loc, why string) {
	if _, ok := v.first[f]; !ok {
		v.first[f] = at
		v.why[f] = why
	}
}

// container walks request bodies and lists down to the tools.
func (v *voter) container(x any, at loc) {
	switch x := x.(type) {
	case []any:
		for i, item := range x {
			v.container(item, at.index(i))
		}
	case *spec.Map:
		if isCatalogueServer(x) {
			v.vote(MCP, at.key("tools"), "a catalogue of MCP servers with their tools")
			return
		}
		if x.Has("name") {
			v.tool(x, at)
			return
		}
		switch {
		case x.Has("functionDeclarations"):
			v.vote(Gemini, at.key("functionDeclarations"), "functionDeclarations")
		case x.Has("function_declarations"):
			v.vote(Gemini, at.key("function_declarations"), "function_declarations")
		case x.Has("jsonrpc") && x.Has("result"):
			v.vote(MCP, at, "a JSON-RPC response")
		case x.Has("functions"):
			v.vote(OpenAI, at.key("functions"), "a request body with functions")
		case x.Has("type") && x.Has("function"):
			v.vote(OpenAI, at, "type: function")
		case x.Has("tools"):
			t, _ := x.Get("tools")
			v.container(t, at.key("tools"))
		case x.Has("function"):
			if f, _ := x.Get("function"); f != nil {
				if _, ok := f.([]any); ok || x.Has("question") {
					v.vote(BFCL, at.key("function"), "a BFCL question with function")
					return
				}
			}
		case x.Has("config"):
			c, _ := x.Get("config")
			v.container(c, at.key("config"))
		}
	}
}

// tool votes for one tool object.
func (v *voter) tool(m *spec.Map, at loc) {
	if t, _ := m.GetString("type"); t == "function" {
		v.vote(OpenAI, at, "type: function")
		return
	}
	for _, k := range []string{"input_schema", "input_examples"} {
		if m.Has(k) {
			v.vote(Anthropic, at.key(k), k)
			return
		}
	}
	for _, k := range []string{"parametersJsonSchema", "responseJsonSchema"} {
		if m.Has(k) {
			v.vote(Gemini, at.key(k), k)
			return
		}
	}
	for _, k := range []string{"inputSchema", "outputSchema", "annotations", "arguments"} {
		if m.Has(k) {
			v.vote(MCP, at.key(k), k)
			return
		}
	}
	for _, k := range []string{"parameters", "response"} {
		s, ok := m.GetMap(k)
		if !ok {
			continue
		}
		t, _ := s.GetString("type")
		switch {
		case t == "dict":
			v.vote(BFCL, at.key(k).key("type"), k+" of type dict")
			return
		case isUpperType(t):
			v.vote(Gemini, at.key(k).key("type"), k+" of type "+t)
			return
		case k == "parameters":
			v.vote(OpenAI, at.key(k), "a function with parameters")
			return
		}
	}
}

// isUpperType reports a Gemini OpenAPI type enum name (OBJECT, STRING, ...).
func isUpperType(t string) bool {
	return t != "" && t == strings.ToUpper(t) && strings.ToLower(t) != t
}
