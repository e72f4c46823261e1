package lsp

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/toolctl/toolctl/pkg/diag"
)

// oneLineJSON is a tool of n parameters as JSON on one line, with
// characters outside ASCII (and outside the BMP) in it.
func oneLineJSON(n int) string {
	var b strings.Builder
	b.WriteString(`{"name": "wide_tool", "description": "Cherche un élément du catalogue. Use it when the user names one 🔎.", "input_schema": {"type": "object", "properties": {`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"param_%06d": {"type": "string", "description": "Filtre n° %d, «optionnel» 🎯."}`, i, i)
	}
	b.WriteString("}}}\n")
	return b.String()
}

// TestLineIndexSameAsFunctions: lineIndex's conversions give what
// offset, position, fromDiag and a count of runes from the line's start
// give, at every place of long and short lines: multi-byte characters,
// surrogate pairs, invalid UTF-8, CR LF, lone CRs.
func TestLineIndexSameAsFunctions(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "bc ", "é", "«»", "🎯", "\xff", "\xe2\x82", "\r\n", "\n", "\r", strings.Repeat("x", 300), "日本語"}
	texts := []string{"", "\n", oneLineJSON(40), weather, twoTools + oneLineJSON(30)}
	for range 30 {
		var b strings.Builder
		for b.Len() < 6000 {
			p := pieces[rng.Intn(len(pieces))]
			if strings.ContainsAny(p, "\r\n") && rng.Intn(4) > 0 {
				continue // long lines mostly
			}
			b.WriteString(p)
		}
		texts = append(texts, b.String())
	}
	checked := 0
	for ti, text := range texts {
		starts := lineStarts(text)
		ix := newLineIndex(text, starts)
		for off := 0; off <= len(text); off++ {
			if got, want := ix.position(off), position(text, starts, off); got != want {
				t.Fatalf("text %d: position(%d) = %v, want %v", ti, off, got, want)
			}
			line := max(0, ix.position(off).Line)
			want := diag.Pos{Line: int(line) + 1, Col: utf8.RuneCountInString(text[starts[line]:off]) + 1}
			if got := ix.runeCol(int(line), off); got != want {
				t.Fatalf("text %d: runeCol(%d) = %v, want %v", ti, off, got, want)
			}
			checked++
		}
		for line := range len(starts) + 1 {
			width := utf8.RuneCountInString(lineText(text, starts, line))
			for c := 0; c <= width+3; c++ {
				p := protocol.Position{Line: uint32(line), Character: uint32(c)}
				if got, want := ix.offset(p), offset(text, starts, p); got != want {
					t.Fatalf("text %d: offset(%v) = %d, want %d", ti, p, got, want)
				}
				dp := diag.Pos{Line: line + 1, Col: c + 1}
				if got, want := ix.fromDiag(dp), fromDiag(text, starts, dp); got != want {
					t.Fatalf("text %d: fromDiag(%v) = %v, want %v", ti, dp, got, want)
				}
				sp := diag.Span{Start: dp, End: diag.Pos{Line: line + 1, Col: c + 1 + rng.Intn(9)}}
				if got, want := ix.rangeOf(sp), rangeOf(text, starts, sp); got != want {
					t.Fatalf("text %d: rangeOf(%v) = %v, want %v", ti, sp, got, want)
				}
				checked++
			}
		}
	}
	if checked < 100000 {
		t.Errorf("only %d conversions checked", checked)
	}
}

// TestOneLineJSONAnswers: a tool file of 20000 parameters as JSON on
// one line (2 MB) is outlined, hovered and linted; the one-minute bound
// only catches the cost of counting each position's column from the
// line's start (the outline took minutes; it takes milliseconds).
func TestOneLineJSONAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2 MB file: not with -short")
	}
	root, _, _ := workspace(t)
	hier := map[string]any{"textDocument": map[string]any{"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}}}
	c := startServerOpts(t, root, Options{Debounce: time.Millisecond}, hier)
	c.timeout = time.Minute
	text := oneLineJSON(20000)
	uri := c.open(root+"/tools/wide_tool.json", text)
	if ds := c.diagnostics(uri); len(ds) < 20000 {
		t.Errorf("%d diagnostics, want one for each optional parameter", len(ds))
	}
	got := rawCall(c, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if n := strings.Count(got, `"kind":7`); n != 20000 {
		t.Errorf("%d parameters in the outline", n)
	}
	// the last parameter: from its key to its value's closing brace, in
	// UTF-16 units of the line
	i := strings.Index(text, `"param_019999"`)
	j := i + strings.Index(text[i:], "}") + 1
	want := fmt.Sprintf(`{"name":"param_019999","detail":"string","kind":7,"range":{"start":{"line":0,"character":%d},"end":{"line":0,"character":%d}}`, utf16Len(text[:i]), utf16Len(text[:j]))
	if !strings.Contains(got, want) {
		t.Errorf("the last parameter: %.300s\nwant %s", got[len(got)-300:], want)
	}
	hover := rawCall(c, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos(t, text, `"param_010000"`, 3)})
	if !strings.Contains(hover, "**param_010000** (string, optional)") {
		t.Errorf("hover: %s", hover)
	}
	c.shutdown()
}
