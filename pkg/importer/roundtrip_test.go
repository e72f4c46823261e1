package importer_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/spec"
)

// corpusDir is the shared corpus of real tool definitions, beside the
// repository.
const corpusDir = "../../../shared/corpora"

// The intentional differences between a source tool and its export after
// the round trip, each with its reason. Every tool that is not JSON-equal
// must be explained by these (after the documented name mapping and, for
// Docker's compact form and BFCL, the documented conversions).
const (
	diffNoInputSchema    = "no inputSchema in the source (name and description only): MCP requires one, so export writes {type: object, properties: {}}"
	diffNullField        = "a field set to null in the source (description, annotations) means none: export leaves it out"
	diffEmptyDescription = "description \"\" in the source: an empty description is no description, export leaves it out"
	diffEmptyAnnotations = "annotations: {} in the source: no hints, export leaves the field out"
	diffNullHint         = "an annotation set to null in the source is unset: export leaves it out"
	diffBFCLOptional     = "BFCL's optional marker: requiredness is carried by required (the marker is dropped, the property taken out of required)"
)

// roundTrip counts one corpus.
type roundTrip struct {
	imported, mapped, equal int
	// sameBytes counts input schemas exported byte for byte as in the
	// source: key order and number spelling kept too.
	sameBytes int
	diffs     map[string]int
}

func (rt *roundTrip) log(t *testing.T, corpus string) {
	t.Helper()
	t.Logf("%s: imported %d, names mapped %d, round-trip equal %d (with only the name mapping %d, with listed differences %d), input schema byte-identical (key order kept) %d",
		corpus, rt.imported, rt.mapped, rt.imported, rt.equal, rt.imported-rt.equal, rt.sameBytes)
	reasons := make([]string, 0, len(rt.diffs))
	for r := range rt.diffs {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		t.Logf("  %4d  %s", rt.diffs[r], r)
	}
}

func skipWithoutCorpora(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
}

// TestRoundTripMCP: every tool of the Docker MCP registry and LiveMCPBench
// corpora, imported as MCP and exported with --format mcp, is the source
// tool again.
func TestRoundTripMCP(t *testing.T) {
	skipWithoutCorpora(t)
	t.Run("docker-mcp-registry", func(t *testing.T) {
		rt := &roundTrip{diffs: map[string]int{}}
		files, _ := filepath.Glob(filepath.Join(corpusDir, "docker-mcp-registry", "servers", "*", "tools.json"))
		if len(files) == 0 {
			t.Fatal("no tools.json files")
		}
		t.Logf("read %d files", len(files))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			src, _ := spec.DecodeJSON(data)
			mcpRoundTrip(t, rt, f, src.([]any), data)
		}
		rt.log(t, "docker-mcp-registry")
		if rt.imported != 755 {
			t.Errorf("imported %d tools, want the corpus's 755", rt.imported)
		}
	})
	t.Run("livemcpbench", func(t *testing.T) {
		rt := &roundTrip{diffs: map[string]int{}}
		data, err := os.ReadFile(filepath.Join(corpusDir, "livemcpbench", "tools.json"))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := spec.DecodeJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		// 70 server records {name, ..., tools: {server: {tools: [...]}}}:
		// each inner list is a captured tools/list result.
		for _, rec := range doc.([]any) {
			servers, _ := rec.(*spec.Map).GetMap("tools")
			for i := 0; i < servers.Len(); i++ {
				name, v := servers.At(i)
				list, _ := v.(*spec.Map).Get("tools")
				raw, err := json.Marshal(list)
				if err != nil {
					t.Fatal(err)
				}
				mcpRoundTrip(t, rt, "livemcpbench/"+name, list.([]any), raw)
			}
		}
		rt.log(t, "livemcpbench")
		if rt.imported != 527 {
			t.Errorf("imported %d tools, want the corpus's 527", rt.imported)
		}
	})
}

// mcpRoundTrip imports one tools list, exports it as MCP and compares
// every exported tool with its source.
func mcpRoundTrip(t *testing.T, rt *roundTrip, file string, source []any, data []byte) {
	t.Helper()
	res, err := importer.Import(data, importer.Options{From: importer.MCP, Name: file})
	if err != nil {
		t.Errorf("%s: %v", file, err)
		return
	}
	tools := make([]*spec.Tool, len(res.Tools))
	for i, it := range res.Tools {
		tools[i] = it.Tool
	}
	r, err := export.Build(tools, export.Options{Format: export.MCP})
	if err != nil {
		t.Errorf("%s: export: %v", file, err)
		return
	}
	if len(r.Items) != len(source) || len(res.Tools) != len(source) {
		t.Errorf("%s: %d source tools, %d imported, %d exported", file, len(source), len(res.Tools), len(r.Items))
		return
	}
	for i, item := range r.Items {
		rt.imported++
		src := source[i].(*spec.Map)
		srcName, _ := src.GetString("name")
		if res.Tools[i].Tool.Name != srcName {
			rt.mapped++
		}
		want, reasons := expectedMCP(src)
		got := item.Value.(*spec.Map)
		if !jsonEqual(got, want) {
			t.Errorf("%s: tool %q does not round-trip:\n got  %s\n want %s", file, srcName, jsonOf(got), jsonOf(want))
			continue
		}
		if len(reasons) == 0 {
			rt.equal++
		}
		for _, r := range reasons {
			rt.diffs[r]++
		}
		if gi, _ := got.Get("inputSchema"); jsonOf(gi) == jsonOf(mustGet(want, "inputSchema")) {
			rt.sameBytes++
		}
	}
}

func mustGet(m *spec.Map, key string) any {
	v, _ := m.Get(key)
	return v
}

// expectedMCP is what export --format mcp should give for a source tool:
// the tool itself with the documented name mapping, Docker's compact
// arguments converted to an inputSchema, and the listed differences
// applied (returned as reasons).
func expectedMCP(src *spec.Map) (*spec.Map, []string) {
	want := src.Clone()
	var reasons []string
	name, _ := want.GetString("name")
	want.Set("name", importer.ToolName(name))
	if args, ok := want.Get("arguments"); ok {
		// Documented conversion (mcp.go, dockerArguments): each argument is
		// a property, desc → description, required unless optional: true.
		props := spec.NewMap(0)
		var required []any
		for _, a := range args.([]any) {
			am := a.(*spec.Map)
			n, _ := am.GetString("name")
			p := spec.NewMap(0)
			optional := false
			for j := 0; j < am.Len(); j++ {
				k, v := am.At(j)
				switch k {
				case "name":
				case "optional":
					optional = v == true
				case "required":
					optional = optional || v == false
				case "desc":
					p.Set("description", v)
				default:
					p.Set(k, v)
				}
			}
			props.Set(n, p)
			if !optional {
				required = append(required, n)
			}
		}
		s := spec.NewMap(3)
		s.Set("type", "object")
		s.Set("properties", props)
		if len(required) > 0 {
			s.Set("required", required)
		}
		want.Delete("arguments")
		want.Set("inputSchema", s)
	}
	if !want.Has("inputSchema") {
		s := spec.NewMap(2)
		s.Set("type", "object")
		s.Set("properties", spec.NewMap(0))
		want.Set("inputSchema", s)
		reasons = append(reasons, diffNoInputSchema)
	}
	if d, ok := want.Get("description"); ok && d == "" {
		want.Delete("description")
		reasons = append(reasons, diffEmptyDescription)
	}
	for _, k := range want.Keys() {
		if v, _ := want.Get(k); v == nil {
			want.Delete(k)
			reasons = append(reasons, diffNullField)
		}
	}
	if a, ok := want.Get("annotations"); ok {
		switch a := a.(type) {
		case *spec.Map:
			for _, k := range a.Keys() {
				if v, _ := a.Get(k); v == nil {
					a.Delete(k)
					reasons = append(reasons, diffNullHint)
				}
			}
			if a.Len() == 0 {
				want.Delete("annotations")
				reasons = append(reasons, diffEmptyAnnotations)
			}
		}
	}
	return want, reasons
}

// TestRoundTripBFCL: every BFCL function doc, imported and exported as an
// OpenAI function, has the source's parameters after BFCL's documented
// type mapping (bfcl.go), and its response as the MCP output schema. BFCL
// has no export format of its own.
func TestRoundTripBFCL(t *testing.T) {
	skipWithoutCorpora(t)
	rt := &roundTrip{diffs: map[string]int{}}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "bfcl", "*", "*"))
	for _, f := range files {
		if filepath.Ext(f) != ".json" && filepath.Ext(f) != ".jsonl" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// One doc per line; the same name comes back with other
		// parameters in other questions, so each line is its own import.
		for n, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			src, err := spec.DecodeJSON(line)
			if err != nil {
				t.Fatalf("%s:%d: %v", f, n+1, err)
			}
			bfclRoundTrip(t, rt, f, n+1, src.(*spec.Map), line)
		}
	}
	rt.log(t, "bfcl")
	if rt.imported != 866 {
		t.Errorf("imported %d docs, want the sample's 866", rt.imported)
	}
}

func bfclRoundTrip(t *testing.T, rt *roundTrip, file string, line int, src *spec.Map, data []byte) {
	t.Helper()
	res, err := importer.Import(data, importer.Options{From: importer.BFCL, Name: file})
	if err != nil {
		t.Errorf("%s:%d: %v", file, line, err)
		return
	}
	tool := res.Tools[0].Tool
	rt.imported++
	srcName, _ := src.GetString("name")
	if tool.Name != srcName {
		rt.mapped++
	}
	fn, _, err := export.OpenAITool(tool, false)
	if err != nil {
		t.Errorf("%s:%d: export: %v", file, line, err)
		return
	}
	got, _ := fn.GetMap("function")
	var reasons []string
	params, _ := src.GetMap("parameters")
	wantParams := bfclExpected(params.Clone(), &reasons)
	want := spec.NewMap(4)
	want.Set("name", importer.ToolName(srcName))
	if d, _ := src.GetString("description"); d != "" {
		want.Set("description", d)
	}
	want.Set("parameters", wantParams)
	want.Set("strict", false)
	ok := jsonEqual(got, want)
	if resp, has := src.GetMap("response"); has {
		m, _ := export.MCPTool(tool)
		wantOut := bfclExpected(resp.Clone(), &reasons)
		if out, _ := m.GetMap("outputSchema"); !jsonEqual(out, wantOut) {
			t.Errorf("%s:%d: %q response does not round-trip:\n got  %s\n want %s", file, line, srcName, jsonOf(out), jsonOf(wantOut))
			ok = false
		}
	}
	if !ok {
		t.Errorf("%s:%d: %q does not round-trip:\n got  %s\n want %s", file, line, srcName, jsonOf(got), jsonOf(want))
		return
	}
	if len(reasons) == 0 {
		rt.equal++
	}
	if jsonOf(mustGet(got, "parameters")) == jsonOf(wantParams) {
		rt.sameBytes++
	}
	seen := map[string]bool{}
	for _, r := range reasons {
		if !seen[r] {
			seen[r] = true
			rt.diffs[r]++
		}
	}
}

// bfclTypeMap is BFCL's documented type mapping, restated here so the test
// does not check the importer against itself; "" is no type.
var bfclTypeMap = map[string]string{
	"dict": "object", "HashMap": "object",
	"float": "number", "double": "number",
	"integer": "integer", "long": "integer",
	"string": "string", "String": "string", "char": "string",
	"boolean": "boolean", "Boolean": "boolean",
	"array": "array", "Array": "array", "ArrayList": "array", "tuple": "array",
	"any": "", "": "",
}

// bfclExpected applies the documented conversion to a BFCL schema: type
// names mapped, the optional marker turned into required.
func bfclExpected(s *spec.Map, reasons *[]string) *spec.Map {
	if t, ok := s.GetString("type"); ok {
		jt, known := bfclTypeMap[t]
		switch {
		case !known:
			panic("the corpus has a BFCL type the test does not know: " + t)
		case jt == "":
			s.Delete("type")
		default:
			s.Set("type", jt)
		}
	}
	optional := map[string]bool{}
	if o, ok := s.Get("optional"); ok {
		if list, ok := o.([]any); ok {
			for _, n := range list {
				optional[n.(string)] = true
			}
		}
		s.Delete("optional")
		*reasons = append(*reasons, diffBFCLOptional)
	}
	if props, ok := s.GetMap("properties"); ok {
		for i := 0; i < props.Len(); i++ {
			k, v := props.At(i)
			if pm, ok := v.(*spec.Map); ok {
				if pm.Has("optional") {
					if o, _ := pm.Get("optional"); o == true {
						optional[k] = true
					}
					pm.Delete("optional")
					*reasons = append(*reasons, diffBFCLOptional)
				}
				props.Set(k, bfclExpected(pm, reasons))
			}
		}
	}
	if items, ok := s.GetMap("items"); ok {
		s.Set("items", bfclExpected(items, reasons))
	}
	if len(optional) > 0 {
		if req, ok := s.Get("required"); ok {
			kept := []any{}
			for _, n := range req.([]any) {
				if !optional[n.(string)] {
					kept = append(kept, n)
				}
			}
			s.Set("required", kept)
		}
	}
	return s
}

func jsonEqual(a, b *spec.Map) bool {
	return reflect.DeepEqual(spec.Plain(a), spec.Plain(b))
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return strings.TrimSpace(string(b))
}

// TestRoundTripGeminiLegacy: a schema exported with --format gemini
// --legacy and imported back exports the same again: nullable unions keep
// null, and propertyOrdering is the properties' order, not a keyword.
func TestRoundTripGeminiLegacy(t *testing.T) {
	f := spec.ParseFile("t.yaml", []byte(`name: pick
description: Picks things from a list. Use when a choice is needed.
input_schema:
  type: object
  properties:
    zeta:
      type: string
      description: Last letter.
    tags:
      anyOf:
        - type: string
        - type: array
          items: {type: string}
        - type: "null"
      description: One tag or several.
    note:
      description: A note, or null.
      anyOf: [{type: string}, {type: "null"}]
    alpha:
      type: object
      properties:
        m: {type: string}
        b: {type: integer}
  required: [zeta]
`))
	if len(f.Errors) > 0 {
		t.Fatal(f.Errors)
	}
	opts := export.Options{Format: export.Gemini, Legacy: true}
	first, _, err := export.Export(f.Tools, opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := importer.Import(first, importer.Options{From: importer.Gemini, Name: "gemini.json"})
	if err != nil {
		t.Fatal(err)
	}
	tags, _ := res.Tools[0].Tool.Input().GetMap("properties")
	if v, _ := tags.GetMap("tags"); !strings.Contains(string(mustJSON(t, v)), `"type": "null"`) {
		t.Errorf("the imported tags no longer accept null: %s", mustJSON(t, v))
	}
	second, _, err := export.Export([]*spec.Tool{res.Tools[0].Tool}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Errorf("export → import → export changed the document:\nfirst:\n%s\nsecond:\n%s", first, second)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := spec.MarshalJSONIndent(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
