package export

import "github.com/toolctl/toolctl/pkg/spec"

// Param is one parameter of a schema, flattened for a table (toolctl docs):
// the members of an object parameter, and of the objects of an array
// parameter, follow their parent.
type Param struct {
	// Path is the dotted name: "headers", "filter.field", "items[].sku".
	Path string
	// Name is the parameter's own key, Depth its nesting level (0 at top).
	Name  string
	Depth int
	// Type names what it accepts, as in the prompt format: "string",
	// "array of object", "string or null", "any".
	Type     string
	Required bool
	// Default is set when HasDefault; a default may be null.
	Default    any
	HasDefault bool
	// Enum lists the allowed values; nil when there is no enum.
	Enum     []any
	Const    any
	HasConst bool
	// Constraints are the other keywords as "keyword: value" (format,
	// pattern, minimum, ..., uniqueItems), in that order.
	Constraints []string
	// Description is the schema's description (or title) as written:
	// callers fold or render it.
	Description string

	// attrs are default, const, enum and Constraints as the prompt format
	// writes them.
	attrs []string
}

// Params flattens the properties of schema with the same $ref / allOf
// resolution, type names, constraints and depth limit as the prompt
// format's parameter list (ToolInfo), so docs and get_tool_info agree.
// Pass InputSchema(t) to leave bound parameters out.
func Params(schema *spec.Map) []Param {
	if schema == nil {
		return nil
	}
	w := &paramWriter{root: schema}
	return w.params(schema, "", 0, nil)
}

// params walks the properties depth first in source order, collecting
// one row per parameter (the prompt's list and the docs' table).
func (w *paramWriter) params(s *spec.Map, prefix string, depth int, out []Param) []Param {
	s = w.deref(s)
	props, _ := s.GetMap("properties")
	if props.Len() == 0 || depth > maxParamDepth {
		return out
	}
	req := requiredSet(s)
	for i := range props.Len() {
		key, v := props.At(i)
		child, ok := v.(*spec.Map)
		if !ok {
			continue
		}
		child = w.deref(child)
		p := Param{
			Path:        prefix + key,
			Name:        key,
			Depth:       depth,
			Type:        w.typeText(child, 0),
			Required:    req[key],
			Description: descriptionOf(child),
		}
		p.Default, p.HasDefault = child.Get("default")
		p.Const, p.HasConst = child.Get("const")
		if e, ok := child.Get("enum"); ok {
			p.Enum = append([]any{}, asList(e)...)
		}
		// constraints lists default, const and enum first (each when
		// present); they have fields of their own here.
		skip := 0
		for _, kw := range []string{"default", "const", "enum"} {
			if child.Has(kw) {
				skip++
			}
		}
		p.attrs = constraints(child)
		if len(p.attrs) > skip {
			p.Constraints = p.attrs[skip:]
		}
		out = append(out, p)
		inner, sep := child, "."
		if items, ok := child.GetMap("items"); ok {
			inner, sep = w.deref(items), "[]."
		}
		out = w.params(inner, p.Path+sep, depth+1, out)
	}
	return out
}

// outputContent is the media type of the tool's output (output.content),
// "" when it declares none.
func outputContent(t *spec.Tool) string {
	if t.Output == nil {
		return ""
	}
	return t.Output.Content
}
