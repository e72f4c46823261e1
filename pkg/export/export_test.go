package export

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/export")

const (
	bundledDir = "../../tools"
	casesDir   = "../../testdata/export/cases"
	goldenDir  = "../../testdata/export"
)

// variants are the golden directories: one per format and flag.
var variants = []struct {
	dir  string
	opts Options
}{
	{"openai", Options{Format: OpenAI}},
	{"openai-strict", Options{Format: OpenAI, Strict: true}},
	{"openai-responses", Options{Format: OpenAIResponses}},
	{"anthropic", Options{Format: Anthropic}},
	{"anthropic-strict", Options{Format: Anthropic, Strict: true}},
	{"gemini", Options{Format: Gemini}},
	{"gemini-legacy", Options{Format: Gemini, Legacy: true}},
	{"mcp", Options{Format: MCP}},
	{"jsonschema", Options{Format: JSONSchema}},
	{"prompt-level2", Options{Format: Prompt, Level: 2}},
	{"yaml", Options{Format: YAML}},
	{"python", Options{Format: Python}},
	{"typescript", Options{Format: TypeScript}},
}

func loadTools(t *testing.T, paths ...string) []*spec.Tool {
	t.Helper()
	set, err := spec.Load(paths)
	if err != nil {
		t.Fatal(err)
	}
	if errs := set.Errors(); len(errs) > 0 {
		t.Fatalf("load errors: %v", errs)
	}
	return set.Tools()
}

// golden compares got with the file, or writes it with -update. An empty
// got means the file must not exist.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if len(got) == 0 {
			os.Remove(path)
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if len(got) == 0 {
		if err == nil {
			t.Errorf("%s exists but the export produced nothing for it (run go test ./pkg/export -update)", path)
		}
		return
	}
	if err != nil {
		t.Fatalf("%v (run go test ./pkg/export -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test ./pkg/export -update and review the diff)\n--- got\n%s", path, got)
	}
}

// TestGolden exports every bundled and edge-case tool alone in every
// variant: NAME.json (or .txt, .yaml) holds the document, NAME.error.txt a
// refusal, NAME.warnings.txt the warnings.
func TestGolden(t *testing.T) {
	tools := append(loadTools(t, bundledDir), loadTools(t, casesDir)...)
	for _, v := range variants {
		t.Run(v.dir, func(t *testing.T) {
			dir := filepath.Join(goldenDir, v.dir)
			seen := map[string]bool{}
			for _, tool := range tools {
				base := FileName(tool.Name)
				doc, ws, err := Export([]*spec.Tool{tool}, v.opts)
				var refused *Error
				switch {
				case errors.As(err, &refused):
					doc = nil
				case err != nil:
					t.Fatalf("%s: %v", tool.Name, err)
				}
				docPath := filepath.Join(dir, base+v.opts.Ext())
				errText := ""
				if refused != nil {
					errText = refused.Error() + "\n"
				}
				var wtext strings.Builder
				for _, w := range ws {
					wtext.WriteString(w.String() + "\n")
				}
				golden(t, docPath, doc)
				golden(t, filepath.Join(dir, base+".error.txt"), []byte(errText))
				golden(t, filepath.Join(dir, base+".warnings.txt"), []byte(wtext.String()))
				seen[filepath.Base(docPath)] = true
				seen[base+".error.txt"] = true
				seen[base+".warnings.txt"] = true
			}
			// A golden file no tool produces any more is stale.
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if !seen[e.Name()] {
					if *update {
						os.Remove(filepath.Join(dir, e.Name()))
						continue
					}
					t.Errorf("stale golden file %s", filepath.Join(dir, e.Name()))
				}
			}
		})
	}
}

// TestGoldenSets pins the documents of whole sets: the Level 1 manifest,
// the tools/list envelope and the jsonschema object keyed by name.
func TestGoldenSets(t *testing.T) {
	bundled := loadTools(t, bundledDir)
	cases := loadTools(t, casesDir)
	for _, tc := range []struct {
		file  string
		tools []*spec.Tool
		opts  Options
	}{
		{"bundled.prompt.txt", bundled, Options{Format: Prompt}},
		{"bundled.mcp-envelope.json", bundled, Options{Format: MCP, Envelope: true}},
		{"cases.jsonschema.json", cases, Options{Format: JSONSchema}},
		{"cases.yaml", cases[:2], Options{Format: YAML}},
		{"bundled.py", bundled, Options{Format: Python}},
		{"bundled.ts", bundled, Options{Format: TypeScript}},
	} {
		doc, _, err := Export(tc.tools, tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		golden(t, filepath.Join(goldenDir, "sets", tc.file), doc)
	}
}

// The yaml list of several tools loads back as the same tools.
func TestYAMLSetLoadsBack(t *testing.T) {
	cases := loadTools(t, casesDir)
	doc, _, err := Export(cases, Options{Format: YAML})
	if err != nil {
		t.Fatal(err)
	}
	f := spec.ParseFile("all.yaml", doc)
	if len(f.Errors) > 0 || len(f.Tools) != len(cases) {
		t.Fatalf("reloaded %d tools, errors %v", len(f.Tools), f.Errors)
	}
	for i, tool := range f.Tools {
		a, _ := spec.MarshalJSONIndent(tool.ToMap())
		b, _ := spec.MarshalJSONIndent(cases[i].ToMap())
		if !bytes.Equal(a, b) {
			t.Errorf("%s changed on the way back:\n%s\nvs\n%s", tool.Name, a, b)
		}
	}
}

func TestDeterministic(t *testing.T) {
	tools := append(loadTools(t, bundledDir), loadTools(t, casesDir)...)
	for _, f := range Formats {
		a, _, err1 := Export(tools, Options{Format: f})
		b, _, err2 := Export(tools, Options{Format: f})
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: two exports differ (%v, %v)", f, err1, err2)
		}
	}
}

func TestBoundParamsRemovedEverywhere(t *testing.T) {
	tools := loadTools(t, filepath.Join(casesDir, "bound_params.yaml"))
	for _, f := range Formats {
		for _, strict := range []bool{false, true} {
			opts := Options{Format: f, Strict: strict && slices.Contains(StrictFormats, f)}
			if f == Prompt {
				opts.Level = 2
			}
			doc, _, err := Export(tools, opts)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			leaked := strings.Contains(string(doc), "api_key") || strings.Contains(string(doc), "region")
			if f == YAML {
				// The canonical file keeps them: toolctl fills them at run time.
				if !leaked {
					t.Errorf("yaml lost the bound parameters")
				}
				continue
			}
			if leaked {
				t.Errorf("%s (strict %v) shows a bound parameter:\n%s", f, opts.Strict, doc)
			}
		}
	}
}

// A $ref to a bound parameter's schema still resolves once the parameter
// is removed: the schema moves into $defs (next to the existing ones) and
// the $refs follow it, in every format.
func TestBoundParamReferencedStaysResolvable(t *testing.T) {
	tool := parseTool(t, `{"name": "bindref", "description": "Uses a bound schema. Use when testing.", "input_schema": {"type": "object",
	  "properties": {
	    "token": {"type": "string", "description": "API token.", "pattern": "^[a-z]+$"},
	    "other": {"$ref": "#/properties/token", "description": "Another token."},
	    "list": {"type": "array", "items": {"$ref": "#/properties/token"}, "examples": [[{"$ref": "#/properties/token"}]]}},
	  "required": ["token"],
	  "$defs": {"token": {"type": "integer"}}},
	  "bind": {"token": {"env": "TOKEN"}}}`)
	s := InputSchema(tool)
	doc, err := spec.MarshalJSONIndent(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"$ref": "#/$defs/token_2",`, `"items": {
        "$ref": "#/$defs/token_2"`, `"token_2": {
      "type": "string"`, `"examples": [
        [
          {
            "$ref": "#/properties/token"`} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("want %s in\n%s", want, doc)
		}
	}
	if props, _ := s.GetMap("properties"); props.Has("token") {
		t.Errorf("the bound parameter is still a parameter:\n%s", doc)
	}
	for _, f := range Formats {
		opts := Options{Format: f}
		if slices.Contains(StrictFormats, f) {
			opts.Strict = true
		}
		out, _, err := Export([]*spec.Tool{tool}, opts)
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if f != YAML && strings.Count(string(out), `#/properties/token`) > strings.Count(string(out), `example`) {
			t.Errorf("%s: a $ref to the removed parameter is left:\n%s", f, out)
		}
	}
}

func TestNameMappingAndCollision(t *testing.T) {
	tools := loadTools(t, filepath.Join(casesDir, "math.factorial.json"))
	r, err := Build(tools, Options{Format: OpenAI})
	if err != nil {
		t.Fatal(err)
	}
	if r.Items[0].Name != "math_factorial" {
		t.Errorf("name %q, want math_factorial", r.Items[0].Name)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].Message, "math.factorial → math_factorial") {
		t.Errorf("warnings %v, want the mapping", r.Warnings)
	}
	// MCP allows the dot: kept, no warning.
	r, err = Build(tools, Options{Format: MCP})
	if err != nil || r.Items[0].Name != "math.factorial" || len(r.Warnings) != 0 {
		t.Errorf("mcp: %v %v %v", err, r.Items, r.Warnings)
	}
	// Gemini accepts it but advises against dots.
	r, err = Build(tools, Options{Format: Gemini})
	if err != nil || r.Items[0].Name != "math.factorial" || len(r.Warnings) == 0 {
		t.Errorf("gemini: %v %v", err, r.Warnings)
	}

	other := spec.ParseFile("math_factorial.json", []byte(`{"name": "math_factorial", "description": "Another factorial.", "input_schema": {"type": "object", "properties": {}}}`)).Tools[0]
	_, err = Build(append(tools, other), Options{Format: Anthropic})
	var refused *Error
	if !errors.As(err, &refused) || len(refused.Problems) != 1 {
		t.Fatalf("err %v, want one collision", err)
	}
	msg := refused.Problems[0].Message
	if !strings.Contains(msg, `"math.factorial"`) || !strings.Contains(msg, `"math_factorial"`) {
		t.Errorf("collision message %q must name both tools", msg)
	}
	// MCP keeps both names: no collision.
	if _, err := Build(append(tools, other), Options{Format: MCP}); err != nil {
		t.Errorf("mcp: %v", err)
	}
}

func TestOpenAIToolCountWarning(t *testing.T) {
	var tools []*spec.Tool
	for i := range 130 {
		src := `{"name": "t` + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + `_` + string(rune('a'+i/26)) + `", "description": "d", "input_schema": {"type": "object"}}`
		tools = append(tools, spec.ParseFile("t.json", []byte(src)).Tools[0])
	}
	r, err := Build(tools, Options{Format: OpenAI})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range r.Warnings {
		found = found || strings.Contains(w.Message, "at most 128 tools")
	}
	if !found {
		t.Errorf("no 128-tool warning in %v", r.Warnings)
	}
}

func TestAnthropicSetLimitsWarn(t *testing.T) {
	// The bundled tools without the three that cannot be strict pass 24
	// optional parameters together.
	var tools []*spec.Tool
	for _, tool := range loadTools(t, bundledDir) {
		if _, _, err := AnthropicTool(tool, true); err == nil {
			tools = append(tools, tool)
		}
	}
	r, err := Build(tools, Options{Format: Anthropic, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range r.Warnings {
		found = found || strings.Contains(w.Message, "at most 24")
	}
	if !found {
		t.Errorf("no optional-parameter limit warning in %v", r.Warnings)
	}
}

func TestOptionsCheck(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Format: "xml"}, `unknown format "xml"`},
		{Options{Format: MCP, Strict: true}, "--strict applies to openai, openai-responses, anthropic"},
		{Options{Format: OpenAI, Level: 2}, "--level applies to the prompt format"},
		{Options{Format: Prompt, Level: 3}, "--level 3"},
		{Options{Format: MCP, Legacy: true}, "--legacy applies to the gemini format"},
		{Options{Format: Gemini, Envelope: true}, "--envelope applies to the mcp format"},
	} {
		err := tc.opts.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.opts, err, tc.want)
		}
	}
}

func TestFilesPerTool(t *testing.T) {
	tools := loadTools(t, casesDir)
	for _, f := range []Format{OpenAI, YAML, Prompt} {
		r, err := Build(tools, Options{Format: f})
		if err != nil {
			t.Fatal(err)
		}
		files, err := r.Files()
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != len(tools) {
			t.Fatalf("%s: %d files for %d tools", f, len(files), len(tools))
		}
		for _, file := range files {
			if filepath.Base(file.Name) != file.Name || !strings.HasSuffix(file.Name, Options{Format: f}.Ext()) {
				t.Errorf("%s: bad file name %q", f, file.Name)
			}
		}
	}
	if got := FileName("../etc/passwd"); strings.ContainsAny(got, "/\\") || strings.HasPrefix(got, ".") {
		t.Errorf("fileName escapes: %q", got)
	}
}

func TestToolInfoSections(t *testing.T) {
	tools := loadTools(t, filepath.Join(casesDir, "openakita_full.json"))
	info := ToolInfo(tools[0])
	for _, want := range []string{"# browser_navigate", "## When to use", "## Parameters", "- url (string, required)", "## Examples", "## Warnings", "## Prerequisites", "(check with browser_status; if not met: Call browser_open first)", "## Related tools", "## Workflow: Web Automation Flow", "4. Interact with page → browser_click, browser_type"} {
		if !strings.Contains(info, want) {
			t.Errorf("ToolInfo lacks %q:\n%s", want, info)
		}
	}
}
