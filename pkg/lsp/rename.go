package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// codeRequestFailed is LSP's RequestFailed: a request that is valid but
// cannot be done (a rename to a name that is not a tool name).
const codeRequestFailed = -32803

// nameNodeAt is the scalar under the cursor when it is a tool's name or a
// reference to a tool (where definition and references find names).
func nameNodeAt(d *document, p protocol.Position) *yaml.Node {
	root, sp := locateAt(d, p)
	if root == nil {
		return nil
	}
	if sp.node == nil || sp.onKey || sp.node.Kind != yaml.ScalarNode {
		return nil
	}
	idx, rel, _ := toolPath(root, sp.path)
	if idx < 0 {
		return nil
	}
	if isReference(rel) || (len(rel) == 1 && rel[0] == "name") {
		return sp.node
	}
	return nil
}

// innerRange is the range of the text of a scalar at r in d: a quoted
// scalar's quotes left out, so that an edit keeps them.
func innerRange(d *document, r protocol.Range) protocol.Range {
	text, ix := d.text, d.index()
	from, to := ix.offset(r.Start), ix.offset(r.End)
	if to-from >= 2 && to <= len(text) {
		q := text[from]
		if (q == '"' || q == '\'') && text[to-1] == q {
			return protocol.Range{Start: ix.position(from + 1), End: ix.position(to - 1)}
		}
	}
	return r
}

// prepareRename answers the range of the tool name under the cursor and
// the name, or null when the cursor is on no tool name.
func (s *Server) prepareRename(_ *glsp.Context, params *protocol.PrepareRenameParams) (any, error) {
	d := s.doc(params.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	n := nameNodeAt(d, params.Position)
	if n == nil {
		return nil, nil
	}
	return protocol.RangeWithPlaceholder{Range: innerRange(d, nodeRange(d, n)), Placeholder: n.Value}, nil
}

// renameError is a rename refused, sent as RequestFailed with msg.
func renameError(format string, args ...any) error {
	return &jsonrpc2.Error{Code: codeRequestFailed, Message: fmt.Sprintf(format, args...)}
}

// rename renames a tool: its name and every reference to it in the tool
// files linted with the document (open buffers, the files on disk
// otherwise), as one workspace edit; and the tool's file with it when
// the file is named after the tool and the client can rename files.
func (s *Server) rename(_ *glsp.Context, params *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	d := s.doc(params.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	n := nameNodeAt(d, params.Position)
	if n == nil {
		return nil, renameError("no tool name here: rename works on a tool's name or a reference to a tool (related_tools, workflow steps, check_tool)")
	}
	old, name := n.Value, params.NewName
	_, onDisk := pathOf(d.uri)
	p := s.projectOf(d.path, onDisk)
	limit := lint.DefaultLimits.NameMax
	if p.cfg.Limits.NameMax > 0 {
		limit = p.cfg.Limits.NameMax
	}
	if !spec.IsSnakeCase(name) {
		msg := fmt.Sprintf("cannot rename %q to %q: a tool name is snake_case (^[a-z][a-z0-9_]*$)", old, name)
		if sug := spec.SnakeCase(name); sug != "" && sug != name {
			msg += fmt.Sprintf("; did you mean %q?", sug)
		}
		return nil, renameError("%s", msg)
	}
	if l := utf8.RuneCountInString(name); l > limit {
		return nil, renameError("cannot rename %q to %q: the name is %d characters, more than %d (lint.limits.name_max)", old, name, l, limit)
	}
	if name == old {
		return nil, renameError("the tool is named %q already", old)
	}
	set, _ := s.projectSet(d)
	if others := set.Lookup(name); len(others) > 0 {
		t := others[0]
		return nil, renameError("cannot rename %q to %q: %s defines a tool named %q already; choose another name", old, name, relPath(s.rootOf(t.Path()), t.Path())+":"+fmt.Sprint(t.Pos("/name").Line), name)
	}

	// the edits, by file
	edits := map[string][]protocol.TextEdit{}
	texts := s.sources()
	add := func(t *spec.Tool, ptr string) {
		src := texts.of(t)
		r := innerRange(src, spanRange(src, t.Span(ptr)))
		edits[t.Path()] = append(edits[t.Path()], protocol.TextEdit{Range: r, NewText: name})
	}
	var renamed []*spec.Tool
	for _, t := range set.Tools() {
		if t.Name == old {
			add(t, "/name")
			renamed = append(renamed, t)
		}
		references(t, func(ptr, ref string) {
			if ref == old {
				add(t, ptr)
			}
		})
	}
	if len(edits) == 0 {
		return nil, renameError("no tool named %q in the tool files linted with this one", old)
	}
	paths := make([]string, 0, len(edits))
	for path := range edits {
		paths = append(paths, path)
	}
	sort.Strings(paths)

	s.mu.Lock()
	docChanges, fileOps := s.docChanges, s.renameFiles
	s.mu.Unlock()
	if !docChanges {
		out := &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{}}
		for _, path := range paths {
			out.Changes[s.uriFor(path)] = edits[path]
		}
		return out, nil
	}
	var changes []any
	for _, path := range paths {
		var version *protocol.Integer
		uri := s.uriFor(path)
		if od := s.docByPath(path); od != nil {
			v := od.version
			version = &v
		}
		list := make([]any, len(edits[path]))
		for i, e := range edits[path] {
			list[i] = e
		}
		changes = append(changes, protocol.TextDocumentEdit{
			TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: version},
			Edits:        list,
		})
	}
	if fileOps {
		// the file-name rule: a file holding one tool is named after it
		for _, t := range renamed {
			path := t.Path()
			base := filepath.Base(path)
			ext := filepath.Ext(base)
			if len(t.File.Tools) != 1 || strings.TrimSuffix(base, ext) != old {
				continue
			}
			if _, onDisk := pathOf(s.uriFor(path)); !onDisk {
				continue
			}
			to := filepath.Join(filepath.Dir(path), name+ext)
			if _, err := os.Lstat(to); err == nil {
				continue // a file by that name is there: the tool keeps its file
			}
			changes = append(changes, protocol.RenameFile{Kind: "rename", OldURI: s.uriFor(path), NewURI: uriOf(to)})
		}
	}
	return &protocol.WorkspaceEdit{DocumentChanges: changes}, nil
}

// uriFor is the URI of the document at path: the open document's own
// URI (an untitled buffer's too), a file:// URI otherwise.
func (s *Server) uriFor(path string) string {
	if d := s.docByPath(path); d != nil {
		return d.uri
	}
	return uriOf(path)
}
