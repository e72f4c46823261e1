package spec

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
)

// The types below describe the tool file format for the JSON Schema that
// `toolctl schema` prints (editor completion and validation). Parsing works
// on YAML nodes to keep positions; TestSchemaMatchesParser keeps the two in
// step.

// SchemaID is where the schema is published; the $id of the document.
const SchemaID = "https://toolctl.dev/schema/tool.json"

type fileTool struct {
	Schema         string            `json:"$schema,omitempty" jsonschema_description:"The JSON Schema this file follows (JSON files cannot carry the yaml-language-server modeline)."`
	Name           string            `json:"name" jsonschema:"required,minLength=1,pattern=^[a-z][a-z0-9_]*$" jsonschema_description:"Unique id of the tool: snake_case, at most 64 characters by default; the file's base name should equal it."`
	Title          string            `json:"title,omitempty" jsonschema_description:"Human display name (MCP title)."`
	Description    string            `json:"description" jsonschema:"required,minLength=1" jsonschema_description:"Level 1 text the model sees: third person, says WHAT the tool does and WHEN to use it; at most 200 characters by default."`
	Detail         string            `json:"detail,omitempty" jsonschema_description:"Level 2 Markdown usage notes, at most 2000 characters by default."`
	Category       string            `json:"category,omitempty" jsonschema:"example=http,example=database,example=file,example=ai,example=notification,example=custom" jsonschema_description:"One of the allowed categories (by default http, database, file, ai, notification, custom; configurable). Required in the Feagent dialect."`
	Version        string            `json:"version,omitempty" jsonschema:"pattern=^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$,default=1.0.0" jsonschema_description:"Semantic version MAJOR.MINOR.PATCH (quote it in YAML)."`
	Author         string            `json:"author,omitempty" jsonschema_description:"Author or maintainer."`
	Icon           string            `json:"icon,omitempty" jsonschema_description:"An emoji or an image URL."`
	Tags           []string          `json:"tags,omitempty" jsonschema_description:"Free-form tags for search."`
	ShareableScope string            `json:"shareable_scope,omitempty" jsonschema:"enum=private,enum=team,enum=public,default=private" jsonschema_description:"Who may use the tool."`
	Entry          *fileEntry        `json:"entry,omitempty" jsonschema_description:"How the tool is executed. A definition-only tool omits it and cannot be run."`
	Parameters     fileParameters    `json:"parameters,omitempty" jsonschema_description:"The input: the Feagent list form or a JSON Schema object (type: object may be omitted). Give parameters, input_schema or inputSchema, not several."`
	InputSchema    fileSchema        `json:"input_schema,omitempty" jsonschema_description:"The input as a JSON Schema object (OpenAkita / Anthropic style)."`
	InputSchemaMCP fileSchema        `json:"inputSchema,omitempty" jsonschema_description:"The input as a JSON Schema object (MCP style)."`
	Returns        fileReturns       `json:"returns,omitempty" jsonschema_description:"The output: Feagent short form {field: type}, long form {field: {type, description}}, or a JSON Schema."`
	OutputSchema   fileSchema        `json:"output_schema,omitempty" jsonschema_description:"The output as a JSON Schema object."`
	OutputMCP      fileSchema        `json:"outputSchema,omitempty" jsonschema_description:"The output as a JSON Schema object (MCP style)."`
	Triggers       []string          `json:"triggers,omitempty" jsonschema_description:"When the agent should use this tool."`
	Prerequisites  []filePrereq      `json:"prerequisites,omitempty" jsonschema_description:"What must hold before calling: text, or {condition, check_tool, action_if_not_met}."`
	Examples       []fileExample     `json:"examples,omitempty" jsonschema_description:"Documented calls; params must be valid input."`
	Warnings       []string          `json:"warnings,omitempty" jsonschema_description:"Important warnings shown to the model."`
	RelatedTools   []fileRelated     `json:"related_tools,omitempty" jsonschema_description:"Other tools of the set and how they relate."`
	Workflow       *fileWorkflow     `json:"workflow,omitempty" jsonschema_description:"A documented multi-step use."`
	Annotations    *fileAnnotations  `json:"annotations,omitempty" jsonschema_description:"MCP behaviour hints."`
	Bind           map[string]fileBy `json:"bind,omitempty" jsonschema_description:"Parameters the agent must not see, filled at run time; removed from every export."`
	Runtime        *fileRuntime      `json:"runtime,omitempty" jsonschema_description:"Timeout and retry settings."`
	ID             string            `json:"id,omitempty" jsonschema_description:"SDK dialect: tool id."`
	Type           string            `json:"type,omitempty" jsonschema:"enum=BUILTIN,enum=NATIVE,enum=REST,enum=MCP,enum=function" jsonschema_description:"SDK dialect tool type (BUILTIN, NATIVE, REST, MCP), or function in OpenAI's flat form."`
	Metadata       *fileMetadata     `json:"metadata,omitempty" jsonschema_description:"SDK dialect metadata."`
	DocURL         string            `json:"documentation_url,omitempty" jsonschema:"format=uri" jsonschema_description:"Link to the tool's documentation."`
	Strict         *bool             `json:"strict,omitempty" jsonschema_description:"OpenAI / Anthropic strict mode flag."`
	Meta           map[string]any    `json:"_meta,omitempty" jsonschema_description:"MCP metadata, kept as is."`
}

// JSONSchemaExtend allows x-* extension fields.
func (fileTool) JSONSchemaExtend(s *jsonschema.Schema) {
	s.PatternProperties = map[string]*jsonschema.Schema{"^x-": {}}
}

type fileEntry struct {
	Type        string            `json:"type" jsonschema:"required,enum=builtin,enum=http,enum=rest,enum=javascript,enum=python,enum=command,enum=native,enum=mcp" jsonschema_description:"Executor: builtin, http (alias rest), javascript, python, command (alias native) or mcp."`
	Handler     string            `json:"handler,omitempty" jsonschema:"enum=http_request,enum=llm_call,enum=file_reader,enum=json_transformer,enum=text_analyzer,enum=calculator,enum=datetime,enum=string,enum=array,enum=object" jsonschema_description:"builtin: the handler compiled into toolctl."`
	URL         string            `json:"url,omitempty" jsonschema_description:"http: URL with {param} placeholders and ${ENV} variables."`
	Method      string            `json:"method,omitempty" jsonschema:"enum=GET,enum=POST,enum=PUT,enum=PATCH,enum=DELETE,enum=HEAD" jsonschema_description:"http: request method."`
	Headers     map[string]string `json:"headers,omitempty" jsonschema_description:"http: request headers; use ${ENV} for secrets."`
	Query       map[string]any    `json:"query,omitempty" jsonschema_description:"http: query parameters."`
	Body        any               `json:"body,omitempty" jsonschema_description:"http: request body template."`
	Code        string            `json:"code,omitempty" jsonschema_description:"javascript: source defining function execute(input)."`
	File        string            `json:"file,omitempty" jsonschema_description:"javascript: a file holding the code instead of code."`
	Module      string            `json:"module,omitempty" jsonschema_description:"python: module to import."`
	Function    string            `json:"function,omitempty" jsonschema_description:"python: function to call with the input."`
	Path        string            `json:"path,omitempty" jsonschema_description:"python: directory added to sys.path."`
	Interpreter string            `json:"interpreter,omitempty" jsonschema_description:"python: interpreter to run (default python3)."`
	Command     []string          `json:"command,omitempty" jsonschema_description:"command: argv with {param} placeholders; no shell is used."`
	Server      fileServer        `json:"server,omitempty" jsonschema_description:"mcp: a command line (stdio) or an http(s) URL (Streamable HTTP)."`
	Tool        string            `json:"tool,omitempty" jsonschema_description:"mcp: the tool to call on the server."`
}

// JSONSchemaExtend requires each executor's own fields.
func (fileEntry) JSONSchemaExtend(s *jsonschema.Schema) {
	when := func(types []any, then *jsonschema.Schema) *jsonschema.Schema {
		props := jsonschema.NewProperties()
		props.Set("type", &jsonschema.Schema{Enum: types})
		return &jsonschema.Schema{If: &jsonschema.Schema{Properties: props, Required: []string{"type"}}, Then: then}
	}
	req := func(fields ...string) *jsonschema.Schema { return &jsonschema.Schema{Required: fields} }
	s.AllOf = []*jsonschema.Schema{
		when([]any{"builtin"}, req("handler")),
		when([]any{"http", "rest"}, req("url")),
		when([]any{"javascript"}, &jsonschema.Schema{AnyOf: []*jsonschema.Schema{req("code"), req("file")}}),
		when([]any{"python"}, req("module", "function")),
		when([]any{"command", "native"}, req("command")),
		when([]any{"mcp"}, req("server", "tool")),
	}
}

type fileServer struct{}

// JSONSchema: a command line, a URL or an argv list.
func (fileServer) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "string"},
		{Type: "array", Items: &jsonschema.Schema{Type: "string"}},
	}}
}

// draft07 is the meta-schema input and output schemas are checked against in
// editors; draft-07 is what editors and providers support most widely.
const draft07 = "http://json-schema.org/draft-07/schema#"

type fileSchema struct{}

// JSONSchema: a JSON Schema object.
func (fileSchema) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Ref: draft07}
}

type fileParameters struct{}

// JSONSchema: the Feagent list or a JSON Schema object.
func (fileParameters) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "array", Items: &jsonschema.Schema{Ref: "#/$defs/Parameter"}},
		{Type: "object", Ref: draft07},
	}}
}

type fileParameter struct {
	Name        string `json:"name" jsonschema:"required,minLength=1" jsonschema_description:"Parameter name."`
	Type        string `json:"type,omitempty" jsonschema:"enum=string,enum=number,enum=integer,enum=boolean,enum=object,enum=array,enum=any" jsonschema_description:"Parameter type; any means no constraint."`
	Description string `json:"description,omitempty" jsonschema_description:"What the parameter means; the model reads it."`
	Required    bool   `json:"required,omitempty" jsonschema:"default=false" jsonschema_description:"Whether the caller must give it."`
	Default     any    `json:"default,omitempty" jsonschema_description:"Value used when it is not given."`
	Enum        []any  `json:"enum,omitempty" jsonschema_description:"Allowed values."`
}

// JSONSchemaExtend lets a list-form parameter carry any other JSON Schema
// keyword (items, properties, format, minimum, ...).
func (fileParameter) JSONSchemaExtend(s *jsonschema.Schema) {
	s.AdditionalProperties = nil
}

type fileReturns struct{}

// JSONSchema: a type name, a JSON Schema or a map of fields.
func (fileReturns) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "string", Description: "A type name."},
		{Type: "object", Description: "A JSON Schema, or a map of field names to a type name or {type, description}."},
	}}
}

type filePrereq struct{}

// JSONSchema: text or a structured check.
func (filePrereq) JSONSchema() *jsonschema.Schema {
	props := jsonschema.NewProperties()
	props.Set("condition", &jsonschema.Schema{Type: "string", Description: "What must hold."})
	props.Set("check_tool", &jsonschema.Schema{Type: "string", Description: "A tool of the set that checks it."})
	props.Set("action_if_not_met", &jsonschema.Schema{Type: "string", Description: "What to do when it does not hold."})
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "string"},
		{Type: "object", Properties: props, AdditionalProperties: jsonschema.FalseSchema},
	}}
}

type fileExample struct {
	Scenario string         `json:"scenario,omitempty" jsonschema_description:"When this call is made."`
	Params   map[string]any `json:"params,omitempty" jsonschema_description:"The input; must validate against the input schema."`
	Expected any            `json:"expected,omitempty" jsonschema_description:"What the call returns or does."`
}

type fileRelated struct {
	Name     string `json:"name" jsonschema:"required" jsonschema_description:"A tool of the same set."`
	Relation string `json:"relation,omitempty" jsonschema_description:"How it relates, e.g. \"commonly used after\"."`
}

type fileWorkflow struct {
	Name  string     `json:"name,omitempty" jsonschema_description:"Workflow name."`
	Steps []fileStep `json:"steps,omitempty" jsonschema_description:"The steps in order."`
}

type fileStep struct {
	Step      int      `json:"step,omitempty" jsonschema_description:"Step number."`
	Action    string   `json:"action,omitempty" jsonschema_description:"What happens."`
	Tool      string   `json:"tool,omitempty" jsonschema_description:"The tool used."`
	Tools     []string `json:"tools,omitempty" jsonschema_description:"The tools used, when several."`
	Condition string   `json:"condition,omitempty" jsonschema_description:"When the step applies."`
}

type fileAnnotations struct {
	Title           string `json:"title,omitempty" jsonschema_description:"Display name."`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty" jsonschema_description:"The tool does not modify its environment."`
	DestructiveHint *bool  `json:"destructiveHint,omitempty" jsonschema_description:"The tool may perform destructive updates."`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty" jsonschema_description:"Repeated calls with the same arguments have no further effect."`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty" jsonschema_description:"The tool interacts with an open world of external entities."`
}

type fileBy struct{}

// JSONSchema: exactly one source.
func (fileBy) JSONSchema() *jsonschema.Schema {
	one := func(key, desc string, s *jsonschema.Schema) *jsonschema.Schema {
		props := jsonschema.NewProperties()
		s.Description = desc
		props.Set(key, s)
		return &jsonschema.Schema{Type: "object", Properties: props, Required: []string{key}, AdditionalProperties: jsonschema.FalseSchema}
	}
	return &jsonschema.Schema{OneOf: []*jsonschema.Schema{
		one("env", "Environment variable to read (its value is redacted in all output).", &jsonschema.Schema{Type: "string", MinLength: uint64p(1)}),
		one("value", "Literal value.", &jsonschema.Schema{}),
		one("config", "Dotted key in .toolctl.yaml.", &jsonschema.Schema{Type: "string", MinLength: uint64p(1)}),
	}}
}

type fileRuntime struct {
	Timeout            fileDuration `json:"timeout,omitempty" jsonschema_description:"Deadline of one attempt."`
	Retries            int          `json:"retries,omitempty" jsonschema:"minimum=0,maximum=100,default=0" jsonschema_description:"Retries of retryable failures (network, timeout, 429, 5xx)."`
	RetryDelay         fileDuration `json:"retry_delay,omitempty" jsonschema_description:"Delay before the first retry."`
	Backoff            string       `json:"backoff,omitempty" jsonschema:"enum=exponential,enum=fixed,default=exponential" jsonschema_description:"How the delay grows."`
	MaxDelay           fileDuration `json:"max_delay,omitempty" jsonschema_description:"Upper bound of the delay."`
	RetryNonIdempotent bool         `json:"retry_non_idempotent,omitempty" jsonschema:"default=false" jsonschema_description:"Also retry POST/PATCH requests."`
}

type fileDuration struct{}

// JSONSchema: "30s" / "1m30s" or a number of seconds.
func (fileDuration) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "string", Pattern: `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`},
		{Type: "number", Minimum: json.Number("0")},
	}}
}

type fileMetadata struct {
	Category         string   `json:"category,omitempty" jsonschema_description:"Same as the top-level category."`
	Tags             []string `json:"tags,omitempty" jsonschema_description:"Same as the top-level tags."`
	DocumentationURL string   `json:"documentationUrl,omitempty" jsonschema:"format=uri" jsonschema_description:"Link to the documentation."`
}

func uint64p(v uint64) *uint64 { return &v }

// FileSchema returns the JSON Schema (draft 2020-12) of a tool file: one
// tool, a list of tools, or {tools: [...]}.
func FileSchema() ([]byte, error) {
	r := &jsonschema.Reflector{RequiredFromJSONSchemaTags: true, Namer: func(t reflect.Type) string {
		// fileTool → Tool: the names editors show on hover.
		name := t.Name()
		if !strings.HasPrefix(name, "file") || len(name) <= len("file") {
			return name
		}
		name = strings.TrimPrefix(name, "file")
		return strings.ToUpper(name[:1]) + name[1:]
	}}
	s := r.Reflect(&fileTool{})
	param := r.Reflect(&fileParameter{})
	for k, v := range param.Definitions {
		s.Definitions[k] = v
	}
	s.ID = SchemaID
	s.Title = "toolctl tool file"
	s.Description = "A tool definition for LLM agents (toolctl). One tool, a list of tools, or {tools: [...]}."
	tool := &jsonschema.Schema{Ref: "#/$defs/Tool"}
	props := jsonschema.NewProperties()
	props.Set("tools", &jsonschema.Schema{Type: "array", Items: tool})
	s.Ref = ""
	s.AnyOf = []*jsonschema.Schema{
		tool,
		{Type: "array", Items: tool},
		{Type: "object", Properties: props, Required: []string{"tools"}},
	}
	out, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return indentJSON(out)
}

func indentJSON(b []byte) ([]byte, error) {
	v, err := DecodeJSON(b)
	if err != nil {
		return nil, err
	}
	return MarshalJSONIndent(v)
}
