package lsp

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// documentSymbol is a tool file's outline: each tool (Function) with its
// parameters (Property) as children, at the positions pkg/spec gives;
// a flat list with container names for a client without hierarchical
// symbols. A document that does not parse has no outline.
func (s *Server) documentSymbol(_ *glsp.Context, params *protocol.DocumentSymbolParams) (any, error) {
	d := s.doc(params.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	s.mu.Lock()
	hierarchical := s.hierarchical
	s.mu.Unlock()
	syms := outline(d)
	if hierarchical {
		return syms, nil
	}
	flat := []protocol.SymbolInformation{}
	for _, t := range syms {
		flat = append(flat, protocol.SymbolInformation{Name: t.Name, Kind: t.Kind, Location: protocol.Location{URI: d.uri, Range: t.Range}})
		for _, p := range t.Children {
			container := t.Name
			flat = append(flat, protocol.SymbolInformation{Name: p.Name, Kind: p.Kind, Location: protocol.Location{URI: d.uri, Range: p.Range}, ContainerName: &container})
		}
	}
	return flat, nil
}

// outline builds the symbols of d's tools.
func outline(d *document) []protocol.DocumentSymbol {
	out := []protocol.DocumentSymbol{}
	f := d.parsed()
	root := d.tree()
	if root == nil || len(f.Tools) == 0 {
		return out
	}
	ix := d.index()
	rng := ix.rangeOf
	// The ranges are the extents of the nodes at the tools' and the
	// parameters' positions: the positions are gathered first, then the
	// nodes found in one walk of the tree (a walk for each parameter was
	// quadratic).
	type extentOf struct {
		tool, child int // child -1: the tool's own
		start, end  diag.Pos
		key         diag.Pos // the parameter's key, when before start
	}
	var extents []extentOf
	want := map[diag.Pos]bool{}
	for i, t := range f.Tools {
		whole := t.Span("")
		sel := t.Span("/name")
		name := t.Name
		if strings.TrimSpace(name) == "" {
			name = "(no name)"
			sel = whole
		}
		sym := protocol.DocumentSymbol{
			Name:           name,
			Kind:           protocol.SymbolKindFunction,
			SelectionRange: rng(sel),
		}
		extents = append(extents, extentOf{tool: i, child: -1, start: whole.Start, end: whole.End})
		want[whole.Start] = true
		if t.Category != "" {
			c := t.Category
			sym.Detail = &c
		}
		props, _ := t.Input().GetMap("properties")
		if props != nil {
			for _, p := range props.Keys() {
				ptr := spec.Pointer("input_schema", "properties", p)
				if !t.Has(ptr) {
					continue
				}
				val, key := t.Span(ptr), t.KeySpan(ptr)
				psel := key
				if t.InputFromList() {
					psel = t.Span(ptr + "/name")
				}
				extents = append(extents, extentOf{tool: i, child: len(sym.Children), start: val.Start, end: val.End, key: key.Start})
				want[val.Start] = true
				child := protocol.DocumentSymbol{Name: p, Kind: protocol.SymbolKindProperty, SelectionRange: rng(psel)}
				if pm, ok := props.GetMap(p); ok {
					if typ, ok := pm.Get("type"); ok {
						str, isStr := typ.(string)
						if !isStr {
							str = plainJSON(typ)
						}
						child.Detail = &str
					}
				}
				sym.Children = append(sym.Children, child)
			}
		}
		out = append(out, sym)
	}
	at := nodesByStart(root, want)
	for _, e := range extents {
		// the span from start to the end of the node that starts there
		// (the whole mapping or list, not its first character)
		span := diag.Span{Start: e.start, End: e.end}
		if n := at.starting(e.start); n != nil {
			span.End = nodeEnd(ix, n)
		}
		if e.child < 0 {
			out[e.tool].Range = rng(span)
			continue
		}
		if k := e.key; k.Line < span.Start.Line || (k.Line == span.Start.Line && k.Col < span.Start.Col) {
			span.Start = k
		}
		out[e.tool].Children[e.child].Range = rng(span)
	}
	return out
}

// nodeStartingAt is the outermost collection node that starts at p (a
// tool's or a parameter's mapping), else the scalar there, or nil.
func nodeStartingAt(n *yaml.Node, p diag.Pos) *yaml.Node {
	var scalar *yaml.Node
	var walk func(n *yaml.Node) *yaml.Node
	walk = func(n *yaml.Node) *yaml.Node {
		if n.Line == p.Line && n.Column == p.Col {
			if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
				return n
			}
			if scalar == nil {
				scalar = n
			}
		}
		if n.Line > p.Line {
			return nil
		}
		for _, c := range n.Content {
			if r := walk(c); r != nil {
				return r
			}
		}
		return nil
	}
	if r := walk(n); r != nil {
		return r
	}
	return scalar
}

// startIndex finds, for a position, the node nodeStartingAt(root, p)
// finds, from one walk of the tree.
type startIndex struct {
	collection map[diag.Pos]*yaml.Node // the first mapping or list in the walk
	other      map[diag.Pos]*yaml.Node // the first other node
}

// nodesByStart indexes the nodes of root as nodeStartingAt's walk meets
// them: depth first, children in order, and a node's children only for a
// position on or after its line (the walk prunes there), so a node counts
// for its own position only when no node above it starts on a later line.
// With want, only the nodes at those positions.
func nodesByStart(root *yaml.Node, want map[diag.Pos]bool) startIndex {
	ix := startIndex{collection: map[diag.Pos]*yaml.Node{}, other: map[diag.Pos]*yaml.Node{}}
	var walk func(n *yaml.Node, above int)
	walk = func(n *yaml.Node, above int) {
		if p := (diag.Pos{Line: n.Line, Col: n.Column}); above <= n.Line && (want == nil || want[p]) {
			m := ix.other
			if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
				m = ix.collection
			}
			if _, seen := m[p]; !seen {
				m[p] = n
			}
		}
		above = max(above, n.Line)
		for _, c := range n.Content {
			walk(c, above)
		}
	}
	walk(root, 0)
	return ix
}

// starting is nodeStartingAt(root, p).
func (ix startIndex) starting(p diag.Pos) *yaml.Node {
	if n := ix.collection[p]; n != nil {
		return n
	}
	return ix.other[p]
}

// nodeEnd is the position just past node n in text: the closing bracket
// of a flow (JSON) mapping or list, the end of the last value of a block
// one, the last line of a block scalar.
func nodeEnd(ix *lineIndex, n *yaml.Node) diag.Pos {
	text, starts := ix.text, ix.starts
	at := func(off int) diag.Pos {
		return ix.runeCol(max(sort.SearchInts(starts, off+1)-1, 0), off)
	}
	startOff := ix.offset(ix.fromDiag(diag.Pos{Line: n.Line, Col: n.Column}))
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		if n.Style&yaml.FlowStyle != 0 || (startOff < len(text) && (text[startOff] == '{' || text[startOff] == '[')) {
			if end, ok := matchBracket(text, startOff); ok {
				return at(end)
			}
		}
		if len(n.Content) == 0 {
			return diag.Pos{Line: n.Line, Col: n.Column + 1}
		}
		return nodeEnd(ix, n.Content[len(n.Content)-1])
	case yaml.ScalarNode:
		if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			last := n.Line + strings.Count(strings.TrimRight(n.Value, "\n"), "\n") + 1
			if last > len(starts) {
				last = len(starts)
			}
			return diag.Pos{Line: last, Col: utf8.RuneCountInString(lineText(text, starts, last-1)) + 1}
		}
		return diag.Pos{Line: n.Line, Col: scalarEnd(n)}
	}
	return diag.Pos{Line: n.Line, Col: n.Column + 1}
}

// matchBracket is the offset just past the bracket that closes the one at
// text[off], skipping quoted strings.
func matchBracket(text string, off int) (int, bool) {
	depth := 0
	for i := off; i < len(text); i++ {
		switch c := text[i]; c {
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '\'':
			if !quoteStart(text[off:i]) {
				continue // an apostrophe inside a plain scalar (don't)
			}
			for i++; i < len(text); i++ {
				if text[i] == '\'' {
					if i+1 < len(text) && text[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// quoteStart tells whether a quote after before starts a quoted scalar:
// it follows a bracket, a comma or a colon (spaces between).
func quoteStart(before string) bool {
	before = strings.TrimRight(before, " \t\r\n")
	return before == "" || strings.ContainsAny(before[len(before)-1:], "{[,:")
}
