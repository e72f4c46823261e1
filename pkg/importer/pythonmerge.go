package importer

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/toolctl/toolctl/pkg/spec"
)

// PythonMerge is a re-import of a Python function over its tool file: the
// file's tool with what comes from the code replaced.
type PythonMerge struct {
	// Tool is the merged tool (nil when Conflicts is not empty).
	Tool *spec.Tool
	// Updated lists the fields taken from the code that changed, Kept the
	// fields of the file the import does not produce.
	Updated, Kept []string
	// Conflicts says why the file cannot be merged safely, one reason per
	// field; empty when it can.
	Conflicts []string
}

// pythonFields are the fields a Python import writes (FromCode): the
// rest of a tool file (title, examples, triggers, annotations, runtime,
// category, extensions, ...) is the person's.
var pythonFields = []string{"description", "detail", "input_schema", "output_schema", "entry", "warnings"}

// MergePython merges imp, a tool imported from a Python function, into
// the tool file data (at path) written for it earlier:
//
//   - description, detail, input_schema, output_schema and entry come
//     from the code; where the code says nothing (no docstring summary, no
//     detail, no return annotation) the file's value stays, and a parameter
//     the docstring does not describe keeps the file's description;
//   - warnings: the file's, then the code's Raises not already there;
//   - the entry keeps the file's other fields (interpreter, ...), its path
//     follows the code;
//   - every other field of the file is kept as it is.
//
// It refuses (Conflicts) a file that does not parse, holds another number
// of tools than one, names another tool, runs another entry type or
// another module or function, is written in another dialect, or has
// comments: rewriting it would lose or change what a person wrote.
func MergePython(path string, data []byte, imp *spec.Tool) *PythonMerge {
	m := &PythonMerge{}
	f := spec.ParseFile(path, data)
	switch {
	case f.NotTool != "":
		m.Conflicts = append(m.Conflicts, "the file is not a tool file ("+f.NotTool+")")
		return m
	case len(f.Errors) > 0:
		e := f.Errors[0]
		m.Conflicts = append(m.Conflicts, fmt.Sprintf("the file does not parse (%d:%d: %s)", e.Span.Start.Line, e.Span.Start.Col, e.Message))
		return m
	case len(f.Tools) != 1:
		m.Conflicts = append(m.Conflicts, fmt.Sprintf("the file holds %d tools, the import one", len(f.Tools)))
		return m
	}
	old := f.Tools[0]
	if old.Name != imp.Name {
		m.Conflicts = append(m.Conflicts, fmt.Sprintf("name: the file's tool is %q, the import's %q", old.Name, imp.Name))
	}
	keys, line := yamlKeys(data)
	canonical := old.ToMap()
	var other []string
	for _, k := range keys {
		if !canonical.Has(k) {
			other = append(other, k)
		}
	}
	if len(other) > 0 {
		m.Conflicts = append(m.Conflicts, fmt.Sprintf("the file writes %s in the %s dialect, which the rewritten file would write in toolctl's own form", strings.Join(other, ", "), old.Dialect))
	}
	if line > 0 {
		m.Conflicts = append(m.Conflicts, fmt.Sprintf("the file has comments (the first at or before line %d), which the rewritten file would lose", line))
	}
	entry := imp.Entry
	if oe := old.Entry; oe != nil && imp.Entry != nil {
		switch {
		case oe.Kind() != spec.EntryPython:
			m.Conflicts = append(m.Conflicts, fmt.Sprintf("entry: the file runs the tool with a %s entry, the import with python", oe.Type))
		case oe.Module != imp.Entry.Module || oe.Function != imp.Entry.Function:
			m.Conflicts = append(m.Conflicts, fmt.Sprintf("entry: the file calls %s.%s, the import %s.%s", oe.Module, oe.Function, imp.Entry.Module, imp.Entry.Function))
		default:
			e := *oe
			e.Path = imp.Entry.Path
			entry = &e
		}
	} else if imp.Entry == nil {
		entry = old.Entry // a snippet without --module: the file's entry stays
	}
	if len(m.Conflicts) > 0 {
		return m
	}
	before := old.ToMap()
	if imp.Description != "" {
		old.Description = imp.Description
	}
	if imp.Detail != "" {
		old.Detail = imp.Detail
	}
	if imp.OutputSchema != nil {
		old.OutputSchema = imp.OutputSchema
	}
	old.InputSchema = keepParamDescriptions(imp.InputSchema, old.InputSchema)
	old.Entry = entry
	for _, w := range imp.Warnings {
		if !slices.Contains(old.Warnings, w) {
			old.Warnings = append(old.Warnings, w)
		}
	}
	if imp.Category != "" { // --category
		old.Category = imp.Category
	}
	after := old.ToMap()
	for _, k := range after.Keys() {
		a, _ := after.Get(k)
		b, had := before.Get(k)
		switch {
		case slices.Contains(pythonFields, k) || k == "category" && imp.Category != "":
			if !had || !reflect.DeepEqual(spec.Plain(a), spec.Plain(b)) {
				m.Updated = append(m.Updated, k)
			}
		case k != "name":
			m.Kept = append(m.Kept, k)
		}
	}
	m.Tool = old
	return m
}

// keepParamDescriptions gives each top-level parameter of the code's
// schema that has no description the one the file's schema has.
func keepParamDescriptions(code, file *spec.Map) *spec.Map {
	if code == nil || file == nil {
		return code
	}
	cp, _ := code.GetMap("properties")
	fp, _ := file.GetMap("properties")
	if cp == nil || fp == nil {
		return code
	}
	for i := range cp.Len() {
		name, v := cp.At(i)
		s, ok := v.(*spec.Map)
		if !ok || s.Has("description") {
			continue
		}
		if fs, ok := fp.GetMap(name); ok {
			if d, ok := fs.GetString("description"); ok && d != "" {
				s.SetFirst("description", d)
			}
		}
	}
	return code
}

// yamlKeys reads a YAML tool file's top-level keys and the line of its
// first comment other than the editor's schema modeline (0: none).
func yamlKeys(data []byte) (keys []string, commentAt int) {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return nil, 0
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if commentAt > 0 || n == nil {
			return
		}
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, l := range strings.Split(c, "\n") {
				l = strings.TrimSpace(l)
				if l != "" && !strings.HasPrefix(l, "# yaml-language-server:") {
					commentAt = max(n.Line, 1)
					return
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	if len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		root := doc.Content[0]
		for i := 0; i+1 < len(root.Content); i += 2 {
			keys = append(keys, root.Content[i].Value)
		}
	}
	return keys, commentAt
}
