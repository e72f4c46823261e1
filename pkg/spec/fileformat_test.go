package spec

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"gopkg.in/yaml.v3"
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
