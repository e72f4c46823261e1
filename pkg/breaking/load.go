package breaking

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Side is one version of a tool set, as loaded from files, a git revision
// or a live server.
type Side struct {
	// Label says where it comes from, for messages: the paths, "REF", or
	// the server.
	Label string
	Tools []*Tool
	// Files are the files read (for source excerpts), by their display
	// path (File.Path).
	Files []*spec.File
	// Ref is the git ref the side was read at ("" otherwise): its files
	// are shown as "Ref:path".
	Ref string
}

// Drop leaves out of both sides the tools whose file ignore matches (a
// git side's path without its "REF:"), and their namesakes on the other
// side, so that an ignored file is neither removed nor added.
func Drop(a, b *Side, ignore func(file string) bool) {
	names := map[string]bool{}
	for _, s := range []*Side{a, b} {
		for _, t := range s.Tools {
			file := t.File
			if s.Ref != "" {
				file = strings.TrimPrefix(file, s.Ref+":")
			}
			if ignore(file) {
				names[t.Name] = true
			}
		}
	}
	if len(names) == 0 {
		return
	}
	for _, s := range []*Side{a, b} {
		s.Tools = slices.DeleteFunc(s.Tools, func(t *Tool) bool { return names[t.Name] })
	}
}

// LoadError is a side that cannot be compared: files that do not parse.
// It is a usage problem (exit 2), not a finding: fix the files first.
type LoadError struct {
	Label string
	Diags []diag.Diagnostic
}

func (e *LoadError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s cannot be compared: its files do not load (%s; toolctl lint shows them all):", e.Label, diag.Plural(len(e.Diags), "problem", "problems"))
	for i, d := range e.Diags {
		if i == 10 {
			fmt.Fprintf(&b, "\n  … and %d more", len(e.Diags)-10)
			break
		}
		b.WriteString("\n  " + d.Error())
	}
	return b.String()
}

// LoadPaths reads the tool files under paths (as toolctl lint does); a
// file that is no tool file but an input toolctl import reads (an OpenAI,
// Anthropic or Gemini tools array, an MCP tools/list result) is read as
// that.
func LoadPaths(paths []string) (*Side, error) {
	files, err := spec.Collect(paths)
	if err != nil {
		return nil, err
	}
	// Each file is normalised in the worker that parsed it, and its
	// syntax trees released: a position asked for later (a finding's)
	// parses that file again, from its text, which is kept.
	loaded := make([]*loadedFile, len(files))
	spec.LoadFilesFunc(files, func(i int, f *spec.File) {
		loaded[i] = loadFile(f)
	})
	side := &Side{Label: strings.Join(paths, ", ")}
	for _, lf := range loaded {
		if lf == nil {
			continue // not a tool file (a lint baseline)
		}
		if err := side.add(lf); err != nil {
			return nil, err
		}
	}
	return side, nil
}

// loadedFile is the tools of one file, or why it cannot be compared.
type loadedFile struct {
	file  *spec.File
	tools []*Tool
	diags []diag.Diagnostic
}

func (s *Side) add(lf *loadedFile) error {
	if lf.diags != nil {
		return &LoadError{Label: s.Label, Diags: lf.diags}
	}
	if lf.file != nil {
		s.Files = append(s.Files, lf.file)
	}
	s.Tools = append(s.Tools, lf.tools...)
	return nil
}

func (s *Side) addFile(f *spec.File) error {
	if lf := loadFile(f); lf != nil {
		return s.add(lf)
	}
	return nil
}

// loadFile builds the canonical tools of a parsed file, falling back to
// toolctl import's formats when the file is not a tool file; nil for a
// file that is not toolctl's (a lint baseline).
func loadFile(f *spec.File) *loadedFile {
	if f.NotTool != "" {
		return nil
	}
	lf := &loadedFile{file: f}
	if len(f.Errors) == 0 {
		for _, t := range f.Tools {
			lf.tools = append(lf.tools, FromSpec(t))
		}
		f.Release(false)
		return lf
	}
	if data := f.Source(); len(f.Tools) == 0 && data != nil {
		if res, err := importer.Import(data, importer.Options{Name: f.Path}); err == nil && len(res.Tools) > 0 {
			for _, it := range res.Tools {
				t := FromSpec(it.Tool)
				t.File, t.At, t.Lacks = f.Path, diag.At(it.Pos), ProviderLacks
				if res.Format == importer.MCP {
					t.Lacks = MCPLacks
				}
				lf.tools = append(lf.tools, t)
			}
			return lf
		}
	}
	lf.file, lf.diags = nil, []diag.Diagnostic{}
	for _, e := range f.Errors {
		lf.diags = append(lf.diags, diag.Diagnostic{File: f.Path, Span: e.Span, Severity: diag.Error, Message: e.Message})
	}
	return lf
}

// LoadServer lists the tools of a live MCP server (toolctl import's
// ImportServer). label names it in reports.
func LoadServer(ctx context.Context, opts importer.ServerOptions) (*Side, error) {
	opts.NoEntry = true
	label := "server " + opts.Command
	if opts.URL != "" {
		label = "server " + opts.URL
	}
	res, err := importer.ImportServer(ctx, opts)
	if err != nil {
		return nil, &ServerError{Label: label, Err: err}
	}
	side := &Side{Label: label}
	for _, it := range res.Tools {
		t := FromSpec(it.Tool)
		t.File, t.Lacks = label, MCPLacks
		side.Tools = append(side.Tools, t)
	}
	return side, nil
}

// ServerError is a live server that could not be listed (exit 2).
type ServerError struct {
	Label string
	Err   error
}

func (e *ServerError) Error() string { return e.Label + ": " + e.Err.Error() }
func (e *ServerError) Unwrap() error { return e.Err }
