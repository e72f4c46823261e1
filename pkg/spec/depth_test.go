package spec

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// scanDepth is the most collections TooDeep's scan sees open at once.
func scanDepth(data []byte) int {
	s := depthScan{data: data, limit: 1 << 30, at: -1}
	s.run()
	return s.max
}

// treeDepth is the most collections open at once in yaml.v3's tree (the
// deepest path; aliases are leaves); -1 when yaml.v3 cannot read data.
func treeDepth(data []byte) int {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	most := 0
	var walk func(n *yaml.Node) int
	walk = func(n *yaml.Node) int {
		d := 0
		for _, c := range n.Content {
			d = max(d, walk(c))
		}
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			d++
		}
		return d
	}
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if err.Error() == "EOF" {
				return most
			}
			return -1
		}
		most = max(most, walk(&doc))
	}
}

var depthCases = []string{
	"name: a\n",
	"a:\n  b:\n    c: 1\n",
	"- a\n- b\n",
	"- - - x\n",
	"- a: 1\n  b: [1, [2, {c: 3}]]\n",
	"a:\n- x\n- y: 1\n  z:\n  - w\nb: 2\n",
	"a:\n  - x\n  -\n    - y\n",
	"? a\n: b\n",
	"key: |\n  [[[[[\n  {{{{\n\n  more\nnext: [1]\n",
	"key: >-\n    [[[[\n\n    x\nnext: 1\n",
	"- |\n  [[[\n- [a]\n",
	"--- |\n [[[[\n--- [1, [2]]\n",
	"a: \"[[[[\\\"[[[\"\nb: '[['' [['\nc: [\"]]]\", ']]']\n",
	"a: \"multi\n  line [[[\n  quoted\"\nb: {x: [1]}\n",
	"a: plain [[[ text {{{\nb: http://x/[y]\n",
	// Plain scalars go on over more indented lines, brackets and all.
	"00\n[[\n",
	"a: b\n  [[ c\n  - {{\n\n  d\nd: [1]\n",
	"- a\n  [[\n- [b]\n",
	"a: # comment [[[\n  b: 1 # [[[\n# [[[[[\n",
	"a: [1, # [[[\n  2]\n",
	"{\"a\": {\"b\": [1, 2, {\"c\": \"[[[\"}]}}\n",
	"[\n  {\"name\": \"x\"},\n  {\"name\": \"y\", \"p\": [[1]]}\n]\n",
	"a: &x [1, [2]]\nb: *x\nc: !!str \"[[\"\n",
	"a: !tag\n  b: 1\n",
	"a:\r\n  b:\r\n    - c\r\n",
	"a:\r  b: [1]\r",
	"tools:\n- name: a\n  parameters:\n    type: object\n    properties:\n      x: {type: array, items: {type: string}}\n",
	"'a': [1]\n\"b\":\n  c: 2\n",
	"- [a, b]\n- {c: [d]}\n",
	"a: \"x\\\\\"\nb: [1]\n",
	// Anchors and tags end where yaml.v3 ends them: a tag goes on over
	// brackets and commas (fuzz: "[![[ ]" is a list of one tagged empty
	// string), an anchor's name is letters, digits, _ and -.
	"[![[ ]",
	"[!t[],[] [1]]\n",
	"{a: !x[[ [1]}\n",
	"- ![a],[b] [1]\n",
	"[!<[x]> [1]]\n",
	"[&a, [b]]\n",
	"[&a]\n",
	// An anchor or tag with nothing after it but ": " is an empty key.
	"&a : b\n",
	"&a: b\n",
	"- &a : [b]\n",
	"! : b\n",
	"!t: b\n",
	// In a flow collection, '#' where a token starts is a comment, with
	// or without a blank before it (fuzz: "[#[[\n]"); inside a plain
	// scalar it is text unless a blank precedes it.
	"[#[[\n]",
	"{\"a\":#[[\n 1}\n",
	"[\"x\"#[[\n]\n",
	"[a, b #[[\n]\n",
	"[a#b, [c]]\n",
	"[a:b, [c]]\n",
	// A flow sequence entry with a value indicator is a single-pair
	// mapping, its key included; a flow collection before ": " is a key.
	"[a: b]\n",
	"[a: [b: c], d]\n",
	"[[a]: b]\n",
	"[[[a]]: b, c]\n",
	"[\"a\":1, ? b]\n",
	"[a:, b]\n",
	"[a:]\n",
	"{a: [b: {c: d}]}\n",
	"[0: ]:\n",
	"[[a: b]]: c\n",
	"k: [a: b]\n",
}

// The scan counts the nesting yaml.v3 builds.
func TestScanDepthMatchesYAML(t *testing.T) {
	for _, src := range depthCases {
		want := treeDepth([]byte(src))
		if want < 0 {
			t.Errorf("%q: yaml.v3 cannot read it", src)
			continue
		}
		if got := scanDepth([]byte(src)); got != want {
			t.Errorf("%q: scan depth %d, yaml.v3 %d", src, got, want)
		}
	}
	// The repository's tool files and test fixtures.
	var files []string
	for _, glob := range []string{"../../tools/*", "../../testdata/*/*.yaml", "../../testdata/*/*/*.yaml", "../../testdata/*/*/*.json"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	filepath.WalkDir(corpusDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	checked := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil || !IsToolFile(p) {
			continue
		}
		want := treeDepth(data)
		if want < 0 {
			continue
		}
		checked++
		if got := scanDepth(data); got != want {
			t.Errorf("%s: scan depth %d, yaml.v3 %d", p, got, want)
		}
	}
	if checked < 20 {
		t.Errorf("only %d files checked", checked)
	}
}

// Nesting past MaxDepth, in every form, is found at the collection that
// goes past it; MaxDepth+1 collections (values at depth MaxDepth) are fine.
func TestTooDeep(t *testing.T) {
	n := MaxDepth + 1
	forms := map[string]func(levels int) string{
		"flow list":  func(k int) string { return "name: d\np: " + strings.Repeat("[", k-1) + strings.Repeat("]", k-1) + "\n" },
		"json array": func(k int) string { return strings.Repeat("[", k) + strings.Repeat("]", k) },
		"json object": func(k int) string {
			return strings.Repeat(`{"a":`, k) + "1" + strings.Repeat("}", k)
		},
		"block map": func(k int) string {
			var b strings.Builder
			for i := range k {
				fmt.Fprintf(&b, "%sk:\n", strings.Repeat(" ", i))
			}
			return b.String()
		},
		"compact seq": func(k int) string { return strings.Repeat("- ", k) + "x\n" },
		"indentless": func(k int) string {
			var b strings.Builder
			for i := range k / 2 {
				fmt.Fprintf(&b, "%sk:\n%s- ", strings.Repeat(" ", 2*i), strings.Repeat(" ", 2*i))
				b.WriteString("\n")
			}
			return b.String()
		},
	}
	for name, form := range forms {
		ok := form(n)
		if got := TooDeep([]byte(ok)); got != -1 {
			t.Errorf("%s: %d levels reported at %d", name, n, got)
		}
		for _, k := range []int{n + 1, n + 2, 30000} {
			if k > n+2 && (name == "block map" || name == "indentless") {
				continue // quadratic in size
			}
			bad := []byte(form(k))
			at := TooDeep(bad)
			if at < 0 {
				t.Errorf("%s: %d levels not found", name, k)
				continue
			}
			// What starts there is the collection at depth MaxDepth+1.
			if got := scanDepth(bad[:at]); got != n {
				t.Errorf("%s: %d levels reported at %d, after %d levels", name, k, at, got)
			}
		}
	}
}

// FuzzTooDeep: on what yaml.v3 reads, the scan counts the nesting yaml.v3
// builds, give or take one level (a flow collection as a mapping key, a
// plain scalar continued on a line that looks like an entry).
//
//	go test ./pkg/spec -run '^$' -fuzz FuzzTooDeep -fuzztime 60s
func FuzzTooDeep(f *testing.F) {
	for _, src := range depthCases {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := scanDepth(data)
		if want := treeDepth(data); want >= 0 && (got > want+1 || got < want-1) {
			t.Errorf("%q: scan depth %d, yaml.v3 %d", data, got, want)
		}
	})
}

// Single-pair mappings in flow sequences count as the levels they are:
// "[a: [a: ...]]" nests two levels per bracket, so half the brackets reach
// the limit (the scan used to count one per bracket, letting yaml.v3 see
// twice MaxDepth).
func TestTooDeepFlowPairs(t *testing.T) {
	pairs := func(k int) []byte { // 2k levels
		return []byte(strings.Repeat("[a: ", k) + "b" + strings.Repeat("]", k))
	}
	if got := treeDepth(pairs(3)); got != 6 {
		t.Fatalf("yaml.v3 depth of 3 pairs = %d, want 6", got)
	}
	if at := TooDeep(pairs((MaxDepth + 1) / 2)); at != -1 {
		t.Errorf("%d levels reported at %d", (MaxDepth+1)/2*2, at)
	}
	if at := TooDeep(pairs(MaxDepth/2 + 1)); at < 0 {
		t.Errorf("%d levels not found", (MaxDepth/2+1)*2)
	}
	if at := TooDeep(append([]byte("k: "), pairs(200)...)); at < 0 {
		t.Errorf("400 levels after a key not found")
	}
}
