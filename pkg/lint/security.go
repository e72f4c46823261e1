package lint

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

// The security pack: rules that read every text a model sees for what is
// addressed to the model rather than to the person reading the file
// (hidden characters, look-alike names, instructions, requests for
// secrets, links). They are on by default; toolctl scan runs them alone.

// PackSecurity names the security rules (Rule.Pack).
const PackSecurity = "security"

// modelText is one text of a tool that goes into the model's context.
type modelText struct {
	ptr string // canonical JSON pointer
	// key: the text is the mapping key ptr ends at (a parameter or
	// property name), not a value.
	key  bool
	text string
	// name: a tool or parameter name.
	name bool
	// prose: a title, description, detail or scenario (not a value).
	prose bool
}

// label is how a message names where the text is: "description",
// "input_schema.properties.path.description", "parameter name path".
func (m modelText) label() string {
	p := strings.TrimPrefix(m.ptr, "/")
	toks := spec.SplitPointer(m.ptr)
	if m.key && len(toks) > 0 {
		return "property name " + strconv.Quote(toks[len(toks)-1])
	}
	if p == "" {
		return "the tool"
	}
	return strings.Join(toks, ".")
}

// modelTexts calls each for every text of t a model sees: name, title,
// description, detail, annotations.title, example scenarios and
// parameters, and in the input and output schemas every property name,
// title, description, enum value, const, default and example.
func modelTexts(t *spec.Tool, each func(modelText)) {
	str := func(ptr, s string) {
		if s != "" {
			each(modelText{ptr: ptr, text: s, prose: true})
		}
	}
	if t.Name != "" {
		each(modelText{ptr: "/name", text: t.Name, name: true})
	}
	str("/title", t.Title)
	str("/description", t.Description)
	str("/detail", t.Detail)
	if t.Annotations != nil {
		str("/annotations/title", t.Annotations.Title)
	}
	if t.InputSchema != nil {
		schemaTexts(t.InputSchema, "/input_schema", 0, true, each)
	}
	if t.OutputSchema != nil {
		schemaTexts(t.OutputSchema, "/output_schema", 0, false, each)
	}
	for i, ex := range t.Examples {
		base := "/examples/" + strconv.Itoa(i)
		str(base+"/scenario", ex.Scenario)
		if ex.Params != nil {
			valueTexts(ex.Params, base+"/params", 0, each)
		}
	}
}

// schemaTexts walks a JSON Schema's texts (see modelTexts); names tells
// that its property names are parameter names.
func schemaTexts(m *spec.Map, ptr string, depth int, names bool, each func(modelText)) {
	if depth > 32 {
		return
	}
	for i := range m.Len() {
		k, v := m.At(i)
		p := ptr + "/" + escape(k)
		switch k {
		case "title", "description":
			if s, ok := v.(string); ok && s != "" {
				each(modelText{ptr: p, text: s, prose: true})
			}
		case "enum", "examples", "default", "const":
			valueTexts(v, p, depth, each)
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			props, ok := v.(*spec.Map)
			if !ok {
				continue
			}
			for j := range props.Len() {
				name, sub := props.At(j)
				pp := p + "/" + escape(name)
				if k == "properties" {
					each(modelText{ptr: pp, key: true, text: name, name: names && depth == 0})
				}
				if sm, ok := sub.(*spec.Map); ok {
					schemaTexts(sm, pp, depth+1, names, each)
				}
			}
		case "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames":
			if sm, ok := v.(*spec.Map); ok {
				schemaTexts(sm, p, depth+1, names, each)
			}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if list, ok := v.([]any); ok {
				for j, sub := range list {
					if sm, ok := sub.(*spec.Map); ok {
						schemaTexts(sm, p+"/"+strconv.Itoa(j), depth+1, names, each)
					}
				}
			}
		}
	}
}

// valueTexts calls each for every string inside a JSON value.
func valueTexts(v any, ptr string, depth int, each func(modelText)) {
	if depth > 32 {
		return
	}
	switch v := v.(type) {
	case string:
		if v != "" {
			each(modelText{ptr: ptr, text: v})
		}
	case []any:
		for i, x := range v {
			valueTexts(x, ptr+"/"+strconv.Itoa(i), depth+1, each)
		}
	case *spec.Map:
		for i := range v.Len() {
			k, x := v.At(i)
			valueTexts(x, ptr+"/"+escape(k), depth+1, each)
		}
	}
}

// reportText adds a finding at bytes [from, to) of a model text (to ==
// from: the character at from). When the source cannot be matched with
// the text (a value toolctl derived), it is at the value, and the message
// says where in it.
func (r *Reporter) reportText(t *spec.Tool, m modelText, from, to int, format string, args ...any) {
	span, exact := t.StringSpan(m.ptr, m.key, from, to)
	msg := fmt.Sprintf(format, args...)
	if !exact && from > 0 {
		msg += fmt.Sprintf(" (at character %d of the %s)", utf8.RuneCountInString(m.text[:from])+1, m.label())
	}
	r.add(t.Path(), span, "%s", msg)
	f := &r.findings[len(r.findings)-1]
	f.Pointer, f.Tool = m.ptr, t.Name
}

// quoteText is a short excerpt for a message: at most n characters,
// control and invisible characters escaped.
func quoteText(s string, n int) string {
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n]) + "…"
	}
	return strconv.QuoteToGraphic(s)
}

// isASCII tells whether s is all ASCII: most texts are, and then the
// character rules have nothing to look at.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
