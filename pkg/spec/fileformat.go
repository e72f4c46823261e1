package spec

import (
	"encoding/json"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// The types below describe the tool file format for the JSON Schema that
// `toolctl schema` prints (editor completion and validation). Parsing works
// on YAML nodes to keep positions; TestSchemaMatchesParser keeps the two in
// step.
//
// The schema rejects what the parser rejects, and unknown fields (a typo
// must show in the editor). What lint judges by profile or configuration
// (name style and length, a missing description, the allowed categories,
// the fields an entry type needs) is described, not enforced: imported MCP
// and OpenAI files legitimately differ, and TestSchemaAcceptsCorpora checks
// that every file the parser reads cleanly is accepted.

// SchemaRepo is the GitHub repository (the module path's, go.mod) whose
// schema/tool.schema.json is the published schema.
const SchemaRepo = "toolctl/toolctl"

// SchemaID is the $id of the schema: its raw URL on the main branch.
const SchemaID = "https://raw.githubusercontent.com/" + SchemaRepo + "/main/schema/tool.schema.json"

// SchemaURL is the URL of the schema a build of version should point
// editors at: schema/tool.schema.json at the release tag (version v1.2.3
// or 1.2.3, as goreleaser sets it, is tag v1.2.3), or on main (SchemaID)
// for a build that is no release (dev, a pseudo-version, a modified
// checkout), whose schema may be newer than any release's.
func SchemaURL(version string) string {
	v := strings.TrimPrefix(version, "v")
	if v == "" || strings.Contains(v, "+") || !isReleaseVersion(v) {
		return SchemaID
	}
	return "https://raw.githubusercontent.com/" + SchemaRepo + "/v" + v + "/schema/tool.schema.json"
}

// isReleaseVersion tells whether v is MAJOR.MINOR.PATCH with an optional
// pre-release that is not a Go pseudo-version's (yyyymmddhhmmss-commit).
func isReleaseVersion(v string) bool {
	core, pre, _ := strings.Cut(v, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	if pre == "" {
		return true
	}
	// v0.0.0-20260101120000-abcdef123456, v1.2.4-0.20260101120000-abcdef123456
	fields := strings.FieldsFunc(pre, func(r rune) bool { return r == '-' || r == '.' })
	for _, f := range fields {
		if len(f) == 14 && strings.Trim(f, "0123456789") == "" {
			return false
		}
	}
	return true
}

type fileTool struct {
	Schema         string            `json:"$schema,omitempty" jsonschema_description:"The JSON Schema this file follows (JSON files cannot carry the yaml-language-server modeline)."`
	Name           string            `json:"name" jsonschema:"required,minLength=1" jsonschema_description:"Unique id of the tool: snake_case ([a-z][a-z0-9_]*), at most 64 characters by default; the file's base name should equal it. Checked by lint (name-snake-case, name-max-length), since imported MCP and OpenAI names may differ."`
	Title          string            `json:"title,omitempty" jsonschema_description:"Human display name (MCP title)."`
	Description    string            `json:"description" jsonschema:"required" jsonschema_description:"Level 1 text the model sees: third person, says WHAT the tool does and WHEN to use it (a \"Use when ...\" clause or triggers); at most 200 characters by default."`
	Detail         string            `json:"detail,omitempty" jsonschema_description:"Level 2 Markdown usage notes, at most 2000 characters by default."`
	Category       fileCategory      `json:"category,omitempty" jsonschema_description:"One of the allowed categories: http, database, file, ai, notification, custom by default (lint.categories in .toolctl.yaml changes the set). Required in the Feagent dialect."`
	Version        string            `json:"version,omitempty" jsonschema:"pattern=^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$,default=1.0.0" jsonschema_description:"Semantic version MAJOR.MINOR.PATCH, default 1.0.0; quote it in YAML (\"1.0.0\") so it stays a string."`
	Author         string            `json:"author,omitempty" jsonschema_description:"Author or maintainer."`
	Icon           string            `json:"icon,omitempty" jsonschema_description:"An emoji or an image URL."`
	Tags           []string          `json:"tags,omitempty" jsonschema_description:"Free-form tags for search."`
	ShareableScope string            `json:"shareable_scope,omitempty" jsonschema:"enum=private,enum=team,enum=public,default=private" jsonschema_description:"Who may use the tool."`
	Entry          *fileEntry        `json:"entry,omitempty" jsonschema_description:"How the tool is executed. A definition-only tool omits it and cannot be run."`
	Parameters     fileParameters    `json:"parameters,omitempty" jsonschema_description:"The input: the Feagent list form or a JSON Schema object (type: object may be omitted). Give one of parameters, input_schema, inputSchema and arguments."`
	InputSchema    fileSchema        `json:"input_schema,omitempty" jsonschema_description:"The input as a JSON Schema object (OpenAkita / Anthropic style)."`
	InputSchemaMCP fileSchema        `json:"inputSchema,omitempty" jsonschema_description:"The input as a JSON Schema object (MCP style)."`
	Arguments      []fileArgument    `json:"arguments,omitempty" jsonschema_description:"The input in the compact form of Docker's MCP registry (tools.json): a list of {name, type, desc, optional}; an argument is required unless optional: true. Give one of parameters, input_schema, inputSchema and arguments."`
	Returns        fileReturns       `json:"returns,omitempty" jsonschema_description:"The output: Feagent short form {field: type}, long form {field: {type, description}}, or a JSON Schema."`
	OutputSchema   fileSchema        `json:"output_schema,omitempty" jsonschema_description:"The output as a JSON Schema object."`
	OutputMCP      fileSchema        `json:"outputSchema,omitempty" jsonschema_description:"The output as a JSON Schema object (MCP style)."`
	Output         *fileOutput       `json:"output,omitempty" jsonschema_description:"What kind of content the tool answers with, for a tool whose result is media (README \"Rich results\")."`
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
	Type           fileToolType      `json:"type,omitempty" jsonschema_description:"SDK dialect tool type (BUILTIN, NATIVE, REST, MCP; any case), telling the entry type when there is no entry; or function in OpenAI's flat Responses form."`
	Metadata       *fileMetadata     `json:"metadata,omitempty" jsonschema_description:"SDK dialect metadata."`
	DocURL         string            `json:"documentation_url,omitempty" jsonschema:"format=uri" jsonschema_description:"Link to the tool's documentation."`
	Strict         *bool             `json:"strict,omitempty" jsonschema_description:"OpenAI / Anthropic strict mode flag, kept as written; toolctl export --strict makes a strict-valid schema whatever it says."`
	Meta           map[string]any    `json:"_meta,omitempty" jsonschema_description:"MCP metadata, kept as is."`
}

// JSONSchemaExtend allows x-* extension fields.
func (fileTool) JSONSchemaExtend(s *jsonschema.Schema) {
	s.PatternProperties = map[string]*jsonschema.Schema{"^x-": {}}
}

type fileEntry struct {
	Type        fileEntryType     `json:"type" jsonschema:"required" jsonschema_description:"Executor and the fields it takes: builtin (handler), http or rest (url, method, headers, query, body), javascript (code or file), python (module, function, path, interpreter), command or native (command), mcp (server, tool). Any case."`
	Handler     string            `json:"handler,omitempty" jsonschema:"enum=http_request,enum=llm_call,enum=file_reader,enum=json_transformer,enum=text_analyzer,enum=calculator,enum=datetime,enum=string,enum=array,enum=object" jsonschema_description:"builtin (required): the handler compiled into toolctl."`
	URL         string            `json:"url,omitempty" jsonschema_description:"http (required): URL with {param} placeholders and ${ENV} variables (never printed)."`
	Method      fileMethod        `json:"method,omitempty" jsonschema_description:"http: request method, default GET. For GET and DELETE the parameters not used elsewhere go to the query string, otherwise to a JSON body."`
	Headers     map[string]string `json:"headers,omitempty" jsonschema_description:"http: request headers with {param} placeholders; write secrets as ${ENV}, never literally."`
	Query       map[string]any    `json:"query,omitempty" jsonschema_description:"http: query parameters with {param} placeholders."`
	Body        any               `json:"body,omitempty" jsonschema_description:"http: request body template with {param} placeholders (default: the unused parameters as JSON)."`
	Code        string            `json:"code,omitempty" jsonschema_description:"javascript (code or file): source defining function execute(input) that returns the result or a Promise of it."`
	File        string            `json:"file,omitempty" jsonschema_description:"javascript (code or file): a .js file holding the code, relative to the tool file."`
	Module      string            `json:"module,omitempty" jsonschema_description:"python (required): module to import, e.g. slugify for slugify.py."`
	Function    string            `json:"function,omitempty" jsonschema_description:"python (required): function of the module to call with the input (as keyword arguments, or as one dict)."`
	Path        string            `json:"path,omitempty" jsonschema_description:"python: directory added to sys.path, relative to the tool file (default: the tool file's directory)."`
	Interpreter string            `json:"interpreter,omitempty" jsonschema:"default=python3" jsonschema_description:"python: interpreter to run; a path with a slash is relative to the tool file."`
	Command     []string          `json:"command,omitempty" jsonschema_description:"command (required): argv with {param} placeholders, run without a shell; the input also arrives as JSON on stdin. A program with a slash is relative to the tool file."`
	Server      fileServer        `json:"server,omitempty" jsonschema_description:"mcp (required): a command line (stdio) or an http(s) URL (Streamable HTTP)."`
	Tool        string            `json:"tool,omitempty" jsonschema_description:"mcp (required): the tool to call on the server."`
}

// schemaCategories is lint's default allowed set (lint.DefaultCategories;
// spec cannot import lint), offered for completion.
var schemaCategories = []string{"http", "database", "file", "ai", "notification", "custom"}

type fileCategory struct{}

// JSONSchema: the default categories for completion, any string accepted
// (the set is configurable; lint's category-unknown checks it).
func (fileCategory) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "string", Enum: stringsToAny(schemaCategories)},
		{Type: "string"},
	}}
}

type fileEntryType struct{}

// JSONSchema: the entry types; the parser ignores case (HTTP is http).
func (fileEntryType) JSONSchema() *jsonschema.Schema {
	return anyCaseEnum([]string{"builtin", "http", "rest", "javascript", "python", "command", "native", "mcp"},
		[]string{
			"A handler compiled into toolctl (handler).",
			"An HTTP request (url, method, headers, query, body).",
			"Alias of http.",
			"JavaScript in an embedded engine (code or file defining execute(input)).",
			"A Python function run by python3 in a subprocess (module, function, path).",
			"A local program, input as JSON on stdin (command: [argv...]).",
			"Alias of command (SDK dialect).",
			"A tool on an MCP server (server, tool).",
		})
}

type fileMethod struct{}

// JSONSchema: the HTTP methods; the runner upper-cases what is written.
func (fileMethod) JSONSchema() *jsonschema.Schema {
	s := anyCaseEnum([]string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"}, nil)
	s.Default = "GET"
	return s
}

type fileToolType struct{}

// JSONSchema: the SDK tool types (any case, as the parser reads them) or
// OpenAI's function.
func (fileToolType) JSONSchema() *jsonschema.Schema {
	s := anyCaseEnum([]string{"BUILTIN", "NATIVE", "REST", "MCP"}, []string{
		"A builtin handler (entry type builtin).",
		"A local program (entry type command).",
		"An HTTP API (entry type http).",
		"A tool on an MCP server (entry type mcp).",
	})
	s.AnyOf = append(s.AnyOf, &jsonschema.Schema{Const: "function", Description: "OpenAI's flat (Responses) form: {type: function, name, description, parameters}."})
	return s
}

// anyCaseEnum accepts the values in any letter case while offering them,
// with their descriptions, for completion. The pattern spells each letter
// as a class ([Hh]) because editors evaluate it as a JavaScript regexp,
// where (?i) does not exist.
func anyCaseEnum(values, descriptions []string) *jsonschema.Schema {
	alts := make([]string, len(values))
	for i, v := range values {
		var b strings.Builder
		for _, r := range v {
			lo, up := strings.ToLower(string(r)), strings.ToUpper(string(r))
			if lo == up {
				b.WriteString(regexp.QuoteMeta(string(r)))
				continue
			}
			b.WriteString("[" + up + lo + "]")
		}
		alts[i] = b.String()
	}
	enum := &jsonschema.Schema{Type: "string", Enum: stringsToAny(values)}
	if descriptions != nil {
		enum.Extras = map[string]any{"enumDescriptions": descriptions, "markdownEnumDescriptions": descriptions}
	}
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		enum,
		{Type: "string", Pattern: "^(" + strings.Join(alts, "|") + ")$"},
	}}
}

// fileOpenAITool is OpenAI Chat Completions' wrapper, which the parser
// reads as the tool inside it.
type fileOpenAITool struct {
	Type     string    `json:"type" jsonschema:"required,enum=function" jsonschema_description:"Always function."`
	Function *fileTool `json:"function" jsonschema:"required" jsonschema_description:"The tool: name, description, parameters (a JSON Schema) and strict, plus any toolctl field."`
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
// keyword (items, properties, format, minimum, ...), an annotation keyword
// or an x-* extension, and nothing else: a misspelt "requried" shows in the
// editor as lint's field-unknown reports it.
func (fileParameter) JSONSchemaExtend(s *jsonschema.Schema) {
	s.AdditionalProperties = nil
	var names []any
	for _, k := range slices.Sorted(maps.Keys(paramItemKeys)) {
		names = append(names, k)
	}
	s.PropertyNames = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Enum: names}, {Pattern: "^x-"}}}
}

type fileArgument struct {
	Name     string `json:"name" jsonschema:"required,minLength=1" jsonschema_description:"Argument name."`
	Type     string `json:"type,omitempty" jsonschema_description:"JSON Schema type of the argument."`
	Desc     string `json:"desc,omitempty" jsonschema_description:"What the argument means (its description); the model reads it."`
	Optional bool   `json:"optional,omitempty" jsonschema:"default=false" jsonschema_description:"The caller may leave it out; an argument is required otherwise."`
	Required *bool  `json:"required,omitempty" jsonschema_description:"required: false is optional: true (some registry files write it)."`
	Items    any    `json:"items,omitempty" jsonschema_description:"The schema of an array argument's items."`
}

// JSONSchemaExtend lets an argument carry any other JSON Schema keyword,
// an annotation keyword or an x-* extension, as the conversion keeps them,
// and nothing else: a misspelt "optinal" shows as lint's field-unknown.
func (fileArgument) JSONSchemaExtend(s *jsonschema.Schema) {
	s.AdditionalProperties = nil
	var names []any
	for _, k := range slices.Sorted(maps.Keys(dockerArgumentKeys)) {
		names = append(names, k)
	}
	s.PropertyNames = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Enum: names}, {Pattern: "^x-"}}}
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
	Expected any            `json:"expected,omitempty" jsonschema_description:"What the call returns or does; toolctl test compares the result with it (a subset match by default)."`
	Expect   *fileExpect    `json:"expect,omitempty" jsonschema_description:"How toolctl test compares the result with expected."`
}

type fileExpect struct {
	Match     string            `json:"match,omitempty" jsonschema:"enum=subset,enum=exact,enum=types,default=subset" jsonschema_description:"subset: every key of an expected object must be in the result with a matching value; exact: the result equals expected; types: as subset, values compared by JSON type only (illustrative values)."`
	Tolerance float64           `json:"tolerance,omitempty" jsonschema:"minimum=0" jsonschema_description:"Numbers match when they differ by at most this much (default 0: exactly)."`
	Contains  string            `json:"contains,omitempty" jsonschema_description:"The result (as text, or as JSON when it is not a string) must contain this substring."`
	Pattern   string            `json:"pattern,omitempty" jsonschema_description:"The result (as text, or as JSON when it is not a string) must match this regular expression (RE2)."`
	Schema    map[string]any    `json:"schema,omitempty" jsonschema_description:"A JSON Schema the result must conform to, beside the tool's output schema."`
	Error     *fileExpectError  `json:"error,omitempty" jsonschema_description:"The call must fail, and how: a negative example."`
	Content   []map[string]any  `json:"content,omitempty" jsonschema_description:"The result's MCP content items, element by element (as many items), each a subset match, e.g. [{type: image, mimeType: image/png}]; data or resource.blob may be sha256:HEX, the SHA-256 of the decoded bytes. A plain value counts as one text item."`
	IsError   *bool             `json:"isError,omitempty" jsonschema_description:"true: the tool must answer with an isError result (a failure the model sees), whose content the other fields check; false: it must not."`
	Client    *fileExpectClient `json:"client,omitempty" jsonschema_description:"How the MCP client answers the tool's requests (ctx.sample, ctx.elicit) during the call, in order; the tool must make exactly as many."`
}

type fileExpectClient struct {
	Sampling    []map[string]any `json:"sampling,omitempty" jsonschema_description:"The answers to sampling/createMessage, in order, e.g. {role: assistant, content: {type: text, text: ...}, model: test}."`
	Elicitation []map[string]any `json:"elicitation,omitempty" jsonschema_description:"The answers to elicitation/create, in order, e.g. {action: accept, content: {name: Ada}}."`
}

type fileExpectError struct {
	Type    string `json:"type,omitempty" jsonschema_description:"The error kind, e.g. ValidationError, ToolExecutionError, NotFoundError."`
	Message string `json:"message,omitempty" jsonschema_description:"A substring of the error message."`
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
	Title           string `json:"title,omitempty" jsonschema_description:"Display name (MCP annotations.title; the top-level title is preferred)."`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty" jsonschema:"default=false" jsonschema_description:"The tool does not modify its environment."`
	DestructiveHint *bool  `json:"destructiveHint,omitempty" jsonschema:"default=true" jsonschema_description:"The tool may perform destructive updates (meaningful when readOnlyHint is false)."`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty" jsonschema:"default=false" jsonschema_description:"Repeated calls with the same arguments have no further effect (meaningful when readOnlyHint is false)."`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty" jsonschema:"default=true" jsonschema_description:"The tool interacts with an open world of external entities (the web, a public API); false for a closed domain."`
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

type fileOutput struct {
	Content string `json:"content,omitempty" jsonschema:"pattern=^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*|\\*)$" jsonschema_description:"Media type of the result, e.g. image/png, audio/wav or image/*: a command's stdout or an http response becomes an image or audio item of this type, and toolctl docs show it under Returns."`
}

type fileRuntime struct {
	Timeout            fileDuration `json:"timeout,omitempty" jsonschema_description:"Deadline of one attempt, e.g. 30s (the default) or 2m; a javascript, python or command tool is stopped at it, with every process it started."`
	Memory             fileSize     `json:"memory,omitempty" jsonschema_description:"Memory limit of one call of a javascript, python or command tool, all its processes together, e.g. 512MiB or 1GiB (256MiB by default), or unlimited; a call over it fails with a MemoryLimitError. A stdio mcp server is limited only when this is set."`
	Retries            int          `json:"retries,omitempty" jsonschema:"minimum=0,maximum=100" jsonschema_description:"Retries of retryable failures (network errors, timeouts, HTTP 429 and 5xx; never 4xx nor invalid input). Default 2 for http and mcp entries and the http_request and llm_call builtins, 0 otherwise."`
	RetryDelay         fileDuration `json:"retry_delay,omitempty" jsonschema_description:"Delay before the first retry, default 1s; a Retry-After header takes precedence."`
	Backoff            string       `json:"backoff,omitempty" jsonschema:"enum=exponential,enum=fixed,default=exponential" jsonschema_description:"How the delay grows: exponential (doubles per attempt, with jitter) or fixed."`
	MaxDelay           fileDuration `json:"max_delay,omitempty" jsonschema_description:"Upper bound of the delay between attempts, default 30s."`
	RetryNonIdempotent bool         `json:"retry_non_idempotent,omitempty" jsonschema:"default=false" jsonschema_description:"Also retry POST and PATCH requests, which may repeat a side effect."`
}

// JSONSchemaExtend gives the durations their defaults (the runner's
// DefaultTimeout, DefaultRetryDelay and DefaultMaxDelay); the tags of a
// $ref-typed field cannot carry them.
func (fileRuntime) JSONSchemaExtend(s *jsonschema.Schema) {
	for key, def := range map[string]string{"timeout": "30s", "memory": "256MiB", "retry_delay": "1s", "max_delay": "30s"} {
		if p, ok := s.Properties.Get(key); ok {
			p.Default = def
		}
	}
}

type fileDuration struct{}

// JSONSchema: "30s" / "1m30s" or a number of seconds.
func (fileDuration) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "string", Pattern: `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`},
		{Type: "number", Minimum: json.Number("0")},
	}}
}

type fileSize struct{}

// JSONSchema: "256MiB" / "1GiB" / "512MB" / "unlimited" or a number of
// bytes (ParseSize).
func (fileSize) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "string", Pattern: `^\s*([0-9]+(\.[0-9]+)?\s*([KkMmGgTt][Ii]?[Bb]|[KkMmGgTt][Ii]|[Bb])?|[Uu][Nn][Ll][Ii][Mm][Ii][Tt][Ee][Dd])\s*$`},
		{Type: "integer", Minimum: json.Number(strconv.FormatInt(MinMemory, 10))},
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
	for _, extra := range []any{&fileParameter{}, &fileOpenAITool{}} {
		for k, v := range r.Reflect(extra).Definitions {
			s.Definitions[k] = v
		}
	}
	s.Definitions["OpenAITool"].Description = "OpenAI Chat Completions' form: {type: function, function: {name, description, parameters}}."
	s.ID = SchemaID
	s.Title = "toolctl tool file"
	s.Description = "A tool definition for LLM agents (toolctl). One tool, a list of tools, or {tools: [...]}; a tool may be in OpenAI's {type: function, function: {...}} wrapper."
	tool := &jsonschema.Schema{Ref: "#/$defs/Tool"}
	anyTool := &jsonschema.Schema{AnyOf: []*jsonschema.Schema{tool, {Ref: "#/$defs/OpenAITool"}}}
	props := jsonschema.NewProperties()
	props.Set("tools", &jsonschema.Schema{Type: "array", Items: anyTool, Description: "The tools of the file (an OpenAI-style request body or a list of tools)."})
	s.Ref = ""
	s.AnyOf = []*jsonschema.Schema{
		tool,
		{Ref: "#/$defs/OpenAITool"},
		{Type: "array", Items: anyTool},
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
