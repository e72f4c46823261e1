package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolctl/toolctl/pkg/report"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// fixtureTools returns every tool (and every list item that is not one) of
// the rule fixtures and the bundled tools as JSON values: one of each
// rule's findings at least.
func fixtureTools(t *testing.T) []any {
	t.Helper()
	var paths []string
	for _, glob := range []string{"../../testdata/lint/err/*.yaml", "../../testdata/lint/ok/*.yaml", "../../tools/*.yaml"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	var out []any
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var v any
			if err := dec.Decode(&v); err != nil {
				if !errors.Is(err, io.EOF) {
					t.Logf("%s: %v (skipped)", p, err)
				}
				break
			}
			if m, ok := v.(map[string]any); ok {
				if list, ok := m["tools"].([]any); ok && m["name"] == nil {
					v = list
				}
			}
			items, ok := v.([]any)
			if !ok {
				items = []any{v}
			}
			for _, it := range items {
				if _, err := json.Marshal(it); err == nil { // not a YAML-only key
					out = append(out, it)
				}
			}
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d fixture tools", len(out))
	}
	return out
}

// bigList is copies of tools, renamed in most copies so that references
// dangle (with a did-you-mean) and names repeat, with elements that are
// no tool, OpenAI-wrapped tools and descriptions with line separators.
func bigList(tools []any, copies int) []any {
	var out []any
	for c := range copies {
		for i, tool := range tools {
			m, ok := tool.(map[string]any)
			if !ok {
				out = append(out, tool)
				continue
			}
			cp := make(map[string]any, len(m))
			for k, v := range m {
				cp[k] = v
			}
			if name, ok := cp["name"].(string); ok && c%3 != 0 {
				cp["name"] = fmt.Sprintf("%s_%d", name, c)
			}
			switch (c*len(tools) + i) % 97 {
			case 5:
				cp["description"] = "Reads the line\u2028separated and\u0085next-line text, 😀 and 漢字. Use when asked."
			case 11:
				out = append(out, map[string]any{"type": "function", "function": cp})
				continue
			case 23:
				out = append(out, 42, map[string]any{"description": "no name here"})
			}
			out = append(out, cp)
		}
	}
	return out
}

// encodings writes list as JSON text in several layouts.
func encodings(t *testing.T, list any) map[string][]byte {
	t.Helper()
	var compact, indent, tabs bytes.Buffer
	for _, e := range []struct {
		buf    *bytes.Buffer
		indent string
	}{{&compact, ""}, {&indent, "  "}, {&tabs, "\t"}} {
		enc := json.NewEncoder(e.buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", e.indent)
		if err := enc.Encode(list); err != nil {
			t.Fatal(err)
		}
	}
	// encoding/json escapes U+2028; write it as is, as JSON allows.
	raw := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(`\u2028`), []byte("\u2028")) }
	return map[string][]byte{
		"compact.json": raw(compact.Bytes()),
		"indent.json":  raw(indent.Bytes()),
		"tabs.json":    tabs.Bytes(),
		"crlf.json":    bytes.ReplaceAll(indent.Bytes(), []byte("\n"), []byte("\r\n")),
		"bom.json":     append([]byte("\xef\xbb\xbf"), compact.Bytes()...),
	}
}

// reports renders findings in every report format.
func reports(t *testing.T, set *spec.Set, fs []Finding) map[string]string {
	t.Helper()
	byPath := map[string]*spec.File{}
	var names []string
	for _, f := range set.Files {
		byPath[f.Path] = f
		names = append(names, f.Path)
	}
	var rules []report.Rule
	for _, r := range Rules() {
		rules = append(rules, report.Rule{ID: r.ID, Description: r.Description, Explain: r.Explain, Severity: r.Severity})
	}
	out := map[string]string{}
	for _, format := range report.Formats {
		var b bytes.Buffer
		opt := report.Options{Source: func(p string) *spec.File { return byPath[p] }, Root: "/", Version: "test", Rules: rules}
		if err := report.Write(&b, format, fs, report.Summary{Files: names}, opt); err != nil {
			t.Fatal(err)
		}
		out[format] = b.String()
	}
	return out
}

// compareStreaming lints files as one set with streaming off and forced on
// (every JSON list, whatever its size) under several configurations, and
// fails unless the findings and every report are the same. It returns how
// many files were streamed with the default configuration.
func compareStreaming(t *testing.T, files []string) int {
	t.Helper()
	configs := map[string]Config{
		"default": {},
		"feagent": {Profile: ProfileFeagent},
		// anthropic-strict-limits reads the tools' bodies (SetReadsBody).
		"targets": {Targets: Targets},
	}
	streamed := 0
	for name, cfg := range configs {
		offSet, off := runFiles(files, cfg, 0)
		var n atomic.Int32
		cfg.Streaming = func(int) { n.Add(1) }
		onSet, on := runFiles(files, cfg, 1)
		if name == "default" {
			streamed = int(n.Load())
		}
		if !reflect.DeepEqual(off, on) {
			t.Errorf("%s: %d findings streaming, %d not; first difference:\n%s", name, len(on), len(off), firstDiff(off, on))
			continue
		}
		offR, onR := reports(t, offSet, off), reports(t, onSet, on)
		for _, format := range report.Formats {
			if offR[format] != onR[format] {
				t.Errorf("%s: the %s report differs when streaming", name, format)
			}
		}
		t.Logf("%s: %d files (%d streamed), %d findings, the same either way", name, len(files), n.Load(), len(on))
	}
	return streamed
}

func firstDiff(a, b []Finding) string {
	for i := range min(len(a), len(b)) {
		if !reflect.DeepEqual(a[i], b[i]) {
			return fmt.Sprintf("off: %+v\non:  %+v", a[i], b[i])
		}
	}
	if len(a) > len(b) {
		return fmt.Sprintf("off only: %+v", a[len(b)])
	}
	if len(b) > len(a) {
		return fmt.Sprintf("on only: %+v", b[len(a)])
	}
	return "none"
}

// TestStreamingSameFindings: a JSON list read one tool at a time gives
// exactly the findings and reports of the list parsed whole, in every
// layout (compact, indented, tabs, CRLF, BOM, raw line separators in
// strings), with set rules across files, a list of one tool
// (name-matches-file), and lists that are not valid to the end (which
// must not be streamed).
func TestStreamingSameFindings(t *testing.T) {
	tools := fixtureTools(t)
	dir := t.TempDir()
	var files []string
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	list := bigList(tools, 4)
	for name, data := range encodings(t, list) {
		write(name, data)
	}
	one, _ := json.Marshal([]any{tools[0]})
	write("one.json", one)
	two, _ := json.Marshal([]any{42, tools[0]})
	write("two.json", two)
	compact, _ := json.Marshal(list)
	// Each a copy: an append to compact[:n] would write over compact.
	edit := func(n int, tail string) []byte { return append(append([]byte{}, compact[:n]...), tail...) }
	write("trailing_comma.json", edit(len(compact)-1, ",]"))
	write("surrogate.json", edit(len(compact)-1, `,{"name":"x","description":"\ud800"}]`))
	write("second_value.json", edit(len(compact), " []"))
	// Containers: their "tools" list is streamed, with other keys (and
	// collections) before and after it, unless the mapping is a tool.
	write("object.json", []byte(`{"tools": `+string(compact)+`}`))
	indented := encodings(t, map[string]any{"version": 1, "meta": map[string]any{"a": []any{1, map[string]any{"b": "c"}}}, "tools": list, "x_after": []any{map[string]any{"y": 1}}})["indent.json"]
	write("container_keys.json", indented)
	write("container_name.json", []byte(`{"tools": `+string(compact)+`, "name": "a_tool", "description": "Looks like a container and is a tool."}`))
	write("container_two_lists.json", []byte(`{"tools": `+string(compact)+`, "tools": `+string(one)+`}`))
	streamed := compareStreaming(t, files)
	// The valid lists: five layouts, one.json, two.json and the two
	// containers.
	if streamed != 9 {
		t.Errorf("%d files streamed, want 9", streamed)
	}
}

// TestStreamingSameFindingsCorpora: every corpus .json file that is a list
// gives the same findings read one tool at a time.
func TestStreamingSameFindingsCorpora(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	dir := t.TempDir()
	var files []string
	err := filepath.WalkDir(corpusDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if b := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n"); len(b) > 0 && b[0] == '[' {
			files = append(files, p)
			// The same list as the "tools" of a container.
			q := filepath.Join(dir, fmt.Sprintf("container%d.json", len(files)))
			files = append(files, q)
			return os.WriteFile(q, append(append([]byte(`{"version": 1, "tools": `), b...), '}'), 0o644)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no corpus file is a JSON list")
	}
	if n := compareStreaming(t, files); n == 0 {
		t.Error("no corpus file was streamed")
	}
}

// TestStreamingLargeList: RunFiles streams a list over streamMin by itself.
func TestStreamingLargeList(t *testing.T) {
	list := bigList(fixtureTools(t), 1)
	for len(list) < 4000 {
		list = append(list, bigList(fixtureTools(t), 1)...)
	}
	data, _ := json.Marshal(list)
	if len(data) < streamMin {
		t.Fatalf("the list is %d bytes, less than streamMin", len(data))
	}
	p := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	_, on := RunFiles([]string{p}, Config{Streaming: func(n int) { sizes = append(sizes, n) }})
	_, off := runFiles([]string{p}, Config{}, 0)
	if len(sizes) != 1 || sizes[0] != len(data) {
		t.Errorf("Streaming called with %v, want [%d]", sizes, len(data))
	}
	if !reflect.DeepEqual(on, off) {
		t.Errorf("%d findings streaming, %d not:\n%s", len(on), len(off), firstDiff(off, on))
	}
}

// yamlEncodings writes list as YAML text in several layouts: a block
// sequence at the root, as yaml.v3 writes it (2 and 4 spaces), with CRLF
// line breaks, after a "---" and comments.
func yamlEncodings(t *testing.T, list any) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, indent := range []int{2, 4} {
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(indent)
		if err := enc.Encode(list); err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("indent%d.yaml", indent)] = b.Bytes()
	}
	two := out["indent2.yaml"]
	out["crlf.yaml"] = bytes.ReplaceAll(two, []byte("\n"), []byte("\r\n"))
	out["comments.yml"] = append([]byte("# tools\n---\n# the first\n"), bytes.ReplaceAll(two, []byte("\n- "), []byte("\n\n# next\n- "))...)
	return out
}

// fixtureYAMLPaths are the rule fixtures and bundled tools in YAML.
func fixtureYAMLPaths() []string {
	var paths []string
	for _, glob := range []string{"../../testdata/lint/err/*.yaml", "../../testdata/lint/ok/*.yaml", "../../tools/*.yaml"} {
		m, _ := filepath.Glob(glob)
		paths = append(paths, m...)
	}
	return paths
}

// fixtureYAMLList is the text of the rule fixtures and bundled tools that
// are one tool at the root, each indented as an element of one block
// sequence: their YAML as written (block scalars, quoting, comments, flow
// collections), at new positions.
func fixtureYAMLList(t *testing.T) []byte {
	t.Helper()
	text, n := yamlListText(t, fixtureYAMLPaths())
	if n < 50 {
		t.Fatalf("only %d fixture files are one tool", n)
	}
	return text
}

// fixtureYAMLDocs is the text of the rule fixtures and bundled tools that
// are one tool at the root, as written, each a document of one stream.
func fixtureYAMLDocs(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	n := 0
	for _, p := range fixtureYAMLPaths() {
		data, ok := oneTool(t, p)
		if !ok {
			continue
		}
		b.WriteString("---\n")
		b.Write(data)
		if !bytes.HasSuffix(data, []byte("\n")) {
			b.WriteByte('\n')
		}
		n++
	}
	if n < 50 {
		t.Fatalf("only %d fixture files are one tool", n)
	}
	return b.Bytes()
}

// oneTool reads the file p and reports whether it is one tool at the
// root, in one document, that a list or a stream of documents can hold
// as written.
func oneTool(t *testing.T, p string) ([]byte, bool) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	ok := yaml.Unmarshal(data, &doc) == nil && len(doc.Content) > 0 && doc.Content[0].Kind == yaml.MappingNode &&
		!bytes.Contains(data, []byte("\n---")) && !bytes.HasPrefix(data, []byte("---")) && spec.ContainerTools(doc.Content[0]) == nil &&
		// A BOM inside the text (security-invisible-unicode's fixture)
		// sends the whole file to yaml.v3, as tab.yaml checks; leave it
		// out so the rest streams.
		!bytes.Contains(data, []byte("\uFEFF"))
	return data, ok
}

// yamlListText is the text of the files of paths that are one tool at the
// root, each indented as an element of one block sequence, and their
// number.
func yamlListText(t *testing.T, paths []string) ([]byte, int) {
	t.Helper()
	var b bytes.Buffer
	n := 0
	for _, p := range paths {
		data, ok := oneTool(t, p)
		if !ok {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		for len(lines) > 0 && (strings.HasPrefix(lines[0], "#") || strings.TrimSpace(lines[0]) == "") {
			lines = lines[1:]
		}
		for i, l := range lines {
			switch {
			case i == 0:
				b.WriteString("- " + l)
			case l != "":
				b.WriteString("  " + l)
			}
			b.WriteByte('\n')
		}
		n++
	}
	return b.Bytes(), n
}

// TestStreamingSameFindingsYAML: a YAML list (a block sequence at the
// root) read one tool at a time gives exactly the findings and reports of
// the list parsed whole, in every layout, and one that is not valid to the
// end, or that the fast YAML parser does not take, is not streamed.
func TestStreamingSameFindingsYAML(t *testing.T) {
	tools := fixtureTools(t)
	dir := t.TempDir()
	var files []string
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	list := bigList(tools, 4)
	for name, data := range yamlEncodings(t, list) {
		write(name, data)
	}
	text := fixtureYAMLList(t)
	write("fixtures.yaml", text)
	one, _ := yaml.Marshal([]any{tools[0]})
	write("one.yaml", one)
	two, _ := yaml.Marshal([]any{42, tools[0]})
	write("two.yaml", two)
	// Containers: the list under "tools" (indentless or indented), with
	// other keys before and after it.
	write("container.yaml", append([]byte("tools:\n"), text...))
	indented := "version: 1\nmeta:\n  a: [1, {b: c}]\n  d:\n  - e\ntools:\n  " + strings.ReplaceAll(strings.TrimRight(string(text), "\n"), "\n", "\n  ") + "\nx_after:\n- y: 1\n"
	write("container_keys.yaml", []byte(strings.ReplaceAll(indented, "\n  \n", "\n\n")))
	// Several documents: the fixtures' own text, one tool a document, and
	// documents that are lists and containers.
	write("documents.yaml", fixtureYAMLDocs(t))
	write("documents_lists.yaml", append(append(append([]byte("---\n"), text...), "---\ntools:\n"...), text...))
	write("second_doc.yaml", append(append([]byte{}, text...), "---\n- name: x\n"...))
	// Not streamed: a tab, a key after the list, a flow list, a container
	// that is a tool (name) or a flow one.
	write("tab.yaml", append(append([]byte{}, text...), "- name:\tx\n"...))
	write("key_after.yaml", append(append([]byte{}, text...), "name: x\n"...))
	flow, _ := json.Marshal(list)
	write("flow.yaml", flow)
	write("container_name.yaml", append(append([]byte("tools:\n"), text...), "name: a_tool\ndescription: Looks like a container and is a tool.\n"...))
	write("container_flow.yaml", []byte(`{"tools": `+string(flow)+`}`))
	streamed := compareStreaming(t, files)
	// indent2, indent4, crlf, comments, fixtures, one, two, the two
	// containers and the three streams of documents.
	if streamed != 12 {
		t.Errorf("%d files streamed, want 12", streamed)
	}
}

// TestStreamingSameFindingsYAMLCorpora: the corpus tools as YAML lists
// give the same findings read one tool at a time: every corpus .json list
// written as a YAML block sequence (by yaml.v3), and the corpus YAML files
// that are one tool, as written, in one list.
func TestStreamingSameFindingsYAMLCorpora(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	dir := t.TempDir()
	var files, yamlFiles []string
	err := filepath.WalkDir(corpusDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".yaml", ".yml":
			yamlFiles = append(yamlFiles, p)
			return nil
		case ".json":
		default:
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var list []any
		if json.Unmarshal(data, &list) != nil || len(list) == 0 {
			return nil
		}
		out, err := yaml.Marshal(list)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(corpusDir, p)
		q := filepath.Join(dir, strings.ReplaceAll(strings.TrimSuffix(rel, filepath.Ext(rel)), string(filepath.Separator), "_")+".yaml")
		files = append(files, q)
		return os.WriteFile(q, out, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	text, n := yamlListText(t, yamlFiles)
	if n > 0 {
		// The list at the root, and as the "tools" of a container.
		for name, data := range map[string][]byte{
			"corpus_yaml_files.yaml":           text,
			"corpus_yaml_files_container.yaml": append([]byte("kind: tools\ntools:\n"), text...),
		} {
			q := filepath.Join(dir, name)
			if err := os.WriteFile(q, data, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, q)
		}
	}
	if len(files) == 0 {
		t.Fatal("no corpus list")
	}
	if s := compareStreaming(t, files); s < len(files)/2 {
		t.Errorf("%d of %d YAML lists streamed", s, len(files))
	}
}
