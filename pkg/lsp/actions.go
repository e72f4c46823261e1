package lsp

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
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
	for _, diag := range params.Context.Diagnostics {
		if diag.Source == nil || *diag.Source != "toolctl" {
			continue
		}
		rule, _ := diag.Data.(string)
		if rule == "" && diag.Code != nil {
			rule, _ = diag.Code.Value.(string)
		}
		out = append(out, s.fixes(d, rule, diag)...)
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
	starts := lineStarts(d.text)
	from, to := offset(d.text, starts, dg.Range.Start), offset(d.text, starts, dg.Range.End)
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
		r := protocol.Range{Start: position(d.text, starts, from+i), End: position(d.text, starts, from+i+len(old))}
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
