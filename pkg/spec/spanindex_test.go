package spec

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// spanIndexFiles are the tool files the index is checked on: the bundled
// tools, the repository's fixtures, the corpora when present, and made-up
// files with large parameter lists and mappings (duplicates, items
// without a name, merge keys, aliases).
func spanIndexFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, root := range []string{"../../tools", "../../testdata", "testdata", corpusDir} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".yaml", ".yml", ".json":
				if data, err := os.ReadFile(p); err == nil && len(data) < 4<<20 {
					files[p] = data
				}
			}
			return nil
		})
	}
	var list, docker, props strings.Builder
	list.WriteString("name: big_list\ndescription: A tool with a long list of parameters. Use it to test.\nparameters:\n")
	docker.WriteString("name: big_docker\ndescription: Docker's arguments. Use it to test.\ntype: MCP\narguments:\n")
	props.WriteString("name: big_map\ndescription: A tool with many properties. Use it to test.\nbase: &base\n  type: string\n  description: shared\n")
	props.WriteString("input_schema:\n  type: object\n  properties:\n    <<: {merged_a: {type: integer}, p_0003: {type: boolean}}\n")
	for i := range 300 {
		switch {
		case i%50 == 7:
			fmt.Fprintf(&list, "  - {name: p_%04d, type: string}\n", i-1) // a duplicate
		case i%50 == 9:
			list.WriteString("  - {type: string, description: no name}\n")
		case i%50 == 11:
			list.WriteString("  - just a string\n")
		case i%2 == 0:
			fmt.Fprintf(&list, "  - name: p_%04d\n    type: string\n    description: Parameter %d.\n    required: %t\n", i, i, i%3 == 0)
		default:
			fmt.Fprintf(&list, "  - {name: \"p_%04d\", type: integer, description: 'Parameter %d.'}\n", i, i)
		}
		fmt.Fprintf(&docker, "  - {name: a_%04d, type: string, desc: Argument %d.}\n", i, i)
		if i%40 == 5 {
			fmt.Fprintf(&props, "    p_%04d: *base\n", i)
		} else {
			fmt.Fprintf(&props, "    p_%04d: {type: string, description: Property %d.}\n", i, i)
		}
	}
	props.WriteString("  required: [p_0000, p_0002, p_0299]\n")
	files["big_list.yaml"] = []byte(list.String())
	files["big_docker.yaml"] = []byte(docker.String())
	files["big_map.yaml"] = []byte(props.String())
	return files
}

// pointersOf lists the canonical pointers to ask a tool about: each key
// of its source to depth 4 (canonical for most layouts), each parameter
// and each of its keywords, each required entry, and some that miss.
func pointersOf(tl *Tool) []string {
	ptrs := []string{"", "/name", "/description", "/input_schema", "/input_schema/properties", "/input_schema/required",
		"/input_schema/properties/no_such_parameter", "/input_schema/properties/no_such_parameter/type", "/input_schema/required/99999"}
	var walk func(n *yaml.Node, ptr string, depth int)
	walk = func(n *yaml.Node, ptr string, depth int) {
		n = resolve(n)
		if n == nil || depth > 4 {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := ptr + "/" + escapeToken(n.Content[i].Value)
				ptrs = append(ptrs, p)
				walk(n.Content[i+1], p, depth+1)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				p := ptr + "/" + strconv.Itoa(i)
				ptrs = append(ptrs, p)
				walk(c, p, depth+1)
			}
		}
	}
	walk(tl.root(), "", 0)
	in := tl.Input()
	if props, ok := in.GetMap("properties"); ok {
		for _, name := range props.Keys() {
			p := Pointer("input_schema", "properties", name)
			ptrs = append(ptrs, p)
			if pm, ok := props.GetMap(name); ok {
				for _, k := range pm.Keys() {
					ptrs = append(ptrs, p+"/"+escapeToken(k))
				}
			}
		}
	}
	if req, ok := in.Get("required"); ok {
		if list, ok := req.([]any); ok {
			for i := range list {
				ptrs = append(ptrs, "/input_schema/required/"+strconv.Itoa(i))
			}
		}
	}
	return ptrs
}

// TestSpanIndexSameAnswers: Span, KeySpan, Has and TextPos answer the
// same through the index as by scanning (the index off), for every
// pointer of every tool of the files above.
func TestSpanIndexSameAnswers(t *testing.T) {
	files := spanIndexFiles(t)
	if len(files) < 100 {
		t.Fatalf("only %d files found", len(files))
	}
	type answer struct {
		span, key Span
		has       bool
		text      Pos
	}
	ask := func(tl *Tool, ptr string) answer {
		return answer{tl.Span(ptr), tl.KeySpan(ptr), tl.Has(ptr), tl.TextPos(ptr, 1, 2)}
	}
	defer func() { useSpanIndex = true }()
	indexed, lookups := 0, 0
	for path, data := range files {
		f := ParseFile(path, data)
		for _, tl := range f.Tools {
			for _, ptr := range pointersOf(tl) {
				useSpanIndex = false
				want := ask(tl, ptr)
				useSpanIndex = true
				if got := ask(tl, ptr); got != want {
					t.Errorf("%s: tool %q: %s: indexed %+v, scanned %+v", path, tl.Name, ptr, got, want)
				}
				lookups++
			}
		}
		f.idx.mu.Lock()
		indexed += len(f.idx.keys) + len(f.idx.names)
		f.idx.mu.Unlock()
	}
	// the made-up files take the indexed path
	if indexed < 3 {
		t.Errorf("%d nodes indexed in %d lookups: the index was not used", indexed, lookups)
	}
}

// TestMapIndexSameAnswers drives Maps of every size through random
// writes and checks each read against a plain list of pairs.
func TestMapIndexSameAnswers(t *testing.T) {
	type pair struct {
		k string
		v any
	}
	rng := rand.New(rand.NewSource(1))
	for round := range 40 {
		m := NewMap(0)
		var model []pair
		find := func(k string) int {
			return slices.IndexFunc(model, func(p pair) bool { return p.k == k })
		}
		keys := 5 + rng.Intn(200)
		for step := range 600 {
			k := "k" + strconv.Itoa(rng.Intn(keys))
			switch op := rng.Intn(10); {
			case op < 6:
				m.Set(k, step)
				if i := find(k); i >= 0 {
					model[i].v = step
				} else {
					model = append(model, pair{k, step})
				}
			case op < 8:
				m.Delete(k)
				if i := find(k); i >= 0 {
					model = slices.Delete(model, i, i+1)
				}
			case op < 9:
				m.SetFirst(k, step)
				if i := find(k); i >= 0 {
					model = slices.Delete(model, i, i+1)
				}
				model = slices.Insert(model, 0, pair{k, step})
			default:
				m = m.Clone()
			}
			if m.Len() != len(model) {
				t.Fatalf("round %d step %d: %d members, want %d", round, step, m.Len(), len(model))
			}
			for j := range keys {
				key := "k" + strconv.Itoa(j)
				v, ok := m.Get(key)
				i := find(key)
				if ok != (i >= 0) || (ok && v != model[i].v) || m.Has(key) != ok {
					t.Fatalf("round %d step %d: Get(%s) = %v, %t; want index %d of %v", round, step, key, v, ok, i, model)
				}
			}
		}
	}
	// a mapping read from a file (the decoder's appends) is indexed too
	var b strings.Builder
	b.WriteString("name: t\ndescription: A tool. Use it.\ninput_schema:\n  type: object\n  properties:\n")
	for i := range 100 {
		fmt.Fprintf(&b, "    p%d: {type: string}\n", i)
	}
	props, _ := ParseFile("t.yaml", []byte(b.String())).Tools[0].Input().GetMap("properties")
	if props.byKey == nil || props.indexed != 100 {
		t.Fatalf("properties of 100 parameters: index %d of %d", props.indexed, props.Len())
	}
	for i := range 100 {
		if _, ok := props.GetMap("p" + strconv.Itoa(i)); !ok {
			t.Errorf("p%d not found", i)
		}
	}
}

// sameTree compares two trees but for comments (the fast parsers leave
// them out).
func sameTree(a, b *yaml.Node, path string) string {
	if (a == nil) != (b == nil) {
		return fmt.Sprintf("%s: %v vs %v", path, a, b)
	}
	if a == nil {
		return ""
	}
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) || (a.Alias == nil) != (b.Alias == nil) {
		return fmt.Sprintf("%s: %+v vs %+v", path, *a, *b)
	}
	for i := range a.Content {
		if d := sameTree(a.Content[i], b.Content[i], path+"/"+strconv.Itoa(i)); d != "" {
			return d
		}
	}
	return ""
}

// TestParseTreeIsUnmarshals: ParseTree gives yaml.Unmarshal's tree.
func TestParseTreeIsUnmarshals(t *testing.T) {
	files := spanIndexFiles(t)
	files["bom.yaml"] = []byte("\xef\xbb\xbfname: x\n")
	files["scalar.yaml"] = []byte("just a string\n")
	files["empty.yaml"] = nil
	files["two.yaml"] = []byte("name: a\n---\nname: b\n")
	files["bad.yaml"] = []byte("name: [x\n")
	files["json.yaml"] = []byte(`{"name": "x", "list": [1, 2.5, "\u00e9"]}`)
	files["nul.yaml"] = []byte("name: x\x00\n")
	for path, data := range files {
		var doc yaml.Node
		var want *yaml.Node
		if err := yaml.Unmarshal(data, &doc); err == nil && len(doc.Content) > 0 {
			want = doc.Content[0]
		}
		if d := sameTree(ParseTree(data), want, ""); d != "" {
			t.Errorf("%s: ParseTree differs from yaml.Unmarshal at %s", path, d)
		}
	}
}
