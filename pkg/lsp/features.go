package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/format"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// locateAt is d's tree and the spot of its node at p; root is nil when
// d has no tree (it does not parse).
func locateAt(d *document, p protocol.Position) (root *yaml.Node, sp spot) {
	if root = d.tree(); root == nil {
		return nil, spot{}
	}
	line, col := cursor(d, p)
	return root, locate(root, line, col)
}

// cursor converts an LSP position in d to a 1-based line and rune column.
func cursor(d *document, p protocol.Position) (line, col int) {
	starts, ix := d.lines(), d.index()
	off := ix.offset(p)
	pos := ix.position(off)
	n := min(int(pos.Line), len(starts)-1)
	l := lineText(d.text, starts, int(pos.Line))
	byteCol := off - starts[n]
	return int(pos.Line) + 1, ix.runeCol(n, starts[n]+min(byteCol, len(l))).Col
}

// spanRange is the LSP range of a spec span in d.
func spanRange(d *document, sp spec.Span) protocol.Range {
	return d.index().rangeOf(sp)
}

// projectSet is the set d is linted in, and d's own parsed file in it.
func (s *Server) projectSet(d *document) (*spec.Set, *spec.File) {
	_, onDisk := pathOf(d.uri)
	p := s.projectOf(d.path, onDisk)
	var docs []*document
	s.mu.Lock()
	for _, o := range s.docs {
		if o.uri == d.uri {
			docs = append(docs, d)
			continue
		}
		if p.toolsDir != "" && within(p.toolsDir, o.path) {
			docs = append(docs, o)
		}
	}
	s.mu.Unlock()
	set := s.set(p, docs)
	for _, f := range set.Files {
		if f.Path == d.path {
			return set, f
		}
	}
	// lint.ignore leaves it out: it still sees the others
	f := d.parsed()
	set.Files = append(set.Files, f)
	return set, f
}

// isReference tells whether rel (a path inside a tool) holds the name of
// another tool: related_tools, workflow step tools, check_tool.
func isReference(rel []string) bool {
	n := len(rel)
	switch {
	case n == 3 && rel[0] == "related_tools" && rel[2] == "name":
		return true
	case n == 2 && rel[0] == "related_tools":
		return true
	case n == 5 && rel[0] == "workflow" && rel[1] == "steps" && rel[3] == "tool":
		return true
	case n == 6 && rel[0] == "workflow" && rel[1] == "steps" && rel[3] == "tools":
		return true
	case n == 3 && rel[0] == "prerequisites" && rel[2] == "check_tool":
		return true
	}
	return false
}

// paramOf is the name of the parameter rel is about, if any: a key under
// input_schema.properties (or its spellings), a parameter item's name, or
// an entry of required.
func paramOf(rel []string, value string, onKey bool) (string, bool) {
	n := len(rel)
	if n >= 3 && isSchemaField(rel[0]) && rel[1] == "properties" {
		return rel[2], true
	}
	if n >= 2 && rel[0] == "parameters" && rel[1] == "properties" && n >= 3 {
		return rel[2], true
	}
	if n == 3 && (rel[0] == "parameters" || rel[0] == "arguments") && rel[2] == "name" && !onKey {
		return value, true
	}
	if n == 2 && rel[0] == "parameters" && !onKey && !isIndex(rel[1]) {
		return rel[1], true // a map of parameters
	}
	if n == 3 && (isSchemaField(rel[0]) || rel[0] == "parameters") && rel[1] == "required" && !onKey {
		return value, true
	}
	return "", false
}

func isSchemaField(k string) bool { return k == "input_schema" || k == "inputSchema" }

func isIndex(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// --- hover ------------------------------------------------------------------

func (s *Server) hover(_ *glsp.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	d := s.doc(params.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	root, sp := locateAt(d, params.Position)
	if root == nil || sp.node == nil {
		return nil, nil
	}
	idx, rel, _ := toolPath(root, sp.path)
	if idx < 0 {
		return nil, nil
	}
	text := ""
	switch {
	case !sp.onKey && isReference(rel):
		text = s.toolHover(d, sp.node.Value)
	default:
		if name, ok := paramOf(rel, sp.node.Value, sp.onKey); ok && (!sp.onKey || len(rel) == 3) {
			text = s.paramHover(d, idx, name)
		}
		if text == "" && sp.onKey {
			text = fieldHover(rel)
		}
		if text == "" && !sp.onKey && len(rel) == 1 && rel[0] == "name" {
			text = s.toolHover(d, sp.node.Value)
		}
		if text == "" && !sp.onKey {
			text = fieldHover(trimIndexes(rel))
		}
	}
	if text == "" {
		return nil, nil
	}
	r := nodeRange(d, sp.node)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: text}, Range: &r}, nil
}

// trimIndexes drops trailing list indexes: the value of a list's item is
// described by the list's field.
func trimIndexes(rel []string) []string {
	for len(rel) > 0 && isIndex(rel[len(rel)-1]) {
		rel = rel[:len(rel)-1]
	}
	return rel
}

// nodeRange is the range of scalar n of d (quotes included).
func nodeRange(d *document, n *yaml.Node) protocol.Range {
	return d.index().rangeOf(diag.Span{Start: diag.Pos{Line: n.Line, Col: n.Column}, End: diag.Pos{Line: n.Line, Col: scalarEnd(n)}})
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// fieldHover documents the field at rel from the file-format schema.
func fieldHover(rel []string) string {
	if len(rel) == 0 {
		return ""
	}
	sch := schemaAt(rel)
	if sch == nil {
		return ""
	}
	desc := describe(sch)
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", rel[len(rel)-1])
	if t := typeOf(sch); t != "" {
		fmt.Fprintf(&b, " (%s)", t)
	}
	if desc != "" {
		b.WriteString("\n\n" + desc)
	}
	if e := enumOf(sch); len(e) > 0 {
		b.WriteString("\n\nOne of: " + quoteList(e))
	}
	return b.String()
}

func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = "`" + v + "`"
	}
	return strings.Join(q, ", ")
}

// paramHover describes parameter name of tool idx of d: type,
// required, description and constraints.
func (s *Server) paramHover(d *document, idx int, name string) string {
	f := s.toolsOf(d)
	if idx >= len(f.Tools) {
		return ""
	}
	t := f.Tools[idx]
	in := t.Input()
	props, _ := in.GetMap("properties")
	if props == nil {
		return ""
	}
	p, ok := props.GetMap(name)
	if !ok {
		return ""
	}
	required := false
	if req, ok := in.Get("required"); ok {
		if list, ok := req.([]any); ok {
			for _, r := range list {
				if r == name {
					required = true
				}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", name)
	var tags []string
	if typ, ok := p.Get("type"); ok {
		if str, ok := typ.(string); ok {
			tags = append(tags, str)
		} else {
			tags = append(tags, plainJSON(typ))
		}
	}
	if required {
		tags = append(tags, "required")
	} else {
		tags = append(tags, "optional")
	}
	fmt.Fprintf(&b, " (%s) — parameter of `%s`", strings.Join(tags, ", "), t.Name)
	if desc, ok := p.GetString("description"); ok && desc != "" {
		b.WriteString("\n\n" + desc)
	}
	var cons []string
	for _, k := range p.Keys() {
		switch k {
		case "type", "description", "title":
			continue
		}
		v, _ := p.Get(k)
		cons = append(cons, fmt.Sprintf("- %s: `%s`", k, plainJSON(v)))
	}
	if len(cons) > 0 {
		b.WriteString("\n\n" + strings.Join(cons, "\n"))
	}
	return b.String()
}

// plainJSON is v written as compact JSON.
func plainJSON(v any) string {
	data, err := jsonMarshal(spec.Plain(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// toolHover describes the tool named name in d's project.
func (s *Server) toolHover(d *document, name string) string {
	set, _ := s.projectSet(d)
	tools := set.Lookup(name)
	if len(tools) == 0 {
		return ""
	}
	var parts []string
	for _, t := range tools {
		var b strings.Builder
		fmt.Fprintf(&b, "**%s** — tool", t.Name)
		if t.Category != "" {
			fmt.Fprintf(&b, " (%s)", t.Category)
		}
		if t.Description != "" {
			b.WriteString("\n\n" + t.Description)
		}
		if s.opts.ToolCost != nil {
			if cost := s.opts.ToolCost(t); cost != "" {
				b.WriteString("\n\n" + cost)
			}
		}
		fmt.Fprintf(&b, "\n\n%s", relPath(s.rootOf(t.Path()), t.Path())+":"+strconv.Itoa(t.Pos("/name").Line))
		parts = append(parts, b.String())
	}
	return strings.Join(parts, "\n\n---\n\n")
}

func relPath(root, path string) string {
	if root != "" {
		if r, err := filepath.Rel(root, path); err == nil {
			return filepath.ToSlash(r)
		}
	}
	return path
}

// --- definition and references ---------------------------------------------

// nameAt is the tool name under the cursor in the open document uri (a
// reference to a tool, or a tool's own name) and the set of tools of its
// project; ok false when the document is not open or p is on no name.
func (s *Server) nameAt(uri string, p protocol.Position) (set *spec.Set, name string, ok bool) {
	d := s.doc(uri)
	if d == nil {
		return nil, "", false
	}
	n := nameNodeAt(d, p)
	if n == nil {
		return nil, "", false
	}
	set, _ = s.projectSet(d)
	return set, n.Value, true
}

func (s *Server) location(texts sources, t *spec.Tool, ptr string) protocol.Location {
	return protocol.Location{URI: uriOf(t.Path()), Range: spanRange(texts.of(t), t.Span(ptr))}
}

// sources are the texts of the files a request answers about, by path:
// each file's is read (and its lines counted) once, however many places
// in it the answer names.
type sources struct {
	s     *Server
	texts map[string]*document
}

func (s *Server) sources() sources { return sources{s: s, texts: map[string]*document{}} }

// of is the text of t's file: the open document's, else the file's.
func (src sources) of(t *spec.Tool) *document {
	path := t.Path()
	d, ok := src.texts[path]
	if !ok {
		d = src.s.docByPath(path)
		if d == nil {
			d = &document{path: path, text: string(t.File.Source())}
		}
		src.texts[path] = d
	}
	return d
}

func (s *Server) docByPath(path string) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		if d.path == path {
			return d
		}
	}
	return nil
}

func (s *Server) definition(_ *glsp.Context, params *protocol.DefinitionParams) (any, error) {
	set, name, ok := s.nameAt(params.TextDocument.URI, params.Position)
	if !ok {
		return nil, nil
	}
	out := []protocol.Location{}
	texts := s.sources()
	for _, t := range set.Lookup(name) {
		out = append(out, s.location(texts, t, "/name"))
	}
	return out, nil
}

// references lists where a tool is referred to by name in t.
func references(t *spec.Tool, fn func(ptr, name string)) {
	for i, rt := range t.RelatedTools {
		fn("/related_tools/"+strconv.Itoa(i)+"/name", rt.Name)
	}
	if t.Workflow != nil {
		for i, st := range t.Workflow.Steps {
			base := "/workflow/steps/" + strconv.Itoa(i)
			if st.Tool != "" {
				fn(base+"/tool", st.Tool)
			}
			for j, name := range st.Tools {
				fn(base+"/tools/"+strconv.Itoa(j), name)
			}
		}
	}
	for i, p := range t.Prerequisites {
		if p.CheckTool != "" {
			fn("/prerequisites/"+strconv.Itoa(i)+"/check_tool", p.CheckTool)
		}
	}
}

func (s *Server) references(_ *glsp.Context, params *protocol.ReferenceParams) ([]protocol.Location, error) {
	set, name, ok := s.nameAt(params.TextDocument.URI, params.Position)
	if !ok {
		return nil, nil
	}
	out := []protocol.Location{}
	texts := s.sources()
	for _, t := range set.Tools() {
		if params.Context.IncludeDeclaration && t.Name == name {
			out = append(out, s.location(texts, t, "/name"))
		}
		references(t, func(ptr, ref string) {
			if ref == name {
				out = append(out, s.location(texts, t, ptr))
			}
		})
	}
	return out, nil
}

// --- formatting -------------------------------------------------------------

func (s *Server) formatting(_ *glsp.Context, params *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	d := s.doc(params.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	name := d.path
	if _, onDisk := pathOf(d.uri); !onDisk && !format.IsJSON(name) && strings.HasSuffix(strings.ToLower(d.uri), ".json") {
		name = "untitled.json"
	}
	out, err := format.Source(name, []byte(d.text), format.Options{})
	if err != nil {
		var es format.Errors
		if errors.As(err, &es) && len(es) > 0 {
			return nil, fmt.Errorf("toolctl fmt left the file as it is: %s", es[0].Error())
		}
		return nil, fmt.Errorf("toolctl fmt left the file as it is: %v", err)
	}
	if string(out) == d.text {
		return []protocol.TextEdit{}, nil
	}
	end := d.index().position(len(d.text))
	return []protocol.TextEdit{{Range: protocol.Range{End: end}, NewText: string(out)}}, nil
}

// --- completion -------------------------------------------------------------

func (s *Server) completion(_ *glsp.Context, params *protocol.CompletionParams) (any, error) {
	d := s.doc(params.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	items := s.complete(d, params.Position)
	sort.SliceStable(items, func(i, j int) bool { return items[i].Label < items[j].Label })
	return protocol.CompletionList{IsIncomplete: false, Items: items}, nil
}
