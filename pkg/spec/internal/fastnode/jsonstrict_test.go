package fastnode_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
	"gopkg.in/yaml.v3"
)

// bom is the UTF-8 byte order mark.
var bom = []byte("\xef\xbb\xbf")

// jsonOnlyCases are valid JSON that yaml.v3 reads differently or rejects:
// ParseJSON (a .json file's reader) takes every one, by JSON's rules.
var jsonOnlyCases = []string{
	`["\ud83d\ude00"]`,
	`{"d": "a smile \uD83D\uDE00 and a clef \ud834\udd1e", "n": 1}`,
	`["\udbff\udfff", "\ud800\udc00"]`,
	`["\/", "a\/b"]`,
	`["\u0000", "a\u0000b"]`,
	"[\"a\x7fb\", 1]",
	"[\"a\u0080b\", \"\u009f\", 1]",
	"[\"a\u0085b\", 1]",
	"[\"a\u2028b\", {\"c\u2029\": 2}, 3]",
	"[\"\ufffe\uffff\", 1]",
	"\t{\"a\": 1}\t",
	"{}\n\t",
	"{\"a\"\n: 1}",
	"{\"a\"\r\n\r\n  :\n 1, \"b\"\t:\t2}",
	`{"` + strings.Repeat("k", 1023) + `": 1}`,
	`{"` + strings.Repeat("é", 1021) + `"  : 1}`,
	"\xef\xbb\xbf{\"a\": 1}",
	"\xef\xbb\xbf\n [\"\\ud83d\\ude00\", 2]",
}

// jsonOracle walks data with encoding/json: every value and key in
// document order, with the offset of its first byte and its value (the
// literal text of a number, "<{>" and "<[>" for containers).
func jsonOracle(data []byte) ([]int, []string, error) {
	skipped := 0
	if bytes.HasPrefix(data, bom) {
		skipped = len(bom)
	}
	dec := json.NewDecoder(bytes.NewReader(data[skipped:]))
	dec.UseNumber()
	var offsets []int
	var values []string
	for {
		off := skipped + int(dec.InputOffset())
		for off < len(data) && bytes.IndexByte([]byte(" \t\r\n,:"), data[off]) >= 0 {
			off++
		}
		tok, err := dec.Token()
		if err == io.EOF {
			return offsets, values, nil
		}
		if err != nil {
			return nil, nil, err
		}
		var v string
		switch t := tok.(type) {
		case json.Delim:
			if t == '}' || t == ']' {
				continue
			}
			v = "<" + string(t) + ">"
		case string:
			v = t
		case json.Number:
			v = string(t)
		case bool:
			v = fmt.Sprint(t)
		case nil:
			v = "null"
		}
		offsets = append(offsets, off)
		values = append(values, v)
	}
}

// treeValues lists the nodes of a tree in document order as jsonOracle
// does, with their positions.
func treeValues(n *yaml.Node, pos *[]spec.Pos, values *[]string) {
	switch n.Kind {
	case yaml.DocumentNode:
	case yaml.MappingNode:
		*values = append(*values, "<{>")
		*pos = append(*pos, spec.Pos{Line: n.Line, Col: n.Column})
	case yaml.SequenceNode:
		*values = append(*values, "<[>")
		*pos = append(*pos, spec.Pos{Line: n.Line, Col: n.Column})
	default:
		*values = append(*values, n.Value)
		*pos = append(*pos, spec.Pos{Line: n.Line, Col: n.Column})
	}
	for _, k := range n.Content {
		treeValues(k, pos, values)
	}
}

// checkStrict compares ParseJSON's tree with encoding/json's reading of
// data (values) and the file's line table (positions), and with yaml.v3's
// tree where the YAML-compatible parser takes data.
func checkStrict(t *testing.T, name string, data []byte) {
	t.Helper()
	doc, bad, ok := fastnode.ParseJSON(data)
	checkList(t, name, data, doc, bad, ok)
	// JSON is UTF-8 (RFC 8259 §8.1); json.Valid does not check it.
	valid := json.Valid(bytes.TrimPrefix(data, bom)) && utf8.Valid(data)
	if !ok {
		if valid && bad == nil && spec.TooDeep(bytes.TrimPrefix(data, bom)) < 0 {
			t.Errorf("%s: fastnode.ParseJSON refused valid JSON", name)
		}
		// (In invalid JSON the first problem may be the surrogate.)
		if other := fastnode.FindUnpairedSurrogate(data); bad != nil && valid && (other == nil || other.Offset != bad.Offset) {
			t.Errorf("%s: fastnode.ParseJSON found %v, fastnode.FindUnpairedSurrogate %v", name, bad, other)
		}
		return
	}
	if !valid {
		t.Errorf("%s: fastnode.ParseJSON took invalid JSON", name)
		return
	}
	if bad := fastnode.FindUnpairedSurrogate(data); bad != nil {
		t.Errorf("%s: fastnode.ParseJSON took an unpaired surrogate (%v)", name, bad)
	}
	offsets, want, err := jsonOracle(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var pos []spec.Pos
	var got []string
	treeValues(doc, &pos, &got)
	if len(got) != len(want) {
		t.Errorf("%s: %d values, encoding/json %d\n%q\n%q", name, len(got), len(want), got, want)
		return
	}
	f := &spec.File{Data: data}
	for i := range got {
		wantPos := f.PosAt(offsets[i])
		if bytes.HasPrefix(data, bom) && wantPos.Line == 1 {
			wantPos.Col-- // yaml.v3 does not count it
		}
		if got[i] != want[i] || pos[i] != wantPos {
			t.Errorf("%s: value %d is %q at %v, encoding/json %q at %v", name, i, got[i], pos[i], want[i], wantPos)
			return
		}
	}
	if yamlTree, ok := fastnode.ParseJSONAsYAML(data); ok {
		if d := nodeDiff("", doc, yamlTree); d != "" {
			t.Errorf("%s: strict and YAML-compatible trees differ: %s", name, d)
		}
	}
}

func TestParseJSONStrictCases(t *testing.T) {
	for i, tc := range jsonNodeCases {
		checkStrict(t, fmt.Sprintf("case %d %.40q", i, tc.src), []byte(tc.src))
	}
	for i, src := range jsonOnlyCases {
		name := fmt.Sprintf("JSON-only case %d %.40q", i, src)
		if _, _, ok := fastnode.ParseJSON([]byte(src)); !ok {
			t.Errorf("%s: refused", name)
		}
		checkStrict(t, name, []byte(src))
	}
}

// TestParseJSONStrictRandom: random JSON with every escape and character
// JSON allows (and YAML not always) is read as encoding/json reads it,
// positioned as the file's line table counts.
func TestParseJSONStrictRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	space := func() string {
		var b strings.Builder
		for range rng.IntN(3) {
			b.WriteString(pick(" ", "\n", "\r\n", "\r", "\t", "\n\t  "))
		}
		return b.String()
	}
	str := func() string {
		var b strings.Builder
		b.WriteByte('"')
		for range rng.IntN(8) {
			b.WriteString(pick("a", " ", "é", "日本", "😀", "\x7f", "\u0085", "\u0090", "\u2028", "\u2029", "\ufeff", "\uffff",
				`\"`, `\\`, `\/`, `\n`, `\u0000`, `\u00e9`, `\ud83d\ude00`, `\uDBFF\uDFFF`, `\\ud83d`, "#", ": "))
		}
		b.WriteByte('"')
		return b.String()
	}
	var value func(depth int) string
	value = func(depth int) string {
		switch k := rng.IntN(10); {
		case k < 2 && depth < 5:
			var b strings.Builder
			b.WriteString("{" + space())
			for i := range rng.IntN(4) {
				if i > 0 {
					b.WriteString("," + space())
				}
				// Distinct keys: encoding/json's tokens keep duplicates
				// too, but let the comparison stay simple.
				b.WriteString(fmt.Sprintf(`"k%d`, i) + str()[1:] + space() + ":" + space() + value(depth+1) + space())
			}
			return b.String() + "}"
		case k < 4 && depth < 5:
			var b strings.Builder
			b.WriteString("[" + space())
			for i := range rng.IntN(4) {
				if i > 0 {
					b.WriteString("," + space())
				}
				b.WriteString(value(depth+1) + space())
			}
			return b.String() + "]"
		case k < 7:
			return str()
		case k < 9:
			return pick("-", "") + pick("0", "1", "42", "18446744073709551616") + pick("", ".5") + pick("", "e5", "E-400")
		default:
			return pick("true", "false", "null")
		}
	}
	for i := range 3000 {
		src := pick("", "", "\xef\xbb\xbf") + space() + value(0) + space()
		if !json.Valid(bytes.TrimPrefix([]byte(src), bom)) {
			t.Fatalf("generated invalid JSON %q", src)
		}
		checkStrict(t, fmt.Sprintf("doc %d %q", i, src), []byte(src))
	}
}

func TestParseJSONStrictCorpora(t *testing.T) {
	paths := jsonFiles(t, repoRoot)
	if _, err := os.Stat(corpusDir); err == nil {
		paths = append(paths, jsonFiles(t, corpusDir)...)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkStrict(t, p, data)
	}
	t.Logf("%d .json files", len(paths))
}

// FuzzParseJSON: ParseJSON takes exactly the valid JSON (but for unpaired
// surrogates and nesting past yaml.v3's limit) and reads it as
// encoding/json does.
//
//	go test ./pkg/spec/internal/fastnode -run '^$' -fuzz FuzzParseJSON -fuzztime 60s
func FuzzParseJSON(f *testing.F) {
	for _, tc := range jsonNodeCases {
		f.Add([]byte(tc.src))
	}
	for _, src := range jsonOnlyCases {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkStrict(t, "input", data)
	})
}

// An escaped backslash before u is no escape: `\\ud83d` is the text
// \ud83d.
func TestFindUnpairedSurrogate(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int // offset, -1 none
	}{
		{`["\\ud83d"]`, -1},
		{`["\\\ud83d"]`, 4},
		{`["\ud83d\ude00", "\ude00"]`, 18},
		{`["\u0041\/\ud83d"]`, 10},
		{`["\ud83d\\ude00"]`, 2},
		{`{"a": "\uDBFF\uDFFF"}`, -1},
		{`[]`, -1},
	} {
		got := -1
		if bad := fastnode.FindUnpairedSurrogate([]byte(tc.src)); bad != nil {
			got = bad.Offset
		}
		if got != tc.want {
			t.Errorf("%s: offset %d, want %d", tc.src, got, tc.want)
		}
	}
}

// checkList: ParseJSONList takes what ParseJSON takes, when it is a
// non-empty list or a container whose "tools" is one, and hands over each
// element's tree as ParseJSON builds it; it refuses what ParseJSON
// refuses, with the same surrogate error, before handing over anything.
func checkList(t *testing.T, name string, data []byte, doc *yaml.Node, bad *fastnode.SurrogateError, ok bool) {
	t.Helper()
	var items []*yaml.Node
	at, lbad, lok := fastnode.ParseJSONList(data, func(at fastnode.ListAt, i int, item *yaml.Node) {
		if i != len(items) {
			t.Errorf("%s: element %d handed over as %d", name, len(items), i)
		}
		items = append(items, item)
	})
	wantAt, want := fastnode.NoList, []*yaml.Node(nil)
	if ok {
		wantAt, want = listIn(doc.Content[0], false)
	}
	switch {
	case ok && at != wantAt:
		t.Errorf("%s: ParseJSONList says %v, ParseJSON's tree %v", name, at, wantAt)
	case at == fastnode.NoList:
		if len(items) > 0 {
			t.Errorf("%s: ParseJSONList handed over %d elements of no list", name, len(items))
		}
	case lok != ok || (lbad == nil) != (bad == nil) || lbad != nil && *lbad != *bad:
		t.Errorf("%s: ParseJSONList ok=%v bad=%v, ParseJSON ok=%v bad=%v", name, lok, lbad, ok, bad)
	case !ok:
		if len(items) > 0 {
			t.Errorf("%s: ParseJSONList handed over %d elements of a document ParseJSON refuses", name, len(items))
		}
	default:
		sameTrees(t, name+": ParseJSONList's elements and ParseJSON's", items, want, nodeDiff, "/%d")
	}
}

// listIn is where ParseJSONList and ParseYAMLList (blockOnly: their lists
// and containers are block collections) must find a list of tools in the
// tree root, as spec reads it: root itself when it is a non-empty list; a
// non-empty "tools" list when root is a mapping with no "name" key and
// one "tools" key.
func listIn(root *yaml.Node, blockOnly bool) (fastnode.ListAt, []*yaml.Node) {
	if blockOnly && root.Style&yaml.FlowStyle != 0 {
		return fastnode.NoList, nil
	}
	switch root.Kind {
	case yaml.SequenceNode:
		if len(root.Content) > 0 {
			return fastnode.RootList, root.Content
		}
	case yaml.MappingNode:
		var list *yaml.Node
		for i := 0; i+1 < len(root.Content); i += 2 {
			switch root.Content[i].Value {
			case "name":
				return fastnode.NoList, nil
			case "tools":
				if list != nil {
					return fastnode.NoList, nil
				}
				list = root.Content[i+1]
			}
		}
		if list != nil && list.Kind == yaml.SequenceNode && len(list.Content) > 0 && (!blockOnly || list.Style&yaml.FlowStyle == 0) {
			return fastnode.ToolsList, list.Content
		}
	}
	return fastnode.NoList, nil
}
