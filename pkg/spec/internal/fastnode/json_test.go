package fastnode_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
	"gopkg.in/yaml.v3"
)

// jsonNodeCases are the inline cases of the differential test and the fuzz
// seeds. want: whether the fast path must take them ('y'), must refuse
// them ('n'), or either ('?').
var jsonNodeCases = []struct {
	src  string
	want byte
}{
	{`{}`, 'y'},
	{`[]`, 'y'},
	{`{ }`, 'y'},
	{"[\n]", 'y'},
	{`{"a":1}`, 'y'},
	{`{"a": 1, "b": [true, false, null], "c": {"d": "e"}}`, 'y'},
	{`[[], {}, [[]], {"a": {}}]`, 'y'},
	{`"top"`, 'y'},
	{`12`, 'y'},
	{`null`, 'y'},
	{`true`, 'y'},
	{`-0`, 'y'},
	{"  \n  {\"a\":1}\n", 'y'},
	{"{\r\n  \"a\": 1,\r\n  \"b\": [\r\n    2\r\n  ]\r\n}\r\n", 'y'},
	{"[\r1,\r2\r]", 'y'},
	{"{\n\t\"a\":\t1,\n\t\"b\": [\t2 ]\n}", 'y'},
	{"  {\n\"a\": 1\n}", 'y'},
	{"{}\n\n   \n", 'y'},
	// Escapes.
	{`["\"", "\\", "\b", "\f", "\n", "\r", "\t"]`, 'y'},
	{`["\u0041\u00e9\u20AC\uffFd", "x\u0001y", "a\u2028b"]`, 'y'},
	{`{"k\"ey": "v\\al", "\u00e9": 1}`, 'y'},
	{`["\ud83d\ude00"]`, 'n'}, // yaml.v3: invalid Unicode character escape code
	{`["\/"]`, 'n'},           // yaml.v3: unknown escape character
	{`["\u0000"]`, 'n'},
	{`["\x41"]`, 'n'},
	{`["\u12"]`, 'n'},
	// Unicode in the text: columns count characters.
	{`{"é": "ü", "日本語": "x", "b": 1}`, 'y'},
	{"[\"😀😀\", {\"ключ\": [1, \"ä\"]}, 2]", 'y'},
	{"[\"\ufeff\", \"\ufffd\", 1]", 'y'},
	{"[\"a\u2028b\", 1]", 'n'}, // a line break to yaml.v3
	{"[\"a\u0085b\", 1]", 'n'}, // NEL: folded by yaml.v3
	{"[\"a\u0080b\"]", 'n'},    // C1 control: yaml.v3 rejects it
	{"[\"a\x7fb\"]", 'n'},      // DEL: yaml.v3 rejects it
	{"[\"a\xffb\"]", 'n'},      // not UTF-8
	{"[\"a\tb\"]", 'n'},        // raw control character: not JSON
	{"\xef\xbb\xbf{\"a\": 1}", 'n'},
	// Numbers of every shape.
	{`[0, -0, 1, -1, 10, 123456789012345678, 9223372036854775807, -9223372036854775808]`, 'y'},
	{`[9223372036854775808, -9223372036854775809, 18446744073709551615, 18446744073709551616]`, 'y'},
	{`[123456789012345678901234567890, -123456789012345678901234567890]`, 'y'},
	{`[0.0, -0.0, 1.5, -1.5, 1e5, 1E5, 1e+5, 1e-5, 1E-5, 0e0, -0e-0, 1.25e10]`, 'y'},
	{`[1e308, 1e309, -1e400, 1e-400, 4.9e-324, 2e-324]`, 'y'},
	{"[1" + strings.Repeat("0", 400) + "]", 'y'},
	{`[01]`, 'n'},
	{`[1.]`, 'n'},
	{`[.5]`, 'n'},
	{`[1e]`, 'n'},
	{`[+1]`, 'n'},
	{`[-]`, 'n'},
	{`[1x]`, 'n'},
	{`[truex]`, 'n'},
	{`[nul]`, 'n'},
	// Keys: duplicates are kept by yaml.v3's Node decoding (the model
	// reports them), a key must be on the line of its ':' and at most 1024
	// characters before it.
	{`{"a": 1, "a": 2}`, 'y'},
	{"{\"a\"\n: 1}", 'n'},
	{`{"` + strings.Repeat("k", 1019) + `"   : 1}`, 'y'},
	{`{"` + strings.Repeat("k", 1020) + `"   : 1}`, 'n'},
	{`{"` + strings.Repeat("k", 1022) + `": 1}`, 'y'},
	{`{"` + strings.Repeat("k", 1023) + `": 1}`, 'n'},
	{`{"` + strings.Repeat("é", 1020) + `"  : 1}`, 'y'},
	{`{"` + strings.Repeat("é", 1021) + `"  : 1}`, 'n'},
	{`["` + strings.Repeat("v", 3000) + `"]`, 'y'},
	// Not JSON.
	{``, 'n'},
	{`   `, 'n'},
	{`{"a": 1,}`, 'n'},
	{`[1,]`, 'n'},
	{`{"a" 1}`, 'n'},
	{`{a: 1}`, 'n'},
	{`{"a": 1} {}`, 'n'},
	{`{"a": 1} # c`, 'n'},
	{`[1, 2`, 'n'},
	{`"abc`, 'n'},
	{`'a'`, 'n'},
	// Tabs outside any collection: yaml.v3 takes some and not others.
	{"\t{}", 'n'},
	{"{}\n\t", 'n'},
	{"{}\t", '?'},
}

// nodeDiff returns the first difference between two trees, or "".
func nodeDiff(path string, a, b *yaml.Node) string {
	if a == nil || b == nil {
		if a != b {
			return path + ": one node is nil"
		}
		return ""
	}
	type fields struct {
		Kind                                               yaml.Kind
		Style                                              yaml.Style
		Tag, Value, Anchor, HeadComment, LineComment, Foot string
		Line, Column, Content                              int
		Alias                                              bool
	}
	fa := fields{a.Kind, a.Style, a.Tag, a.Value, a.Anchor, a.HeadComment, a.LineComment, a.FootComment, a.Line, a.Column, len(a.Content), a.Alias != nil}
	fb := fields{b.Kind, b.Style, b.Tag, b.Value, b.Anchor, b.HeadComment, b.LineComment, b.FootComment, b.Line, b.Column, len(b.Content), b.Alias != nil}
	if fa != fb {
		return fmt.Sprintf("%s: fast %+v, yaml.v3 %+v", path, fa, fb)
	}
	if (a.Content == nil) != (b.Content == nil) {
		return path + ": Content nil in one tree only"
	}
	for i := range a.Content {
		if d := nodeDiff(fmt.Sprintf("%s/%d", path, i), a.Content[i], b.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

// yamlDoc decodes data as (*File).parse does and requires exactly one
// document.
func yamlDoc(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	var more yaml.Node
	if err := dec.Decode(&more); err != io.EOF {
		return nil, fmt.Errorf("a second document (%v)", err)
	}
	return &doc, nil
}

// checkJSONNode compares the fast tree with yaml.v3's when the fast path
// takes data. It reports whether it did.
func checkJSONNode(t *testing.T, name string, data []byte) bool {
	t.Helper()
	fast, ok := fastnode.ParseJSONAsYAML(data)
	if !ok {
		return false
	}
	if !json.Valid(data) {
		t.Errorf("%s: fast path took invalid JSON", name)
	}
	want, err := yamlDoc(data)
	if err != nil {
		t.Errorf("%s: fast path took what yaml.v3 rejects: %v", name, err)
		return true
	}
	if d := nodeDiff("", fast, want); d != "" {
		t.Errorf("%s: %s", name, d)
	}
	return true
}

func TestJSONNodeCases(t *testing.T) {
	for i, tc := range jsonNodeCases {
		name := fmt.Sprintf("case %d %.40q", i, tc.src)
		ok := checkJSONNode(t, name, []byte(tc.src))
		if tc.want == 'y' && !ok || tc.want == 'n' && ok {
			t.Errorf("%s: fast path took it = %v, want %c", name, ok, tc.want)
		}
	}
}

func TestJSONNodeDepth(t *testing.T) {
	for _, depth := range []int{100, fastnode.YAMLMaxFlowDepth} {
		src := strings.Repeat(`[{"a":`, depth/2) + "1" + strings.Repeat("}]", depth/2)
		if !checkJSONNode(t, fmt.Sprint("depth ", depth), []byte(src)) {
			t.Errorf("depth %d: fast path refused it", depth)
		}
	}
	src := strings.Repeat("[", fastnode.YAMLMaxFlowDepth+1) + strings.Repeat("]", fastnode.YAMLMaxFlowDepth+1)
	if _, err := yamlDoc([]byte(src)); err == nil {
		t.Error("yaml.v3 took nesting past its limit")
	}
	if checkJSONNode(t, "too deep", []byte(src)) {
		t.Error("fast path took nesting past yaml.v3's limit")
	}
}

// TestJSONNodeRandom writes random JSON documents with every kind of
// value, escape and whitespace, and compares both parsers on them.
func TestJSONNodeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	space := func() string {
		var b strings.Builder
		for range rng.IntN(3) {
			b.WriteString(pick(" ", "  ", "\n", "\r\n", "\r", "\t", "\n    "))
		}
		return b.String()
	}
	var value func(depth int) string
	value = func(depth int) string {
		switch k := rng.IntN(10); {
		case k < 2 && depth < 6:
			var b strings.Builder
			b.WriteString("{" + space())
			for i := range rng.IntN(5) {
				if i > 0 {
					b.WriteString("," + space())
				}
				b.WriteString(pick(`"type"`, `"description"`, `"é"`, `"a b"`, `""`, `"k\"\u00e9"`) + pick("", " ") + ":" + space() + value(depth+1) + space())
			}
			return b.String() + "}"
		case k < 4 && depth < 6:
			var b strings.Builder
			b.WriteString("[" + space())
			for i := range rng.IntN(5) {
				if i > 0 {
					b.WriteString("," + space())
				}
				b.WriteString(value(depth+1) + space())
			}
			return b.String() + "]"
		case k < 7:
			var b strings.Builder
			b.WriteByte('"')
			for range rng.IntN(8) {
				b.WriteString(pick("a", " ", "é", "日本", "😀", "\ufeff", `\"`, `\\`, `\n`, `\t`, `\r`, `\b`, `\f`, `\u0041`, `\u00e9`, `\u20ac`, `\uFFFD`, `\u001f`, "---", "...", "#", ": ", "- ", "{", "]", "&a", "*a", "!t"))
			}
			b.WriteByte('"')
			return b.String()
		case k < 9:
			return pick("-", "") + pick("0", "1", "42", "9223372036854775807", "9223372036854775808", "18446744073709551616", "123456789012345678901234567890") +
				pick("", "", ".5", ".000", ".0123") + pick("", "", "e5", "E+10", "e-3", "e400", "e-400")
		default:
			return pick("true", "false", "null")
		}
	}
	took := 0
	for i := range 3000 {
		// No tab outside the collections, which yaml.v3 may reject.
		src := strings.ReplaceAll(space(), "\t", " ") + value(0) + strings.ReplaceAll(space(), "\t", " ")
		name := fmt.Sprintf("doc %d %q", i, src)
		if checkJSONNode(t, name, []byte(src)) {
			took++
		} else if _, err := yamlDoc([]byte(src)); err == nil && json.Valid([]byte(src)) {
			t.Errorf("%s: fast path refused JSON that yaml.v3 reads", name)
		}
	}
	t.Logf("fast path took %d of 3000", took)
}

// jsonFiles returns every .json file under root (nil when root is absent).
func jsonFiles(t testing.TB, root string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".json") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return paths
}

// testJSONNodeFiles runs the differential check on files; the fast path
// must take every one that is JSON yaml.v3 reads.
func testJSONNodeFiles(t *testing.T, paths []string) {
	fast, fallback := 0, 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if checkJSONNode(t, p, data) {
			fast++
			continue
		}
		fallback++
		if _, err := yamlDoc(data); err == nil && json.Valid(data) {
			t.Errorf("%s: valid JSON that yaml.v3 reads, but the fast path refused it", p)
		}
	}
	t.Logf("%d .json files: fast path %d, fallback %d", len(paths), fast, fallback)
}

func TestJSONNodeCorpora(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	testJSONNodeFiles(t, jsonFiles(t, corpusDir))
}

func TestJSONNodeRepo(t *testing.T) {
	testJSONNodeFiles(t, jsonFiles(t, repoRoot))
}

// TestJSONNodeParseFile checks the whole parse: tools and errors are the
// same with and without the fast path.
func TestJSONNodeParseFile(t *testing.T) {
	paths := jsonFiles(t, repoRoot)
	if _, err := os.Stat(corpusDir); err == nil {
		paths = append(paths, jsonFiles(t, corpusDir)...)
	}
	defer func() { fastnode.UseJSON = true }()
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fastnode.UseJSON = true
		got := parseSummary(spec.ParseFile(p, data))
		fastnode.UseJSON = false
		want := parseSummary(spec.ParseFile(p, data))
		if got != want {
			t.Errorf("%s: with the fast path\n%s\nwithout\n%s", p, got, want)
		}
	}
}

func parseSummary(f *spec.File) string {
	var b strings.Builder
	for _, tool := range f.Tools {
		m, err := tool.ToMap().MarshalJSON()
		fmt.Fprintf(&b, "tool %s %v %s %v\n", tool.Name, tool.Dialect, m, err)
	}
	for _, e := range f.Errors {
		fmt.Fprintf(&b, "error %v %+v\n", e, e.Span)
	}
	return b.String()
}

// FuzzJSONNode: whatever the fast path takes is JSON that yaml.v3 reads to
// the same tree, and it refuses JSON that yaml.v3 reads only for the
// reasons it knows.
//
//	go test ./pkg/spec/internal/fastnode -run '^$' -fuzz FuzzJSONNode -fuzztime 60s
func FuzzJSONNode(f *testing.F) {
	for _, tc := range jsonNodeCases {
		f.Add([]byte(tc.src))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !checkJSONNode(t, "input", data) {
			checkRefusal(t, "input", data)
		}
	})
}

// checkRefusal fails when the fast path refused JSON that yaml.v3 reads for
// none of the reasons it knows.
func checkRefusal(t *testing.T, name string, data []byte) {
	t.Helper()
	if !json.Valid(data) {
		return
	}
	if _, err := yamlDoc(data); err != nil {
		return
	}
	for _, known := range []string{"\t", `\u0000`, "\u0085", "\u2028", "\u2029"} {
		if bytes.Contains(data, []byte(known)) {
			return
		}
	}
	t.Errorf("%s: fast path refused JSON that yaml.v3 reads", name)
}
