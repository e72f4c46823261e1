package spec

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/toolctl/toolctl/internal/jsonschema"
)

func compileFileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := FileSchema()
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaID, bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(SchemaID)
	if err != nil {
		t.Fatalf("the generated schema does not compile: %v", err)
	}
	return s
}

// asJSON reads a YAML or JSON file into the plain form the validator takes.
func asJSON(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCommittedSchemaIsCurrent(t *testing.T) {
	want, err := FileSchema()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../schema/tool.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("schema/tool.schema.json is stale; run: go run . schema > schema/tool.schema.json")
	}
}

func TestBundledToolsMatchSchema(t *testing.T) {
	s := compileFileSchema(t)
	files, err := filepath.Glob("../../tools/*.*")
	if err != nil || len(files) < 7 {
		t.Fatalf("bundled tools: %v %v", files, err)
	}
	for _, p := range files {
		if !IsToolFile(p) {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(asJSON(t, data)); err != nil {
			t.Errorf("%s does not match the schema: %#v", p, err)
		}
		f := ParseFile(p, data)
		if len(f.Errors) > 0 || len(f.Tools) != 1 {
			t.Errorf("%s: %d tools, errors %v", p, len(f.Tools), f.Errors)
		}
		for _, tool := range f.Tools {
			if len(tool.UnknownFields) > 0 {
				t.Errorf("%s: unknown fields %v", p, tool.UnknownFields)
			}
			if base := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)); tool.Name != base {
				t.Errorf("%s: name %q differs from the file name", p, tool.Name)
			}
		}
	}
}

func TestSchemaRejectsBadFiles(t *testing.T) {
	s := compileFileSchema(t)
	for name, src := range map[string]string{
		"missing description": "name: x\n",
		"wrong tag type":      "name: x\ndescription: d\ntags: foo\n",
		"unknown field":       "name: x\ndescription: d\ndescripton: d\n",
		"entry field typo":    "name: x\ndescription: d\nentry: {type: http, urll: x}\n",
		"parameter item typo": "name: x\ndescription: d\nparameters:\n  - {name: q, type: string, requried: true}\n",
		"entry without type":  "name: x\ndescription: d\nentry: {url: x}\n",
		"unknown entry type":  "name: x\ndescription: d\nentry: {type: webhook}\n",
		"openai wrapper typo": "type: function\nfunction: {name: x, description: d, paramters: {}}\n",
		"openai wrapper only": "type: function\n",
		"bad bind":            "name: x\ndescription: d\nbind: {k: {env: A, value: 1}}\n",
		"bad duration":        "name: x\ndescription: d\nruntime: {timeout: soon}\n",
		"bad list item":       "- name: x\n  description: d\n- 3\n",
	} {
		if err := s.Validate(asJSON(t, []byte(src))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for name, src := range map[string]string{
		"list":      "- name: x\n  description: d\n",
		"container": "tools:\n  - name: x\n    description: d\n",
		"extension": "name: x\ndescription: d\nx-team: core\n",
		// Every dialect the parser reads (TestSchemaAcceptsCorpora checks
		// real files; these are the shapes the corpora lack).
		"openai wrapper":      "type: function\nfunction:\n  name: get_weather\n  description: d\n  parameters: {type: object, properties: {city: {type: string}}}\n  strict: true\n",
		"openai list":         "- type: function\n  function: {name: a, description: d}\n- name: b\n  description: d\n",
		"openai container":    "tools:\n  - type: function\n    function: {name: a, description: d}\n",
		"openai responses":    "type: function\nname: a\ndescription: d\nparameters: {type: object}\nstrict: false\n",
		"mcp":                 "name: a.b-c\ntitle: A\ndescription: d\ninputSchema: {type: object}\noutputSchema: {type: object}\nannotations: {readOnlyHint: true}\n",
		"sdk":                 "id: a\nname: a\ndescription: d\ntype: builtin\nparameters: {properties: {x: {type: string}}}\nmetadata: {category: http}\n",
		"entry type any case": "name: a\ndescription: d\nentry: {type: HTTP, url: x, method: get}\n",
		"feagent entry alone": "name: a\ndescription: d\ncategory: http\nentry: {type: http}\nparameters: [{name: url, type: string, required: true}]\nreturns: {type: object, description: d}\n",
		"custom category":     "name: a\ndescription: d\ncategory: billing\n",
	} {
		if err := s.Validate(asJSON(t, []byte(src))); err != nil {
			t.Errorf("%s: rejected: %v", name, err)
		}
	}
}

// The schema and the parser must know the same top-level fields.
func TestSchemaMatchesParser(t *testing.T) {
	raw, err := FileSchema()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var inSchema []string
	for k := range doc.Defs["Tool"].Properties {
		if k != "$schema" && k != "_meta" {
			inSchema = append(inSchema, k)
		}
	}
	fields := append([]string(nil), ToolFields...)
	sort.Strings(inSchema)
	sort.Strings(fields)
	if strings.Join(inSchema, ",") != strings.Join(fields, ",") {
		t.Errorf("schema fields %v\nparser fields %v", inSchema, fields)
	}
}

func TestSchemaHandlerEnumIsBuiltinHandlers(t *testing.T) {
	raw, err := FileSchema()
	if err != nil {
		t.Fatal(err)
	}
	want := `"enum":["` + strings.Join(BuiltinHandlers, `","`) + `"]`
	if !bytes.Contains(bytes.ReplaceAll(bytes.ReplaceAll(raw, []byte(" "), nil), []byte("\n"), nil), []byte(want)) {
		t.Errorf("entry.handler's enum in fileformat.go differs from BuiltinHandlers %v", BuiltinHandlers)
	}
}

// Completion and hover are only as good as the schema: every property has
// a description, and the closed sets and defaults are there.
func TestSchemaDescribesEveryField(t *testing.T) {
	raw, err := FileSchema()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := DecodeJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch v := v.(type) {
		case *Map:
			if props, ok := v.GetMap("properties"); ok && !strings.Contains(ptr, "/if") {
				for i := 0; i < props.Len(); i++ {
					k, p := props.At(i)
					if pm, _ := p.(*Map); pm == nil || !pm.Has("description") {
						t.Errorf("%s/properties/%s has no description", ptr, k)
					}
				}
			}
			for i := 0; i < v.Len(); i++ {
				k, c := v.At(i)
				walk(c, ptr+"/"+k)
			}
		case []any:
			for i, c := range v {
				walk(c, ptr+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(doc, "")

	flat := string(bytes.Join(bytes.Fields(raw), nil))
	for _, want := range []string{
		`"shareable_scope":{"type":"string","enum":["private","team","public"]`,
		`"default":"private"`, `"default":"1.0.0"`, `"default":"exponential"`,
		`"default":"GET"`, `"default":"python3"`, `"default":"30s"`,
		`"enum":["builtin","http","rest","javascript","python","command","native","mcp"]`,
		`"enum":["GET","POST","PUT","PATCH","DELETE","HEAD"]`,
		`"enum":["http","database","file","ai","notification","custom"]`,
		`"enum":["string","number","integer","boolean","object","array","any"]`,
		`"$ref":"#/$defs/OpenAITool"`,
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the schema lacks %s", want)
		}
	}
}

// TestSectionFieldOrder: ToMap writes each section's fields, and the file
// schema lists them, in the order of the lists fmt sorts by (fields.go,
// ToolFields).
func TestSectionFieldOrder(t *testing.T) {
	sections := []struct {
		def, path string // $defs name; where the section is in ToMap's output
		fields    []string
	}{
		{"Entry", "entry", EntryFields},
		{"Example", "examples.0", ExampleFields},
		{"Prereq", "prerequisites.0", PrerequisiteFields},
		{"Related", "related_tools.0", RelatedToolFields},
		{"Workflow", "workflow", WorkflowFields},
		{"Step", "workflow.steps.0", WorkflowStepFields},
		{"Annotations", "annotations", AnnotationFields},
		{"Runtime", "runtime", RuntimeFields},
		{"Metadata", "", MetadataFields},
	}

	raw, err := FileSchema()
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	keys := func(n *yaml.Node) []string {
		var out []string
		for i := 0; n != nil && i+1 < len(n.Content); i += 2 {
			out = append(out, n.Content[i].Value)
		}
		return out
	}
	get := func(n *yaml.Node, key string) *yaml.Node {
		for i := 0; n != nil && i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1]
			}
		}
		return nil
	}
	props := func(def string) []string {
		d := get(get(doc.Content[0], "$defs"), def)
		if p := get(d, "properties"); p != nil {
			return keys(p)
		}
		for _, alt := range get(d, "anyOf").Content { // a section that may also be a string
			if p := get(alt, "properties"); p != nil {
				return keys(p)
			}
		}
		return nil
	}
	for _, s := range sections {
		if got := props(s.def); !slices.Equal(got, s.fields) {
			t.Errorf("schema $defs/%s properties %v, want %v", s.def, got, s.fields)
		}
	}
	if got, want := props("Tool"), append(append([]string{"$schema"}, ToolFields...), "_meta"); !slices.Equal(got, want) {
		t.Errorf("schema $defs/Tool properties %v, want %v", got, want)
	}

	// Every section filled, its fields written in reverse order.
	src := `{"strict": true, "documentation_url": "https://example.com", "id": "x",
  "runtime": {"retry_non_idempotent": true, "max_delay": "9s", "backoff": "exponential", "retry_delay": "2s", "retries": 1, "memory": "64MiB", "timeout": "5s"},
  "annotations": {"openWorldHint": false, "idempotentHint": true, "destructiveHint": false, "readOnlyHint": true, "title": "T"},
  "workflow": {"steps": [{"condition": "c", "tools": ["a"], "tool": "t", "action": "a", "step": 1}], "name": "w"},
  "related_tools": [{"relation": "r", "name": "n"}],
  "prerequisites": [{"action_if_not_met": "a", "check_tool": "c", "condition": "c"}],
  "examples": [{"expect": {"match": "exact"}, "expected": 1, "params": {}, "scenario": "s"}],
  "entry": {"tool": "t", "server": "s", "command": ["c"], "interpreter": "i", "path": "p", "function": "f", "module": "m", "file": "f", "code": "c", "body": {}, "query": {}, "headers": {}, "method": "GET", "url": "https://example.com", "handler": "h", "type": "http"},
  "description": "d", "name": "order_check"}`
	f := ParseFile("order.json", []byte(src))
	if len(f.Tools) != 1 {
		t.Fatalf("parsed %d tools: %v", len(f.Tools), f.Errors)
	}
	m := f.Tools[0].ToMap()
	var ordered []string
	for _, k := range m.Keys() {
		if slices.Contains(ToolFields, k) {
			ordered = append(ordered, k)
		}
	}
	if !slices.IsSortedFunc(ordered, func(a, b string) int { return slices.Index(ToolFields, a) - slices.Index(ToolFields, b) }) {
		t.Errorf("ToMap's top-level keys %v are not in ToolFields' order", m.Keys())
	}
	for _, s := range sections {
		if s.path == "" {
			continue
		}
		var v any = m
		for _, step := range strings.Split(s.path, ".") {
			switch x := v.(type) {
			case *Map:
				v, _ = x.Get(step)
			case []any:
				i, _ := strconv.Atoi(step)
				v = x[i]
			}
		}
		sec, ok := v.(*Map)
		if !ok {
			t.Errorf("ToMap has no %s: %v", s.path, v)
			continue
		}
		if got := sec.Keys(); !slices.Equal(got, s.fields) {
			t.Errorf("ToMap's %s fields %v, want %v", s.path, got, s.fields)
		}
	}
}

// TestSchemaURL: a release points at its own tag's schema; anything else
// at main's.
func TestSchemaURL(t *testing.T) {
	tag := "https://raw.githubusercontent.com/toolctl/toolctl/v1.2.3/schema/tool.schema.json"
	for version, want := range map[string]string{
		"v1.2.3":                               tag,
		"1.2.3":                                tag,
		"v1.2.3-rc.1":                          "https://raw.githubusercontent.com/toolctl/toolctl/v1.2.3-rc.1/schema/tool.schema.json",
		"dev":                                  SchemaID,
		"":                                     SchemaID,
		"(devel)":                              SchemaID,
		"v0.0.0-20260101120000-abcdef123456":   SchemaID,
		"v1.2.4-0.20260101120000-abcdef123456": SchemaID,
		"v1.2.3+dirty":                         SchemaID,
	} {
		if got := SchemaURL(version); got != want {
			t.Errorf("SchemaURL(%q) = %s, want %s", version, got, want)
		}
	}
	if SchemaID != "https://raw.githubusercontent.com/toolctl/toolctl/main/schema/tool.schema.json" {
		t.Errorf("SchemaID = %s", SchemaID)
	}
	// the repository is the module's
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Skip("no go.mod")
	}
	if first, _, _ := strings.Cut(string(mod), "\n"); first != "module github.com/"+SchemaRepo {
		t.Errorf("go.mod says %q; SchemaRepo is %s", first, SchemaRepo)
	}
}
