package lsp

// The language server's answers are the same as before the indexes that
// made it linear on huge files: the code before them is kept here, and
// its answers compared with today's on the bundled tools, the
// repository's fixtures and the corpora.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// parseTreeBefore is parseTree before spec.ParseTree: yaml.v3's.
func parseTreeBefore(text string) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}

// outlineBefore (the code before the indexes) builds the symbols of d's tools.
func outlineBefore(d *document) []protocol.DocumentSymbol {
	out := []protocol.DocumentSymbol{}
	f := spec.ParseFile(d.path, []byte(d.text))
	root := parseTreeBefore(d.text)
	if root == nil || len(f.Tools) == 0 {
		return out
	}
	starts := lineStarts(d.text)
	rng := func(sp diag.Span) protocol.Range { return rangeOf(d.text, starts, sp) }
	// extent is the span from start to the end of the node that starts
	// there (the whole mapping or list, not its first character)
	extent := func(start diag.Pos, end diag.Pos) diag.Span {
		if n := nodeStartingAtBefore(root, start); n != nil {
			end = nodeEndBefore(d.text, starts, n)
		}
		return diag.Span{Start: start, End: end}
	}
	for _, t := range f.Tools {
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
			Range:          rng(extent(whole.Start, whole.End)),
			SelectionRange: rng(sel),
		}
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
				span := extent(val.Start, val.End)
				if key.Start.Line < span.Start.Line || (key.Start.Line == span.Start.Line && key.Start.Col < span.Start.Col) {
					span.Start = key.Start
				}
				child := protocol.DocumentSymbol{Name: p, Kind: protocol.SymbolKindProperty, Range: rng(span), SelectionRange: rng(psel)}
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
	return out
}

// nodeStartingAtBefore (the code before the indexes) is the outermost collection node that starts at p (a
// tool's or a parameter's mapping), else the scalar there, or nil.
func nodeStartingAtBefore(n *yaml.Node, p diag.Pos) *yaml.Node {
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

// nodeEndBefore (the code before the indexes) is the position just past node n in text: the closing bracket
// of a flow (JSON) mapping or list, the end of the last value of a block
// one, the last line of a block scalar.
func nodeEndBefore(text string, starts []int, n *yaml.Node) diag.Pos {
	at := func(off int) diag.Pos {
		l := int(positionBefore(text, starts, off).Line)
		return diag.Pos{Line: l + 1, Col: utf8.RuneCountInString(text[starts[l]:off]) + 1}
	}
	startOff := offset(text, starts, fromDiag(text, starts, diag.Pos{Line: n.Line, Col: n.Column}))
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
		return nodeEndBefore(text, starts, n.Content[len(n.Content)-1])
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

// positionBefore (the code before the indexes) is the LSP position of a byte offset.
func positionBefore(text string, starts []int, off int) protocol.Position {
	line := 0
	for line+1 < len(starts) && starts[line+1] <= off {
		line++
	}
	s := text[starts[line]:min(off, len(text))]
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Len(s))}
}

// sameAnswerFiles are the tool files the answers are compared on, by
// path, with a few made up: a large parameter list and a JSON file.
func sameAnswerFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{"twoTools.yaml": twoTools, "jsonTools.json": jsonTools, "weather.yaml": weather, "huge.yaml": hugeTool(300), "oneline.json": oneLineJSON(300), "oneline.yaml": oneLineJSON(200)}
	for _, root := range []string{"../../tools", "../../testdata", "../spec/testdata", "../../../shared/corpora"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".yaml", ".yml", ".json":
				if data, err := os.ReadFile(p); err == nil && len(data) < 2<<20 && utf8.Valid(data) {
					files[p] = string(data)
				}
			}
			return nil
		})
	}
	if len(files) < 100 {
		t.Fatalf("only %d files", len(files))
	}
	return files
}

// TestOutlineSameAsBefore: the outline of every file is the one the code
// before the indexes gave.
func TestOutlineSameAsBefore(t *testing.T) {
	symbols := 0
	for path, text := range sameAnswerFiles(t) {
		d := &document{path: path, text: text}
		got, _ := json.Marshal(outline(d))
		want, _ := json.Marshal(outlineBefore(&document{path: path, text: text}))
		if string(got) != string(want) {
			t.Errorf("%s: outline\n got %s\nwant %s", path, got, want)
		}
		symbols += strings.Count(string(got), `"kind":`)
	}
	if symbols < 1000 {
		t.Errorf("only %d symbols compared", symbols)
	}
}

// TestTreeLookupsSameAsBefore: at every node of every file, the node
// found starting there (nodesByStart) is nodeStartingAt's, and locate,
// which hover, definition, references, rename and code actions start
// from, finds the same spot in spec.ParseTree's tree as in yaml.v3's;
// position is the same at every offset.
func TestTreeLookupsSameAsBefore(t *testing.T) {
	nodes := 0
	for path, text := range sameAnswerFiles(t) {
		before, now := parseTreeBefore(text), (&document{text: text}).tree()
		if (before == nil) != (now == nil) {
			t.Errorf("%s: tree %v, before %v", path, now, before)
			continue
		}
		starts := lineStarts(text)
		for off := 0; off <= len(text); off += 1 + off%7 {
			if got, want := position(text, starts, off), positionBefore(text, starts, off); got != want {
				t.Fatalf("%s: position(%d) = %v, before %v", path, off, got, want)
			}
		}
		if before == nil || len(text) > 256<<10 {
			continue // nodeStartingAtBefore at each node is quadratic
		}
		ix := nodesByStart(now, nil)
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			nodes++
			for _, p := range []diag.Pos{{Line: n.Line, Col: n.Column}, {Line: n.Line, Col: n.Column + 1}} {
				got, want := ix.starting(p), nodeStartingAtBefore(now, p)
				if got != want {
					t.Errorf("%s: node at %v: %v, before %v", path, p, got, want)
				}
				a, b := locate(now, p.Line, p.Col), locate(before, p.Line, p.Col)
				if strings.Join(a.path, "/") != strings.Join(b.path, "/") || a.onKey != b.onKey || (a.node == nil) != (b.node == nil) ||
					(a.node != nil && (a.node.Line != b.node.Line || a.node.Column != b.node.Column || a.node.Value != b.node.Value)) {
					t.Errorf("%s: locate at %v: %v %t, before %v %t", path, p, a.path, a.onKey, b.path, b.onKey)
				}
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(now)
	}
	if nodes < 10000 {
		t.Errorf("only %d nodes compared", nodes)
	}
}
