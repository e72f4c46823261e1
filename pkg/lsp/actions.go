package lsp

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"unicode/utf8"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/toolctl/toolctl/pkg/diag"
	"gopkg.in/yaml.v3"
)

var (
	// `did you mean "x"?` and `did you mean {x}?`, lint's suggestion
	didYouMeanRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`did you mean (?:"((?:[^"\\]|\\.)*)"|\{([^}]*)\})\?`)
	})
	// name-snake-case: name "X" is not snake_case; use "y"
	snakeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^name ("(?:[^"\\]|\\.)*") is not snake_case; use ("(?:[^"\\]|\\.)*")$`)
	})
	// the first quoted name of a message: what the suggestion replaces
	quotedRe      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`) })
	placeholderRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([^}\s]*)\}`) })
	matchesFileRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^the tool is named "((?:[^"\\]|\\.)*)" but its file is (.+); rename the file to (.+)$`)
	})
)

// codeAction offers the fixes lint's findings name: a did-you-mean
// (fields, keywords, handlers, entry types, categories, tools,
// placeholders), a snake_case name, the tool's name from its file's or
// the file's name from the tool's.
func (s *Server) codeAction(_ *glsp.Context, params *protocol.CodeActionParams) (any, error) {
	d := s.doc(params.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	out := []protocol.CodeAction{}
	for _, dg := range params.Context.Diagnostics {
		if dg.Source == nil || *dg.Source != "toolctl" {
			continue
		}
		rule, _ := dg.Data.(string)
		if rule == "" && dg.Code != nil {
			rule, _ = dg.Code.Value.(string)
		}
		out = append(out, s.fixes(d, rule, dg)...)
	}
	return out, nil
}

func unquote(q string) string {
	s, err := strconv.Unquote(q)
	if err != nil {
		return strings.Trim(q, `"`)
	}
	return s
}

func (s *Server) fixes(d *document, rule string, dg protocol.Diagnostic) []protocol.CodeAction {
	ix := d.index()
	from, to := ix.offset(dg.Range.Start), ix.offset(dg.Range.End)
	if to < from || to > len(d.text) {
		return nil
	}
	span := d.text[from:to]
	quick := protocol.CodeActionKindQuickFix
	edit := func(title, old, repl string) []protocol.CodeAction {
		i := strings.Index(span, old)
		if old == "" || i < 0 {
			return nil
		}
		// the replacement keeps the quoting of the value
		if quotedSpan(span) && strings.ContainsAny(repl, `"\`) {
			repl = strings.Trim(strconv.Quote(repl), `"`)
		}
		r := protocol.Range{Start: ix.position(from + i), End: ix.position(from + i + len(old))}
		return []protocol.CodeAction{{
			Title:       title,
			Kind:        &quick,
			Diagnostics: []protocol.Diagnostic{dg},
			IsPreferred: ptr(true),
			Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{d.uri: {{Range: r, NewText: repl}}}},
		}}
	}
	msg := dg.Message
	if m := didYouMeanRe().FindStringSubmatch(msg); m != nil {
		if strings.HasPrefix(m[0], `did you mean "`) {
			want := unquote(`"` + m[1] + `"`)
			old := quotedRe().FindStringSubmatch(msg)
			if old == nil {
				return nil
			}
			return edit("Change to "+strconv.Quote(want), unquote(old[0]), want)
		}
		old := placeholderRe().FindString(msg)
		return edit("Change to {"+m[2]+"}", old, "{"+m[2]+"}")
	}
	if m := snakeRe().FindStringSubmatch(msg); m != nil && rule == "name-snake-case" {
		want := unquote(m[2])
		return edit("Rename the tool to "+strconv.Quote(want), unquote(m[1]), want)
	}
	if rule == "command-placeholder-option" && strings.Contains(msg, `put "--" before it`) {
		if e := dashDashEdit(d, dg.Range.Start); e != nil {
			return []protocol.CodeAction{{
				Title:       `Put "--" before it in entry.command`,
				Kind:        &quick,
				Diagnostics: []protocol.Diagnostic{dg},
				IsPreferred: ptr(true),
				Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{d.uri: {*e}}},
			}}
		}
		return nil
	}
	if strings.Contains(msg, "set strict: false") {
		if e := strictFalseEdit(d, dg.Range.Start); e != nil {
			return []protocol.CodeAction{{
				Title:       "Set strict: false on this tool",
				Kind:        &quick,
				Diagnostics: []protocol.Diagnostic{dg},
				Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{d.uri: {*e}}},
			}}
		}
		return nil
	}
	if m := matchesFileRe().FindStringSubmatch(msg); m != nil && rule == "name-matches-file" {
		name := unquote(`"` + m[1] + `"`)
		base := m[2]
		stem := strings.TrimSuffix(base, filepath.Ext(base))
		out := edit("Rename the tool to "+strconv.Quote(stem)+" (its file's name)", name, stem)
		if _, onDisk := pathOf(d.uri); onDisk {
			newPath := filepath.Join(filepath.Dir(d.path), m[3])
			out = append(out, protocol.CodeAction{
				Title:       "Rename the file to " + m[3],
				Kind:        &quick,
				Diagnostics: []protocol.Diagnostic{dg},
				Edit: &protocol.WorkspaceEdit{DocumentChanges: []any{
					protocol.RenameFile{Kind: "rename", OldURI: d.uri, NewURI: uriOf(newPath)},
				}},
			})
		}
		return out
	}
	return nil
}

// quotedSpan tells whether span is a quoted scalar.
func quotedSpan(span string) bool {
	return len(span) >= 2 && span[0] == '"' && span[len(span)-1] == '"'
}

// dashDashEdit inserts a "--" element before the element of a command
// list at p: a line "- --" of its own in a block list, `"--", ` in a flow
// list.
func dashDashEdit(d *document, p protocol.Position) *protocol.TextEdit {
	root, sp := locateAt(d, p)
	if root == nil {
		return nil
	}
	if sp.node == nil || len(sp.path) < 2 || !isIndex(sp.path[len(sp.path)-1]) || sp.path[len(sp.path)-2] != "command" {
		return nil
	}
	n := sp.node
	starts, ix := d.lines(), d.index()
	text := ix.lineText(n.Line - 1)
	at := ix.fromDiag(diagPos(n.Line, n.Column))
	before := text[:ix.offset(at)-starts[n.Line-1]]
	if dash := strings.TrimRight(before, " "); strings.HasSuffix(dash, "-") && strings.TrimSpace(dash) == "-" {
		// a block list: a new item line, indented as this one
		start := protocol.Position{Line: uint32(n.Line - 1)}
		return &protocol.TextEdit{Range: protocol.Range{Start: start, End: start}, NewText: before + `"--"` + "\n"}
	}
	return &protocol.TextEdit{Range: protocol.Range{Start: at, End: at}, NewText: `"--", `}
}

// strictFalseEdit sets strict: false on the tool that holds p: the value
// of its strict field when it has one, else a new field after its name.
func strictFalseEdit(d *document, p protocol.Position) *protocol.TextEdit {
	root, sp := locateAt(d, p)
	if root == nil {
		return nil
	}
	idx, _, tool := toolPath(root, sp.path)
	if idx < 0 || tool == nil || tool.Kind != yaml.MappingNode {
		return nil
	}
	starts, ix := d.lines(), d.index()
	var name *yaml.Node
	for i := 0; i+1 < len(tool.Content); i += 2 {
		k, v := tool.Content[i], tool.Content[i+1]
		switch k.Value {
		case "strict":
			r := nodeRange(d, v)
			return &protocol.TextEdit{Range: r, NewText: "false"}
		case "name":
			name = k
		}
	}
	if name == nil {
		return nil
	}
	if tool.Style&yaml.FlowStyle != 0 || strings.HasPrefix(strings.TrimSpace(d.text), "{") || strings.HasPrefix(strings.TrimSpace(d.text), "[") {
		// JSON or a flow mapping: a pair before "name"
		at := ix.fromDiag(diagPos(name.Line, name.Column))
		quote := `"strict": false, `
		return &protocol.TextEdit{Range: protocol.Range{Start: at, End: at}, NewText: quote}
	}
	indent := ix.lineText(name.Line - 1)
	indent = indent[:ix.offset(ix.fromDiag(diagPos(name.Line, name.Column)))-starts[name.Line-1]]
	if strings.TrimSpace(indent) != "" {
		// "- name: x": the item's first key; the new key goes under it
		indent = strings.Repeat(" ", utf8.RuneCountInString(indent))
	}
	next := protocol.Position{Line: uint32(name.Line)}
	if name.Line >= len(starts) {
		return &protocol.TextEdit{Range: protocol.Range{Start: ix.position(len(d.text)), End: ix.position(len(d.text))}, NewText: "\n" + indent + "strict: false\n"}
	}
	return &protocol.TextEdit{Range: protocol.Range{Start: next, End: next}, NewText: indent + "strict: false\n"}
}

func diagPos(line, col int) diag.Pos { return diag.Pos{Line: line, Col: col} }
