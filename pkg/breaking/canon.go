package breaking

import (
	"encoding/json"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Tool is the canonical model of one tool as Compare sees it: what an
// agent's call must look like (Input), what it gets back (Output), how it
// behaves and what the model reads, whatever the dialect, layout or key
// order of its file.
type Tool struct {
	Name        string
	Title       string
	Description string
	Detail      string
	Version     string
	Input       *Schema
	Output      *Schema
	Hints       Hints
	// EntryKind is the canonical entry type; EntryTarget the host an http
	// entry calls, the server of an mcp entry, the program of a command.
	EntryKind   string
	EntryTarget string
	Timeout     time.Duration
	// Bound are the parameters bind fills, sorted: the model never sees
	// them.
	Bound    []string
	Examples []Example
	Triggers []string
	Warnings []string
	// Entry, Bind and Runtime are the tool's definitions of how it runs
	// (entry with its canonical type, bind with each source, runtime),
	// for CanonicalJSON: a pinned tool changes when any of them does.
	Entry, Bind, Runtime *spec.Map

	// Source is the tool as loaded (nil for a tool built another way).
	Source *spec.Tool
	// File is the file as reports show it (a git ref's is "REF:path").
	File string
	// At is the tool's position when the source has no positions of its
	// own (an imported tool).
	At diag.Span
	// Lacks are the fields the tool's source format cannot carry (a
	// provider's tools array has no title or examples, tools/list no
	// detail): such a field left empty is unknown, not removed, and is not
	// compared.
	Lacks Fields
}

// Fields is a set of the fields a format may lack.
type Fields uint8

// The fields of Fields.
const (
	FieldTitle Fields = 1 << iota
	FieldDetail
	FieldExamples
	FieldOutput
	FieldHints
)

// MCPLacks are the fields an MCP tools/list result does not carry.
const MCPLacks = FieldDetail | FieldExamples

// ProviderLacks are the fields a provider's tools array (OpenAI,
// Anthropic, Gemini) does not carry.
const ProviderLacks = FieldTitle | FieldDetail | FieldExamples | FieldOutput | FieldHints

// lacksOf is what a dialect of tool files cannot carry.
func lacksOf(d spec.Dialect) Fields {
	switch d {
	case spec.DialectOpenAI, spec.DialectDocker:
		return ProviderLacks
	case spec.DialectMCP:
		return MCPLacks
	}
	return 0
}

// unknown reports whether field f of t is unknown rather than empty: t
// comes from a format without it.
func (t *Tool) unknown(f Fields, empty bool) bool { return t.Lacks&f != 0 && empty }

// Hints are MCP's tool annotations; nil is unset.
type Hints struct {
	ReadOnly, Destructive, Idempotent, OpenWorld *bool
}

// Example is one documented call.
type Example struct {
	Scenario string
	Params   any
}

// FromSpec builds the canonical model of a loaded tool.
func FromSpec(t *spec.Tool) *Tool {
	c := &Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		Detail:      t.Detail,
		Version:     t.Version,
		Input:       Normalise(t.Input(), "/input_schema"),
		Output:      Normalise(t.OutputSchema, "/output_schema"),
		EntryKind:   t.EntryKind(),
		Triggers:    t.Triggers,
		Warnings:    t.Warnings,
		Source:      t,
		File:        t.Path(),
		Lacks:       lacksOf(t.Dialect),
	}
	if c.Title == "" && t.Annotations != nil {
		c.Title = t.Annotations.Title
	}
	if a := t.Annotations; a != nil {
		c.Hints = Hints{a.ReadOnlyHint, a.DestructiveHint, a.IdempotentHint, a.OpenWorldHint}
	}
	if e := t.Entry; e != nil {
		c.EntryTarget = entryTarget(e)
		c.Entry = e.ToMap()
		c.Entry.Set("type", e.Kind())
	}
	if r := t.Runtime; r != nil {
		c.Timeout = r.Timeout
		c.Runtime = spec.NewMap(7)
		for _, d := range []struct {
			k string
			v time.Duration
		}{{"timeout", r.Timeout}, {"retry_delay", r.RetryDelay}, {"max_delay", r.MaxDelay}} {
			if d.v > 0 {
				c.Runtime.Set(d.k, d.v.String())
			}
		}
		if r.Memory != 0 {
			c.Runtime.Set("memory", json.Number(strconv.FormatInt(r.Memory, 10)))
		}
		if r.Retries != nil {
			c.Runtime.Set("retries", json.Number(strconv.Itoa(*r.Retries)))
		}
		if r.Backoff != "" {
			c.Runtime.Set("backoff", r.Backoff)
		}
		if r.RetryNonIdempotent != nil {
			c.Runtime.Set("retry_non_idempotent", *r.RetryNonIdempotent)
		}
	}
	if len(t.Bind) > 0 {
		c.Bind = spec.NewMap(len(t.Bind))
	}
	for _, b := range t.Bind {
		c.Bound = append(c.Bound, b.Param)
		src := spec.NewMap(1)
		if b.Kind == spec.BindValue {
			src.Set(string(b.Kind), b.Value)
		} else {
			src.Set(string(b.Kind), b.Ref)
		}
		c.Bind.Set(b.Param, src)
	}
	slices.Sort(c.Bound)
	for _, ex := range t.Examples {
		var p any
		if ex.Params != nil {
			p = canonValue(ex.Params)
		}
		c.Examples = append(c.Examples, Example{Scenario: ex.Scenario, Params: p})
	}
	return c
}

// entryTarget is what an entry reaches: an http entry's host (placeholders
// kept), an mcp entry's server, a command's program.
func entryTarget(e *spec.Entry) string {
	switch e.Kind() {
	case spec.EntryHTTP:
		return urlOrigin(e.URL)
	case spec.EntryMCP:
		if e.Server != "" {
			return e.Server
		}
		return strings.Join(e.ServerArgs, " ")
	case spec.EntryCommand:
		if len(e.Command) > 0 {
			return e.Command[0]
		}
	case spec.EntryBuiltin:
		return e.Handler
	case spec.EntryPython:
		return e.Module + ":" + e.Function
	}
	return ""
}

// urlOrigin is scheme://host[:port] of a URL, placeholders ({host},
// ${API_HOST}) kept as written; the path and query are left out.
func urlOrigin(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
	}
	rest, scheme := raw, ""
	if i := strings.Index(raw, "://"); i >= 0 {
		scheme, rest = strings.ToLower(raw[:i]), raw[i+3:]
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if scheme == "" {
		return rest
	}
	return scheme + "://" + rest
}

// Span is the source range of the value at a canonical pointer of the
// tool, or of the tool itself when its source has no positions.
func (t *Tool) Span(ptr string) diag.Span {
	if t.Source != nil && t.Source.File != nil {
		s := t.Source.Span(ptr)
		if toks := spec.SplitPointer(ptr); len(toks) > 1 && toks[len(toks)-2] == "properties" && t.Source.Has(ptr) {
			// a property: its name
			s = t.Source.KeySpan(ptr)
		}
		if s.Start.IsValid() {
			return s
		}
	}
	return t.At
}

// bound reports whether the model does not see parameter p.
func (t *Tool) bound(p string) bool { return slices.Contains(t.Bound, p) }

// CanonicalJSON is the canonical JSON of a tool: what a call must look
// like, what it returns, how it runs (the whole entry, bind and runtime)
// and what the model reads, with
// references resolved, equivalent schema spellings made one, keys sorted,
// numbers in one form and no insignificant space. Two files that mean the
// same tool (any dialect, layout, key order or formatting) give the same
// bytes, so it can be hashed to pin a tool (toolctl lock).
func CanonicalJSON(t *spec.Tool) []byte {
	return FromSpec(t).JSON()
}

// JSON is the canonical JSON of t (see CanonicalJSON).
func (t *Tool) JSON() []byte {
	m := spec.NewMap(16)
	set := func(k string, v any) {
		switch x := v.(type) {
		case string:
			if x == "" {
				return
			}
		case []string:
			if len(x) == 0 {
				return
			}
			l := make([]any, len(x))
			for i, s := range x {
				l[i] = s
			}
			v = l
		}
		m.Set(k, v)
	}
	set("name", t.Name)
	set("title", t.Title)
	set("description", t.Description)
	set("detail", t.Detail)
	set("version", t.Version)
	if t.Input != nil {
		m.Set("input_schema", t.Input.value())
	}
	if t.Output != nil {
		m.Set("output_schema", t.Output.value())
	}
	hints := spec.NewMap(4)
	for _, h := range []struct {
		k string
		v *bool
	}{{"destructiveHint", t.Hints.Destructive}, {"idempotentHint", t.Hints.Idempotent}, {"openWorldHint", t.Hints.OpenWorld}, {"readOnlyHint", t.Hints.ReadOnly}} {
		if h.v != nil {
			hints.Set(h.k, *h.v)
		}
	}
	if hints.Len() > 0 {
		m.Set("annotations", hints)
	}
	switch {
	case t.Entry != nil:
		m.Set("entry", t.Entry)
	case t.EntryKind != "":
		e := spec.NewMap(2)
		e.Set("target", t.EntryTarget)
		e.Set("type", t.EntryKind)
		m.Set("entry", e)
	}
	if t.Runtime != nil && t.Runtime.Len() > 0 {
		m.Set("runtime", t.Runtime)
	}
	if t.Bind != nil {
		m.Set("bind", t.Bind)
	}
	if len(t.Examples) > 0 {
		l := make([]any, len(t.Examples))
		for i, ex := range t.Examples {
			e := spec.NewMap(2)
			e.Set("params", ex.Params)
			e.Set("scenario", ex.Scenario)
			l[i] = e
		}
		m.Set("examples", l)
	}
	set("triggers", t.Triggers)
	set("warnings", t.Warnings)
	var b strings.Builder
	writeJSON(&b, canonValue(m))
	return []byte(b.String())
}

// value is the canonical JSON value of a schema (maps with sorted keys).
func (s *Schema) value() any {
	m := spec.NewMap(8)
	if s.Ref != "" {
		m.Set("$ref", s.Ref)
	}
	if s.Closed {
		m.Set("additionalProperties", false)
	} else if s.Additional != nil {
		m.Set("additionalProperties", s.Additional.value())
	}
	list := func(k string, l []*Schema) {
		if l == nil {
			return
		}
		out := make([]any, len(l))
		for i, x := range l {
			out[i] = x.value()
		}
		m.Set(k, out)
	}
	list("allOf", s.AllOf)
	list("anyOf", s.AnyOf)
	for _, k := range boundKeys {
		if r, ok := s.Bounds[k]; ok {
			m.Set(k, json.Number(ratString(r)))
		}
	}
	if s.HasConst {
		m.Set("const", s.Const)
	}
	if s.HasDefault {
		m.Set("default", s.Default)
	}
	if s.Description != "" {
		m.Set("description", s.Description)
	}
	if s.Enum != nil {
		m.Set("enum", s.Enum)
	}
	if s.Examples != nil {
		m.Set("examples", s.Examples)
	}
	if s.Format != "" {
		m.Set("format", s.Format)
	}
	if s.Items != nil {
		m.Set("items", s.Items.value())
	}
	list("oneOf", s.OneOf)
	for k, v := range s.Other {
		m.Set(k, json.RawMessage(v))
	}
	if s.Pattern != "" {
		m.Set("pattern", s.Pattern)
	}
	list("prefixItems", s.Prefix)
	if s.Props != nil {
		p := spec.NewMap(len(s.Props))
		for _, k := range s.Order {
			p.Set(k, s.Props[k].value())
		}
		m.Set("properties", p)
	}
	if s.Required != nil {
		l := make([]any, len(s.Required))
		for i, r := range s.Required {
			l[i] = r
		}
		m.Set("required", l)
	}
	if s.Title != "" {
		m.Set("title", s.Title)
	}
	switch len(s.Types) {
	case 0:
	case 1:
		m.Set("type", s.Types[0])
	default:
		l := make([]any, len(s.Types))
		for i, t := range s.Types {
			l[i] = t
		}
		m.Set("type", l)
	}
	return m
}

// writeJSON writes v compactly with sorted object keys (spec.Map keys are
// sorted here), without HTML escaping.
func writeJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		writeString(b, x)
	case json.Number:
		b.WriteString(string(x))
	case json.RawMessage:
		b.Write(x)
	case *big.Rat:
		b.WriteString(ratString(x))
	case *spec.Map:
		keys := x.Keys()
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			val, _ := x.Get(k)
			writeJSON(b, val)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	default:
		switch y := spec.FromPlain(v).(type) {
		case *spec.Map, []any, json.Number:
			writeJSON(b, canonValue(y))
		default:
			out, err := json.Marshal(y)
			if err != nil {
				out = []byte("null")
			}
			b.Write(out)
		}
	}
}

func writeString(b *strings.Builder, s string) {
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.WriteString(strings.TrimSuffix(buf.String(), "\n"))
}
