package fastnode_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
	"gopkg.in/yaml.v3"
)

// repoRoot is the repository, whose tool files and fixtures the
// differential tests read; corpusDir the shared corpus of real tool files
// beside it.
const (
	repoRoot  = "../../../.."
	corpusDir = "../../../../../shared/corpora"
)

// yamlNodeCases are the inline cases of the differential test and the fuzz
// seeds. want: whether the fast path must take them ('y'), must refuse
// them ('n'), or either ('?').
var yamlNodeCases = []struct {
	src  string
	want byte
}{
	// Mappings and sequences, indentation variants.
	{"a: 1\n", 'y'},
	{"a: 1", 'y'},
	{"a: 1\nb: two\n", 'y'},
	{"  a: 1\n  b: 2\n", 'y'},
	{"a:\n  b: 1\n  c:\n      d: x\n  e: y\nf: z\n", 'y'},
	{"a:\n b:\n  c:\n   d: 1\n", 'y'},
	{"- a\n- b\n", 'y'},
	{"-   a\n-   b\n", 'y'},
	{"- a\n-\n- c\n", 'y'},
	{"-\n  a: 1\n-\n  - x\n", 'y'},
	{"- - a\n  - b\n- - c\n", 'y'},
	{"- - - deep\n", 'y'},
	{"key:\n- a\n- b\nnext: 1\n", 'y'},
	{"key:\n  - a\n  - b\nnext: 1\n", 'y'},
	{"key:\n- name: a\n  type: b\n- name: c\nother: 1\n", 'y'},
	{"- name: a\n  type: b\n  list:\n  - x\n  - y\n- name: c\n", 'y'},
	{"- name: a\n  nested:\n    k: v\n-   name: b\n    k: v\n", 'y'},
	{"tools:\n  - name: a\n    description: b\n", 'y'},
	{"a:\n\n\n  b: 1\n\n", 'y'},
	{"a: 1\n b: 2\n", 'n'},
	{"a:\n  b: 1\n c: 2\n", 'n'},
	{"a: 1\n- b\n", 'n'},
	{"- a\nb: 1\n", 'n'},
	{"a:\n  - x\n  b: 1\n", 'n'},
	{"a:\n  - x\n - y\n", 'n'},
	// Empty values.
	{"a:\nb: 1\n", 'y'},
	{"a:\n", 'y'},
	{"a:", 'y'},
	{"a:   \nb:\n", 'y'},
	{"a: # c\nb: 1\n", 'y'},
	{"a:\n  # only a comment\nb: 1\n", 'y'},
	{"- \n- a\n", 'y'},
	{"-\n", 'y'},
	{"- # c\n- a\n", 'y'},
	{"a:\n- \n-\n", 'y'},
	{"k:\n  key:\n  - a\n", 'y'},
	{"- key:\n  - a\n  other:\n", 'y'},
	{"é: \nü:\n", 'y'},
	// Plain scalars: multi-line, ": " and " #" inside, URLs.
	{"a: one\n  two\n  three\nb: x\n", 'y'},
	{"a: one\n\n  two\n\n\n  three\n", 'y'},
	{"a: one   \n    two   \n", 'y'},
	{"a:\n  one\n  two\nb: 1\n", 'y'},
	{"a:\n    one\n  two\n", 'y'},
	{"- one\n  two\n- three\n", 'y'},
	{"- one\n - two\n", 'y'},
	{"a: one\n  - two\n", 'y'},
	{"a: one\n  \"two\"\n", 'y'},
	{"a: one\n  # comment\nb: 2\n", 'y'},
	{"a: one\n  # comment\n  two\n", 'n'},
	{"a: one # comment\n  two\n", 'n'},
	{"a: one\n  two: 2\n", 'n'},
	{"a: b: c\n", 'n'},
	{"a: b:\n", 'n'},
	{"a: b #c\n", 'y'},
	{"a: b#c\n", 'y'},
	{"a: b #c #d\n", 'y'},
	{"a: b:c\n", 'y'},
	{"a:b: c\n", 'y'},
	{"url: https://example.com/a?b=c#frag\n", 'y'},
	{"url: http://x:8080/\n", 'y'},
	{"a: -x\nb: --\nc: -1\nd: - x\n", 'n'},
	{"a: -x\nb: --\nc: -1\n", 'y'},
	{"a: x - y\nb: x [y] {z}, w\n", 'y'},
	{"a: 'x' y\n", 'n'},
	{"a: x\n...\n", 'n'},
	{"a: x\n---\nb: y\n", 'n'},
	{"---\na: x\n", 'y'},
	{"# head\n---  # c\n\na: x\n", 'y'},
	{"--- a: x\n", 'n'},
	{" ---\n0:", 'n'},
	{" ---\na: 1\n", 'n'},
	{"---\n", 'n'},
	{"", 'n'},
	{"# only a comment\n", 'n'},
	{"just a scalar\n", 'n'},
	{"a: ---\nb: ...\n", 'y'},
	{"a: --- x\n", 'y'},
	{"- a\n---\n", 'n'},
	{"a: x\n--- \n", 'n'},
	// Keys: quoted, odd, long, duplicated.
	{"\"a\": 1\n'b': 2\n\"c d\" : 3\n'e''f': 4\n\"g\\\"h\": 5\n", 'y'},
	{"\"a\":1\n", 'n'},
	{"\"a\nb\": 1\n", 'n'},
	{"- \"a\": 1\n  'b': 2\n", 'y'},
	{"a: 1\na: 2\n", 'y'},
	{"1: a\ntrue: b\nnull: c\n~: d\n1.5: e\n2026-01-01: f\n", 'y'},
	{"<<: x\n", 'y'},
	{"a b c: 1\n", 'y'},
	{"a  : 1\n", 'y'},
	{strings.Repeat("k", 1024) + ": 1\n", 'y'},
	{strings.Repeat("k", 1025) + ": 1\n", 'n'},
	{"? a\n: b\n", 'n'},
	{": a\n", 'n'},
	{"[a]: b\n", 'n'},
	{"&x a: 1\n", 'n'},
	{"a: &x 1\nb: *x\n", 'n'},
	{"a: !!str 1\n", 'n'},
	{"%YAML 1.2\n---\na: 1\n", 'n'},
	{"a: @x\n", 'n'},
	{"a: `x`\n", 'n'},
	{"a: ?x\n", 'n'},
	{"a: :x\n", 'n'},
	{"a: |x\n", 'n'},
	// Block scalars: chomping, indentation indicators, blank lines.
	{"a: |\n  one\n  two\nb: 1\n", 'y'},
	{"a: |\n  one\n\n  two\n\n\nb: 1\n", 'y'},
	{"a: |-\n  one\n\n\nb: 1\n", 'y'},
	{"a: |+\n  one\n\n\nb: 1\n", 'y'},
	{"a: |+\n  one\n\n\n", 'y'},
	{"a: |+\n  one", 'y'},
	{"a: |\n  one", 'y'},
	{"a: |-\n  one\n", 'y'},
	{"a: |\n", 'y'},
	{"a: |", 'y'},
	{"a: |+\n\nb: 1\n", 'y'},
	{"a: |\n\n  x\n", 'y'},
	{"a: |\n     \n  x\n", 'n'},
	{"a: |\n  \n  x\n   \n", 'y'},
	{"a: |2\n    one\n   two\n", 'y'},
	{"a: |1-\n   x\n", 'y'},
	{"a: |-1\n   x\n", 'y'},
	{"a: |0\n  x\n", 'n'},
	{"a: |  # comment\n  x\n", 'y'},
	{"a: |#c\n  x\n", 'n'},
	{"a: | x\n", 'n'},
	{"a: |\n  # not a comment\n  x\n# a comment\nb: 1\n", 'y'},
	{"a: |\n  code {\n    indented\n  }\n\n  more\n", 'y'},
	{"- |\n  one\n- >\n  two\n  three\n", 'y'},
	{"key:\n- |\n  one\n", 'y'},
	{"a:\n  |\n   x\n", 'y'},
	{"a: >\n  one\n  two\n\n  three\n    more\n    indented\n  back\n", 'y'},
	{"a: >-\n  one\n\n\n  two\n", 'y'},
	{"a: >+\n  one\n  two\n\n", 'y'},
	{"a: >\n   lead\n  x\n", 'n'},
	{"a: >2\n    lead\n  x\n", 'y'},
	{"a: >\n  x\n   \n  y\n", 'y'},
	{"a: >\n\n  x\n", 'y'},
	{"- a: |\n    x\n  b: >\n    y\n", 'y'},
	{"a: |\n  x\n---\n", 'n'},
	// Quoted scalars: escapes, folding.
	{`a: "\0\a\b\t\n\v\f\r\e\ \"\/\\\N\_\L\P"` + "\n", 'n'}, // \/ is unknown to yaml.v3
	{`a: "\0\a\b\t\n\v\f\r\e\ \"\\\N\_\L\P"` + "\n", 'y'},
	{`a: "\x41\u00e9\U0001F600\u20AC"` + "\n", 'y'},
	{`a: "\ud83d"` + "\n", 'n'},
	{`a: "\U00110000"` + "\n", 'n'},
	{`a: "\UFFFFFFFF"` + "\n", 'n'},
	{`a: "\U80000041"` + "\n", 'n'},
	{`a: "\U0010FFFF\xff\x7f\u0085"` + "\n", 'y'},
	{`a: "\x4"` + "\n", 'n'},
	{`a: "\q"` + "\n", 'n'},
	{`a: "x\` + "\n", 'n'},
	{"a: \"one\n  two\"\n", 'y'},
	{"a: \"one  \n  two  \n\n  three\"\n", 'y'},
	{"a: \"one\\\n  two\"\n", 'y'},
	{"a: \"one \\\n\n  two\"\n", 'y'},
	{"a: \"one\\\n\"\n", '?'},
	{"a: 'one\n  two'\n", 'y'},
	{"a: 'one\n\n  two '' three'\n", 'y'},
	{"a: 'it''s'\n", 'y'},
	{"a: ''\nb: \"\"\n", 'y'},
	{"a: '  x  '\n", 'y'},
	{"a: \"#x\" # c\n", 'y'},
	{"a: \"x\"# c\n", 'n'},
	{"a: 'x\n", 'n'},
	{"a: \"x\n", 'n'},
	{"a: \"x\ny\"\n", 'y'},
	{"a: 'x\n---\n'\n", 'n'},
	{"a: 'x\n--- y'\n", 'n'},
	{"a: \"x\\\n...\"\n", 'y'},
	{"a: \"x\\\n... \"\n", 'n'},
	{"a: 'x\n---y\n'\n", 'y'},
	{"a: 'x\ny\n'\nb: \"c\n#d\"\n", 'y'},
	{"- \"a\n  b\"\n- c\n", 'y'},
	{"a: \"x\": 1\n", 'n'},
	// Flow collections on one line.
	{"a: [x, y, z]\n", 'y'},
	{"a: []\nb: {}\nc: [ ]\n", 'y'},
	{"a: {x: 1, y: two}\n", 'y'},
	{"a: {\"x\": 1, 'y':2, \"z\":[1]}\n", 'y'},
	{"a: [a, [b, c], {d: e}]\n", 'y'},
	{"a: [x, y,]\n", 'y'},
	{"a: {x: 1,}\n", 'y'},
	{"a: [\"x\", 'y''s', \"\\u00e9\"]\n", 'y'},
	{"a: [1, -2, 3.5, true, null, ~, 0x1F]\n", 'y'},
	{"a: [x y, z]  # c\n", 'y'},
	{"a: [x] y\n", 'n'},
	{"a: [x,\n  y]\n", 'n'},
	{"a: [x: 1]\n", 'n'},
	{"a: {x}\n", 'n'},
	{"a: {x: }\n", 'n'},
	{"a: {x:1}\n", 'n'},
	{"a: [x:y]\n", '?'},
	{"a: [http://x]\n", 'y'},
	{"a: [,]\n", 'n'},
	{"a: [? x]\n", 'n'},
	{"a: [x #c]\n", 'n'},
	{"a: [x#c]\n", 'y'},
	{"a: [-]\n", '?'},
	{"a: [-x, - x]\n", 'n'},
	{"[a, b]\n", 'y'},
	{"{a: 1}\n", 'y'},
	{"{a: 1}\nb: 2\n", 'n'},
	// JSON over several lines: refused here, ParseFile reads it with
	// ParseJSONAsYAML.
	{"{\n  \"name\": \"x\",\n  \"description\": \"y\",\n  \"parameters\": [\n    {\"name\": \"p\", \"type\": \"string\"}\n  ]\n}\n", 'n'},
	{"[\n  {\"name\": \"a\", \"description\": \"b\"},\n  {\"name\": \"c\"}\n]\n", 'n'},
	{"{\n  \"name\": \"x\",\n}\n", 'n'},
	{"{\"name\": \"x\"}\n# c\n", 'y'},
	// Numbers and other tags of every shape.
	{"- 0\n- -0\n- +1\n- 012\n- 08\n- 0x1F\n- 0o17\n- 0b101\n- -0b101\n- -0o17\n- 1_000\n- 1_\n- 9223372036854775808\n- 18446744073709551616\n- -9223372036854775809\n", 'y'},
	{"- 1.5\n- -1.5\n- .5\n- 1.\n- 1e5\n- 1E+5\n- 1e-5\n- .inf\n- -.Inf\n- +.INF\n- .nan\n- .NaN\n- 1e400\n- 0x1p3\n- 1_0.5\n- .\n- ..\n- -.\n", 'y'},
	{"- true\n- True\n- TRUE\n- tRUE\n- yes\n- no\n- on\n- off\n- y\n- n\n- false\n- null\n- Null\n- NULL\n- nULL\n- ~\n- ~x\n", 'y'},
	{"- 2026-01-01\n- 2026-1-2\n- 2026-01-01T10:00:00Z\n- 2026-01-01 10:00:00\n- 2026-01-01t10:00:00+02:00\n- 2026-13-01\n- 20260101\n- 2026-01-01x\n", 'y'},
	{"- +\n- -a\n- 0b\n- 0o\n- 0x\n- 0b2\n- 0o9\n- +0x10\n- -0x10\n- 1__2\n- _1\n- 0_x10\n", 'y'},
	// Unicode: columns count characters.
	{"é: ü\n日本語: 値\n😀: 🎉\nx: [é, 日本, 😀]\ny: {é: ü}\n", 'y'},
	{"- 日本語: 値\n  b:\n- 😀😀: x\n  c:\n", 'y'},
	{"a: \"日本\n  語\"\nb: 😀\n  😀\n", 'y'},
	{"a: |\n  日本語\n  😀\nb: x\n", 'y'},
	{"a: \u00a0b\n", 'y'},
	{"a: b\u0085c\n", 'n'},
	{"a: b\u2028c\n", 'n'},
	{"\ufeffa: 1\n", 'n'},
	{"a: \ufeffb\n", 'n'},
	{"a: \x7f\n", 'n'},
	{"a: \x01\n", 'n'},
	// Tabs and CR: refused.
	{"a:\t1\n", 'n'},
	{"a: 1\r\nb: 2\r\n", 'y'},
	{"a: 1\rb: 2\r", 'n'},
	{"a: 1\r\nb: 2\r", 'n'},
	{"# c\r\n---\r\na: |\r\n  x  \r\n\r\n  y\r\nb: >-\r\n  p\r\n  q\r\nc: \"d\\\r\n  e\r\n\r\n  f\"\r\nd: 'g\r\n  h'\r\ne: i\r\n  j\r\nf: [k, l]\r\ng:\r\n- m\r\n- n: o\r\n  p:\r\n", 'y'},
	{"a: |+\r\n  x\r\n\r\n", 'y'},
	{"a: x\r\n...\r\n", 'n'},
	{"a:\n\tb: 1\n", 'n'},
	// Comments: '#' starts one only after a blank.
	{"# c\na: 1 # c\n# c\nb: # c\n  c: 2 # c\n  # c\n# c\n", 'y'},
	{"a: 1\n  # deeper comment\nb: 2\n", 'y'},
	{"a:\n  b: 1\n# c\n  c: 2\n", 'y'},
	{"- a\n# c\n- b\n", 'y'},
	{"a: 'x' #c\nb: \"y\"   #c\nc: [x] #c\nd: |  #c\n  x\n", 'y'},
	{"a: 1 #", 'y'},
	{"a: 1\n#", 'y'},
}

// yamlNodeDiff returns the first difference between two trees, or "",
// ignoring the comment fields.
func yamlNodeDiff(path string, a, b *yaml.Node) string {
	if a == nil || b == nil {
		if a != b {
			return path + ": one node is nil"
		}
		return ""
	}
	type fields struct {
		Kind                  yaml.Kind
		Style                 yaml.Style
		Tag, Value, Anchor    string
		Line, Column, Content int
		Alias                 bool
	}
	fa := fields{a.Kind, a.Style, a.Tag, a.Value, a.Anchor, a.Line, a.Column, len(a.Content), a.Alias != nil}
	fb := fields{b.Kind, b.Style, b.Tag, b.Value, b.Anchor, b.Line, b.Column, len(b.Content), b.Alias != nil}
	if fa != fb {
		return fmt.Sprintf("%s: fast %+v, yaml.v3 %+v", path, fa, fb)
	}
	if (a.Content == nil) != (b.Content == nil) {
		return path + ": Content nil in one tree only"
	}
	for i := range a.Content {
		if d := yamlNodeDiff(fmt.Sprintf("%s/%d", path, i), a.Content[i], b.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

// safeYAMLDoc is yamlDoc that turns a yaml.v3 panic into an error.
func safeYAMLDoc(data []byte) (doc *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml.v3 panicked: %v", r)
		}
	}()
	return yamlDoc(data)
}

// checkYAMLNode compares the fast tree with yaml.v3's when the fast path
// takes data, and returns why it refused it ("" when it took it).
func checkYAMLNode(t *testing.T, name string, data []byte) string {
	t.Helper()
	fast, why := fastnode.YAMLWhy(data)
	checkYAMLList(t, name, data, fast)
	checkYAMLDocs(t, name, data)
	if fast == nil {
		if why == "" {
			t.Errorf("%s: refused without a reason", name)
		}
		return why
	}
	if why != "" {
		t.Errorf("%s: took it but says %q", name, why)
	}
	want, err := safeYAMLDoc(data)
	if err != nil {
		t.Errorf("%s: fast path took what yaml.v3 rejects: %v", name, err)
		return ""
	}
	if d := yamlNodeDiff("", fast, want); d != "" {
		t.Errorf("%s: %s", name, d)
	}
	return ""
}

func TestYAMLNodeCases(t *testing.T) {
	for i, tc := range yamlNodeCases {
		name := fmt.Sprintf("case %d %.60q", i, tc.src)
		why := checkYAMLNode(t, name, []byte(tc.src))
		if tc.want == 'y' && why != "" || tc.want == 'n' && why == "" {
			t.Errorf("%s: fast path took it = %v (%s), want %c", name, why == "", why, tc.want)
		}
	}
}

// TestYAMLPlainTag compares plainTag with the tag yaml.v3 gives a plain
// scalar, on numbers, dates and words of many shapes.
func TestYAMLPlainTag(t *testing.T) {
	var words []string
	parts := []string{"", "0", "1", "9", "-", "+", ".", "_", "e", "E", "x", "o", "b", "0x", "0o", "0b", "inf", "nan", "Inf", "12", "2026", "-01", "-1", "T", "t", " ", ":", "Z", "+02:00", "10:00:00", ".5"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		words = append(words, strings.TrimSpace(b.String()))
	}
	words = append(words, "<<", "~", "null", "true", "False", "2026-01-01", "2001-12-14t21:59:43.10-05:00", "2002-12-14", "0o777", "-0o777", "0b1111111111111111111111111111111111111111111111111111111111111111", "-0b1000000000000000000000000000000000000000000000000000000000000000")
	for _, w := range words {
		if w == "" || !fastnode.PlainStart([]byte(w), 0) {
			continue
		}
		doc, err := safeYAMLDoc([]byte("- " + w + "\n"))
		if err != nil || len(doc.Content) == 0 || len(doc.Content[0].Content) != 1 {
			continue
		}
		n := doc.Content[0].Content[0]
		if n.Kind != yaml.ScalarNode || n.Style != 0 || n.Value != w {
			continue
		}
		if got := fastnode.PlainTag(w); got != n.Tag {
			t.Errorf("fastnode.PlainTag(%q) = %s, yaml.v3 %s", w, got, n.Tag)
		}
	}
}

// TestYAMLNodeRandom writes random YAML documents with every construct
// the fast path knows (and some it does not), and compares both parsers.
func TestYAMLNodeRandom(t *testing.T) {
	took, total := 0, 0
	reasons := map[string]int{}
	for seed := range uint64(4000) {
		src := randomYAML(rand.New(rand.NewPCG(seed, 7)))
		total++
		why := checkYAMLNode(t, fmt.Sprintf("doc %d %q", seed, src), []byte(src))
		if why == "" {
			took++
		} else {
			reasons[why]++
		}
	}
	t.Logf("fast path took %d of %d; refusals: %v", took, total, reasons)
	if took < total/3 {
		t.Errorf("fast path took only %d of %d", took, total)
	}
}

// randomYAML writes a random document.
func randomYAML(rng *rand.Rand) string {
	var b strings.Builder
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	pad := func(n int) string { return strings.Repeat(" ", n) }
	comment := func() string {
		if rng.IntN(6) == 0 {
			return pick(" # c", "  #", " # a: b", " #- x")
		}
		return ""
	}
	blank := func(indent int) {
		for range rng.IntN(2) * rng.IntN(3) {
			b.WriteString(pick("\n", pad(rng.IntN(indent+3))+"\n", pad(rng.IntN(indent+3))+"# comment\n"))
		}
	}
	word := func() string {
		return pick("a", "b c", "tool", "é", "日本", "😀", "x-y", "1", "-1", "0x1F", "1.5", "true", "null", "~", "2026-01-01", "a:b", "a#b", "http://x/y", "-x", "<<", ".inf", "a  b", "[x]", "{y}", "a,b", "x?", "'q'", `"q"`, "a - b", "%", "@", "a\\b")
	}
	quoted := func(indent int) string {
		var s strings.Builder
		q := pick(`"`, `'`)
		s.WriteString(q)
		for range rng.IntN(6) {
			switch rng.IntN(12) {
			case 0:
				s.WriteString("\n" + pad(indent+rng.IntN(3)))
			case 1:
				s.WriteString("\n\n" + pad(indent+1))
			case 2:
				if q == `"` {
					s.WriteString(pick(`\n`, `\t`, `\"`, `\\`, `\x41`, `\u00e9`, `\U0001F600`, `\0`, `\e`, `\N`, `\_`, `\L`, `\ `, "\\\n"+pad(indent+1), `\/`, `\q`))
				} else {
					s.WriteString("''")
				}
			case 3:
				s.WriteString(pick("  ", " ", "   "))
			default:
				s.WriteString(pick("a", "b c", "é", "😀", "#", ": ", " #", "-", "x"))
			}
		}
		s.WriteString(q)
		return s.String()
	}
	var block func(indent, depth int)
	scalar := func(indent int, inFlow bool) string {
		switch k := rng.IntN(10); {
		case k < 5:
			return word()
		case k < 8 || inFlow:
			if inFlow {
				return strings.ReplaceAll(quoted(0), "\n", " ")
			}
			return quoted(indent)
		default:
			return "" // caller makes a multi-line plain
		}
	}
	var flow func(depth int) string
	flow = func(depth int) string {
		var s strings.Builder
		if rng.IntN(2) == 0 {
			s.WriteString("[")
			for i := range rng.IntN(4) {
				if i > 0 {
					s.WriteString(pick(", ", ",", " , "))
				}
				if depth < 3 && rng.IntN(4) == 0 {
					s.WriteString(flow(depth + 1))
				} else {
					s.WriteString(scalar(0, true))
				}
			}
			s.WriteString(pick("]", ",]", " ]"))
		} else {
			s.WriteString("{")
			for i := range rng.IntN(4) {
				if i > 0 {
					s.WriteString(pick(", ", ","))
				}
				s.WriteString(pick("a", "b", `"c"`, "'d'", "é") + pick(": ", ":", " : "))
				if depth < 3 && rng.IntN(4) == 0 {
					s.WriteString(flow(depth + 1))
				} else {
					s.WriteString(scalar(0, true))
				}
			}
			s.WriteString(pick("}", " }"))
		}
		return s.String()
	}
	// value writes what follows "key:" or "-" at a collection indented by
	// indent.
	value := func(indent, depth int, seq bool) {
		switch k := rng.IntN(12); {
		case k < 5:
			s := scalar(indent, false)
			if s == "" {
				s = word()
				for range 1 + rng.IntN(3) {
					s += "\n" + pick("", "\n") + pad(indent+1+rng.IntN(3)) + word()
				}
			}
			b.WriteString(" " + s + comment() + "\n")
		case k < 6:
			b.WriteString(" " + flow(0) + comment() + "\n")
		case k < 8:
			b.WriteString(" " + pick("|", ">") + pick("", "-", "+") + pick("", "", "1", "2") + comment() + "\n")
			in := indent + 1 + rng.IntN(3)
			for range rng.IntN(5) {
				switch rng.IntN(5) {
				case 0:
					b.WriteString("\n")
				case 1:
					b.WriteString(pad(in+1+rng.IntN(2)) + "more " + word() + "\n")
				case 2:
					b.WriteString(pad(rng.IntN(in+2)) + "\n")
				default:
					b.WriteString(pad(in) + pick("text", "# not a comment", "a: b", "- x", word()) + "\n")
				}
			}
		case k < 9 && depth < 5:
			b.WriteString(comment() + "\n")
			blank(indent)
			if !seq && rng.IntN(2) == 0 {
				block(indent, depth+1) // an indentless sequence, or an error
			} else {
				block(indent+1+rng.IntN(3), depth+1)
			}
		case k < 10:
			b.WriteString(comment() + "\n") // empty
		default:
			if seq && depth < 5 {
				// A compact mapping or sequence.
				b.WriteString(" ")
				inner := indent + 2
				if rng.IntN(2) == 0 {
					b.WriteString("- " + word() + "\n")
					for range rng.IntN(3) {
						b.WriteString(pad(inner) + "- " + word() + "\n")
					}
				} else {
					b.WriteString(pick("k", `"q k"`, "é") + ": " + word() + "\n")
					for range rng.IntN(3) {
						b.WriteString(pad(inner) + pick("k2", "k3", "'k4'") + ":" + pick(" "+word(), "") + "\n")
					}
				}
			} else {
				b.WriteString(" " + word() + "\n")
			}
		}
	}
	block = func(indent, depth int) {
		n := 1 + rng.IntN(4)
		if rng.IntN(2) == 0 {
			for range n {
				b.WriteString(pad(indent) + "-")
				value(indent, depth, true)
				blank(indent)
			}
			return
		}
		for range n {
			b.WriteString(pad(indent) + pick("name", "type", "a b", `"quoted"`, "'single'", "é", "1", "true", "k") + pick(":", ":", " :"))
			value(indent, depth, false)
			blank(indent)
		}
	}
	if rng.IntN(10) == 0 {
		b.WriteString(pick("---\n", "--- # c\n", "# head\n---\n"))
	}
	blank(0)
	block(rng.IntN(2), 0)
	if rng.IntN(8) == 0 {
		return strings.ReplaceAll(b.String(), "\n", "\r\n")
	}
	return b.String()
}

// yamlFiles returns every .yaml and .yml file under root (nil when root is
// absent), and the .yaml and .yml files in its txtar archives.
func yamlFiles(t testing.TB, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".yaml", ".yml":
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[p] = data
		case ".txtar":
			a, err := txtar.ParseFile(p)
			if err != nil {
				return err
			}
			for _, f := range a.Files {
				if ext := strings.ToLower(filepath.Ext(f.Name)); ext == ".yaml" || ext == ".yml" {
					files[p+":"+f.Name] = f.Data
				}
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return files
}

// testYAMLNodeFiles runs the differential check on files and reports how
// many the fast path took and why it refused the others.
func testYAMLNodeFiles(t *testing.T, files map[string][]byte) (took int, reasons map[string]int) {
	reasons = map[string]int{}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if why := checkYAMLNode(t, name, files[name]); why == "" {
			took++
		} else {
			reasons[why]++
			if testing.Verbose() && os.Getenv("TOOLCTL_YAML_REFUSALS") != "" {
				t.Logf("%s: %s", name, why)
			}
		}
	}
	t.Logf("%d YAML files: fast path %d, fallback %d (%.1f%%): %v", len(files), took, len(files)-took, 100*float64(len(files)-took)/float64(max(len(files), 1)), reasons)
	return took, reasons
}

func TestYAMLNodeCorpora(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	files := yamlFiles(t, corpusDir)
	if took, _ := testYAMLNodeFiles(t, files); took < len(files)*9/10 {
		t.Errorf("fast path took only %d of %d", took, len(files))
	}
}

func TestYAMLNodeRepo(t *testing.T) {
	files := yamlFiles(t, repoRoot)
	// The lint fixtures include broken files on purpose; tools/ must go
	// through the fast path.
	testYAMLNodeFiles(t, files)
	for name, data := range files {
		if strings.HasPrefix(name, filepath.Join(repoRoot, "tools")+string(filepath.Separator)) {
			if _, why := fastnode.YAMLWhy(data); why != "" {
				t.Errorf("%s: refused (%s)", name, why)
			}
		}
	}
}

func TestYAMLNodeBenchCorpus(t *testing.T) {
	dir := os.Getenv("TOOLCTL_BENCH_DIR")
	if dir == "" {
		t.Skip("TOOLCTL_BENCH_DIR is not set")
	}
	files := yamlFiles(t, dir)
	if took, _ := testYAMLNodeFiles(t, files); took < len(files)*95/100 {
		t.Errorf("fast path took only %d of %d", took, len(files))
	}
}

// TestYAMLNodeParseFile checks the whole parse: tools, errors and their
// positions are the same with and without the fast path.
func TestYAMLNodeParseFile(t *testing.T) {
	files := yamlFiles(t, repoRoot)
	for _, dir := range []string{corpusDir, os.Getenv("TOOLCTL_BENCH_DIR")} {
		if dir == "" {
			continue
		}
		for name, data := range yamlFiles(t, dir) {
			files[name] = data
		}
	}
	for i, tc := range yamlNodeCases {
		files[fmt.Sprintf("case%d.yaml", i)] = []byte(tc.src)
	}
	// Streams of documents (ParseYAMLDocs): the repository's files three
	// by three, after a "---" each.
	repo := yamlFiles(t, repoRoot)
	names := make([]string, 0, len(repo))
	for name := range repo {
		names = append(names, name)
	}
	sort.Strings(names)
	docs := 0
	for i := 0; i+2 < len(names); i += 3 {
		var b bytes.Buffer
		for _, name := range names[i : i+3] {
			b.WriteString("---\n")
			b.Write(repo[name])
			if !bytes.HasSuffix(repo[name], []byte("\n")) {
				b.WriteByte('\n')
			}
		}
		if fastnode.ParseYAMLDocs(b.Bytes(), nil) {
			docs++
		}
		files[fmt.Sprintf("docs%d.yaml", i)] = b.Bytes()
	}
	if docs < len(names)/3/2 {
		t.Errorf("ParseYAMLDocs took %d of %d streams of the repository's files", docs, len(names)/3)
	}
	defer func() { fastnode.UseYAML = true }()
	for name, data := range files {
		path := name
		if i := strings.LastIndex(name, ":"); i >= 0 {
			path = name[i+1:]
		}
		fastnode.UseYAML = true
		got := parseSummary(spec.ParseFile(path, data))
		fastnode.UseYAML = false
		want := parseSummary(spec.ParseFile(path, data))
		if got != want {
			t.Errorf("%s: with the fast path\n%s\nwithout\n%s", name, got, want)
		}
	}
}

// TestYAMLNodeMutations mutates the repository's YAML files a line or a
// character at a time, the way people break them, and compares both
// parsers on the results.
func TestYAMLNodeMutations(t *testing.T) {
	files := yamlFiles(t, repoRoot)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	rng := rand.New(rand.NewPCG(8, 9))
	bits := []string{" ", "  ", "\n", ":", ": ", "-", "- ", "#", " #", "'", "\"", "\\", "|", ">", "[", "]", "{", "}", ",", "?", "é", "---", "...", "|-", ">+", "\n  ", "\n- ", "x"}
	took, total := 0, 0
	for _, name := range names {
		data := files[name]
		if len(data) == 0 {
			continue
		}
		for range 60 {
			b := []byte(string(data))
			for range 1 + rng.IntN(3) {
				i := rng.IntN(len(b) + 1)
				switch rng.IntN(4) {
				case 0: // insert
					b = append(b[:i], append([]byte(bits[rng.IntN(len(bits))]), b[i:]...)...)
				case 1: // delete
					if j := i + 1 + rng.IntN(3); j <= len(b) {
						b = append(b[:i], b[j:]...)
					}
				case 2: // indent or dedent a line
					ls := bytes.LastIndexByte(b[:i], '\n') + 1
					if rng.IntN(2) == 0 {
						b = append(b[:ls], append([]byte(" "), b[ls:]...)...)
					} else if ls < len(b) && b[ls] == ' ' {
						b = append(b[:ls], b[ls+1:]...)
					}
				case 3: // duplicate a line
					ls := bytes.LastIndexByte(b[:i], '\n') + 1
					le := bytes.IndexByte(b[i:], '\n')
					if le >= 0 {
						line := string(b[ls : i+le+1])
						b = append(b[:ls], append([]byte(line), b[ls:]...)...)
					}
				}
			}
			total++
			if checkYAMLNode(t, fmt.Sprintf("%s mutated %q", name, b), b) == "" {
				took++
			}
		}
	}
	t.Logf("fast path took %d of %d mutated files", took, total)
}

// FuzzYAMLNode: whatever the fast path takes, yaml.v3 reads to the same
// tree (comments aside).
//
//	go test ./pkg/spec/internal/fastnode -run '^$' -fuzz FuzzYAMLNode -fuzztime 60s
func FuzzYAMLNode(f *testing.F) {
	for _, tc := range yamlNodeCases {
		f.Add([]byte(tc.src))
	}
	for seed := range uint64(50) {
		f.Add([]byte(randomYAML(rand.New(rand.NewPCG(seed, 7)))))
	}
	// Streams of documents (ParseYAMLDocs).
	for seed := range uint64(10) {
		r := rand.New(rand.NewPCG(seed, 11))
		f.Add([]byte(randomYAML(r) + "\n---\n" + randomYAML(r) + "\n---\n" + randomYAML(r)))
	}
	// Real tool files, for structure to mutate.
	paths, _ := filepath.Glob(repoRoot + "/tools/*.yaml")
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkYAMLNode(t, "input", data)
	})
}

// TestYAMLText checks the word-at-a-time character check against a plain
// one, byte values around every boundary in every position of a word.
func TestYAMLText(t *testing.T) {
	plain := func(data []byte) (bool, bool) {
		ascii := true
		for _, r := range string(data) {
			if r >= utf8.RuneSelf {
				ascii = false
			}
			switch {
			case r == '\n', r >= ' ' && r < 0x7F:
			case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000:
				if r == 0x2028 || r == 0x2029 || r == 0xFEFF {
					return ascii, false
				}
			default:
				return ascii, false
			}
		}
		return ascii, utf8.Valid(data) // invalid bytes decode as U+FFFD above
	}
	rng := rand.New(rand.NewPCG(5, 6))
	special := []string{"\n", "\t", "\r", "\x00", "\x1f", " ", "~", "\x7f", "\x80", "é", "\u0085", "\u00a0", "\u2028", "\ufeff", "\ufffd", "\uffff", "😀", "\xff"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(20) {
			if rng.IntN(4) == 0 {
				b.WriteString(special[rng.IntN(len(special))])
			} else {
				b.WriteByte(byte('a' + rng.IntN(26)))
			}
		}
		data := []byte(b.String())
		ascii, why := fastnode.YAMLText(data)
		wantASCII, wantOK := plain(data)
		if (why == "") != wantOK || wantOK && ascii != wantASCII {
			t.Errorf("fastnode.YAMLText(%q) = %v, %q; want %v, ok %v", data, ascii, why, wantASCII, wantOK)
		}
	}
}

// checkYAMLList: ParseYAMLList takes what ParseYAML takes (fast, nil when
// it refuses) when its root is a block sequence or a container whose
// "tools" is one, and hands over each element's tree as ParseYAML builds
// it; it hands over nothing of a document ParseYAML refuses, however late
// the reason comes.
func checkYAMLList(t *testing.T, name string, data []byte, fast *yaml.Node) {
	t.Helper()
	var items []*yaml.Node
	at, ok := fastnode.ParseYAMLList(data, func(at fastnode.ListAt, i int, item *yaml.Node) {
		if i != len(items) {
			t.Errorf("%s: element %d handed over as %d", name, len(items), i)
		}
		items = append(items, item)
	})
	if fast == nil {
		if ok || len(items) > 0 {
			t.Errorf("%s: ParseYAMLList ok=%v, %d elements handed over, of a document ParseYAML refuses", name, ok, len(items))
		}
		return
	}
	wantAt, want := listIn(fast.Content[0], true)
	switch {
	case at != wantAt:
		t.Errorf("%s: ParseYAMLList says %v, ParseYAML's tree %v", name, at, wantAt)
	case at == fastnode.NoList:
		if len(items) > 0 {
			t.Errorf("%s: ParseYAMLList handed over %d elements of no list", name, len(items))
		}
	case !ok:
		t.Errorf("%s: ParseYAMLList refuses a list ParseYAML takes", name)
	default:
		sameTrees(t, name+": ParseYAMLList's elements and ParseYAML's", items, want, yamlNodeDiff, "/%d")
	}
}

// Lists whose refusal comes after some elements: nothing is handed over.
func TestYAMLListLateRefusal(t *testing.T) {
	for _, src := range []string{
		"- a: 1\n- b: 2\n- c:\t3\n",
		"- a: 1\n- b: 2\n---\n- c: 3\n",
		"- a: 1\n- b: 2\nc: 3\n",
		"- a: 1\n- b: &x 2\n",
		"- a: 1\n- b: [1,\n  2]\n",
		"- a: 1\n - b: 2\n",
	} {
		n := 0
		at, ok := fastnode.ParseYAMLList([]byte(src), func(fastnode.ListAt, int, *yaml.Node) { n++ })
		if ok || n > 0 {
			t.Errorf("%q: list %v, ok %v, %d elements handed over; want it refused, none", src, at, ok, n)
		}
		checkYAMLNode(t, fmt.Sprintf("%q", src), []byte(src))
	}
}

// TestYAMLLongNonASCIILine: the columns of the nodes of a long line that
// is not ASCII (a JSON document on one line, in a .yaml file or an
// editor's buffer) are yaml.v3's, and counting them costs the line's
// length once: counted from the line's start for each node, 20000
// parameters took minutes. The bound only catches that (it takes
// milliseconds).
func TestYAMLLongNonASCIILine(t *testing.T) {
	line := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"name": "t", "input_schema": {"type": "object", "properties": {`)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"p_%d": {"type": "string", "description": "Paramètre n° %d, «optionnel»."}`, i, i)
		}
		b.WriteString("}}, description: 'été'}\n")
		return []byte(b.String())
	}
	if why := checkYAMLNode(t, "200 parameters on a line", line(200)); why != "" {
		t.Fatalf("refused: %s", why)
	}
	done := make(chan bool)
	go func() {
		fast, _ := fastnode.YAMLWhy(line(20000))
		done <- fast != nil
	}()
	select {
	case took := <-done:
		if !took {
			t.Fatal("20000 parameters on a line: refused")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("20000 parameters on a line: not parsed in a minute")
	}
}

// Containers ({tools: [...]}) in YAML and JSON, with other keys (and
// collections, whose children sit before the list's in the parser's
// buffers) before and after the list: ParseYAMLList and ParseJSONList hand
// over the elements of "tools" exactly as the whole tree has them, and
// nothing of a mapping that is a tool (a "name" key, wherever it is), has
// two "tools", or whose "tools" is no block list.
func TestListContainers(t *testing.T) {
	yamlCases := []struct {
		src  string
		want fastnode.ListAt
	}{
		{"tools:\n- name: a\n  x: [1, 2]\n- name: b\n", fastnode.ToolsList},
		{"tools:\n  - name: a\n    nested:\n      - 1\n      - {k: v}\n  - name: b\n", fastnode.ToolsList},
		{"version: 1\nmeta:\n  a: [1, 2, {b: c}]\n  d:\n  - e\ntools:\n- name: a\n- name: b\nafter:\n  - x: 1\n", fastnode.ToolsList},
		{"tools:\n- 1\n- [a, b]\n- name: c\n", fastnode.ToolsList},
		{"tools:\n- name: a\nname: not a container\n", fastnode.NoList},
		{"name: t\ntools:\n- name: a\n", fastnode.NoList},
		{"tools: [a, b]\n", fastnode.NoList},
		{"tools: []\n", fastnode.NoList},
		{"tools:\n", fastnode.NoList},
		{"tools:\n  name: a\n", fastnode.NoList},
		{"other:\n- a\n- b\n", fastnode.NoList},
		{"x:\n  tools:\n  - a\n", fastnode.NoList},
		{"- tools:\n  - a\n", fastnode.RootList},
	}
	for _, tc := range yamlCases {
		checkYAMLNode(t, fmt.Sprintf("%q", tc.src), []byte(tc.src))
		n := 0
		at, ok := fastnode.ParseYAMLList([]byte(tc.src), func(fastnode.ListAt, int, *yaml.Node) { n++ })
		if at != tc.want || (at != fastnode.NoList) != ok || (n > 0) != (at != fastnode.NoList) {
			t.Errorf("%q: %v ok %v, %d handed over; want %v", tc.src, at, ok, n, tc.want)
		}
	}
	jsonCases := []struct {
		src  string
		want fastnode.ListAt
	}{
		{`{"tools":[{"name":"a","x":[1,2]},{"name":"b"}]}`, fastnode.ToolsList},
		{`{"version":1,"meta":{"a":[1,2,{"b":"c"}],"d":["e"]},"tools":[{"name":"a","n":[1,{"k":[2]}]},{"name":"b"}],"after":[{"x":1}]}`, fastnode.ToolsList},
		{"{\n  \"tools\": [\n    {\"name\": \"a\"},\n    [1, 2],\n    3\n  ]\n}\n", fastnode.ToolsList},
		{`{"tools":[{"name":"a"}],"name":"tool"}`, fastnode.NoList},
		{`{"tools":[{"name":"a"}],"tools":[{"name":"b"}]}`, fastnode.NoList},
		{`{"tools":[]}`, fastnode.NoList},
		{`{"tools":{"name":"a"}}`, fastnode.NoList},
		{`{"x":{"tools":[1]}}`, fastnode.NoList},
		{`[{"tools":[1]}]`, fastnode.RootList},
	}
	for _, tc := range jsonCases {
		checkStrict(t, tc.src, []byte(tc.src))
		n := 0
		at, _, ok := fastnode.ParseJSONList([]byte(tc.src), func(fastnode.ListAt, int, *yaml.Node) { n++ })
		if at != tc.want || (at != fastnode.NoList) != ok || (n > 0) != (at != fastnode.NoList) {
			t.Errorf("%s: %v ok %v, %d handed over; want %v", tc.src, at, ok, n, tc.want)
		}
	}
	// A container refused late: nothing handed over.
	for _, src := range []string{"tools:\n- a: 1\n- b: 2\nc:\t3\n", "tools:\n- a: 1\n- b: &x 2\n"} {
		n := 0
		if at, ok := fastnode.ParseYAMLList([]byte(src), func(fastnode.ListAt, int, *yaml.Node) { n++ }); ok || n > 0 {
			t.Errorf("%q: %v ok %v, %d handed over; want it refused, none", src, at, ok, n)
		}
	}
	n := 0
	if at, _, ok := fastnode.ParseJSONList([]byte(`{"tools":[{"a":1},{"b":2}],"c":}`), func(fastnode.ListAt, int, *yaml.Node) { n++ }); ok || n > 0 {
		t.Errorf("late JSON refusal: %v ok %v, %d handed over", at, ok, n)
	}
}

// TestListToolStopsEarly: a large file that is one tool (a mapping with a
// "name" key) is no list, and ParseJSONList and ParseYAMLList say so at
// its "name" key, without parsing (and allocating the nodes of) the rest:
// the caller parses it whole next.
func TestListToolStopsEarly(t *testing.T) {
	var js, ys strings.Builder
	js.WriteString(`{"name": "big", "properties": {`)
	ys.WriteString("name: big\nproperties:\n")
	for i := range 20000 {
		if i > 0 {
			js.WriteString(", ")
		}
		fmt.Fprintf(&js, `"p%d": {"type": "string", "description": "Parameter %d."}`, i, i)
		fmt.Fprintf(&ys, "  p%d:\n    type: string\n    description: Parameter %d.\n", i, i)
	}
	js.WriteString("}}")
	jdata, ydata := []byte(js.String()), []byte(ys.String())
	for _, tc := range []struct {
		name  string
		parse func() fastnode.ListAt
	}{
		{"json", func() fastnode.ListAt {
			at, _, _ := fastnode.ParseJSONList(jdata, func(fastnode.ListAt, int, *yaml.Node) {})
			return at
		}},
		{"yaml", func() fastnode.ListAt {
			at, _ := fastnode.ParseYAMLList(ydata, func(fastnode.ListAt, int, *yaml.Node) {})
			return at
		}},
	} {
		tc.parse() // the parsers' pools
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		at := tc.parse()
		runtime.ReadMemStats(&after)
		if at != fastnode.NoList {
			t.Errorf("%s: %v, want NoList", tc.name, at)
		}
		// 1 MiB: a collection between the two parses empties the parsers'
		// pools (CI once saw 74 KB); parsing the file whole was 49 MB.
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Errorf("%s: %d bytes allocated to find that a %d-byte file is one tool; it is at its first key", tc.name, n, js.Len())
		}
	}
}

// safeYAMLDocs is every document yaml.v3's Decoder reads in data.
func safeYAMLDocs(data []byte) (docs []*yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml.v3 panicked: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err == io.EOF {
			return docs, nil
		} else if err != nil {
			return nil, err
		}
		docs = append(docs, &doc)
	}
}

// checkYAMLDocs: what ParseYAMLDocs takes, yaml.v3's Decoder reads as the
// same documents, with the same trees; it hands over nothing of a stream
// it refuses.
func checkYAMLDocs(t *testing.T, name string, data []byte) {
	t.Helper()
	var got []*yaml.Node
	ok := fastnode.ParseYAMLDocs(data, func(doc *yaml.Node) { got = append(got, doc) })
	if !ok {
		if len(got) > 0 {
			t.Errorf("%s: ParseYAMLDocs refused the stream after handing over %d documents", name, len(got))
		}
		return
	}
	want, err := safeYAMLDocs(data)
	if err != nil {
		t.Errorf("%s: ParseYAMLDocs took a stream yaml.v3 rejects: %v", name, err)
		return
	}
	sameTrees(t, name+": ParseYAMLDocs's documents and yaml.v3's", got, want, yamlNodeDiff, "document %d")
}

// sameTrees fails unless got and want hold as many trees, each the same
// as its peer (diff, "" when they are; path names the i-th, a format).
func sameTrees(t *testing.T, what string, got, want []*yaml.Node, diff func(path string, a, b *yaml.Node) string, path string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d trees, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		if d := diff(fmt.Sprintf(path, i), got[i], want[i]); d != "" {
			t.Errorf("%s differ: %s", what, d)
			return
		}
	}
}

// TestYAMLDocs: streams of documents that ParseYAMLDocs reads as yaml.v3
// does (checkYAMLDocs), and ones it leaves to yaml.v3.
func TestYAMLDocs(t *testing.T) {
	for _, tc := range []struct {
		src  string
		take bool
	}{
		{"name: a\n---\nname: b\n", true},
		{"---\nname: a\n---\nname: b\n", true},
		{"# head\n---\nname: a\nx: |\n  text\n---\n# c\nname: b\ny: >\n  folded\n  more\n---\n- name: c\n- name: d\n", true},
		{"name: a\nd: plain\n  continued\n---\ntools:\n- name: b\n", true},
		{"name: a\nk:\n---\nname: b\n", true},
		{"name: ツール\n---\nname: é\n", true},
		{"name: a\r\n---\r\nname: b\r\n", true},
		{"name: a\n--- # comment\nname: b\n", true},
		{"[a, b]\n---\n{c: d}\n", true},
		{"name: a\n", false},                    // one document: ParseYAML's
		{"name: a\n---\n", false},               // an empty document
		{"name: a\n---\n---\nname: b\n", false}, // an empty document
		{"name: a\n...\n---\nname: b\n", false}, // an end marker
		{"name: a\n--- x\n", false},
		{"name: a\n--- |\n  x\n", false},
		{"name: 'a\n---\nb'\n", false},
		{"name: a\n---\nname: &x b\n", false},
		{"name: a\n---\nname: b\n---\nc: [1,\n", false},
		{"name: a\n---\n- x\ny: 1\n", false},
	} {
		n := 0
		ok := fastnode.ParseYAMLDocs([]byte(tc.src), func(*yaml.Node) { n++ })
		if ok != tc.take || !ok && n > 0 {
			t.Errorf("%q: ok %v, %d documents handed over; want %v", tc.src, ok, n, tc.take)
		}
		checkYAMLNode(t, fmt.Sprintf("%q", tc.src), []byte(tc.src))
	}
}
