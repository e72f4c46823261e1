// Package lock pins tool definitions against rug pulls: Build records the
// SHA-256 of each tool's canonical definition (breaking.CanonicalJSON:
// dialect, key order and formatting do not change it) in a deterministic
// YAML lock file, and Verify re-computes it and reports every tool that
// changed, appeared or disappeared, with the semantic diff of toolctl
// breaking showing what changed.
package lock

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/breaking"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// FileName is the lock file's default name.
const FileName = "toolctl.lock"

// Version is the lock format's version; Parse refuses others.
const Version = 1

// File is a lock file.
type File struct {
	Version int `yaml:"version"`
	// Paths are the paths the lock was built from (relative to the lock
	// file's directory): verify reads them when given none.
	Paths []string `yaml:"paths,flow"`
	Tools []Entry  `yaml:"tools"`
	// Servers pin the upstream MCP servers of mcp entries (toolctl lock
	// --upstream).
	Servers []Server `yaml:"servers,omitempty"`

	// path and entry positions, of a parsed lock
	path string
	at   map[string]diag.Span
}

// Entry pins one tool.
type Entry struct {
	Name string `yaml:"name"`
	// File is the tool's file, relative to the lock file's directory,
	// with forward slashes.
	File   string `yaml:"file"`
	SHA256 string `yaml:"sha256"`
	// SHA256 is the hex SHA-256 of Definition, and of a newline and
	// Other when there is one.
	// Definition is the tool's canonical JSON (breaking.CanonicalJSON),
	// kept so that verify can show what changed.
	Definition string `yaml:"definition"`
	// Other is the canonical JSON of the fields breaking does not compare
	// (see other), when the tool has any.
	Other string `yaml:"other,omitempty"`
	// Code pins the files the entry runs beside the tool file (CodeFile).
	Code []CodeFile `yaml:"code,omitempty"`
}

// hash is the pinned hash of a definition and its other fields.
func hash(def, other string) string {
	if other == "" {
		return Hash([]byte(def))
	}
	return Hash([]byte(def + "\n" + other))
}

// Hash is the hex SHA-256 of b.
func Hash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// DuplicateError is a tool set with two tools of one name: a lock pins
// tools by name.
type DuplicateError struct {
	Name, First, Second string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("tool %q is defined twice (%s and %s): a lock pins tools by name; rename one (toolctl lint reports it too)", e.Name, e.First, e.Second)
}

// Build pins the tools of side. dir is the lock file's directory (tool
// files are recorded relative to it); paths are the paths side was read
// from.
func Build(side *breaking.Side, dir string, paths []string) (*File, error) {
	f := &File{Version: Version}
	for _, p := range paths {
		f.Paths = append(f.Paths, relTo(dir, p))
	}
	seen := map[string]string{}
	for _, t := range side.Tools {
		if first, dup := seen[t.Name]; dup {
			return nil, &DuplicateError{t.Name, first, t.File}
		}
		seen[t.Name] = t.File
		def, other := string(t.JSON()), Other(t)
		f.Tools = append(f.Tools, Entry{Name: t.Name, File: relTo(dir, t.File), SHA256: hash(def, other), Definition: def, Other: other, Code: pinCode(t, dir)})
	}
	slices.SortFunc(f.Tools, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return f, nil
}

// relTo is path p relative to dir (where it can be: not across Windows
// volumes), with forward slashes.
func relTo(dir, p string) string {
	if ap, err := filepath.Abs(p); err == nil {
		if ad, err := filepath.Abs(dir); err == nil {
			if r, err := filepath.Rel(ad, ap); err == nil {
				p = r
			}
		}
	}
	return filepath.ToSlash(p)
}

const header = "# toolctl.lock: the pinned definitions of these tools (toolctl lock writes it,\n# toolctl verify checks it). Do not edit; run toolctl lock again after a reviewed change.\n"

// Marshal is the lock file's text: the same lock gives the same bytes.
func (f *File) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString(header)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		panic(err) // strings and ints only: cannot fail
	}
	_ = enc.Close()
	return b.Bytes()
}

// ParseError is a lock file that cannot be used (exit 2).
type ParseError struct {
	File string
	Span diag.Span
	Msg  string
}

func (e *ParseError) Error() string {
	return diag.Where(e.File, e.Span.Start) + ": " + e.Msg
}

// Parse reads a lock file; path names it in errors.
func Parse(path string, data []byte) (*File, error) {
	fail := func(line, col int, format string, args ...any) error {
		return &ParseError{File: path, Span: diag.At(diag.Pos{Line: line, Col: col}), Msg: fmt.Sprintf(format, args...) + "; run toolctl lock to write it again"}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		line := 1
		var n int
		if _, e := fmt.Sscanf(strings.TrimPrefix(err.Error(), "yaml: "), "line %d:", &n); e == nil {
			line = n
		}
		return nil, fail(line, 1, "not valid YAML (%s)", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, fail(1, 1, "not a toolctl lock file (expected a mapping with version and tools)")
	}
	doc := root.Content[0]
	f := &File{path: path, at: map[string]diag.Span{}}
	if err := doc.Decode(f); err != nil {
		line, col := doc.Line, doc.Column
		if te, ok := err.(*yaml.TypeError); ok && len(te.Errors) > 0 {
			var n int
			if _, e := fmt.Sscanf(strings.TrimPrefix(te.Errors[0], "line "), "%d:", &n); e == nil {
				line, col = n, 1
			}
			return nil, fail(line, col, "%s", te.Errors[0])
		}
		return nil, fail(line, col, "%v", err)
	}
	var version, tools *yaml.Node
	for i := 0; i+1 < len(doc.Content); i += 2 {
		switch doc.Content[i].Value {
		case "version":
			version = doc.Content[i+1]
		case "tools":
			tools = doc.Content[i+1]
		}
	}
	if version == nil {
		return nil, fail(doc.Line, doc.Column, "no version field")
	}
	if f.Version != Version {
		return nil, fail(version.Line, version.Column, "lock format version %d, this toolctl reads version %d", f.Version, Version)
	}
	names := map[string]bool{}
	for i, e := range f.Tools {
		n := tools.Content[i]
		if e.Name == "" || e.SHA256 == "" || e.Definition == "" {
			return nil, fail(n.Line, n.Column, "tool entry %d lacks name, sha256 or definition", i+1)
		}
		if names[e.Name] {
			return nil, fail(n.Line, n.Column, "tool %q is locked twice", e.Name)
		}
		names[e.Name] = true
		if hash(e.Definition, e.Other) != e.SHA256 {
			return nil, fail(n.Line, n.Column, "tool %q: sha256 is not the hash of its definition (the lock was edited by hand)", e.Name)
		}
		f.at[e.Name] = diag.At(diag.Pos{Line: n.Line, Col: n.Column})
	}
	if servers := findKey(doc, "servers"); servers != nil {
		for i, sv := range f.Servers {
			n := servers.Content[i]
			if sv.Server == "" {
				return nil, fail(n.Line, n.Column, "server entry %d has no server", i+1)
			}
			for _, t := range sv.Tools {
				if Hash([]byte(t.Definition)) != t.SHA256 {
					return nil, fail(n.Line, n.Column, "server %s, tool %q: sha256 is not the hash of its definition (the lock was edited by hand)", sv.Server, t.Name)
				}
			}
		}
	}
	return f, nil
}

func findKey(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// Rule IDs of Verify's findings.
const (
	RuleChanged = "lock-tool-changed"
	RuleAdded   = "lock-tool-added"
	RuleRemoved = "lock-tool-removed"
)

// Rules describe Verify's rule IDs (for reports).
var Rules = []struct{ ID, Description string }{
	{RuleChanged, "a tool's definition differs from the one pinned in the lock file"},
	{RuleAdded, "a tool that the lock file does not pin"},
	{RuleRemoved, "a tool pinned in the lock file is gone"},
	{RuleUpstreamChanged, "an upstream MCP server's tool (or serverInfo) differs from the pinned one"},
	{RuleUpstreamAdded, "an upstream MCP server, or a tool it lists, that the lock file does not pin"},
	{RuleUpstreamRemoved, "a tool pinned for an upstream MCP server that it no longer lists"},
}

// lockedTool is the canonical model of a locked definition.
func lockedTool(lockPath string, e Entry) (*breaking.Tool, error) {
	sf := spec.ParseFile(lockPath+"#"+e.Name+".json", []byte(e.Definition))
	if len(sf.Errors) > 0 || len(sf.Tools) != 1 {
		msg := "no tool"
		if len(sf.Errors) > 0 {
			msg = sf.Errors[0].Message
		}
		return nil, fmt.Errorf("the locked definition of %q does not load (%s)", e.Name, msg)
	}
	return breaking.FromSpec(sf.Tools[0]), nil
}

// Verify compares the current tools with the lock: every changed, added
// or removed tool is an error finding, a changed one with the semantic
// differences toolctl breaking reports (each at its line:col in the
// current file), or the canonical fields that differ when breaking
// compares none of them.
func Verify(f *File, current *breaking.Side) []diag.Diagnostic {
	var out []diag.Diagnostic
	locked := map[string]Entry{}
	for _, e := range f.Tools {
		locked[e.Name] = e
	}
	seen := map[string]bool{}
	for _, t := range current.Tools {
		if seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		e, ok := locked[t.Name]
		if !ok {
			out = append(out, diag.Diagnostic{File: t.File, Span: t.Span("/name"), Severity: diag.Error, Rule: RuleAdded, Tool: t.Name,
				Message: fmt.Sprintf("tool %s is not in %s: review it, then run toolctl lock to pin it", t.Name, f.path)})
			continue
		}
		def, other := string(t.JSON()), Other(t)
		if hash(def, other) != e.SHA256 {
			out = append(out, changed(f, e, t, def, other)...)
		}
		out = append(out, verifyCode(f, e, t)...)
	}
	for _, e := range f.Tools {
		if !seen[e.Name] {
			out = append(out, diag.Diagnostic{File: f.path, Span: f.at[e.Name], Severity: diag.Error, Rule: RuleRemoved, Tool: e.Name,
				Message: fmt.Sprintf("tool %s is pinned in %s (from %s) but no longer defined: if that is intended, run toolctl lock again", e.Name, f.path, e.File)})
		}
	}
	return out
}

func changed(f *File, e Entry, t *breaking.Tool, def, other string) []diag.Diagnostic {
	prefix := fmt.Sprintf("tool %s differs from %s (sha256 %s, now %s): ", t.Name, f.path, e.SHA256[:12], hash(def, other)[:12])
	var out []diag.Diagnostic
	if old, err := lockedTool(f.path, e); err == nil {
		old.File = f.path
		old.At = f.at[e.Name]
		sev := map[string]diag.Severity{"version": diag.Off, "provider": diag.Off}
		for _, d := range breaking.Compare([]*breaking.Tool{old}, []*breaking.Tool{t}, breaking.Options{Additions: true, Severity: sev}) {
			if d.Rule == "tool-renamed" || d.Rule == "tool-removed" || d.Rule == "tool-added" {
				continue
			}
			d.Message = prefix + d.Message + " (" + d.Rule + ")"
			d.Rule, d.Severity, d.Tool = RuleChanged, diag.Error, t.Name
			if d.File != t.File { // a removal points into the lock's copy
				d.File, d.Span = t.File, t.Span("/name")
			}
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		keys := changedKeys(e.Definition, def, e.Other, other)
		at := t.Span("/name")
		if len(keys) == 1 && t.Source != nil {
			ptr := "/" + keys[0]
			switch keys[0] {
			case "examples_expected", "examples_expect":
				ptr = "/examples"
			case "annotations_title":
				ptr = "/annotations/title"
			}
			if t.Source.Has(ptr) {
				at = t.Span(ptr)
			}
		}
		out = append(out, diag.Diagnostic{File: t.File, Span: at, Severity: diag.Error, Rule: RuleChanged, Tool: t.Name,
			Message: prefix + "changed " + strings.Join(keys, ", ")})
	}
	return out
}

// changedKeys are the top-level canonical fields that differ between two
// canonical definitions.
func changedKeys(oldDef, def, oldOther, other string) []string {
	a, b := map[string]json.RawMessage{}, map[string]json.RawMessage{}
	for _, s := range []struct {
		m    map[string]json.RawMessage
		text string
	}{{a, oldDef}, {a, oldOther}, {b, def}, {b, other}} {
		var m map[string]json.RawMessage
		_ = json.Unmarshal([]byte(s.text), &m)
		for k, v := range m {
			s.m[k] = v
		}
	}
	var keys []string
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(v, w) {
			keys = append(keys, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if len(keys) == 0 {
		return []string{"the definition"}
	}
	return keys
}

// compared are the fields of a tool file (spec.Tool.ToMap) that
// breaking's canonical JSON holds whole.
var compared = map[string]bool{
	"name": true, "title": true, "description": true, "detail": true, "version": true,
	"entry": true, "input_schema": true, "output_schema": true, "triggers": true,
	"warnings": true, "bind": true, "runtime": true,
}

// Other is the canonical JSON (keys sorted) of the fields of t's file
// that breaking's canonical JSON does not hold: metadata (category,
// author, icon, tags, id, ...), prerequisites, related tools, workflow,
// examples with their expected results and expect:, the annotations' title, strict,
// extensions. A lock pins them too: every change of meaning is a change.
// "" for a tool with none, or built without a source.
func Other(t *breaking.Tool) string {
	if t.Source == nil {
		return ""
	}
	m := t.Source.ToMap()
	out := map[string]any{}
	for i := 0; i < m.Len(); i++ {
		k, v := m.At(i)
		if k == "examples" && len(t.Examples) > 0 {
			// only the expected results: breaking holds the rest
			var exp []any
			for _, ex := range t.Source.Examples {
				exp = append(exp, plain(ex.Expected))
			}
			if slices.ContainsFunc(exp, func(v any) bool { return v != nil }) {
				out["examples_expected"] = exp
			}
			// and how toolctl test compares them (expect:)
			var how []any
			for _, ex := range t.Source.Examples {
				if ex.Expect == nil {
					how = append(how, nil)
				} else {
					how = append(how, plain(ex.Expect))
				}
			}
			if slices.ContainsFunc(how, func(v any) bool { return v != nil }) {
				out["examples_expect"] = how
			}
			continue
		}
		if k == "annotations" {
			if a := t.Source.Annotations; a != nil && a.Title != "" && a.Title != t.Title {
				out["annotations_title"] = a.Title
			}
			continue
		}
		if !compared[k] {
			out[k] = plain(v)
		}
	}
	if len(out) == 0 {
		return ""
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Sprintf("%q", err.Error())
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// plain is a value with its maps as Go maps (encoding/json sorts their
// keys).
func plain(v any) any {
	switch x := v.(type) {
	case *spec.Map:
		if x == nil {
			return nil
		}
		m := make(map[string]any, x.Len())
		for i := 0; i < x.Len(); i++ {
			k, v := x.At(i)
			m[k] = plain(v)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, v := range x {
			l[i] = plain(v)
		}
		return l
	}
	return v
}
