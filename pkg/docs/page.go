package docs

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/spec"
)

// The page model: what both renderers show. Text fields hold inline
// Markdown as written in the tool file (descriptions often carry `code`);
// Detail holds block Markdown.

type indexPage struct {
	Tools  int
	Groups []group
}

type group struct {
	// Heading is the category, or noCategory.
	Heading string
	Anchor  string
	Tools   []indexRow
}

// noCategory heads the tools without a category; parentheses keep it from
// clashing with a category of that name.
const noCategory = "(no category)"

type indexRow struct {
	Tool        link
	Description string
	// Entry is the entry type; "" for a definition-only tool.
	Entry string
}

type toolPage struct {
	Name        string
	Title       string
	Description string
	Detail      string
	Category    string
	// CategoryAnchor is the category's anchor in the index.
	CategoryAnchor string
	Entry          string
	// EntryNote says more about the entry (its handler, method, function
	// or tool), EntryLabel which of those it is.
	EntryLabel string
	EntryNote  string
	Version    string
	Author     string
	Tags       []string
	Hints      []string
	Source     string

	Params        []export.Param
	Bound         []bound
	Returns       *returns
	Examples      []example
	Warnings      []string
	Prerequisites []prereq
	Triggers      []string
	Related       []related
	Workflow      *workflow
}

type bound struct {
	Param string
	// Kind is env, config or value; Ref the variable or key.
	Kind string
	Ref  string
}

type returns struct {
	Description string
	// Type is the schema's type when it has no fields to list.
	Type   string
	Fields []export.Param
	// Content is output.content: the media type of the content returned.
	Content string
}

type example struct {
	Title  string
	Anchor string
	// Params is indented JSON, "" when the example has none.
	Params string
	// Expected is indented JSON, or the text as written when Lang is text.
	Expected string
	Lang     string
}

type prereq struct {
	Text   string
	Check  *link
	Action string
}

type related struct {
	Tool     link
	Relation string
}

type workflow struct {
	Name  string
	Steps []step
}

type step struct {
	// Label is the step's own label when it differs from its position.
	Label     string
	Action    string
	Tools     []link
	Condition string
}

// Section anchors of a tool page, fixed so that links to them stay valid.
const (
	anchorDetails       = "details"
	anchorParameters    = "parameters"
	anchorReturns       = "returns"
	anchorExamples      = "examples"
	anchorWarnings      = "warnings"
	anchorPrerequisites = "prerequisites"
	anchorTriggers      = "when-to-use"
	anchorRelated       = "related-tools"
	anchorWorkflow      = "workflow"
)

func (s *toolSet) indexModel() *indexPage {
	byCat := map[string][]*spec.Tool{}
	for _, t := range s.sorted {
		byCat[strings.TrimSpace(t.Category)] = append(byCat[strings.TrimSpace(t.Category)], t)
	}
	cats := make([]string, 0, len(byCat))
	for c := range byCat {
		if c != "" {
			cats = append(cats, c)
		}
	}
	sort.Strings(cats)
	if _, ok := byCat[""]; ok {
		cats = append(cats, "")
	}
	slugs := newSlugger()
	slugs.add(indexTitle)
	p := &indexPage{Tools: len(s.sorted)}
	for _, c := range cats {
		heading := c
		if c == "" {
			heading = noCategory
		}
		g := group{Heading: heading, Anchor: slugs.add(heading)}
		for _, t := range byCat[c] {
			g.Tools = append(g.Tools, indexRow{Tool: s.link(t.Name), Description: oneLine(t.Description), Entry: t.EntryKind()})
		}
		p.Groups = append(p.Groups, g)
	}
	return p
}

// indexTitle is the index's heading.
const indexTitle = "Tools"

// categoryAnchor is the index anchor of a category.
func (s *toolSet) categoryAnchor(category string) string {
	if s.anchors == nil {
		s.anchors = map[string]string{}
		for _, g := range s.indexModel().Groups {
			s.anchors[g.Heading] = g.Anchor
		}
	}
	heading := strings.TrimSpace(category)
	if heading == "" {
		heading = noCategory
	}
	return s.anchors[heading]
}

func (s *toolSet) pageModel(t *spec.Tool) *toolPage {
	p := &toolPage{
		Name:           t.Name,
		Title:          oneLine(t.Title),
		Description:    strings.TrimSpace(t.Description),
		Detail:         shiftHeadings(strings.TrimSpace(t.Detail), 3),
		Category:       strings.TrimSpace(t.Category),
		CategoryAnchor: s.categoryAnchor(t.Category),
		Entry:          t.EntryKind(),
		Version:        t.Version,
		Author:         oneLine(t.Author),
		Tags:           t.Tags,
		Source:         s.source(t),
		Params:         export.Params(export.InputSchema(t)),
		Warnings:       t.Warnings,
		Triggers:       t.Triggers,
	}
	if p.Title == "" && t.Annotations != nil {
		p.Title = oneLine(t.Annotations.Title)
	}
	if e := t.Entry; e != nil {
		switch e.Kind() {
		case spec.EntryBuiltin:
			p.EntryLabel, p.EntryNote = "handler", e.Handler
		case spec.EntryHTTP:
			p.EntryLabel, p.EntryNote = "method", strings.ToUpper(e.Method)
		case spec.EntryPython:
			if e.Module != "" && e.Function != "" {
				p.EntryLabel, p.EntryNote = "function", e.Module+"."+e.Function
			}
		case spec.EntryMCP:
			p.EntryLabel, p.EntryNote = "tool", e.Tool
		}
	}
	if a := t.Annotations; a != nil {
		for _, h := range []struct {
			v    *bool
			name string
		}{{a.ReadOnlyHint, "read-only"}, {a.DestructiveHint, "destructive"}, {a.IdempotentHint, "idempotent"}, {a.OpenWorldHint, "open world"}} {
			if h.v != nil && *h.v {
				p.Hints = append(p.Hints, h.name)
			}
		}
	}
	for _, b := range t.Bind {
		ref := b.Ref
		if b.Kind == spec.BindValue {
			ref = "" // a literal may be a secret: say only that it is fixed
		}
		p.Bound = append(p.Bound, bound{Param: b.Param, Kind: string(b.Kind), Ref: ref})
	}
	if out := t.OutputSchema; out != nil {
		r := &returns{Description: strings.TrimSpace(descriptionOf(out)), Fields: export.Params(out)}
		if len(r.Fields) == 0 {
			r.Type = typeOf(out)
		}
		p.Returns = r
	}
	if o := t.Output; o != nil && o.Content != "" {
		if p.Returns == nil {
			p.Returns = &returns{}
		}
		p.Returns.Content = o.Content
	}

	// Example headings share the page's anchors with its sections.
	slugs := newSlugger()
	for _, a := range []string{t.Name, anchorDetails, anchorParameters, anchorReturns, anchorExamples, anchorWarnings, anchorPrerequisites, anchorTriggers, anchorRelated, anchorWorkflow} {
		slugs.add(a)
	}
	bindSet := map[string]bool{}
	for _, b := range t.Bind {
		bindSet[b.Param] = true
	}
	for i, e := range t.Examples {
		ex := example{Title: oneLine(e.Scenario)}
		if ex.Title == "" {
			ex.Title = fmt.Sprintf("Example %d", i+1)
		}
		ex.Anchor = slugs.add("example " + ex.Title)
		if e.Params != nil {
			params := e.Params.Clone()
			for name := range bindSet {
				params.Delete(name)
			}
			ex.Params = indentJSON(params)
		}
		switch v := e.Expected.(type) {
		case nil:
		case string:
			ex.Expected, ex.Lang = strings.TrimRight(v, "\n"), "text"
		default:
			ex.Expected, ex.Lang = indentJSON(v), "json"
		}
		p.Examples = append(p.Examples, ex)
	}
	for _, pr := range t.Prerequisites {
		q := prereq{Text: strings.TrimSpace(pr.Text), Action: strings.TrimSpace(pr.ActionIfNotMet)}
		if q.Text == "" {
			q.Text = strings.TrimSpace(pr.Condition)
		}
		if pr.CheckTool != "" {
			l := s.link(pr.CheckTool)
			q.Check = &l
		}
		p.Prerequisites = append(p.Prerequisites, q)
	}
	for _, r := range t.RelatedTools {
		p.Related = append(p.Related, related{Tool: s.link(r.Name), Relation: strings.TrimSpace(r.Relation)})
	}
	if w := t.Workflow; w != nil && (len(w.Steps) > 0 || w.Name != "") {
		wf := &workflow{Name: oneLine(w.Name)}
		for i, st := range w.Steps {
			x := step{Action: strings.TrimSpace(st.Action), Condition: strings.TrimSpace(st.Condition)}
			if st.Step != nil {
				label := strings.TrimSpace(fmt.Sprint(st.Step))
				if label != fmt.Sprint(i+1) {
					x.Label = label
				}
			}
			names := st.Tools
			if st.Tool != "" {
				names = append([]string{st.Tool}, names...)
			}
			for _, n := range names {
				x.Tools = append(x.Tools, s.link(n))
			}
			wf.Steps = append(wf.Steps, x)
		}
		p.Workflow = wf
	}
	return p
}

func indentJSON(v any) string {
	b, err := spec.MarshalJSONIndent(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimRight(string(b), "\n")
}

func descriptionOf(s *spec.Map) string {
	if d, ok := s.GetString("description"); ok && strings.TrimSpace(d) != "" {
		return d
	}
	t, _ := s.GetString("title")
	return t
}

// typeOf names a schema's type for a returns without fields.
func typeOf(s *spec.Map) string {
	v, _ := s.Get("type")
	switch v := v.(type) {
	case string:
		if v == "array" {
			if items, ok := s.GetMap("items"); ok {
				if it := typeOf(items); it != "" {
					return "array of " + it
				}
			}
		}
		return v
	case []any:
		var parts []string
		for _, x := range v {
			if t, ok := x.(string); ok {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, " or ")
	}
	return ""
}

// oneLine folds whitespace runs (newlines included) into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// slugger makes GitHub-style heading anchors, numbering repeats (x, x-1,
// x-2) the way GitHub does, so that Markdown links resolve there too.
type slugger map[string]int

func newSlugger() slugger { return slugger{} }

func (sl slugger) add(heading string) string {
	base := slug(heading)
	s := base
	for {
		if _, taken := sl[s]; !taken {
			break
		}
		sl[base]++
		s = fmt.Sprintf("%s-%d", base, sl[base])
	}
	sl[s] = 0
	return s
}

// slug lower-cases, keeps letters, digits, - and _, turns spaces into -.
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

var (
	fenceRe   = lazyRegexp("^ {0,3}(`{3,}|~{3,})")
	headingRe = lazyRegexp(`^( {0,3})(#{1,6})([ \t]|$)`)
)

// shiftHeadings deepens the ATX headings of Markdown (outside code blocks)
// so that the highest becomes level top: a detail's "# Usage" must not
// compete with the page's own title and sections.
func shiftHeadings(md string, top int) string {
	lines := strings.Split(md, "\n")
	minLevel := 7
	eachHeading(lines, func(i, level int, m []int) {
		minLevel = min(minLevel, level)
	})
	if minLevel >= top || minLevel == 7 {
		return md
	}
	shift := top - minLevel
	eachHeading(lines, func(i, level int, m []int) {
		l := lines[i]
		lines[i] = l[:m[4]] + strings.Repeat("#", min(level+shift, 6)) + l[m[5]:]
	})
	return strings.Join(lines, "\n")
}

// eachHeading calls fn for every ATX heading line outside fenced code.
func eachHeading(lines []string, fn func(i, level int, m []int)) {
	fence := ""
	for i, l := range lines {
		if m := fenceRe().FindStringSubmatch(l); m != nil {
			switch {
			case fence == "":
				fence = m[1]
			case m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), m[1][:1])) == "":
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		if m := headingRe().FindStringSubmatchIndex(l); m != nil {
			fn(i, m[5]-m[4], m)
		}
	}
}
