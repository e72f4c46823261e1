package scaffold

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/internal/jsonschema"
	"github.com/toolctl/toolctl/pkg/format"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/run/builtin"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

func fileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := spec.FileSchema()
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(spec.SchemaID, bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(spec.SchemaID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func plainJSON(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Every entry type × format × dialect: the file lints clean (every rule,
// every severity, every provider pack; the feagent profile too for the
// feagent dialect), is in fmt's layout, matches the editor schema, has the
// modeline, and its stub runs and returns the example's expected value.
func TestEveryCombination(t *testing.T) {
	schema := fileSchema(t)
	for _, entry := range spec.EntryTypes {
		for _, fm := range Formats {
			for _, dialect := range Dialects {
				name := "my_" + entry + "_tool"
				t.Run(entry+"/"+fm+"/"+dialect, func(t *testing.T) {
					files, err := Generate(Options{Name: name, Entry: entry, Format: fm, Dialect: dialect, SchemaRef: "../schema/tool.schema.json"})
					if dialect == Feagent && !slices.Contains(FeagentEntryTypes, entry) {
						if err == nil || !strings.Contains(err.Error(), "the feagent dialect has no "+entry+" entry") {
							t.Fatalf("want a refusal, got %v", err)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					dir := t.TempDir()
					for _, f := range files {
						p := filepath.Join(dir, f.Path)
						if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
							t.Fatal(err)
						}
						if err := os.WriteFile(p, f.Data, f.Mode); err != nil {
							t.Fatal(err)
						}
					}
					tool := files[0]
					if want := name + "." + fm; tool.Path != want {
						t.Errorf("path %s, want %s", tool.Path, want)
					}
					first, _, _ := strings.Cut(string(tool.Data), "\n")
					switch fm {
					case YAML:
						if first != "# yaml-language-server: $schema=../schema/tool.schema.json" {
							t.Errorf("first line %q", first)
						}
					case JSON:
						if !bytes.HasPrefix(tool.Data, []byte("{\n  \"$schema\": \"../schema/tool.schema.json\",\n")) {
							t.Errorf("no $schema first:\n%s", tool.Data)
						}
					}
					path := filepath.Join(dir, tool.Path)
					formatted, err := format.Source(path, tool.Data, format.Options{})
					if err != nil || !bytes.Equal(formatted, tool.Data) {
						t.Errorf("not in fmt's layout (%v):\n%s", err, formatted)
					}
					if err := schema.Validate(plainJSON(t, tool.Data)); err != nil {
						t.Errorf("rejected by the schema: %v", err)
					}
					set, err := spec.Load([]string{dir})
					if err != nil {
						t.Fatal(err)
					}
					cfgs := []lint.Config{{}, {Targets: lint.Targets}}
					if dialect == Feagent {
						cfgs = append(cfgs, lint.Config{Profile: lint.ProfileFeagent})
					}
					for _, cfg := range cfgs {
						for _, f := range lint.Run(set, cfg) {
							t.Errorf("lint (%s %v): %s", cfg.Profile, cfg.Targets, f)
						}
					}
					tools := set.Tools()
					if len(tools) != 1 {
						t.Fatalf("%d tools", len(tools))
					}
					if entry == spec.EntryPython {
						if _, err := exec.LookPath("python3"); err != nil {
							t.Skip("no python3")
						}
					}
					if entry != spec.EntryHTTP && entry != spec.EntryMCP {
						runExample(t, tools[0])
					}
				})
			}
		}
	}
}

// runExample runs the tool with its example's params, as `toolctl run`
// does, and compares the result with the example's expected value.
func runExample(t *testing.T, tool *spec.Tool) {
	t.Helper()
	if len(tool.Examples) == 0 {
		t.Fatal("no example")
	}
	ex := tool.Examples[0]
	input, _ := spec.Plain(ex.Params).(map[string]any)
	r := run.Runner{Executors: builtin.Executors()}
	res, err := r.Run(context.Background(), tool, input)
	if err != nil {
		t.Fatalf("toolctl run %s: %v", tool.Name, err)
	}
	got, _ := spec.MarshalJSONIndent(res.Value)
	want, _ := spec.MarshalJSONIndent(ex.Expected)
	var g, w any
	_ = json.Unmarshal(got, &g)
	_ = json.Unmarshal(want, &w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("run returned %s, the example expects %s", got, want)
	}
}

func TestValidateName(t *testing.T) {
	for _, tc := range []struct{ name, msg string }{
		{"", "empty"},
		{"GetWeather", `not snake_case: use lowercase letters, digits and _, starting with a letter (e.g. get_weather)`},
		{"get-weather", "(e.g. get_weather)"},
		{"1tool", "starting with a letter"},
		{"café_lookup", "(e.g. cafe_lookup)"},
		{"查询天气", "starting with a letter"},
		{strings.Repeat("a", 65), "65 characters long; the limit is 64"},
	} {
		err := ValidateName(tc.name, 64)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: %v", tc.name, err)
		}
	}
	if err := ValidateName("查询天气", 64); err == nil || strings.Contains(err.Error(), "e.g.") {
		t.Errorf("查询天气: %v, want no suggestion (no ASCII spelling)", err)
	}
	if err := ValidateName(strings.Repeat("a", 64), 64); err != nil {
		t.Error(err)
	}
	if err := ValidateName("abc_d", 4); err == nil {
		t.Error("the configured limit is not applied")
	}
}

// A tool named like a Python standard module gets a module that cannot be
// shadowed.
func TestPythonModuleName(t *testing.T) {
	files, err := Generate(Options{Name: "json", Entry: spec.EntryPython})
	if err != nil {
		t.Fatal(err)
	}
	if files[1].Path != "scripts/json_tool.py" || !bytes.Contains(files[0].Data, []byte("module: json_tool\n")) {
		t.Errorf("%s\n%s", files[1].Path, files[0].Data)
	}
}

// What the user types is written safely, whatever it holds.
func TestUserText(t *testing.T) {
	desc := `Fetches "quotes": a # sign, and: colons. Use when testing quoting.`
	files, err := Generate(Options{Name: "q", Entry: spec.EntryHTTP, Description: desc, Category: "custom"})
	if err != nil {
		t.Fatal(err)
	}
	f := spec.ParseFile("q.yaml", files[0].Data)
	if len(f.Errors) > 0 || f.Tools[0].Description != desc || f.Tools[0].Category != "custom" {
		t.Errorf("%v %q", f.Errors, f.Tools[0].Description)
	}
}

func TestNoSchemaRef(t *testing.T) {
	files, err := Generate(Options{Name: "x", Entry: spec.EntryHTTP})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(files[0].Data, []byte("yaml-language-server")) {
		t.Errorf("modeline without a ref:\n%s", files[0].Data)
	}
}
