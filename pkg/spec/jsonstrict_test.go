package spec

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

	"gopkg.in/yaml.v3"
)

// jsonOnlyCases are valid JSON that yaml.v3 reads differently or rejects:
// parseJSON (a .json file's reader) takes every one, by JSON's rules.
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
func treeValues(n *yaml.Node, pos *[]Pos, values *[]string) {
	switch n.Kind {
	case yaml.DocumentNode:
	case yaml.MappingNode:
		*values = append(*values, "<{>")
		*pos = append(*pos, Pos{Line: n.Line, Col: n.Column})
	case yaml.SequenceNode:
		*values = append(*values, "<[>")
		*pos = append(*pos, Pos{Line: n.Line, Col: n.Column})
	default:
		*values = append(*values, n.Value)
		*pos = append(*pos, Pos{Line: n.Line, Col: n.Column})
	}
	for _, k := range n.Content {
		treeValues(k, pos, values)
	}
}

// checkStrict compares parseJSON's tree with encoding/json's reading of
// data (values) and the file's line table (positions), and with yaml.v3's
// tree where the YAML-compatible parser takes data.
func checkStrict(t *testing.T, name string, data []byte) {
	t.Helper()
	doc, bad, ok := parseJSON(data)
	// JSON is UTF-8 (RFC 8259 §8.1); json.Valid does not check it.
	valid := json.Valid(bytes.TrimPrefix(data, bom)) && utf8.Valid(data)
	if !ok {
		if valid && bad == nil && TooDeep(bytes.TrimPrefix(data, bom)) < 0 {
			t.Errorf("%s: parseJSON refused valid JSON", name)
		}
		// (In invalid JSON the first problem may be the surrogate.)
		if other := FindUnpairedSurrogate(data); bad != nil && valid && (other == nil || other.Offset != bad.Offset) {
			t.Errorf("%s: parseJSON found %v, FindUnpairedSurrogate %v", name, bad, other)
		}
		return
	}
	if !valid {
		t.Errorf("%s: parseJSON took invalid JSON", name)
		return
	}
	if bad := FindUnpairedSurrogate(data); bad != nil {
		t.Errorf("%s: parseJSON took an unpaired surrogate (%v)", name, bad)
	}
	offsets, want, err := jsonOracle(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var pos []Pos
	var got []string
	treeValues(doc, &pos, &got)
	if len(got) != len(want) {
		t.Errorf("%s: %d values, encoding/json %d\n%q\n%q", name, len(got), len(want), got, want)
		return
	}
	f := &File{Data: data}
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
	if yamlTree, ok := parseJSONNode(data); ok {
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
		if _, _, ok := parseJSON([]byte(src)); !ok {
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
	paths := jsonFiles(t, "../..")
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

// FuzzParseJSON: parseJSON takes exactly the valid JSON (but for unpaired
// surrogates and nesting past yaml.v3's limit) and reads it as
// encoding/json does.
//
//	go test ./pkg/spec -run '^$' -fuzz FuzzParseJSON -fuzztime 60s
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

// A .json file is read by JSON's rules: each of these was a "YAML syntax
// error" or a wrong value.
func TestJSONFileByJSONRules(t *testing.T) {
	const rest = `"description": "Adds a smile to a text. Use when a message needs warmth.", "inputSchema": {"type": "object", "properties": {}}}`
	for _, tc := range []struct {
		name, src, want string
	}{
		// Python's json.dumps (ensure_ascii, its default).
		{"surrogate pair", `{"name": "emoji_tool", "x-note": "a smile \ud83d\ude00, a clef \uD834\uDD1E", ` + rest, "a smile 😀, a clef 𝄞"},
		// PHP's json_encode escapes every slash.
		{"escaped slash", `{"name": "slash_tool", "x-note": "https:\/\/example.com\/a", ` + rest, "https://example.com/a"},
		{"DEL", "{\"name\": \"del_tool\", \"x-note\": \"a\x7fb\", " + rest, "a\x7fb"},
		{"C1 control", "{\"name\": \"c1_tool\", \"x-note\": \"a\u0090b\", " + rest, "a\u0090b"},
		// yaml.v3 folded it into a space.
		{"NEL", "{\"name\": \"nel_tool\", \"x-note\": \"a\u0085b\", " + rest, "a\u0085b"},
		{"U+FFFF", "{\"name\": \"nc_tool\", \"x-note\": \"a\uffffb\", " + rest, "a\uffffb"},
		{"NUL escape", `{"name": "nul_tool", "x-note": "a\u0000b", ` + rest, "a\x00b"},
		{"key's colon on the next line", "{\"name\": \"colon_tool\", \"x-note\"\n: \"v\", " + rest, "v"},
		{"tab before the document", "\t{\"name\": \"tab_tool\", \"x-note\": \"v\", " + rest, "v"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool := mustOne(t, "t.json", tc.src)
			if got, _ := tool.Extensions.Get("x-note"); got != tc.want {
				t.Errorf("x-note %q, want %q", got, tc.want)
			}
		})
	}
}

// Positions after what yaml.v3 could not read are exact: a surrogate
// pair is 12 characters of the line, a NEL starts a line as the file's
// line table counts it.
func TestJSONFilePositions(t *testing.T) {
	src := "{\"name\": \"a\",\n \"description\": \"\\ud83d\\ude00 \x7f\", \"x-a\": \"b\u0085c\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"p\": {\"type\": \"string\"}}}}"
	tool := mustOne(t, "t.json", src)
	for ptr, want := range map[string]Span{
		"/description":                    {Start: Pos{Line: 2, Col: 17}, End: Pos{Line: 2, Col: 33}},
		"/input_schema":                   {Start: Pos{Line: 3, Col: 20}, End: Pos{Line: 3, Col: 21}},
		"/input_schema/properties/p":      {Start: Pos{Line: 3, Col: 59}, End: Pos{Line: 3, Col: 60}},
		"/input_schema/properties/p/type": {Start: Pos{Line: 3, Col: 68}, End: Pos{Line: 3, Col: 76}},
	} {
		if got := tool.Span(ptr); got != want {
			t.Errorf("%s: span %v, want %v", ptr, got, want)
		}
	}
}

// Half a surrogate pair is an error at the escape, in the fast parser and
// in the path a file takes without it.
func TestJSONFileUnpairedSurrogate(t *testing.T) {
	defer func() { jsonFastPath = true }()
	for _, tc := range []struct{ name, src, want string }{
		{"high alone", "{\"name\": \"a\",\n \"description\": \"é \\ud83d x\"}", `t.json:2:20: invalid JSON string: unpaired surrogate escape \ud83d: a high surrogate (\uD800-\uDBFF) must be followed at once by a low one (\uDC00-\uDFFF), the two making one character (\uD83D\uDE00 is 😀); add the missing half, or write the character itself`},
		{"high at the end", `{"name": "a", "description": "\uD83D"}`, `t.json:1:31: invalid JSON string: unpaired surrogate escape \uD83D: a high surrogate`},
		{"high, then no low", `{"name": "a", "description": "\uD83D\u00e9"}`, `t.json:1:31: invalid JSON string: unpaired surrogate escape \uD83D: a high surrogate`},
		{"two highs", `{"name": "a", "description": "\uD83D\uD83D\uDE00"}`, `t.json:1:31: invalid JSON string: unpaired surrogate escape \uD83D: a high surrogate`},
		{"low alone", "{\"name\": \"a\", \"x-a\": \"a\u0085 \\uDE00\"}", `t.json:2:2: invalid JSON string: unpaired surrogate escape \uDE00: a low surrogate (\uDC00-\uDFFF) must come right after a high one (\uD800-\uDBFF)`},
		{"low, then high", `{"name": "a", "d": ["x\uDE00\uD83D"]}`, `t.json:1:23: invalid JSON string: unpaired surrogate escape \uDE00: a low`},
		{"in a key", `{"\udfff": 1}`, `t.json:1:3: invalid JSON string: unpaired surrogate escape \udfff: a low`},
	} {
		for _, fast := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s fast=%v", tc.name, fast), func(t *testing.T) {
				jsonFastPath = fast
				f := parse(t, "t.json", tc.src)
				if len(f.Errors) != 1 || !strings.HasPrefix(f.Errors[0].Error(), tc.want) || len(f.Tools) != 0 {
					t.Fatalf("errors %v, tools %d; want one error %q", f.Errors, len(f.Tools), tc.want)
				}
				if s := f.Errors[0].Span; s.End.Col-s.Start.Col != 6 {
					t.Errorf("span %v: want the 6 characters of the escape", s)
				}
			})
		}
	}
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
		if bad := FindUnpairedSurrogate([]byte(tc.src)); bad != nil {
			got = bad.Offset
		}
		if got != tc.want {
			t.Errorf("%s: offset %d, want %d", tc.src, got, tc.want)
		}
	}
}

// A YAML file follows YAML, which has no surrogate pairs: the error says
// where the escape is and what to write instead.
func TestYAMLSurrogateEscape(t *testing.T) {
	for _, tc := range []struct{ name, path, src, want string }{
		{"pair", "t.yaml", "name: a\ndescription: \"é \\ud83d\\ude00\"\n", `t.yaml:2:17: YAML syntax error: \ud83d\ude00 is a UTF-16 surrogate pair, JSON's way to write 😀; YAML reads each \u escape as a character of its own, and a surrogate is none: write \U0001F600 or the character itself (a .json file is read as JSON)`},
		{"JSON in a .yaml file", "t.yaml", `{"name": "a", "description": "\uD834\uDD1E"}`, `t.yaml:1:31: YAML syntax error: \uD834\uDD1E is a UTF-16 surrogate pair, JSON's way to write 𝄞; YAML reads each \u escape as a character of its own, and a surrogate is none: write \U0001D11E`},
		{"half", "t.yml", "name: a\ndescription: \"\\\\u \\udc00\"\n", `t.yml:2:19: YAML syntax error: \udc00 is half of a UTF-16 surrogate pair, which is no character; write the character itself, or its \UXXXXXXXX escape`},
		{"past U+10FFFF", "t.yaml", "name: a\ndescription: \"\\U00110000\"\n", `t.yaml:2:15: YAML syntax error: \U00110000 is no Unicode character`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parse(t, tc.path, tc.src)
			if len(f.Errors) != 1 || !strings.HasPrefix(f.Errors[0].Error(), tc.want) {
				t.Fatalf("errors %v; want %q", f.Errors, tc.want)
			}
		})
	}
}

// A bracket or brace too many after the JSON value is a JSON error, not
// yaml.v3's.
func TestJSONFileTrailingBracket(t *testing.T) {
	for _, src := range []string{"{\"name\": \"a\"}\n}\n", "{\"name\": \"a\"}\n ]"} {
		f := parse(t, "t.json", src)
		c := strings.TrimSpace(src[14:])
		want := fmt.Sprintf("t.json:2:%d: JSON syntax error: '%s' after the end of the JSON value; remove it", strings.Index(src[14:], c)+1, c)
		if len(f.Errors) != 1 || !strings.HasPrefix(f.Errors[0].Error(), want) {
			t.Errorf("%q: errors %v; want %q", src, f.Errors, want)
		}
	}
}
