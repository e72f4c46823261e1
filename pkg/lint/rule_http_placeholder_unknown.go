package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/tmpl"
)

var ruleHTTPPlaceholderUnknown = &Rule{
	ID:          "http-placeholder-unknown",
	Severity:    Error,
	Description: "Every {param} in an http entry's url, query and headers names a parameter of the tool.",
	Explain: `A placeholder that names no parameter is sent as it is written: the request
goes to /weather/{town} while the agent's value for city is dropped or put
in the query string. toolctl run refuses such a tool.

Bad:
  entry:
    type: http
    url: https://api.example.org/weather/{town}
  parameters:
    - {name: city, type: string, description: City name., required: true}

Good:
  entry:
    type: http
    url: https://api.example.org/weather/{city}
  parameters:
    - {name: city, type: string, description: City name., required: true}`,
	Tool: func(r *Reporter, t *spec.Tool) {
		e := t.Entry
		if e == nil || e.Kind() != spec.EntryHTTP {
			return
		}
		props, _ := t.InputSchema.GetMap("properties")
		check := func(ptr, text string) {
			for _, ref := range tmpl.Params(text) {
				if props.Has(ref.Name) || fixedParam(t, ref.Name) {
					continue
				}
				msg := "{%s} in the %s names no parameter, so it would be sent as written"
				args := []any{ref.Name, placeWord(ptr)}
				if s := spec.Suggest(ref.Name, props.Keys()); s != "" {
					msg += "; did you mean {%s}?"
					args = append(args, s)
				} else {
					msg += "; declare a parameter %q or remove the placeholder"
					args = append(args, ref.Name)
				}
				r.ReportSpan(t, textSpan(t, ptr, text, ref.Off, ref.End), msg, args...)
			}
		}
		check("/entry/url", e.URL)
		for _, section := range []struct {
			field string
			m     *spec.Map
		}{{"query", e.Query}, {"headers", e.Headers}} {
			for i := range section.m.Len() {
				name, v := section.m.At(i)
				ptr := spec.Pointer("entry", section.field, name)
				if s, ok := v.(string); ok {
					check(ptr, s)
				}
			}
		}
	},
}

// placeWord names the part of an entry a pointer is in, for messages.
func placeWord(ptr string) string {
	switch tokens := spec.SplitPointer(ptr); {
	case len(tokens) >= 3 && tokens[1] == "query":
		return "query parameter " + tokens[2]
	case len(tokens) >= 3 && tokens[1] == "headers":
		return "header " + tokens[2]
	}
	return "url"
}
