package docs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/toolctl/toolctl/pkg/export"
)

type markdownRenderer struct{}

func (markdownRenderer) index(p *indexPage) ([]byte, error) {
	var b strings.Builder
	b.WriteString("<!-- " + Marker + " -->\n\n")
	b.WriteString("# " + indexTitle + "\n\n")
	b.WriteString(summary(p) + "\n")
	if len(p.Groups) > 1 {
		b.WriteString("\n")
		for _, g := range p.Groups {
			fmt.Fprintf(&b, "- [%s](#%s) (%d)\n", mdInline(g.Heading), g.Anchor, len(g.Tools))
		}
	}
	for _, g := range p.Groups {
		b.WriteString("\n## " + mdInline(g.Heading) + "\n\n")
		b.WriteString("| Tool | Description | Entry |\n| --- | --- | --- |\n")
		for _, r := range g.Tools {
			entry := r.Entry
			if entry == "" {
				entry = "definition only"
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", mdLink(r.Tool), mdCell(mdInline(r.Description)), mdCell(mdInline(entry)))
		}
	}
	return []byte(b.String()), nil
}

// summary is the index's first line: "16 tools in 4 categories."
func summary(p *indexPage) string {
	cats := 0
	for _, g := range p.Groups {
		if g.Heading != noCategory {
			cats++
		}
	}
	s := plural(p.Tools, "tool", "tools")
	if cats > 0 {
		s += " in " + plural(cats, "category", "categories")
	}
	return s + "."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func (markdownRenderer) page(p *toolPage) ([]byte, error) {
	var b strings.Builder
	b.WriteString("<!-- " + Marker + " -->\n\n")
	b.WriteString("# " + mdInline(p.Name) + "\n")
	if p.Description != "" {
		b.WriteString("\n" + mdLead(p.Description) + "\n")
	}

	var meta []string
	item := func(label, value string) {
		if value != "" {
			meta = append(meta, "- **"+label+":** "+value)
		}
	}
	item("Title", mdInline(p.Title))
	if p.Category != "" {
		item("Category", fmt.Sprintf("[%s](%s#%s)", mdInline(p.Category), Markdown.IndexName(), p.CategoryAnchor))
	}
	item("Entry", entryText(p, codeSpan, mdInline))
	item("Version", mdInline(p.Version))
	item("Author", mdInline(p.Author))
	item("Tags", joinMapped(p.Tags, codeSpan))
	item("Hints", strings.Join(p.Hints, ", "))
	if p.Source != "" {
		item("Source", fmt.Sprintf("[%s](%s)", codeSpan(p.Source), pathURL(p.Source)))
	}
	if len(meta) > 0 {
		b.WriteString("\n" + strings.Join(meta, "\n") + "\n")
	}

	section := func(title string) { b.WriteString("\n## " + title + "\n\n") }
	if p.Detail != "" {
		section("Details")
		b.WriteString(mdBlock(p.Detail) + "\n")
	}

	section("Parameters")
	if len(p.Params) == 0 {
		b.WriteString("None.\n")
	} else {
		b.WriteString("| Name | Type | Required | Default | Enum | Description |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, x := range p.Params {
			def := ""
			if x.HasDefault {
				def = codeSpan(compactJSON(x.Default))
			}
			req := "no"
			if x.Required {
				req = "yes"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", mdCell(codeSpan(x.Path)), mdCell(mdInline(x.Type)), req, mdCell(def),
				mdCell(joinMapped(jsonValues(x.Enum), codeSpan)), mdCell(paramText(x, codeSpan, mdInline)))
		}
	}
	if len(p.Bound) > 0 {
		b.WriteString("\nBound at run time, never passed by the caller: " + boundText(p.Bound, codeSpan) + ".\n")
	}

	if r := p.Returns; r != nil {
		section("Returns")
		var parts []string
		if r.Description != "" {
			parts = append(parts, mdLead(r.Description))
		}
		if r.Content != "" {
			parts = append(parts, "Content: "+codeSpan(r.Content)+".")
		}
		if r.Type != "" {
			parts = append(parts, "Type: "+codeSpan(r.Type)+".")
		}
		if len(r.Fields) > 0 {
			var t strings.Builder
			t.WriteString("| Name | Type | Description |\n| --- | --- | --- |\n")
			for _, x := range r.Fields {
				fmt.Fprintf(&t, "| %s | %s | %s |\n", mdCell(codeSpan(x.Path)), mdCell(mdInline(x.Type)), mdCell(paramText(x, codeSpan, mdInline)))
			}
			parts = append(parts, strings.TrimRight(t.String(), "\n"))
		}
		if len(parts) == 0 {
			parts = append(parts, "Any value.")
		}
		b.WriteString(strings.Join(parts, "\n\n") + "\n")
	}

	if len(p.Examples) > 0 {
		section("Examples")
		for i, e := range p.Examples {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString("### " + mdInline(e.Title) + "\n")
			if e.Params != "" {
				b.WriteString("\nParameters:\n\n" + fenced("json", e.Params))
			}
			if e.Expected != "" {
				b.WriteString("\nExpected result:\n\n" + fenced(e.Lang, e.Expected))
			}
		}
	}

	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		section(title)
		for _, it := range items {
			b.WriteString("- " + it + "\n")
		}
	}
	list("Warnings", mapped(p.Warnings, mdLead))
	var pre []string
	for _, q := range p.Prerequisites {
		pre = append(pre, prereqText(q, mdLead, mdInline, mdLink))
	}
	list("Prerequisites", pre)
	list("When to use", mapped(p.Triggers, mdLead))
	var rel []string
	for _, r := range p.Related {
		line := mdLink(r.Tool)
		if r.Relation != "" {
			line += " — " + mdInline(r.Relation)
		}
		rel = append(rel, line)
	}
	list("Related tools", rel)

	if w := p.Workflow; w != nil {
		section("Workflow")
		if w.Name != "" {
			b.WriteString("**" + mdInline(w.Name) + "**\n\n")
		}
		for i, st := range w.Steps {
			fmt.Fprintf(&b, "%d. %s\n", i+1, stepText(st, mdLead, mdInline, mdLink))
		}
		if len(w.Steps) == 0 {
			b.WriteString("No steps.\n")
		}
	}
	return []byte(b.String()), nil
}

// The helpers below take the format's escapers, so that the Markdown and
// HTML pages word things the same way.

func entryText(p *toolPage, code, inline func(string) string) string {
	if p.Entry == "" {
		return ""
	}
	s := inline(p.Entry)
	if p.EntryNote != "" {
		s += ", " + p.EntryLabel + " " + code(p.EntryNote)
	}
	return s
}

// paramText is a parameter's description with its other constraints.
func paramText(x export.Param, code, inline func(string) string) string {
	var notes []string
	if x.HasConst {
		notes = append(notes, "always "+code(compactJSON(x.Const)))
	}
	for _, c := range x.Constraints {
		kw, v, _ := strings.Cut(c, ": ")
		notes = append(notes, kw+" "+code(v))
	}
	d := inline(oneLine(x.Description))
	if len(notes) == 0 {
		return d
	}
	if d == "" {
		return strings.Join(notes, ", ")
	}
	return d + " — " + strings.Join(notes, ", ")
}

func boundText(bs []bound, code func(string) string) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		from := "a fixed value"
		switch b.Kind {
		case "env":
			from = "environment variable " + code(b.Ref)
		case "config":
			from = "config key " + code(b.Ref)
		}
		parts[i] = code(b.Param) + " (" + from + ")"
	}
	return strings.Join(parts, ", ")
}

func prereqText(q prereq, lead, inline func(string) string, linkTo func(link) string) string {
	s := lead(oneLine(q.Text))
	var extra []string
	if q.Check != nil {
		extra = append(extra, "check with "+linkTo(*q.Check))
	}
	if q.Action != "" {
		extra = append(extra, "if not met: "+inline(oneLine(q.Action)))
	}
	if len(extra) > 0 {
		if s != "" {
			s += " — "
		}
		s += strings.Join(extra, "; ")
	}
	return s
}

func stepText(st step, lead, inline func(string) string, linkTo func(link) string) string {
	s := lead(oneLine(st.Action))
	if st.Label != "" {
		s = inline("Step "+st.Label+":") + " " + s
	}
	if len(st.Tools) > 0 {
		names := make([]string, len(st.Tools))
		for i, l := range st.Tools {
			names[i] = linkTo(l)
		}
		s += " → " + strings.Join(names, ", ")
	}
	if st.Condition != "" {
		s += " (condition: " + inline(oneLine(st.Condition)) + ")"
	}
	return strings.TrimSpace(s)
}

func mapped(items []string, fn func(string) string) []string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = fn(oneLine(s))
	}
	return out
}

func joinMapped(items []string, fn func(string) string) string {
	return strings.Join(mapped(items, fn), ", ")
}

func jsonValues(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = compactJSON(v)
	}
	return out
}

// compactJSON is one-line JSON, as the prompt format writes values.
func compactJSON(v any) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(indentJSON(v))); err != nil {
		return fmt.Sprint(v)
	}
	return b.String()
}

// mdLink is a link to a tool's page, or its name in code when the tool is
// not in the set.
func mdLink(l link) string {
	if l.File == "" {
		return codeSpan(l.Name) + " (not documented here)"
	}
	return "[" + codeSpan(l.Name) + "](" + l.File + ")"
}

// pathURL escapes each segment of a relative path for a link target.
func pathURL(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

var entityRe = lazyRegexp(`^&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);`)

// mdInline makes one line of inline Markdown from a tool file safe to
// embed: whitespace folded, then mdSafe.
func mdInline(s string) string { return mdSafe(oneLine(s)) }

// mdSafe keeps a tool file's Markdown as written except what the HTML
// pages refuse too: outside code spans, < is escaped (raw HTML shows as
// text) unless it starts an http, https or mailto autolink, & is escaped
// where it would start an entity, and a link to another kind of target
// (javascript:, data:) keeps only its text.
func mdSafe(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			b.WriteString(s[i : i+2])
			i += 2
			continue
		case c == '`':
			end := skipCode(s, i)
			b.WriteString(s[i:end])
			i = end
			continue
		case c == '[':
			if text, target, n := parseLink(s, i); n > 0 {
				if safeURL(target) {
					b.WriteString("[" + mdSafe(text) + "]" + s[i+len(text)+2:i+n])
				} else {
					b.WriteString(mdSafe(text))
				}
				i += n
				continue
			}
		case c == '<':
			if m := autolinkRe().FindString(s[i:]); m != "" {
				b.WriteString(m)
				i += len(m)
				continue
			}
			b.WriteString("&lt;")
			i++
			continue
		case c == '&' && entityRe().MatchString(s[i:]):
			b.WriteString("&amp;")
			i++
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

var anyFenceRe = lazyRegexp("^[ \t]*(`{3,}|~{3,})")

// mdBlock applies mdSafe to block Markdown (a detail), line by line,
// leaving fenced code blocks as they are.
func mdBlock(md string) string {
	lines := strings.Split(md, "\n")
	fence := ""
	for i, l := range lines {
		if m := anyFenceRe().FindStringSubmatch(l); m != nil {
			switch {
			case fence == "":
				fence = m[1]
			case m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.Trim(strings.TrimSpace(l), m[1][:1]) == "":
				fence = ""
			}
			continue
		}
		if fence == "" {
			lines[i] = mdSafe(l)
		}
	}
	return strings.Join(lines, "\n")
}

var (
	blockStartRe   = lazyRegexp(`^(#{1,6}(\s|$)|[-+*>=]|\x60{3,}|~{3,})`)
	orderedStartRe = lazyRegexp(`^\d{1,9}[.)](\s|$)`)
)

// mdLead is mdInline for text that starts a line (a paragraph or a list
// item): a leading "#", "-", "1." or fence would otherwise start a block.
func mdLead(s string) string {
	s = mdInline(s)
	switch {
	case blockStartRe().MatchString(s):
		return `\` + s
	case orderedStartRe().MatchString(s):
		// Digits cannot be escaped: the delimiter can.
		i := strings.IndexAny(s, ".)")
		return s[:i] + `\` + s[i:]
	}
	return s
}

// mdCell escapes the pipes of table cell text (code spans included: GFM
// reads \| as a pipe there too).
func mdCell(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '|' && (i == 0 || s[i-1] != '\\') {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// codeSpan wraps s in a code span whose backtick fence is longer than any
// run of backticks inside it.
func codeSpan(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if s == "" {
		return ""
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || (strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.TrimSpace(s) != "") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// fenced is a fenced code block whose fence no line of content can close.
func fenced(lang, content string) string {
	fence := strings.Repeat("`", max(3, longestRun(content, '`')+1))
	return fence + lang + "\n" + content + "\n" + fence + "\n"
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// runOf is the length of the run of c at s[i].
func runOf(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// skipCode returns the end of the code span whose opening backtick run is
// at s[i], or of the run alone when no run of its length closes it.
func skipCode(s string, i int) int {
	n := runOf(s, i, '`')
	if end := closingRun(s, i+n, n); end >= 0 {
		return end + n
	}
	return i + n
}

// closingRun finds the next run of exactly n backticks from i; -1 if none.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '`' {
			i++
			continue
		}
		m := runOf(s, i, '`')
		if m == n {
			return i
		}
		i += m
	}
	return -1
}
