package spec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
)

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
	defer func() { fastnode.UseJSON = true }()
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
				fastnode.UseJSON = fast
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
