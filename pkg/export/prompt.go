package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

// The prompt format follows OpenAkita's progressive disclosure
// (README, "Exporting"): Level 1 is the tool list (name +
// description) injected into a system prompt; Level 2 is what a
// get_tool_info tool returns for one tool — description, detail, triggers,
// parameters, examples, warnings, prerequisites, related tools and
// workflow. Plain Markdown-ish text, bound parameters left out.

// promptTool is a tool's Level 1 line, or with Level 2 its full text.
func promptTool(t *spec.Tool, _ string, opts Options) (any, []Warning, []Problem) {
	if opts.Level == 2 {
		return ToolInfo(t), nil, nil
	}
	return ManifestLine(t), nil, nil
}

// promptDocument is the lines (level 1), or the texts separated by a blank
// line (level 2).
func promptDocument(r *Result) ([]byte, error) {
	var b bytes.Buffer
	for i, it := range r.Items {
		if i > 0 && r.Options.Level == 2 {
			b.WriteString("\n")
		}
		b.WriteString(it.Value.(string))
	}
	return b.Bytes(), nil
}

// Manifest is the Level 1 text of tools: one "name — description" line
// each.
func Manifest(tools []*spec.Tool) string {
	var b strings.Builder
	for _, t := range tools {
		b.WriteString(ManifestLine(t))
	}
	return b.String()
}

// ManifestLine is one tool's Level 1 line, newline included; the
// description is folded onto one line.
func ManifestLine(t *spec.Tool) string {
	d := oneLine(t.Description)
	if d == "" {
		return t.Name + "\n"
	}
	return t.Name + " — " + d + "\n"
}

// ToolInfo is the Level 2 text of one tool: everything the model needs to
// call it well, as get_tool_info returns it. Sections without content are
// left out.
func ToolInfo(t *spec.Tool) string {
	var b strings.Builder
	head := "# " + t.Name
	if t.Title != "" {
		head += " — " + oneLine(t.Title)
	}
	b.WriteString(head + "\n")
	para := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			b.WriteString("\n" + s + "\n")
		}
	}
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		b.WriteString("\n## " + title + "\n\n")
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	para(t.Description)
	para(t.Detail)
	section("When to use", bullets(t.Triggers))

	s := InputSchema(t)
	params := (&paramWriter{root: s}).lines(s)
	if len(params) == 0 {
		params = []string{"(none)"}
	}
	section("Parameters", params)

	var ex []string
	for i, e := range t.Examples {
		title := oneLine(e.Scenario)
		if title == "" {
			title = fmt.Sprintf("Example %d", i+1)
		}
		ex = append(ex, fmt.Sprintf("%d. %s", i+1, title))
		if p := exampleInput(t, e); p != "" {
			ex = append(ex, "   Input: "+p)
		}
		if e.Expected != nil {
			exp, ok := e.Expected.(string)
			if !ok {
				exp = compactJSON(e.Expected)
			}
			ex = append(ex, "   Result: "+oneLine(exp))
		}
	}
	section("Examples", ex)
	section("Warnings", bullets(t.Warnings))

	var pre []string
	for _, p := range t.Prerequisites {
		if p.Text != "" {
			pre = append(pre, "- "+oneLine(p.Text))
			continue
		}
		line := "- " + oneLine(p.Condition)
		var extra []string
		if p.CheckTool != "" {
			extra = append(extra, "check with "+p.CheckTool)
		}
		if p.ActionIfNotMet != "" {
			extra = append(extra, "if not met: "+oneLine(p.ActionIfNotMet))
		}
		if len(extra) > 0 {
			line += " (" + strings.Join(extra, "; ") + ")"
		}
		pre = append(pre, line)
	}
	section("Prerequisites", pre)

	var rel []string
	for _, r := range t.RelatedTools {
		line := "- " + r.Name
		if r.Relation != "" {
			line += " — " + oneLine(r.Relation)
		}
		rel = append(rel, line)
	}
	section("Related tools", rel)

	if w := t.Workflow; w != nil && len(w.Steps) > 0 {
		title := "Workflow"
		if w.Name != "" {
			title += ": " + oneLine(w.Name)
		}
		var steps []string
		for i, st := range w.Steps {
			n := fmt.Sprint(i + 1)
			if st.Step != nil {
				n = strings.TrimSpace(fmt.Sprint(plainValue(st.Step)))
			}
			line := n + ". " + oneLine(st.Action)
			tools := st.Tools
			if st.Tool != "" {
				tools = append([]string{st.Tool}, tools...)
			}
			if len(tools) > 0 {
				line += " → " + strings.Join(tools, ", ")
			}
			if st.Condition != "" {
				line += " (" + oneLine(st.Condition) + ")"
			}
			steps = append(steps, line)
		}
		section(title, steps)
	}
	return b.String()
}

func bullets(items []string) []string {
	out := make([]string, 0, len(items))
	for _, s := range items {
		out = append(out, "- "+oneLine(s))
	}
	return out
}

// oneLine folds whitespace runs (newlines included) into single spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func plainValue(v any) any {
	if n, ok := v.(json.Number); ok {
		return string(n)
	}
	return v
}

// exampleInput is an example's params as one line of JSON, bound
// parameters left out.
func exampleInput(t *spec.Tool, e spec.Example) string {
	if e.Params == nil {
		return ""
	}
	return compactJSON(unboundParams(t, e.Params))
}

// paramWriter renders a schema's properties as a nested list.
type paramWriter struct {
	root *spec.Map
}

// maxParamDepth bounds nesting (and recursive $refs) in the text.
const maxParamDepth = 6

// lines renders the parameter list of the Level 2 text: one line per
// parameter, members indented under their object (or array of objects).
func (w *paramWriter) lines(s *spec.Map) []string {
	var out []string
	for _, p := range w.params(s, "", 0, nil) {
		attrs := []string{p.Type, "optional"}
		if p.Required {
			attrs[1] = "required"
		}
		attrs = append(attrs, p.attrs...)
		line := strings.Repeat("  ", p.Depth) + "- " + p.Name + " (" + strings.Join(attrs, ", ") + ")"
		if d := oneLine(p.Description); d != "" {
			line += ": " + d
		}
		out = append(out, line)
	}
	return out
}

// deref follows a schema that is only a local $ref (or a one-element
// allOf of one), for display.
func (w *paramWriter) deref(s *spec.Map) *spec.Map {
	for range 8 {
		if v, ok := s.Get("allOf"); ok && len(asList(v)) == 1 {
			if m, ok := asList(v)[0].(*spec.Map); ok {
				merged := s.Clone()
				merged.Delete("allOf")
				mergeInto(merged, m)
				s = merged
				continue
			}
		}
		ref, ok := s.GetString("$ref")
		if !ok {
			return s
		}
		target, ok := compat.ResolveRef(w.root, ref)
		if !ok {
			return s
		}
		merged := s.Clone()
		merged.Delete("$ref")
		mergeInto(merged, target)
		s = merged
	}
	return s
}

// descriptionOf is a schema's description, or its title.
func descriptionOf(s *spec.Map) string {
	if d, ok := s.GetString("description"); ok && strings.TrimSpace(d) != "" {
		return d
	}
	t, _ := s.GetString("title")
	return t
}

// typeText names what a schema accepts: "string", "array of object",
// "string or null", "any".
func (w *paramWriter) typeText(s *spec.Map, depth int) string {
	s = w.deref(s)
	if depth > 3 {
		return "…"
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if v, ok := s.Get(kw); ok && !s.Has("type") {
			var alts []string
			for _, a := range asList(v) {
				if m, ok := a.(*spec.Map); ok {
					t := w.typeText(m, depth+1)
					if !slices.Contains(alts, t) {
						alts = append(alts, t)
					}
				}
			}
			if len(alts) > 0 {
				return strings.Join(alts, " or ")
			}
		}
	}
	types := compat.Types(s)
	if len(types) == 0 {
		c := s.Clone()
		inferType(c)
		types = compat.Types(c)
	}
	if len(types) == 0 {
		return "any"
	}
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = t
		if t == "array" {
			if items, ok := s.GetMap("items"); ok {
				parts[i] = "array of " + w.typeText(items, depth+1)
			}
		}
	}
	return strings.Join(parts, " or ")
}

// constraints lists a parameter's default, allowed values and bounds.
func constraints(s *spec.Map) []string {
	var out []string
	if v, ok := s.Get("default"); ok {
		out = append(out, "default: "+compactJSON(v))
	}
	if v, ok := s.Get("const"); ok {
		out = append(out, "always "+compactJSON(v))
	}
	if v, ok := s.Get("enum"); ok {
		out = append(out, "one of: "+enumText(asList(v)))
	}
	for _, kw := range []string{"format", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems"} {
		if v, ok := s.Get(kw); ok {
			out = append(out, kw+": "+noteValue(v))
		}
	}
	return out
}
