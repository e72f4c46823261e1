// Package spec is the canonical model of a tool file: every dialect
// (Feagent, SDK, OpenAkita, MCP, OpenAI) is parsed into one Tool whose input
// is a JSON Schema object, and every value keeps its source position.
package spec

import (
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Dialect names the convention a tool was written in.
type Dialect string

const (
	// DialectToolctl is a tool that uses none of the markers below: plain
	// canonical fields only.
	DialectToolctl Dialect = "toolctl"
	// DialectFeagent: parameters as a list, entry, returns short/long form.
	DialectFeagent Dialect = "feagent"
	// DialectSDK: id, type BUILTIN/NATIVE/REST/MCP, parameters as a JSON
	// Schema whose type: object may be missing, metadata.
	DialectSDK Dialect = "sdk"
	// DialectOpenAkita: input_schema with detail, triggers, examples, ...
	DialectOpenAkita Dialect = "openakita"
	// DialectMCP: inputSchema, outputSchema, annotations, title.
	DialectMCP Dialect = "mcp"
	// DialectDocker: Docker's MCP registry (tools.json), whose tools give
	// their parameters as a compact list, arguments: [{name, type, desc,
	// optional}], instead of an inputSchema.
	DialectDocker Dialect = "docker"
	// DialectOpenAI: {type: function, function: {...}} or the flat
	// Responses form {type: function, name, parameters}.
	DialectOpenAI Dialect = "openai"
)

// Dialects lists every dialect in documentation order.
var Dialects = []Dialect{DialectToolctl, DialectFeagent, DialectSDK, DialectOpenAkita, DialectMCP, DialectDocker, DialectOpenAI}

// Entry types, after aliases are resolved (see Entry.Kind).
const (
	EntryBuiltin    = "builtin"
	EntryHTTP       = "http"
	EntryJavaScript = "javascript"
	EntryPython     = "python"
	EntryCommand    = "command"
	EntryMCP        = "mcp"
)

// EntryTypes lists the canonical entry types.
var EntryTypes = []string{EntryBuiltin, EntryHTTP, EntryJavaScript, EntryPython, EntryCommand, EntryMCP}

// BuiltinHandlers are the handlers compiled into toolctl (README, "Running
// a tool"); fileformat.go's enum for entry.handler must list the same.
var BuiltinHandlers = []string{"http_request", "llm_call", "file_reader", "json_transformer", "text_analyzer", "calculator", "datetime", "string", "array", "object"}

// Tool is the canonical model of one tool definition.
type Tool struct {
	Name           string
	Title          string
	Description    string
	Detail         string
	Category       string
	Version        string
	Author         string
	Icon           string
	Tags           []string
	ShareableScope string
	Entry          *Entry
	// InputSchema is a JSON Schema object (type: object first), nil when
	// the file declares no parameters at all; see Input.
	InputSchema *Map
	// OutputSchema comes from returns / output_schema / outputSchema.
	OutputSchema *Map
	// Output describes a result that is not (only) JSON: output.content,
	// the media type of the content the tool answers with.
	Output        *Output
	Triggers      []string
	Prerequisites []Prerequisite
	Examples      []Example
	Warnings      []string
	RelatedTools  []RelatedTool
	Workflow      *Workflow
	Annotations   *Annotations
	Bind          []Binding
	Runtime       *Runtime
	ID            string
	// SDKType is the SDK dialect's type (BUILTIN, NATIVE, REST, MCP) as
	// written; without an entry it still tells the entry type (EntryKind).
	SDKType          string
	DocumentationURL string
	// Strict is OpenAI's / Anthropic's strict flag when the file sets it.
	Strict *bool
	// Extensions holds x-* / $schema / _meta fields, kept but not checked.
	Extensions *Map
	// Unknown holds top-level fields toolctl does not know, in order.
	Unknown *Map
	// UnknownFields lists the source pointers of every unknown key,
	// top-level and nested (entry, runtime, examples, ...), for lint.
	UnknownFields []string

	Dialect Dialect
	File    *File
	// Index is the tool's position in its file (0 for a one-tool file).
	Index int

	node *yaml.Node
	// basePtr is the JSON pointer of the tool node in its document.
	basePtr string
	layout  layout
	// pins are positions kept by Pin.
	pins []pinnedSpan
}

// Input returns the input schema, or an empty object schema.
func (t *Tool) Input() *Map {
	if t.InputSchema != nil {
		return t.InputSchema
	}
	m := NewMap(2)
	m.Set("type", "object")
	m.Set("properties", NewMap(0))
	return m
}

// Errors returns the problems of the tool's own definition: every error of
// its file when it is the file's only tool, else those located inside it.
func (t *Tool) Errors() []*Error {
	if t.File == nil {
		return nil
	}
	if len(t.File.Tools) == 1 {
		return t.File.Errors
	}
	var out []*Error
	for _, e := range t.File.Errors {
		if e.Pointer == t.basePtr || strings.HasPrefix(e.Pointer, t.basePtr+"/") {
			out = append(out, e)
		}
	}
	return out
}

// Node returns the YAML node of the tool in its file.
func (t *Tool) Node() *yaml.Node { return t.root() }

// Path is the file the tool was loaded from.
func (t *Tool) Path() string {
	if t.File == nil {
		return ""
	}
	return t.File.Path
}

// EntryKind returns the canonical entry type; for a definition-only SDK tool
// the type its SDK type names, else "".
func (t *Tool) EntryKind() string {
	if t.Entry == nil {
		return sdkTypes[strings.ToUpper(t.SDKType)]
	}
	return t.Entry.Kind()
}

// Entry says how a tool is executed.
type Entry struct {
	// Type is the entry type exactly as written; Kind normalises it.
	Type string
	// builtin
	Handler string
	// http
	URL     string
	Method  string
	Headers *Map
	Query   *Map
	Body    any
	// javascript (Code or File)
	Code string
	// javascript file, or python search path
	File string
	// python
	Module      string
	Function    string
	Path        string
	Interpreter string
	// command: argv with {param} placeholders
	Command []string
	// mcp: Server is a command line or a URL; ServerArgs is the list form
	Server     string
	ServerArgs []string
	Tool       string
	// Extra holds entry fields toolctl does not know, in order.
	Extra *Map
}

// Kind returns the canonical entry type: lower-cased, with the aliases
// rest → http and native → command resolved.
func (e *Entry) Kind() string {
	return normaliseEntryType(e.Type)
}

func normaliseEntryType(s string) string {
	k := strings.ToLower(strings.TrimSpace(s))
	switch k {
	case "rest":
		return EntryHTTP
	case "native":
		return EntryCommand
	}
	return k
}

// Prerequisite is either free text or a structured check.
type Prerequisite struct {
	Text           string
	Condition      string
	CheckTool      string
	ActionIfNotMet string
}

// Example is one documented call.
type Example struct {
	Scenario string
	Params   *Map
	Expected any
	// Expect refines how toolctl test compares the result with Expected
	// (match, tolerance, contains, pattern, schema, error); kept as
	// written, pkg/contract reads it.
	Expect *Map
}

// RelatedTool points at another tool.
type RelatedTool struct {
	Name     string
	Relation string
}

// Workflow is a documented multi-step use.
type Workflow struct {
	Name  string
	Steps []WorkflowStep
}

// WorkflowStep is one step of a Workflow. Step is kept as written.
type WorkflowStep struct {
	Step      any
	Action    string
	Tool      string
	Tools     []string
	Condition string
}

// Annotations are MCP tool hints. Nil pointers are unset.
type Annotations struct {
	Title           string
	ReadOnlyHint    *bool
	DestructiveHint *bool
	IdempotentHint  *bool
	OpenWorldHint   *bool
}

// BindKind says where a bound parameter's value comes from.
type BindKind string

const (
	BindEnv    BindKind = "env"
	BindValue  BindKind = "value"
	BindConfig BindKind = "config"
)

// Binding fills a parameter at run time; the agent never sees it.
type Binding struct {
	Param string
	Kind  BindKind
	// Ref is the environment variable or the dotted config key.
	Ref string
	// Value is the literal for BindValue.
	Value any
}

// Output is the output section: what kind of content a tool answers with
// (README "Rich results").
type Output struct {
	// Content is a media type (image/png, audio/wav, image/*): the tool's
	// result is content of that type. A command's stdout or an http
	// response in it becomes an image or audio item even when its bytes
	// or its Content-Type do not say so.
	Content string
}

// Runtime holds execution settings. Zero values mean "not set".
type Runtime struct {
	Timeout time.Duration
	// Memory is the memory limit of a call in bytes (ParseSize);
	// MemoryUnlimited for `unlimited`.
	Memory     int64
	Retries    *int
	RetryDelay time.Duration
	// Backoff is "exponential" or "fixed"; "" when unset.
	Backoff            string
	MaxDelay           time.Duration
	RetryNonIdempotent *bool
}

// layout records where canonical fields came from in the source, so that a
// canonical JSON pointer can be mapped back to a source position.
type layout struct {
	// inputKey is the source key of the input schema: parameters,
	// input_schema, inputSchema or arguments; "" when absent.
	inputKey string
	// inputList: the input schema was built from a list of parameters,
	// Feagent's (parameters) or Docker's (arguments).
	inputList bool
	// outputKey is returns, output_schema or outputSchema.
	outputKey string
	// outputFields: returns is a field map {field: type | schema}.
	outputFields bool
	// fromMetadata lists canonical fields read from SDK metadata.
	fromMetadata map[string]string
}
