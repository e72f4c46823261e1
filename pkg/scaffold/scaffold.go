// Package scaffold writes new tool files (toolctl new): every field with a
// realistic placeholder and a comment saying what it is for and its limits,
// an example whose params are valid, the editor schema modeline, and for
// javascript, python and command entries a stub that runs as it is.
//
// The result passes toolctl lint with no finding and is in fmt's canonical
// layout (it is produced through pkg/format).
package scaffold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/format"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// Formats and dialects.
const (
	YAML = "yaml"
	JSON = "json"

	// Canonical writes the input as a JSON Schema under input_schema and
	// the output under output_schema.
	Canonical = "canonical"
	// Feagent writes parameters as a list and returns as {field: {type,
	// description}}; Feagent runs builtin, http, javascript and python.
	Feagent = "feagent"
)

var (
	Formats  = []string{YAML, JSON}
	Dialects = []string{Canonical, Feagent}
)

// FeagentEntryTypes are the entry types Feagent's loader runs.
var FeagentEntryTypes = []string{spec.EntryBuiltin, spec.EntryHTTP, spec.EntryJavaScript, spec.EntryPython}

// DefaultCategory is the category a new tool of an entry type gets.
func DefaultCategory(entry string) string {
	if k, ok := kinds[entry]; ok {
		return k.category
	}
	return "custom"
}

// Options say what to scaffold.
type Options struct {
	Name  string
	Entry string // one of spec.EntryTypes
	// Description and Category replace the entry type's placeholders
	// when set.
	Description string
	Category    string
	Format      string // YAML (default) or JSON
	Dialect     string // Canonical (default) or Feagent
	// SchemaRef is the JSON Schema the editor modeline (YAML) or the
	// "$schema" field (JSON) points at; "" for none.
	SchemaRef string
	// NameMax is the longest name allowed (lint's limit, 64 by default).
	NameMax int
}

// File is one file to write, its path relative to the tools directory.
type File struct {
	Path string
	Data []byte
	Mode os.FileMode
}

// ValidateName checks a tool name: snake_case, at most max characters.
func ValidateName(name string, max int) error {
	if max <= 0 {
		max = 64
	}
	switch {
	case name == "":
		return fmt.Errorf("the tool name is empty; give a snake_case name such as get_weather")
	case !spec.IsSnakeCase(name):
		hint := ""
		if s := spec.SnakeCase(name); spec.IsSnakeCase(s) {
			hint = fmt.Sprintf(" (e.g. %s)", s)
		}
		return fmt.Errorf("tool name %q is not snake_case: use lowercase letters, digits and _, starting with a letter%s", name, hint)
	case utf8.RuneCountInString(name) > max:
		return fmt.Errorf("tool name %q is %d characters long; the limit is %d", name, utf8.RuneCountInString(name), max)
	}
	return nil
}

// Generate returns the tool file (first) and the files its entry runs.
func Generate(opts Options) ([]File, error) {
	if opts.Format == "" {
		opts.Format = YAML
	}
	if opts.Dialect == "" {
		opts.Dialect = Canonical
	}
	k, ok := kinds[opts.Entry]
	switch {
	case !ok:
		return nil, fmt.Errorf("unknown entry type %q; use %s", opts.Entry, strings.Join(spec.EntryTypes, ", "))
	case !slices.Contains(Formats, opts.Format):
		return nil, fmt.Errorf("unknown format %q; use yaml or json", opts.Format)
	case !slices.Contains(Dialects, opts.Dialect):
		return nil, fmt.Errorf("unknown dialect %q; use canonical (input_schema) or feagent (the parameters list)", opts.Dialect)
	case opts.Dialect == Feagent && !slices.Contains(FeagentEntryTypes, opts.Entry):
		return nil, fmt.Errorf("the feagent dialect has no %s entry (Feagent runs %s); use --dialect canonical", opts.Entry, strings.Join(FeagentEntryTypes, ", "))
	}
	if err := ValidateName(opts.Name, opts.NameMax); err != nil {
		return nil, err
	}
	n := names{tool: opts.Name, module: opts.Name}
	if pythonStdlib[n.module] {
		n.module += "_tool"
	}
	src := render(opts, k, n)
	base := opts.Name + ".yaml"
	data, err := format.Source(base, src, format.Options{})
	if err != nil {
		return nil, fmt.Errorf("internal error: the scaffold does not format: %v\n%s", err, src)
	}
	if opts.Format == JSON {
		base = opts.Name + ".json"
		if data, err = toJSON(data, opts.SchemaRef); err != nil {
			return nil, err
		}
		if data, err = format.Source(base, data, format.Options{}); err != nil {
			return nil, fmt.Errorf("internal error: the JSON scaffold does not format: %v", err)
		}
	}
	files := []File{{Path: base, Data: data, Mode: 0o644}}
	if k.script != nil {
		files = append(files, *k.script(n))
	}
	return files, nil
}

// render writes the YAML source: fields in canonical order, each with its
// comment, sections separated by blank lines.
func render(opts Options, k *kind, n names) []byte {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	comment := func(text string) {
		for _, l := range strings.Split(text, "\n") {
			line("# %s", l)
		}
	}
	if opts.SchemaRef != "" {
		line("# yaml-language-server: $schema=%s", opts.SchemaRef)
	}
	comment(fmt.Sprintf("%s: a %s tool made by `toolctl new`.\nReplace the placeholders, then check the file with `toolctl lint` and try\nthe tool with `toolctl run %s`.", opts.Name, opts.Entry, opts.Name))
	line("")
	description := opts.Description
	if description == "" {
		description = k.description
	}
	category := opts.Category
	if category == "" {
		category = k.category
	}
	comment("Unique id the model calls: snake_case, at most 64 characters, equal to the\nfile name.")
	line("name: %s", opts.Name)
	comment("Display name for people (MCP title).")
	line("title: %s", scalar(title(opts.Name)))
	comment("What the model reads to pick a tool: third person, says WHAT it does and\nWHEN to use it; at most 200 characters.")
	line("description: %s", scalar(description))
	comment("Markdown usage notes the agent reads on demand; at most 2000 characters.")
	line("detail: |")
	for _, l := range strings.Split(strings.ReplaceAll(k.detail, "{{tool}}", n.tool), "\n") {
		line("  %s", l)
	}
	comment("Group for registries and docs: http, database, file, ai, notification or\ncustom (lint.categories in .toolctl.yaml changes the set).")
	line("category: %s", scalar(category))
	comment("Semantic version MAJOR.MINOR.PATCH, quoted so that YAML keeps it a string.")
	line(`version: "0.1.0"`)
	comment("Who maintains the tool.")
	line("author: Your Team <team@example.com>")
	comment("An emoji or an image URL.")
	line("icon: %s", scalar(k.icon))
	comment("Free-form labels for search and docs.")
	line("tags: [%s]", strings.Join(k.tags, ", "))
	comment("Who may use it: private (the default), team or public.")
	line("shareable_scope: private")
	line("")

	comment(k.entryComment)
	line("entry:")
	b.WriteString(k.entry(n))
	line("")

	if opts.Dialect == Feagent {
		comment("The input the model fills, one item per parameter: type is string, number,\nboolean, object, array or any (Feagent has no integer); an optional\nparameter needs a default. Other JSON Schema keywords (enum, pattern, ...)\nmay follow.")
		line("parameters:")
		for _, p := range k.params {
			line("  - name: %s", p.name)
			line("    type: %s", feagentType(p.typ))
			line("    description: %s", scalar(p.description))
			line("    required: %t", p.required)
			if p.def != "" {
				line("    default: %s", p.def)
			}
			if len(p.enum) > 0 {
				line("    enum: [%s]", strings.Join(p.enum, ", "))
			}
			for _, kv := range p.extra {
				line("    %s: %s", kv[0], kv[1])
			}
		}
		comment("The result: {field: {type, description}} (or {field: type}).")
		line("returns:")
		for _, f := range k.output {
			line("  %s:", f.name)
			line("    type: %s", feagentType(f.typ))
			line("    description: %s", scalar(f.description))
		}
	} else {
		comment("The input the model fills, as a JSON Schema object: every property has a\ntype and a description, an optional one a default. Keep it flat and small.")
		line("input_schema:")
		line("  type: object")
		line("  properties:")
		var required []string
		for _, p := range k.params {
			line("    %s:", p.name)
			line("      type: %s", p.typ)
			line("      description: %s", scalar(p.description))
			if p.def != "" {
				line("      default: %s", p.def)
			}
			if len(p.enum) > 0 {
				line("      enum: [%s]", strings.Join(p.enum, ", "))
			}
			for _, kv := range p.extra {
				line("      %s: %s", kv[0], kv[1])
			}
			if p.required {
				required = append(required, p.name)
			}
		}
		line("  required: [%s]", strings.Join(required, ", "))
		if len(k.output) == 1 && k.output[0].typ == "string" && opts.Entry == spec.EntryMCP {
			// A proxied tool that answers with text has no output
			// schema: MCP's outputSchema must be an object
			// (structuredContent), and lint --target mcp says so.
			comment("No output_schema: the server answers with text (MCP's outputSchema\ndescribes structuredContent, a JSON object).")
		} else {
			comment("The result's shape, as a JSON Schema.")
			line("output_schema:")
			line("  type: object")
			line("  properties:")
			for _, f := range k.output {
				line("    %s:", f.name)
				line("      type: %s", f.typ)
				line("      description: %s", scalar(f.description))
			}
		}
	}
	line("")

	comment("Phrases that should make the agent pick this tool.")
	line("triggers:")
	for _, t := range k.triggers {
		line("  - %s", scalar(t))
	}
	comment("What must hold before a call: text, or {condition, check_tool,\naction_if_not_met}.")
	line("prerequisites:")
	for _, p := range k.prerequisites {
		line("  - %s", scalar(p))
	}
	comment("Documented calls; params must be valid input (lint checks them).")
	line("examples:")
	line("  - scenario: %s", scalar(k.scenario))
	line("    params: %s", k.exampleParams)
	line("    expected: %s", k.expected)
	comment("What the model must keep in mind when calling it.")
	line("warnings:")
	for _, w := range k.warnings {
		line("  - %s", scalar(w))
	}
	comment("Tools of the same set and how they relate, and a multi-step use; lint checks\nthat every tool named exists, so fill them in when the other tools do:\nrelated_tools:\n  - name: other_tool\n    relation: commonly used after\nworkflow:\n  name: Example flow\n  steps:\n    - step: 1\n      action: What happens first\n      tool: " + opts.Name)
	line("")

	comment("Behaviour hints for MCP clients: readOnlyHint, destructiveHint,\nidempotentHint, openWorldHint.")
	line("annotations:")
	for _, a := range k.annotations {
		line("  %s: %s", a[0], a[1])
	}
	comment("Parameters filled at run time, which the model never sees: from the\nenvironment, a literal value or a .toolctl.yaml key:\nbind:\n  api_key: {env: EXAMPLE_API_KEY}")
	comment("Limits of one call: the timeout of an attempt, and retries of network\nerrors, timeouts, HTTP 429 and 5xx (never of invalid input).")
	line("runtime:")
	line("  timeout: %s", k.timeout)
	line("  retries: %s", k.retries)
	return []byte(b.String())
}

// feagentType is the Feagent spelling of a type: it has no integer.
func feagentType(t string) string {
	if t == "integer" {
		return "number"
	}
	return t
}

// title is the display name: get_weather → Get weather.
func title(name string) string {
	s := strings.ReplaceAll(name, "_", " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// scalar writes s as a YAML scalar: plain when that reads back as the
// same string, else double-quoted.
func scalar(s string) string {
	if s != "" && strings.TrimSpace(s) == s && !strings.ContainsAny(s, "\n\r\t") {
		var m map[string]any
		if yaml.Unmarshal([]byte("v: "+s), &m) == nil && m["v"] == s {
			return s
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

// toJSON turns the YAML scaffold into JSON: the same fields, comments
// gone (JSON has none), "$schema" first.
func toJSON(data []byte, schemaRef string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("internal error: %v", err)
	}
	v, ok := spec.NodeValue(doc.Content[0]).(*spec.Map)
	if !ok {
		return nil, fmt.Errorf("internal error: the scaffold is not a mapping")
	}
	if schemaRef != "" {
		v.SetFirst("$schema", schemaRef)
	}
	return spec.MarshalJSONIndent(v)
}
