package tokens

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Suggestion is one way to make a tool cheaper.
type Suggestion struct {
	Tool    *spec.Tool
	Name    string
	Pointer string
	// Kind: description, repeated-schema, long-enum, ref-inlining.
	Kind    string
	Message string
	// Tokens is what the thing suggested about costs now (o200k_base
	// tokens of its JSON), the most the change can save.
	Tokens int
}

// Thresholds of the suggestions.
const (
	// SuggestDescriptionMax is lint's default description limit
	// (description-max-length): longer descriptions belong in detail.
	SuggestDescriptionMax = 200
	// SuggestEnumMax: an enum longer than this is worth a look.
	SuggestEnumMax = 20
	// suggestRepeatMin: a sub-schema repeated is reported from this size
	// (tokens of its JSON); smaller ones cost less than a $ref.
	suggestRepeatMin = 15
)

// Suggest lists savings in tools: descriptions over SuggestDescriptionMax
// characters, object sub-schemas repeated in one tool (a $defs entry
// would hold them once), enums over SuggestEnumMax values, and what
// inlining $refs costs where a provider form needs it (Gemini's legacy
// parameters). In tool order, then by pointer.
func Suggest(tools []*spec.Tool) []Suggestion {
	var out []Suggestion
	for _, t := range tools {
		out = append(out, suggestTool(t)...)
	}
	return out
}

func suggestTool(t *spec.Tool) []Suggestion {
	var out []Suggestion
	if n := utf8.RuneCountInString(t.Description); n > SuggestDescriptionMax {
		out = append(out, Suggestion{Tool: t, Name: t.Name, Pointer: "/description", Kind: "description", Tokens: Count(O200kBase, t.Description),
			Message: fmt.Sprintf("description is %d characters; keep what the model needs to choose the tool and move usage notes to detail, which get_tool_info returns on demand", n)})
	}
	schema := export.InputSchema(t)
	seen := map[string][]string{}
	var order []string
	var walk func(v any, ptr string, depth int)
	walk = func(v any, ptr string, depth int) {
		m, ok := v.(*spec.Map)
		if !ok || depth > 64 {
			return
		}
		if depth > 0 && m.Has("properties") {
			key := compactJSON(withoutDescription(m))
			if _, ok := seen[key]; !ok {
				order = append(order, key)
			}
			seen[key] = append(seen[key], ptr)
		}
		if e, ok := m.Get("enum"); ok {
			if items, ok := e.([]any); ok && len(items) > SuggestEnumMax {
				out = append(out, Suggestion{Tool: t, Name: t.Name, Pointer: "/input_schema" + ptr + "/enum", Kind: "long-enum", Tokens: Count(O200kBase, compactJSON(items)),
					Message: fmt.Sprintf("enum of %d values at %s; the model reads every value in every request: accept a free string validated by the tool, or split the tool", len(items), displayPtr(ptr))})
			}
		}
		for i := range m.Len() {
			k, sub := m.At(i)
			switch sub := sub.(type) {
			case *spec.Map:
				walk(sub, ptr+"/"+escape(k), depth+1)
			case []any:
				for j, x := range sub {
					walk(x, fmt.Sprintf("%s/%s/%d", ptr, escape(k), j), depth+1)
				}
			}
		}
	}
	walk(schema, "", 0)
	for _, key := range order {
		ptrs := seen[key]
		n := Count(O200kBase, key)
		if len(ptrs) < 2 || n < suggestRepeatMin {
			continue
		}
		shown := make([]string, len(ptrs))
		for i, p := range ptrs {
			shown[i] = displayPtr(p)
		}
		out = append(out, Suggestion{Tool: t, Name: t.Name, Pointer: "/input_schema" + ptrs[0], Kind: "repeated-schema", Tokens: n * (len(ptrs) - 1),
			Message: fmt.Sprintf("the same object schema (%d tokens) is written %d times (%s); define it once under $defs and $ref it (OpenAI, Anthropic and MCP keep $ref; Gemini's legacy form inlines it)", n, len(ptrs), strings.Join(shown, ", "))})
	}
	if strings.Contains(compactJSON(schema), `"$ref"`) {
		if inlined, plain := geminiCost(t, true), geminiCost(t, false); inlined > plain {
			out = append(out, Suggestion{Tool: t, Name: t.Name, Pointer: "/input_schema", Kind: "ref-inlining", Tokens: inlined - plain,
				Message: fmt.Sprintf("its $refs are inlined where a provider needs them: Gemini's legacy parameters form costs %d tokens against %d with parametersJsonSchema (+%d); export gemini without --legacy", inlined, plain, inlined-plain)})
		}
	}
	slices.SortStableFunc(out, func(a, b Suggestion) int {
		pa, pb := t.Span(a.Pointer).Start, t.Span(b.Pointer).Start
		if pa.Line != pb.Line {
			return pa.Line - pb.Line
		}
		if pa.Col != pb.Col {
			return pa.Col - pb.Col
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	return out
}

// geminiCost is the o200k tokens of t's Gemini declaration, legacy or not.
func geminiCost(t *spec.Tool, legacy bool) int {
	r, err := export.Build([]*spec.Tool{t}, export.Options{Format: export.Gemini, Legacy: legacy})
	if err != nil || len(r.Items) == 0 {
		return 0
	}
	return Count(O200kBase, compactJSON(r.Items[0].Value))
}

// withoutDescription is a schema without its own description: two
// parameters of one shape usually differ in what they are for.
func withoutDescription(m *spec.Map) *spec.Map {
	c := m.Clone()
	c.Delete("description")
	c.Delete("title")
	return c
}

func escape(k string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(k) }

// displayPtr shows a pointer inside the input schema as a parameter path:
// /properties/a/properties/b → a.b.
func displayPtr(ptr string) string {
	var parts []string
	toks := spec.SplitPointer(ptr)
	for i := 0; i < len(toks); i++ {
		switch {
		case toks[i] == "properties" && i+1 < len(toks):
			parts = append(parts, toks[i+1])
			i++
		case toks[i] == "items":
			parts = append(parts, "[]")
		default:
			parts = append(parts, toks[i])
		}
	}
	if len(parts) == 0 {
		return "the input schema"
	}
	return strings.ReplaceAll(strings.Join(parts, "."), ".[]", "[]")
}
