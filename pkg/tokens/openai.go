package tokens

import (
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// OpenAI's prompt accounting for function definitions.
//
// OpenAI renders the tools parameter into the model's prompt in a format
// of its own (a TypeScript-like "namespace functions"), so the prompt
// tokens differ from the tokens of the JSON sent. OpenAI's cookbook "How to
// count tokens with tiktoken", section 7 "Counting tokens for chat
// completions with tool calls"
// (https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken,
// num_tokens_for_tools), counts them as: per function func_init + the
// tokens of "name:description" (a final "." dropped); when it has
// properties prop_init, and per property prop_key + the tokens of
// "name:type:description" (a final "." dropped), plus for an enum
// enum_init and per item enum_item + the item's tokens; once per request
// func_end. Its constants, checked there against the API's prompt_tokens:
//
//	gpt-4o, gpt-4o-mini (o200k_base): func_init 7, prop_init 3, prop_key 3, enum_init -3, enum_item 3, func_end 12
//	gpt-3.5-turbo, gpt-4 (cl100k_base): func_init 10, the rest the same
//
// toolctl applies the o200k constants to every o200k model (gpt-4.1,
// gpt-5, the o-series) and the cl100k ones to every cl100k model. The
// cookbook counts top-level properties only; toolctl counts the
// properties of nested objects (properties, and items of arrays) the same
// way, since they are rendered too. Other schema keywords (anyOf, formats,
// bounds, defaults) are outside the cookbook's accounting and uncounted.
//
// $defs (and draft-07 definitions) are left out too, and not guessed at:
// how the hosted models render a $ref and its definition is not
// published. The cookbook's accounting has no $ref; OpenAI's open
// renderer of the same namespace format (openai/harmony, for gpt-oss)
// renders the parameters' properties only, a property that is only a
// $ref as "any", and never the $defs. So a $ref-heavy schema's count is a
// floor, and the JSON tokens of what was left out are reported beside it
// (Cost.UncountedDefs) for the output to say so.
type cookbook struct {
	funcInit, propInit, propKey, enumInit, enumItem, funcEnd int
}

func cookbookFor(encoding string) cookbook {
	if encoding == Cl100kBase {
		return cookbook{funcInit: 10, propInit: 3, propKey: 3, enumInit: -3, enumItem: 3, funcEnd: 12}
	}
	return cookbook{funcInit: 7, propInit: 3, propKey: 3, enumInit: -3, enumItem: 3, funcEnd: 12}
}

// openAIPrompt returns the prompt tokens of one function (name, the
// description and the parameters schema as exported) and its parts: the
// "name:description" line, each top-level property (with what is nested
// in it) and the fixed overheads as "rest".
func openAIPrompt(encoding, name, description string, params *spec.Map) (int, []Part) {
	k := cookbookFor(encoding)
	rest := k.funcInit
	desc := Count(encoding, name+":"+strings.TrimSuffix(description, "."))
	parts := []Part{{Kind: PartDescription, Pointer: "/description", Tokens: desc}}
	total := k.funcInit + desc
	props, _ := params.GetMap("properties")
	if props != nil && props.Len() > 0 {
		rest += k.propInit
		total += k.propInit
		for i := range props.Len() {
			key, v := props.At(i)
			n := k.property(encoding, key, v)
			total += n
			parts = append(parts, Part{Kind: PartParameter, Name: key, Pointer: spec.Pointer("input_schema", "properties", key), Tokens: n})
		}
	}
	parts = append(parts, Part{Kind: PartRest, Tokens: rest})
	return total, parts
}

// property is one property's tokens: prop_key, its "name:type:description"
// line, its enum, and (toolctl's extension) its nested properties.
func (k cookbook) property(encoding, key string, v any) int {
	s, _ := v.(*spec.Map)
	n := k.propKey
	if s == nil {
		return n + Count(encoding, key+"::")
	}
	desc, _ := s.GetString("description")
	n += Count(encoding, key+":"+typeText(s)+":"+strings.TrimSuffix(desc, "."))
	if e, ok := s.Get("enum"); ok {
		if items, ok := e.([]any); ok {
			n += k.enumInit
			for _, it := range items {
				n += k.enumItem + Count(encoding, scalarText(it))
			}
		}
	}
	n += k.nested(encoding, s)
	return n
}

// nested counts the properties of an object schema and of array items.
func (k cookbook) nested(encoding string, s *spec.Map) int {
	n := 0
	if props, ok := s.GetMap("properties"); ok {
		for i := range props.Len() {
			key, v := props.At(i)
			n += k.property(encoding, key, v)
		}
	}
	if items, ok := s.GetMap("items"); ok {
		n += k.nested(encoding, items)
	}
	return n
}

// typeText is a schema's type as the cookbook's line has it; a list of
// types is written as a TypeScript union.
func typeText(s *spec.Map) string {
	t, _ := s.Get("type")
	switch t := t.(type) {
	case string:
		return t
	case []any:
		parts := make([]string, 0, len(t))
		for _, x := range t {
			parts = append(parts, scalarText(x))
		}
		return strings.Join(parts, " | ")
	}
	return ""
}

// scalarText is an enum item or a type name as text: a string as itself,
// anything else as its JSON.
func scalarText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := spec.MarshalJSONIndent(v)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// uncountedDefs is the tokens of the JSON of every $defs and definitions
// member in schema ("$defs":{...}), which openAIPrompt leaves out. Only
// keyword positions are looked at: a property named definitions is a
// property.
func uncountedDefs(encoding string, schema *spec.Map) int {
	n := 0
	var walk func(v any)
	walk = func(v any) {
		switch s := v.(type) {
		case []any:
			for _, x := range s {
				walk(x)
			}
		case *spec.Map:
			for i := range s.Len() {
				key, x := s.At(i)
				switch key {
				case "$defs", "definitions":
					if _, ok := x.(*spec.Map); ok {
						n += Count(encoding, `"`+key+`":`+compactJSON(x))
					}
				case "properties", "patternProperties", "dependentSchemas":
					if m, ok := x.(*spec.Map); ok {
						for j := range m.Len() {
							_, y := m.At(j)
							walk(y)
						}
					}
				case "items", "additionalProperties", "not", "if", "then", "else", "contains",
					"propertyNames", "unevaluatedItems", "unevaluatedProperties",
					"anyOf", "oneOf", "allOf", "prefixItems":
					walk(x)
				}
			}
		}
	}
	walk(schema)
	return n
}
