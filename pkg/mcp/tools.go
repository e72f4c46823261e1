package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/internal/jsonschema"
	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// tool is one served tool.
type tool struct {
	spec *spec.Tool
	name string // the MCP name (export maps names MCP forbids)
	def  *sdk.Tool
	// listing is def as JSON: a reload that leaves it unchanged swaps the
	// tool in place without a list_changed notification.
	listing []byte
	// output validates structuredContent against the advertised
	// outputSchema ("Servers MUST provide structured results that conform
	// to this schema", 2025-06-18 server/tools#output-schema); nil when
	// the tool has none or it does not compile.
	output *jsonschema.Schema
	// outSchema is the same schema, for the fast check (conforms).
	outSchema *spec.Map
	// local: a builtin that only computes (ReadOnlyBuiltins), run on the
	// worker pool.
	local bool
}

// fileState remembers the last good version of a file, served while the
// file on disk does not parse (or has lint errors), and the hash of the
// content last reported, so that a broken file is reported once per edit,
// not on every reload.
type fileState struct {
	good     *spec.File
	reported uint64
}

// ReadOnlyBuiltins are the builtin handlers that do not change anything
// outside the call: their tools get readOnlyHint unless the file says
// otherwise. (file_reader reads, inside its root, and never writes.)
var ReadOnlyBuiltins = []string{"calculator", "datetime", "string", "array", "object", "text_analyzer", "json_transformer", "file_reader"}

// Summary says what an Update changed.
type Summary struct {
	Served                  int
	Added, Changed, Removed []string
	// Kept lists files served from their last good version.
	Kept []string
}

func (sum Summary) String() string {
	var parts []string
	add := func(what string, names []string) {
		if len(names) > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", what, strings.Join(names, ", ")))
		}
	}
	add("added", sum.Added)
	add("changed", sum.Changed)
	add("removed", sum.Removed)
	if len(parts) == 0 {
		return "no tool changed"
	}
	return strings.Join(parts, "; ")
}

// Update serves the tools of set. A file with parse errors, or listed in
// bad (lint errors, with their report), keeps its last good version when it has one and is
// reported; tools that were served and are gone are removed. Clients are
// told with notifications/tools/list_changed when the list changed (the
// SDK debounces a burst of changes into one).
func (s *Server) Update(set *spec.Set, bad map[string]string) Summary {
	s.updateMu.Lock()
	defer s.updateMu.Unlock()
	return s.update(set, bad)
}

func (s *Server) update(set *spec.Set, bad map[string]string) Summary {
	var sum Summary
	var noEntry []*spec.Tool // definition-only tools, newly read
	next := map[string]*tool{}
	var order []string
	present := map[string]bool{}
	for _, f := range set.Files {
		present[f.Path] = true
		st := s.files[f.Path]
		if st == nil {
			st = &fileState{}
			s.files[f.Path] = st
		}
		h := hash(f.Data)
		fresh := h != st.reported
		st.reported = h
		use := f
		lintReport, linted := bad[f.Path]
		if len(f.Errors) > 0 || linted {
			if fresh {
				s.reportFile(f, lintReport, st.good != nil)
			}
			if st.good != nil {
				use = st.good
				sum.Kept = append(sum.Kept, f.Path)
			} else if linted {
				continue
			}
		} else {
			st.good = f
		}
		for _, t := range use.Tools {
			if use == f && len(t.Errors()) > 0 {
				continue // reported with its file
			}
			tt, err := convert(t)
			if err != nil {
				if fresh && errors.Is(err, errNoEntry) {
					noEntry = append(noEntry, t)
				} else if fresh {
					s.log.printf("%s: tool %q is not served: %v", t.Path(), t.Name, err)
				}
				continue
			}
			if prev, dup := next[tt.name]; dup {
				if fresh {
					s.log.printf("%s: tool %q is not served: %s already defines a tool named %q; rename one of them", t.Path(), t.Name, prev.spec.Path(), tt.name)
				}
				continue
			}
			if s.opts.MetaTools && tt.name == metaToolName {
				if fresh {
					s.log.printf("%s: tool %q is not served: --meta-tools adds a tool of that name; rename it or drop --meta-tools", t.Path(), t.Name)
				}
				continue
			}
			next[tt.name] = tt
			order = append(order, tt.name)
		}
	}
	// The first javascript call should not wait for a worker to start.
	for _, tt := range next {
		if tt.spec.EntryKind() == spec.EntryJavaScript {
			run.WarmJavaScript()
			break
		}
	}
	for p := range s.files {
		if !present[p] {
			delete(s.files, p)
		}
	}
	s.reportNoEntry(noEntry)

	s.mu.Lock()
	prev := s.tools
	var add []*tool
	for _, name := range order {
		tt := next[name]
		old, ok := prev[name]
		switch {
		case !ok:
			sum.Added = append(sum.Added, name)
			add = append(add, tt)
		case !bytes.Equal(old.listing, tt.listing):
			sum.Changed = append(sum.Changed, name)
			add = append(add, tt)
		}
	}
	for name := range prev {
		if _, ok := next[name]; !ok {
			sum.Removed = append(sum.Removed, name)
		}
	}
	s.tools = next
	s.mu.Unlock()

	// The handler looks tools up in s.tools, so a call never sees a tool
	// the SDK does not list for longer than this gap.
	if len(sum.Removed) > 0 {
		slices.Sort(sum.Removed)
		s.sdk.RemoveTools(sum.Removed...)
	}
	for _, tt := range add {
		s.sdk.AddTool(tt.def, s.callTool)
	}
	slices.Sort(sum.Added)
	slices.Sort(sum.Changed)
	sum.Served = len(next)
	return sum
}

// reportFile logs why a file is not (or no longer) served as it is.
func (s *Server) reportFile(f *spec.File, lintReport string, kept bool) {
	var b strings.Builder
	for _, e := range f.Errors {
		b.WriteString(e.Error())
		b.WriteByte('\n')
	}
	if len(f.Errors) == 0 {
		b.WriteString(lintReport)
	}
	if b.Len() > 0 {
		s.log.printf("%s", strings.TrimRight(b.String(), "\n"))
	}
	if kept {
		s.log.printf("%s has errors (above): still serving its last good version; fix the file to reload it", f.Path)
	} else if len(f.Errors) > 0 {
		s.log.printf("%s has errors (above): only its tools without errors are served", f.Path)
	} else {
		s.log.printf("%s has lint errors (above): not served until they are fixed", f.Path)
	}
}

func hash(data []byte) uint64 {
	h := fnv.New64a()
	h.Write(data)
	return h.Sum64() | 1 // never 0, the "not reported yet" value
}

// errNoEntry: a definition-only tool, which cannot run.
var errNoEntry = errors.New("it has no entry, so it cannot run; add entry: {type: ...}")

// reportNoEntry logs the definition-only tools: one line each when they
// are few, else one line for all (a registry of definitions has
// hundreds).
func (s *Server) reportNoEntry(tools []*spec.Tool) {
	const each = 3
	if len(tools) <= each {
		for _, t := range tools {
			s.log.printf("%s: tool %q is not served: %v", t.Path(), t.Name, errNoEntry)
		}
		return
	}
	files := map[string]bool{}
	var examples []string
	for _, t := range tools {
		if !files[t.Path()] && len(examples) < each { // one per file
			examples = append(examples, fmt.Sprintf("%s: %q", t.Path(), t.Name))
		}
		files[t.Path()] = true
	}
	in := fmt.Sprintf("%d files", len(files))
	if len(files) == 1 {
		in = "1 file"
	}
	s.log.printf("%d tools in %s are not served: they have no entry, so they cannot run; add entry: {type: ...} to serve them. Among them: %s", len(tools), in, strings.Join(examples, "; "))
}

// convert builds the MCP Tool of t from the MCP export (bound parameters
// removed, key order kept), with annotations derived for read-only
// builtins.
func convert(t *spec.Tool) (*tool, error) {
	if t.EntryKind() == "" || t.Entry == nil {
		return nil, errNoEntry
	}
	m, _ := export.MCPTool(t)
	def := &sdk.Tool{}
	def.Name, _ = m.GetString("name")
	def.Title, _ = m.GetString("title")
	def.Description, _ = m.GetString("description")
	in, _ := m.GetMap("inputSchema")
	if typ, _ := in.GetString("type"); typ != "object" {
		// The SDK would panic, and clients would refuse the tool: MCP's
		// inputSchema is {type: "object", ...}.
		return nil, fmt.Errorf(`its input schema has no "type": "object" at the top, which MCP requires; run toolctl lint %s`, t.Path())
	}
	raw, err := in.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("its input schema cannot be written as JSON: %v", err)
	}
	def.InputSchema = json.RawMessage(raw)
	tt := &tool{spec: t, name: def.Name, def: def}
	tt.local = t.EntryKind() == spec.EntryBuiltin && slices.Contains(ReadOnlyBuiltins, t.Entry.Handler)
	if out, ok := m.GetMap("outputSchema"); ok {
		raw, err := out.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("its output schema cannot be written as JSON: %v", err)
		}
		def.OutputSchema = json.RawMessage(raw)
		// A schema that does not compile is lint's to report; the results
		// are then sent unchecked.
		tt.output, _ = validate.Compile(out)
		tt.outSchema = out
	}
	def.Annotations = annotations(t, m)
	if meta, ok := m.Get("_meta"); ok {
		if mm, ok := spec.Plain(meta).(map[string]any); ok {
			def.Meta = mm
		}
	}
	tt.listing, err = json.Marshal(def)
	if err != nil {
		return nil, err
	}
	return tt, nil
}

// annotations are the file's, plus readOnlyHint for read-only builtins
// when the file does not set it.
func annotations(t *spec.Tool, m *spec.Map) *sdk.ToolAnnotations {
	a := &sdk.ToolAnnotations{}
	set := false
	if am, ok := m.GetMap("annotations"); ok {
		for _, k := range am.Keys() {
			v, _ := am.Get(k)
			b, isBool := v.(bool)
			switch {
			case k == "title":
				a.Title, _ = v.(string)
			case !isBool:
				continue
			case k == "readOnlyHint":
				a.ReadOnlyHint = b
			case k == "destructiveHint":
				a.DestructiveHint = &b
			case k == "idempotentHint":
				a.IdempotentHint = b
			case k == "openWorldHint":
				a.OpenWorldHint = &b
			}
			set = true
		}
	}
	if t.Annotations == nil || t.Annotations.ReadOnlyHint == nil {
		if t.EntryKind() == spec.EntryBuiltin && t.Entry != nil && slices.Contains(ReadOnlyBuiltins, t.Entry.Handler) {
			a.ReadOnlyHint = true
			set = true
		}
	}
	if !set {
		return nil
	}
	return a
}
