// Package export turns canonical tools into what each LLM API (or prompt)
// takes: OpenAI Chat Completions and Responses, Anthropic, Gemini, MCP, a
// bare JSON Schema, a prompt text, the canonical YAML file and Python and
// TypeScript stubs. One file per
// format and one row of the formats table; this file holds the table and
// what the formats share: options, name mapping, bound parameters, strict
// refusals and the assembly of one document or one file per tool.
//
// Output is deterministic: schemas keep their source key order (OpenAI
// emits arguments in schema key order) and are never round-tripped through
// a Go map.
package export

import (
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// Format names an export format, as spelled by toolctl export --format.
type Format string

const (
	OpenAI          Format = "openai"
	OpenAIResponses Format = "openai-responses"
	Anthropic       Format = "anthropic"
	Gemini          Format = "gemini"
	MCP             Format = "mcp"
	JSONSchema      Format = "jsonschema"
	Prompt          Format = "prompt"
	YAML            Format = "yaml"
	Python          Format = "python"
	TypeScript      Format = "typescript"
)

// formatDef is one export format: everything the shared code needs to
// know about it. Adding a format is one file (its converter and document
// encoder) and one row of formats.
type formatDef struct {
	Name Format
	// Target is the compat target whose name rules the format follows
	// (and whose strict-mode rules --strict applies); "" for formats no
	// provider reads, whose names are not mapped.
	Target string
	// Provider names the target in the rename warning.
	Provider string
	// NameRule restates the target's name syntax for the rename warning.
	NameRule string
	// Strict tells whether --strict applies.
	Strict bool
	// Ext is the extension of the per-tool files of -o DIR/.
	Ext string
	// Convert builds one tool's element of the document, exported under
	// name; problems refuse the tool, and a nil element with no problems
	// leaves it out (a warning says why: python cannot name it).
	Convert func(t *spec.Tool, name string, opts Options) (any, []Warning, []Problem)
	// Document encodes all the elements as one output.
	Document func(r *Result) ([]byte, error)
	// File encodes one tool's element as its own file.
	File func(v any) ([]byte, error)
	// SetWarnings reports the request-wide limits over the exported tools
	// (nil: none). They depend on which tools are sent together, so they
	// warn rather than refuse.
	SetWarnings func(items []Item) []Warning
}

// The name syntax OpenAI's two APIs share.
const openAINameRule = "names allow only a-z, A-Z, 0-9, _ and -, at most 64"

// formats is every format, in documentation order.
var formats = []formatDef{
	{Name: OpenAI, Target: compat.OpenAI, Provider: "OpenAI", NameRule: openAINameRule, Strict: true, Ext: ".json",
		Convert: openAIChatTool, Document: jsonArray, File: jsonFile, SetWarnings: openAISetWarnings},
	{Name: OpenAIResponses, Target: compat.OpenAI, Provider: "OpenAI", NameRule: openAINameRule, Strict: true, Ext: ".json",
		Convert: openAIResponsesTool, Document: jsonArray, File: jsonFile, SetWarnings: openAISetWarnings},
	{Name: Anthropic, Target: compat.Anthropic, Provider: "Anthropic", NameRule: "names allow only a-z, A-Z, 0-9, _ and -, at most 128", Strict: true, Ext: ".json",
		Convert: anthropicTool, Document: jsonArray, File: jsonFile, SetWarnings: anthropicSetWarnings},
	{Name: Gemini, Target: compat.Gemini, Provider: "Gemini", NameRule: "names start with a letter or _ and allow a-z, A-Z, 0-9, _ . : and -, at most 128", Ext: ".json",
		Convert: geminiTool, Document: geminiDocument, File: jsonFile},
	{Name: MCP, Target: compat.MCP, Provider: "MCP", NameRule: "names allow only a-z, A-Z, 0-9, _ - and ., at most 128", Ext: ".json",
		Convert: mcpTool, Document: mcpDocument, File: jsonFile},
	{Name: JSONSchema, Ext: ".json", Convert: jsonSchemaTool, Document: jsonSchemaDocument, File: jsonFile},
	{Name: Prompt, Ext: ".txt", Convert: promptTool, Document: promptDocument, File: textFile},
	{Name: YAML, Ext: ".yaml", Convert: yamlTool, Document: yamlDocument, File: spec.MarshalYAMLDoc},
	{Name: Python, Ext: ".py", Convert: pythonTool, Document: pythonDocument, File: pythonFile},
	{Name: TypeScript, Ext: ".ts", Convert: typeScriptTool, Document: typeScriptDocument, File: typeScriptFile},
}

// lookup returns the row of f, or nil for an unknown format.
func lookup(f Format) *formatDef {
	for i := range formats {
		if formats[i].Name == f {
			return &formats[i]
		}
	}
	return nil
}

// formatNames lists the formats of the rows keep accepts, in table order.
func formatNames(keep func(*formatDef) bool) []Format {
	var out []Format
	for i := range formats {
		if keep(&formats[i]) {
			out = append(out, formats[i].Name)
		}
	}
	return out
}

// Formats lists every format in documentation order.
var Formats = formatNames(func(*formatDef) bool { return true })

// StrictFormats are the formats --strict applies to.
var StrictFormats = formatNames(func(d *formatDef) bool { return d.Strict })

// Options selects a format and its variants.
type Options struct {
	Format Format
	// Strict applies the provider's strict transform (openai,
	// openai-responses, anthropic) and refuses what stays non-compliant.
	// A tool whose file sets strict: true is strict without it; one that
	// sets strict: false is never strict.
	Strict bool
	// Level is the prompt level: 1 (default) a one-line-per-tool manifest,
	// 2 the full get_tool_info text of each tool.
	Level int
	// Legacy makes gemini emit the OpenAPI-subset parameters form instead
	// of parametersJsonSchema.
	Legacy bool
	// Envelope wraps mcp output as a tools/list result: {"tools": [...]}.
	Envelope bool
}

// Check reports an option that does not fit the format, or an unknown
// format, in command-line terms.
func (o Options) Check() error {
	if !slices.Contains(Formats, o.Format) {
		return fmt.Errorf("unknown format %q; use one of: %s", o.Format, formatList(Formats))
	}
	if o.Strict && !slices.Contains(StrictFormats, o.Format) {
		return fmt.Errorf("--strict applies to %s, not %s", formatList(StrictFormats), o.Format)
	}
	if o.Level != 0 && o.Format != Prompt {
		return fmt.Errorf("--level applies to the prompt format, not %s", o.Format)
	}
	if o.Level != 0 && o.Level != 1 && o.Level != 2 {
		return fmt.Errorf("--level %d: use 1 (a name and description per line) or 2 (everything get_tool_info returns)", o.Level)
	}
	if o.Legacy && o.Format != Gemini {
		return fmt.Errorf("--legacy applies to the gemini format, not %s", o.Format)
	}
	if o.Envelope && o.Format != MCP {
		return fmt.Errorf("--envelope applies to the mcp format, not %s", o.Format)
	}
	return nil
}

func formatList(fs []Format) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

// Warning is something the user should know about an export that still
// succeeded: a mapped name, a constraint moved into a description, a
// request-wide limit passed.
type Warning struct {
	// Tool is the tool's source name; "" for a warning about the whole set.
	Tool    string
	Message string
	// Rule is the lint rule (toolctl lint --target ...) that reports the
	// same thing, at Places of Source; "" for a note that is no problem of
	// the tool (it opts out of strict mode).
	Rule   string
	Source *spec.Tool
	Places []Place
}

// Place is where in its tool a warning applies: a canonical pointer
// (Tool.Span gives the position) and whether lint points at the key there.
type Place struct {
	Pointer string
	Key     bool
}

func (w Warning) String() string {
	if w.Tool == "" {
		return w.Message
	}
	return fmt.Sprintf("tool %q: %s", w.Tool, w.Message)
}

// Problem is one reason a tool cannot be exported in strict mode.
type Problem struct {
	Tool *spec.Tool
	// Pointer is canonical (/input_schema/properties/q/format), so that
	// Tool.Pos gives its source position.
	Pointer string
	// Key tells the problem lies in the key at Pointer (a keyword that
	// should not be there) rather than in its value.
	Key bool
	// Rule is the lint rule that reports the same problem
	// (toolctl lint --target ...), e.g. openai-strict-schema.
	Rule    string
	Message string
}

func (p Problem) String() string {
	return fmt.Sprintf("tool %q: %s", p.Tool.Name, p.Message)
}

// Diagnostic is w as a warning at its first place in the tool's file
// (no position for a warning about the whole set).
func (w Warning) Diagnostic() *diag.Diagnostic {
	d := &diag.Diagnostic{Severity: diag.Warning, Rule: w.Rule, Message: w.String(), Tool: w.Tool}
	if w.Source != nil {
		d.File = w.Source.Path()
		ptr, key := "", false
		if len(w.Places) > 0 {
			ptr, key = w.Places[0].Pointer, w.Places[0].Key
		}
		d.Pointer = ptr
		if key {
			d.Span = w.Source.KeySpan(ptr)
		} else {
			d.Span = w.Source.Span(ptr)
		}
	}
	return d
}

// Diagnostic is p at its place in the tool's file, an error.
func (p Problem) Diagnostic() *diag.Diagnostic {
	span := p.Tool.Span(p.Pointer)
	if p.Key {
		span = p.Tool.KeySpan(p.Pointer)
	}
	return &diag.Diagnostic{File: p.Tool.Path(), Span: span, Pointer: p.Pointer, Severity: diag.Error, Rule: p.Rule, Message: p.String(), Tool: p.Tool.Name}
}

// Error is a refused export: every problem of every tool, in tool order.
// Nothing should be written for it.
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Item is one exported tool.
type Item struct {
	Tool *spec.Tool
	// Name is the tool's name in the export: its own, or the mapping of
	// it to a name the target accepts.
	Name string
	// Value is the tool's element of the document: a *spec.Map for the
	// JSON and YAML formats, a string for prompt.
	Value any
}

// Result is an export before it is encoded.
type Result struct {
	Options  Options
	Items    []Item
	Warnings []Warning
}

// Export builds the whole document for tools, e.g. the JSON array for
// OpenAI's tools parameter. A refused strict export returns an *Error.
func Export(tools []*spec.Tool, opts Options) ([]byte, []Warning, error) {
	r, err := Build(tools, opts)
	if err != nil {
		return nil, nil, err
	}
	doc, err := r.Document()
	return doc, r.Warnings, err
}

// Build converts every tool. It maps names the target forbids (with a
// warning), refuses names that collide after mapping, and in strict mode
// refuses every tool whose schema stays non-compliant after the transform
// (an *Error listing all of them).
func Build(tools []*spec.Tool, opts Options) (*Result, error) {
	if err := opts.Check(); err != nil {
		return nil, err
	}
	d := lookup(opts.Format)
	r := &Result{Options: opts}
	var problems []Problem
	byName := map[string]*spec.Tool{}
	for _, t := range tools {
		name, warns := exportName(t, opts)
		r.Warnings = append(r.Warnings, warns...)
		if prev, ok := byName[name]; ok {
			problems = append(problems, collision(prev, t, name))
			continue
		}
		byName[name] = t
		v, ws, ps := d.Convert(t, name, opts)
		r.Warnings = append(r.Warnings, ws...)
		if len(ps) > 0 {
			problems = append(problems, ps...)
			continue
		}
		if v == nil {
			continue
		}
		r.Items = append(r.Items, Item{Tool: t, Name: name, Value: v})
	}
	if len(problems) > 0 {
		return nil, &Error{Problems: problems}
	}
	if d.SetWarnings != nil {
		r.Warnings = append(r.Warnings, d.SetWarnings(r.Items)...)
	}
	return r, nil
}

// exportName maps a name the target forbids to one it accepts, with a
// warning that shows the mapping; an advisory name problem (Gemini's
// dots, colons and dashes) is a warning only.
func exportName(t *spec.Tool, opts Options) (string, []Warning) {
	d := lookup(opts.Format)
	if d == nil || d.Target == "" {
		return t.Name, nil
	}
	var ws []Warning
	mapped := false
	rule := ""
	for _, p := range compat.NameProblems(d.Target, t.Name) {
		if t.Name == "" {
			p.Rule = "name-required" // lint's finding for an empty name
		}
		if p.Warning {
			ws = append(ws, problemWarning(t, p, "/name"+p.Pointer))
			continue
		}
		mapped, rule = true, p.Rule
	}
	if !mapped {
		return t.Name, ws
	}
	name := compat.MapName(d.Target, t.Name)
	ws = append(ws, Warning{Tool: t.Name, Message: fmt.Sprintf("renamed for %s: %s → %s (%s)", d.Provider, t.Name, name, d.NameRule),
		Rule: rule, Source: t, Places: []Place{{Pointer: "/name"}}})
	return name, ws
}

func collision(prev, t *spec.Tool, name string) Problem {
	msg := fmt.Sprintf("exports as %q, as does tool %q (%s); names must be unique in one export: rename one of them", name, prev.Name, prev.Where())
	if prev.Name == t.Name {
		msg = fmt.Sprintf("defined twice (%s and %s); names must be unique in one export: rename one, or export the files separately", prev.Where(), t.Where())
	}
	return Problem{Tool: t, Pointer: "/name", Rule: "name-unique", Message: msg}
}

// InputSchema returns a copy of t's input schema (an empty object schema
// when it declares none) without the bound parameters: bind fills them at
// run time, so the model must never see them (README, "The tool file").
func InputSchema(t *spec.Tool) *spec.Map {
	s := t.Input().Clone()
	bound := validate.BoundParams(t)
	if len(bound) == 0 {
		return s
	}
	removed := map[string]any{}
	if props, ok := s.GetMap("properties"); ok {
		for _, b := range t.Bind {
			if v, had := props.Get(b.Param); had {
				removed[b.Param] = v
			}
			props.Delete(b.Param)
		}
	}
	keepReferenced(s, t.Bind, removed)
	if req, ok := s.Get("required"); ok {
		if list, ok := req.([]any); ok {
			kept := make([]any, 0, len(list))
			for _, x := range list {
				if name, ok := x.(string); !ok || !bound[name] {
					kept = append(kept, x)
				}
			}
			s.Set("required", kept)
		}
	}
	return s
}

// keepReferenced moves the schema of a removed (bound) parameter that
// another part of the schema still refers to ($ref: #/properties/token)
// into $defs (or definitions, when the schema uses that), and points those
// $refs at it: without it they would refer to nothing, and every provider
// refuses a $ref that does not resolve. The model sees a definition, not
// a parameter.
func keepReferenced(s *spec.Map, binds []spec.Binding, removed map[string]any) {
	for _, b := range binds {
		v, ok := removed[b.Param]
		if !ok {
			continue
		}
		from := "#/properties" + spec.Pointer(b.Param)
		if !refersTo(s, from, 0) {
			continue
		}
		key := "$defs"
		if s.Has("definitions") && !s.Has("$defs") {
			key = "definitions"
		}
		defs, ok := s.GetMap(key)
		if !ok {
			if s.Has(key) {
				continue // not an object: nothing can be added to it
			}
			defs = spec.NewMap(1)
			s.Set(key, defs)
		}
		name := b.Param
		for i := 2; defs.Has(name); i++ {
			name = fmt.Sprintf("%s_%d", b.Param, i)
		}
		defs.Set(name, v)
		retarget(s, from, "#/"+key+spec.Pointer(name), 0)
	}
}

// dataKeywords hold values, not schemas: a $ref inside them is data.
var dataKeywords = map[string]bool{"enum": true, "const": true, "default": true, "examples": true, "example": true}

// refersTo tells whether a $ref in v is ref or goes inside it.
func refersTo(v any, ref string, depth int) bool {
	found := false
	walkRefs(v, depth, func(r string) string {
		if r == ref || strings.HasPrefix(r, ref+"/") {
			found = true
		}
		return r
	})
	return found
}

// retarget points the $refs in v that are from or go inside it at to.
func retarget(v any, from, to string, depth int) {
	walkRefs(v, depth, func(r string) string {
		if r == from || strings.HasPrefix(r, from+"/") {
			return to + r[len(from):]
		}
		return r
	})
}

// walkRefs calls f with every $ref of a schema and sets it to the result.
// Values of enum, const, default and examples are data and left alone.
func walkRefs(v any, depth int, f func(string) string) {
	if depth > maxTransformDepth*4 {
		return
	}
	switch v := v.(type) {
	case *spec.Map:
		for i := range v.Len() {
			k, c := v.At(i)
			switch {
			case k == "$ref":
				if r, ok := c.(string); ok {
					v.Set(k, f(r))
				}
			case namedSchemas[k]:
				if m, ok := c.(*spec.Map); ok {
					for j := range m.Len() {
						_, sub := m.At(j)
						walkRefs(sub, depth+1, f)
					}
				}
			case !dataKeywords[k]:
				walkRefs(c, depth+1, f)
			}
		}
	case []any:
		for _, x := range v {
			walkRefs(x, depth+1, f)
		}
	}
}

// namedSchemas are the keywords whose value maps names to schemas.
var namedSchemas = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}

// exampleParams returns the params of t's examples without the bound
// parameters, skipping examples that have none.
func exampleParams(t *spec.Tool) []any {
	var out []any
	for _, ex := range t.Examples {
		if ex.Params != nil {
			out = append(out, unboundParams(t, ex.Params))
		}
	}
	return out
}

// unboundParams returns a copy of an example's params without the bound
// parameters.
func unboundParams(t *spec.Tool, params *spec.Map) *spec.Map {
	p := params.Clone()
	for _, b := range t.Bind {
		p.Delete(b.Param)
	}
	return p
}

// Document encodes the whole export as one document: a JSON array of tools
// for openai, openai-responses, anthropic and mcp; {"tools": [...]} for mcp
// with Envelope; {"functionDeclarations": [...]} for gemini; for jsonschema
// the schema itself when there is one tool, else an object of schemas keyed
// by tool name; for prompt the lines (level 1) or texts (level 2); for yaml
// the tool file itself when there is one tool, else a YAML list of tools.
func (r *Result) Document() ([]byte, error) {
	d := lookup(r.Options.Format)
	if d == nil {
		return nil, fmt.Errorf("unknown format %q", r.Options.Format)
	}
	return d.Document(r)
}

// values lists the elements of the exported tools.
func (r *Result) values() []any {
	values := make([]any, len(r.Items))
	for i, it := range r.Items {
		values[i] = it.Value
	}
	return values
}

// jsonArray is the document of the formats that take a JSON array of
// tools.
func jsonArray(r *Result) ([]byte, error) {
	return spec.MarshalJSONIndent(r.values())
}

// jsonFile and textFile encode one tool's element as its own file.
func jsonFile(v any) ([]byte, error) { return spec.MarshalJSONIndent(v) }
func textFile(v any) ([]byte, error) { return []byte(v.(string)), nil }

// File is one file of a per-tool export.
type File struct {
	// Name is the file's base name: the exported tool name (characters a
	// file name cannot hold replaced by _) and the format's extension.
	Name string
	Tool *spec.Tool
	Data []byte
}

// Ext is the file extension of a format's per-tool files.
func (o Options) Ext() string {
	if d := lookup(o.Format); d != nil {
		return d.Ext
	}
	return ".json"
}

// Files encodes each tool as its own file: the tool's element of the
// document (one OpenAI tool object, one function declaration, one MCP
// tool, one schema, one prompt text, one tool file). File names that
// collide are an error naming both tools.
func (r *Result) Files() ([]File, error) {
	d := lookup(r.Options.Format)
	if d == nil {
		return nil, fmt.Errorf("unknown format %q", r.Options.Format)
	}
	out := make([]File, 0, len(r.Items))
	seen := map[string]*spec.Tool{}
	for _, it := range r.Items {
		name := FileName(it.Name) + r.Options.Ext()
		key := strings.ToLower(name) // case-insensitive file systems
		if prev, ok := seen[key]; ok {
			return nil, &Error{Problems: []Problem{{Tool: it.Tool, Pointer: "/name", Rule: "name-unique",
				Message: fmt.Sprintf("tool %q and tool %q would both be written to %s; rename one of them", prev.Name, it.Tool.Name, name)}}}
		}
		seen[key] = it.Tool
		data, err := d.File(it.Value)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %v", it.Tool.Name, err)
		}
		out = append(out, File{Name: name, Tool: it.Tool, Data: data})
	}
	return out, nil
}

// FileName is a tool's name as a file name: a-z, A-Z, 0-9, _, - and . (not
// leading) kept and every other character turned into _, so that a name
// never escapes the directory. docs names its pages the same way.
func FileName(name string) string {
	var b strings.Builder
	for i, r := range name {
		ok := r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || (r == '.' && i > 0))
		if !ok {
			r = '_'
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "tool"
	}
	return b.String()
}
