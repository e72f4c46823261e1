package breaking

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/format"
	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/spec"
)

// corpusDir is the shared corpus of real tool files, beside the repository.
const corpusDir = "../../../shared/corpora"

// sampleFiles are the bundled tool files and, when present, every corpus
// file that loads as tool files without errors.
func sampleFiles(t *testing.T) []*spec.File {
	t.Helper()
	paths := []string{"../../tools"}
	if _, err := os.Stat(corpusDir); err == nil {
		paths = append(paths, corpusDir)
	} else {
		t.Log("../shared/corpora is not present: bundled tools only")
	}
	files, err := spec.Collect(paths)
	if err != nil {
		t.Fatal(err)
	}
	var out []*spec.File
	for _, f := range spec.LoadFiles(files).Files {
		if len(f.Errors) == 0 && len(f.Tools) > 0 && f.NotTool == "" {
			out = append(out, f)
		}
	}
	return out
}

func fromFile(f *spec.File) []*Tool {
	var out []*Tool
	for _, t := range f.Tools {
		out = append(out, FromSpec(t))
	}
	return out
}

// TestDialectNoChange: fmt, and fmt --to feagent / --to schema, of every
// bundled and corpus tool mean the same tools: Compare finds nothing at
// all (no call, result, behaviour or prompt change).
func TestDialectNoChange(t *testing.T) {
	files := sampleFiles(t)
	counts := map[format.Target]int{}
	for _, f := range files {
		data := f.Source()
		for _, to := range []format.Target{format.Keep, format.Feagent, format.Schema} {
			out, err := format.Source(f.Path, data, format.Options{To: to})
			if err != nil {
				var list format.Errors
				if to != format.Keep && (errors.As(err, &list) || strings.Contains(err.Error(), "cannot convert")) {
					continue // a conversion fmt refuses (it would lose something)
				}
				t.Errorf("%s: fmt --to %q: %v", f.Path, to, err)
				continue
			}
			g := spec.ParseFile(f.Path, out)
			if len(g.Errors) > 0 {
				t.Errorf("%s: fmt --to %q gives a file with errors: %v", f.Path, to, g.Errors[0])
				continue
			}
			counts[to]++
			for _, d := range Compare(fromFile(f), fromFile(g), Options{}) {
				t.Errorf("%s: fmt --to %q: %s", f.Path, to, d.String())
			}
			for i := range min(len(f.Tools), len(g.Tools)) {
				if a, b := string(CanonicalJSON(f.Tools[i])), string(CanonicalJSON(g.Tools[i])); a != b {
					t.Errorf("%s: fmt --to %q changes the canonical JSON:\n%s\n%s", f.Path, to, a, b)
				}
			}
		}
	}
	t.Logf("%d files; compared after fmt: %d, --to feagent: %d, --to schema: %d", len(files), counts[format.Keep], counts[format.Feagent], counts[format.Schema])
}

// TestCanonicalYAMLNoChange: export --format yaml (toolctl show's
// canonical YAML, itself a tool file) of every bundled and corpus tool
// means the same tool: no finding of any kind.
func TestCanonicalYAMLNoChange(t *testing.T) {
	n := 0
	for _, f := range sampleFiles(t) {
		for _, st := range f.Tools {
			doc, _, err := export.Export([]*spec.Tool{st}, export.Options{Format: export.YAML})
			if err != nil {
				continue // a tool the canonical form refuses
			}
			g := spec.ParseFile(st.Name+".yaml", doc)
			if len(g.Errors) > 0 || len(g.Tools) != 1 {
				t.Errorf("%s: tool %s: export --format yaml does not load back: %v", f.Path, st.Name, g.Errors)
				continue
			}
			n++
			for _, d := range Compare([]*Tool{FromSpec(st)}, []*Tool{FromSpec(g.Tools[0])}, Options{Additions: true}) {
				t.Errorf("%s: export --format yaml: %s", f.Path, d.String())
			}
			// what toolctl lock will pin: the same bytes
			if a, b := string(CanonicalJSON(st)), string(CanonicalJSON(g.Tools[0])); a != b {
				t.Errorf("%s: tool %s: export --format yaml changes the canonical JSON:\n%s\n%s", f.Path, st.Name, a, b)
			}
		}
	}
	t.Logf("%d tools compared with their canonical YAML", n)
}

// TestExportImportNoCallChange: every provider format export writes,
// imported back, takes the same calls and returns the same results: no
// call or result finding.
func TestExportImportNoCallChange(t *testing.T) {
	files := sampleFiles(t)
	for _, fmtName := range []export.Format{export.OpenAI, export.OpenAIResponses, export.Anthropic, export.Gemini, export.MCP} {
		n := 0
		for _, f := range files {
			doc, _, err := export.Export(f.Tools, export.Options{Format: fmtName})
			if err != nil {
				continue // a tool the format refuses (a name it cannot take, ...)
			}
			res, err := importer.Import(doc, importer.Options{Name: f.Path})
			if err != nil {
				t.Errorf("%s: export --format %s does not import back: %v", f.Path, fmtName, err)
				continue
			}
			old := fromFile(f)
			if len(res.Tools) != len(old) {
				t.Errorf("%s: export --format %s, imported back: %d tools, want %d", f.Path, fmtName, len(res.Tools), len(old))
				continue
			}
			var got []*Tool
			for i, it := range res.Tools {
				nt := FromSpec(it.Tool)
				nt.Name = old[i].Name // a name the format mapped (math.factorial → math_factorial)
				got = append(got, nt)
			}
			n++
			for _, d := range Compare(old, got, Options{}) {
				r := byID[d.Rule]
				// MCP carries output schemas (those of type object: export
				// drops the others and says so); the others carry none.
				if r.Category == CatCall || (r.Category == CatResult && fmtName == export.MCP && d.Pointer != "/output_schema") {
					t.Errorf("%s: export --format %s, imported back: %s", f.Path, fmtName, d.String())
				}
			}
		}
		t.Logf("--format %s: %d files exported and imported back", fmtName, n)
	}
}

// reversed is v with the keys of every map in reverse order, the required
// lists reversed too.
func reversed(v any, key string) any {
	switch x := v.(type) {
	case *spec.Map:
		keys := x.Keys()
		out := spec.NewMap(len(keys))
		for i := len(keys) - 1; i >= 0; i-- {
			val, _ := x.Get(keys[i])
			out.Set(keys[i], reversed(val, keys[i]))
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = reversed(e, "")
		}
		if key == "required" {
			slices.Reverse(out)
		}
		return out
	}
	return v
}

// TestKeyOrderNoChange: the schemas of every bundled and corpus tool with
// every key order reversed mean the same: no finding, the same canonical
// JSON.
func TestKeyOrderNoChange(t *testing.T) {
	for _, f := range sampleFiles(t) {
		for _, st := range f.Tools {
			old := FromSpec(st)
			nw := *old
			nw.Input = Normalise(reversed(st.Input(), "").(*spec.Map), "/input_schema")
			if st.OutputSchema != nil {
				nw.Output = Normalise(reversed(st.OutputSchema, "").(*spec.Map), "/output_schema")
			}
			for _, d := range Compare([]*Tool{old}, []*Tool{&nw}, Options{Additions: true}) {
				t.Errorf("%s: keys reversed: %s", f.Path, d.String())
			}
			if a, b := string(old.JSON()), string(nw.JSON()); a != b {
				t.Errorf("%s: tool %s: keys reversed, the canonical JSON differs:\n%s\n%s", f.Path, st.Name, a, b)
			}
		}
	}
}
