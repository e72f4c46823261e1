// Package importer turns tool definitions written for an LLM provider or an
// MCP server into canonical toolctl tools: OpenAI (Chat Completions and
// Responses), Anthropic, Gemini, MCP (tools/list results, Docker's compact
// tools.json) and BFCL function docs, from a file or from a live MCP server.
//
// Every source value is kept: schemas as written (key order included),
// descriptions, enums, defaults, examples, titles, annotations and output
// schemas. What a source format writes differently from JSON Schema is
// converted, and each conversion is documented on the reader of that format
// (gemini.go, bfcl.go, mcp.go). Names toolctl does not accept are mapped
// (ToolName) and reported as warnings.
package importer

import (
	"errors"
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"sort"
	"strings"

	"github.com/toolctl/toolctl/internal/testhook"
	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Format is a source format.
type Format string

// The formats, as spelled by --from.
const (
	Auto      Format = "auto"
	OpenAI    Format = "openai"
	Anthropic Format = "anthropic"
	Gemini    Format = "gemini"
	MCP       Format = "mcp"
	BFCL      Format = "bfcl"
)

// Formats lists every value --from accepts, auto first.
var Formats = []Format{Auto, OpenAI, Anthropic, Gemini, MCP, BFCL, Python}

// ParseFormat checks a --from value.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	msg := fmt.Sprintf("unknown format %q; use one of: %s", s, strings.Join(names, ", "))
	if sug := spec.Suggest(s, names); sug != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", sug)
	}
	return "", errors.New(msg)
}

// Options control an import.
type Options struct {
	// From is the source format; Auto (or "") detects it.
	From Format
	// Name is the input's name in messages: a path, or "<stdin>".
	Name string
}

// Tool is one imported tool.
type Tool struct {
	// Tool is the canonical tool; Tool.Name is the mapped name.
	Tool *spec.Tool
	// SourceName is the name in the source, before mapping.
	SourceName string
	// Pos is where the tool is in the input (zero for a live server).
	Pos spec.Pos
	// server is the server of a catalogue the tool is listed under
	// (catalogue.go), whose name prefixes the tool's.
	server string
}

// Result is what an import read.
type Result struct {
	// Format is the format read: the one asked for, or the detected one.
	Format Format
	// Detected says why auto detection chose Format ("" otherwise).
	Detected string
	Tools    []*Tool
	// Warnings are conversions the user should know about: mapped names,
	// skipped built-in tools, dropped fields.
	Warnings []*Diagnostic
	// ServerName and ServerVersion are a live server's serverInfo
	// (ImportServer; "" otherwise).
	ServerName, ServerVersion string
}

// Diagnostic is a positioned message about the input (Tool: the input's
// name of the tool it is about, if any).
type Diagnostic = diag.Diagnostic

// Errors is every problem of an input that cannot be imported; nothing is
// imported then.
type Errors []*Diagnostic

func (e Errors) Error() string {
	msgs := make([]string, len(e))
	for i, d := range e {
		msgs[i] = d.Error()
	}
	return strings.Join(msgs, "\n")
}

// Import reads tool definitions from data. A syntax error, a value that is
// not a tool of the format, a missing name or two tools with the same
// (mapped) name fail the whole import with Errors (or a *Diagnostic); the
// Result then has no tools but keeps the warnings, when there is one.
//
// A panic (a bug) is returned as a *Diagnostic, never raised.
func Import(data []byte, opts Options) (res *Result, err error) {
	if opts.Name == "" {
		opts.Name = "<input>"
	}
	defer recoverInput(opts.Name, &res, &err)
	testhook.Check("import", opts.Name)
	if opts.From == Python {
		return nil, &Diagnostic{File: opts.Name, Message: "Python source is read by ImportPython, not Import"}
	}
	src, err := decodeSource(opts.Name, data)
	if err != nil {
		return nil, err
	}
	return importSource(src, opts.From)
}

// recoverInput turns a panic while importing name into the import's error.
func recoverInput(name string, res **Result, err *error) {
	if p := recover(); p != nil {
		*res = nil
		*err = &Diagnostic{File: name, Span: diag.At(spec.Pos{Line: 1, Col: 1}), Message: spec.InternalErrorMsg(name, p)}
	}
}

func importSource(src *source, from Format) (*Result, error) {
	res := &Result{Format: from}
	if from == "" || from == Auto {
		f, why, err := detect(src)
		if err != nil {
			return nil, err
		}
		res.Format, res.Detected = f, why
	}
	r := &reader{src: src}
	read := readers[res.Format]
	if read == nil {
		return nil, fmt.Errorf("unknown format %q", res.Format)
	}
	for i, doc := range src.docs {
		read(r, doc, src.root(i))
	}
	if len(r.tools) == 0 && len(r.errs) == 0 {
		r.errs = append(r.errs, &Diagnostic{File: src.name, Message: fmt.Sprintf("no tool found in this %s input; check --from (auto detects the format)", res.Format)})
	}
	mapNames(r)
	res.Tools, res.Warnings = r.tools, r.warnings
	if len(r.errs) > 0 {
		// The warnings still explain things (a skipped built-in tool is
		// why there is "no tool"), so the result goes back too.
		res.Tools = nil
		return res, Errors(r.errs)
	}
	return res, nil
}

// readers read one document of each format.
var readers = map[Format]func(r *reader, v any, at loc){
	OpenAI:    readOpenAI,
	Anthropic: readAnthropic,
	Gemini:    readGemini,
	MCP:       readMCP,
	BFCL:      readBFCL,
}

// reader collects the tools, warnings and errors of one import.
type reader struct {
	src      *source
	tools    []*Tool
	warnings []*Diagnostic
	errs     []*Diagnostic
}

func (r *reader) errorf(at loc, format string, args ...any) {
	r.errs = append(r.errs, r.src.diag(r.src.posOf(at), fmt.Sprintf(format, args...)))
}

func (r *reader) warnf(rule string, at loc, tool, format string, args ...any) {
	d := r.src.diag(r.src.posOf(at), fmt.Sprintf(format, args...))
	d.Tool, d.Rule = tool, rule
	r.warnings = append(r.warnings, d)
}

func (r *reader) add(t *spec.Tool, at loc) {
	r.tools = append(r.tools, &Tool{Tool: t, SourceName: t.Name, Pos: r.src.posOf(at)})
}

// object returns v as an object, or reports what it is instead.
func (r *reader) object(v any, at loc, what string) (*spec.Map, bool) {
	m, ok := v.(*spec.Map)
	if !ok {
		r.errorf(at, "%s: expected a JSON object, got %s", what, kindOf(v))
	}
	return m, ok
}

// each calls fn for every item of list, reporting the items that are not
// objects.
func (r *reader) each(list []any, at loc, what string, fn func(r *reader, m *spec.Map, at loc)) {
	for i, item := range list {
		if m, ok := r.object(item, at.index(i), what); ok {
			fn(r, m, at.index(i))
		}
	}
}

// list returns v as a list, or reports what it is instead.
func (r *reader) list(v any, at loc, what string) ([]any, bool) {
	l, ok := v.([]any)
	if !ok {
		r.errorf(at, "%s: expected a JSON array, got %s", what, kindOf(v))
	}
	return l, ok
}

// str reads an optional string member.
func (r *reader) str(m *spec.Map, key string, at loc) string {
	v, ok := m.Get(key)
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		r.errorf(at.key(key), "%s: expected a string, got %s", key, kindOf(v))
	}
	return s
}

// boolean reads an optional boolean member.
func (r *reader) boolean(m *spec.Map, key string, at loc) *bool {
	v, ok := m.Get(key)
	if !ok || v == nil {
		return nil
	}
	b, ok := v.(bool)
	if !ok {
		r.errorf(at.key(key), "%s: expected true or false, got %s", key, kindOf(v))
		return nil
	}
	return &b
}

// schema reads an optional JSON Schema object member; JSON null is absent.
func (r *reader) schema(m *spec.Map, key string, at loc) *spec.Map {
	v, ok := m.Get(key)
	if !ok || v == nil {
		return nil
	}
	s, ok := v.(*spec.Map)
	if !ok {
		r.errorf(at.key(key), "%s: expected a JSON Schema object, got %s", key, kindOf(v))
		return nil
	}
	return s
}

// toolName reads a tool's name: required, a non-empty string.
func (r *reader) toolName(m *spec.Map, at loc) (string, bool) {
	v, ok := m.Get("name")
	if !ok {
		r.errorf(at, "not a tool: there is no \"name\" (keys here: %s); every tool needs a name", keyList(m))
		return "", false
	}
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		r.errorf(at.key("name"), "name: expected a non-empty string, got %s", kindOf(v))
		return "", false
	}
	return s, true
}

// ignored warns about members a format has that toolctl does not keep.
func (r *reader) ignored(m *spec.Map, at loc, tool string, known map[string]bool, why string) {
	for _, k := range m.Keys() {
		if !known[k] {
			r.warnf(RuleFieldDropped, at.key(k), tool, "tool %q: field %q is not kept%s", tool, k, why)
		}
	}
}

// description warns about a tool without one: toolctl requires it.
func (r *reader) description(t *spec.Tool, at loc) {
	if strings.TrimSpace(t.Description) == "" {
		r.warnf(RuleDescriptionMissing, at, t.Name, "tool %q has no description; add one (what it does and when to use it) before linting", t.Name)
	}
}

// convertProperties returns a properties value with conv applied to each
// schema in it; a value that is not a map, and members that are not
// schemas, are kept as written.
func convertProperties(v any, conv func(key string, m *spec.Map) *spec.Map) any {
	props, ok := v.(*spec.Map)
	if !ok {
		return v
	}
	out := spec.NewMap(props.Len())
	for i := range props.Len() {
		k, pv := props.At(i)
		if pm, ok := pv.(*spec.Map); ok {
			pv = conv(k, pm)
		}
		out.Set(k, pv)
	}
	return out
}

// convertList is convertProperties for a list of schemas (anyOf, ...).
func convertList(v any, conv func(i int, m *spec.Map) *spec.Map) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(list))
	for i, item := range list {
		if m, ok := item.(*spec.Map); ok {
			item = conv(i, m)
		}
		out[i] = item
	}
	return out
}

func keyList(m *spec.Map) string {
	keys := m.Keys()
	if len(keys) == 0 {
		return "none"
	}
	if len(keys) > 6 {
		keys = append(keys[:6:6], "...")
	}
	return strings.Join(keys, ", ")
}

func kindOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case *spec.Map:
		return "an object"
	case []any:
		return "an array"
	case string:
		return fmt.Sprintf("the string %q", clip(v, 40))
	case bool:
		return fmt.Sprintf("%t", v)
	default:
		return fmt.Sprintf("the number %v", v)
	}
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// ToolName maps a source name to a valid toolctl name: snake_case
// (^[a-z][a-z0-9_]*$), at most 64 characters. compat.MapName's OpenAI
// mapping comes first (every character outside [A-Za-z0-9_-] becomes _, so
// "math.factorial" is "math_factorial"), then - becomes _, camelCase words
// are split ("getUser" is "get_user", "HTTPServer" is "http_server") and
// letters are lower-cased; a name that does not start with a letter gets
// "tool_" in front. A valid name is kept as it is.
func ToolName(name string) string {
	if validName(name) {
		return name
	}
	s := compat.MapName(compat.OpenAI, name)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUpper(c):
			if i > 0 && (isLower(s[i-1]) || isDigit(s[i-1]) || isUpper(s[i-1]) && i+1 < len(s) && isLower(s[i+1])) {
				underscore(&b)
			}
			b.WriteByte(c + 'a' - 'A')
		case isLower(c) || isDigit(c):
			b.WriteByte(c)
		default: // _ and -, all compat.MapName leaves besides letters and digits
			underscore(&b)
		}
	}
	out := strings.Trim(b.String(), "_")
	if out == "" || !isLower(out[0]) {
		out = strings.TrimSuffix("tool_"+out, "_")
	}
	if len(out) > maxNameLen {
		out = strings.TrimRight(out[:maxNameLen], "_")
	}
	return out
}

// maxNameLen is toolctl's default name length limit (lint.DefaultLimits).
const maxNameLen = 64

func validName(s string) bool { return len(s) <= maxNameLen && spec.IsSnakeCase(s) }

func underscore(b *strings.Builder) {
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
		b.WriteByte('_')
	}
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// mapNames gives every tool a valid toolctl name, warns about each
// mapping, and reports two tools that end up with the same name.
func mapNames(r *reader) {
	catalogueSummary(r)
	byName := map[string][]*Tool{}
	for _, t := range r.tools {
		name := ToolName(t.SourceName)
		if t.server != "" {
			name = catalogueName(t.server, t.SourceName)
		}
		if ToolName(t.SourceName) != t.SourceName {
			r.warnings = append(r.warnings, &Diagnostic{File: r.src.name, Span: diag.At(t.Pos), Tool: t.SourceName, Rule: RuleNameMapped,
				Message: fmt.Sprintf("tool %q is imported as %q: toolctl names are snake_case (^[a-z][a-z0-9_]*$, at most 64 characters)", t.SourceName, name)})
		}
		t.Tool.Name = name
		byName[name] = append(byName[name], t)
	}
	names := make([]string, 0, len(byName))
	for n, ts := range byName {
		if len(ts) > 1 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		ts := byName[n]
		var where []string
		for _, t := range ts[1:] {
			w := fmt.Sprintf("%q", t.SourceName)
			if t.Pos.IsValid() {
				w += fmt.Sprintf(" (line %d)", t.Pos.Line)
			}
			where = append(where, w)
		}
		first := ts[0]
		what := fmt.Sprintf("the same name as %s", strings.Join(where, " and "))
		if first.SourceName != n || ts[1].SourceName != n {
			what = fmt.Sprintf("the same toolctl name %q as %s", n, strings.Join(where, " and "))
		}
		r.errs = append(r.errs, &Diagnostic{File: r.src.name, Span: diag.At(first.Pos), Tool: first.SourceName,
			Message: fmt.Sprintf("tool %q has %s; every tool needs its own name: rename or remove one in the input", first.SourceName, what)})
	}
}
