package importer

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"trailing comma", "[\n  {\"name\": \"a\"},\n]", `in.json:3:1: JSON syntax error: invalid character ']' looking for beginning of value; remove the trailing comma before it`},
		{"unclosed", "{\"tools\": [\n", `in.json:2:1: JSON syntax error: unexpected end of input; a bracket or brace is not closed`},
		{"yaml", "name: a\n", `in.json:1:2: JSON syntax error: invalid character 'a' in literal null (expecting 'u'); import reads JSON`},
		{"empty", " \n", `in.json: the input is empty; expected JSON tool definitions`},
		{"duplicate key", `{"name": "a", "name": "b"}`, `in.json:1:23: JSON: key "name" appears twice in this object; keep one`},
		{"bad utf-8", "{\"name\": \"\xff\"}", `in.json:1:11: invalid UTF-8; save the file as UTF-8`},
		{"second line", "{\"name\": \"a\"}\n{\"name\": }\n", `in.json:2:10: JSON syntax error: invalid character '}' looking for beginning of value`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantContains(t, importErr(t, MCP, tc.in), tc.want)
		})
	}
}

func TestNoTool(t *testing.T) {
	wantContains(t, importErr(t, MCP, `{"tools": []}`), `in.json: no tool found in this mcp input; check --from`)
}

func TestUTF16AndBOM(t *testing.T) {
	in := "\xef\xbb\xbf" + `[{"name": "a", "description": "é"}]`
	if res := mustImport(t, MCP, in); res.Tools[0].Tool.Description != "é" {
		t.Errorf("BOM: %q", res.Tools[0].Tool.Description)
	}
	var u16 []byte
	u16 = append(u16, 0xFF, 0xFE)
	for _, r := range `[{"name": "a", "description": "é"}]` {
		u16 = append(u16, byte(r), byte(r>>8))
	}
	if res := mustImport(t, MCP, string(u16)); res.Tools[0].Tool.Description != "é" {
		t.Errorf("UTF-16: %q", res.Tools[0].Tool.Description)
	}
}

// Numbers keep their spelling: 1.0 stays 1.0, big integers stay exact.
func TestNumbersKept(t *testing.T) {
	res := mustImport(t, MCP, `{"name": "a", "inputSchema": {"type": "object", "properties": {"n": {"type": "number", "default": 1.0, "maximum": 9007199254740993}}}}`)
	got := canonical(t, res.Tools[0])
	wantContains(t, got, "default: 1.0", "maximum: 9007199254740993")
}

func TestParseFormat(t *testing.T) {
	if f, err := ParseFormat("bfcl"); err != nil || f != BFCL {
		t.Errorf("bfcl: %q %v", f, err)
	}
	_, err := ParseFormat("opneai")
	if err == nil || !strings.Contains(err.Error(), `unknown format "opneai"; use one of: auto, openai, anthropic, gemini, mcp, bfcl, python (did you mean "openai"?)`) {
		t.Errorf("err %v", err)
	}
}

// An input is held to the limits of a tool file before it costs more than
// a pass over its bytes: 200 KB of nesting took 30 s and 6 GB.
func TestInputLimits(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"nested arrays", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), "in.json:1:258: values are nested more than 256 levels deep; flatten the structure"},
		{"nested objects", strings.Repeat(`{"a":`, 40000) + "1" + strings.Repeat("}", 40000), "in.json:1:1286: values are nested more than 256 levels deep"},
		{"nested in JSON Lines", "{\"name\": \"a\"}\n" + strings.Repeat("[", 300) + strings.Repeat("]", 300), "in.json:2:258: values are nested"},
		{"too many values", "[" + strings.Repeat("0,", spec.MaxValues) + "0]", fmt.Sprintf("in.json:1:%d: the input holds more than 2000000 values, the most a tool file may have; toolctl stops reading it here", 2*spec.MaxValues)},
		{"too large", strings.Repeat(" ", spec.MaxFileSize+1), "in.json: file is 16.0 MB, more than the 16.0 MB a tool file may have"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			got := importErr(t, MCP, tc.in)
			runtime.ReadMemStats(&after)
			wantContains(t, got, tc.want)
			if tc.name != "too many values" {
				if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(len(tc.in))+1<<20 {
					t.Errorf("%d MB allocated for %d KB", alloc>>20, len(tc.in)>>10)
				}
			}
		})
	}
}

// Positions cost the same at any depth and key length: a JSON pointer per
// value made them quadratic (100 KB keys × 20,000 values: 2 GB).
func TestPositionsOfLongKeys(t *testing.T) {
	key := strings.Repeat("k", 100_000)
	in := `[{"name": "a", "inputSchema": {"type": "object", "x-` + key + `": [` + strings.Repeat("0,", 20000) + `0], "x-` + key + `": 1}}]`
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got := importErr(t, MCP, in)
	runtime.ReadMemStats(&after)
	wantContains(t, got, fmt.Sprintf("in.json:1:%d: JSON: key \"x-kkk", len(in)-3))
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("%d MB allocated for %d KB", alloc>>20, len(in)>>10)
	}
}

// JSON writes a character past U+FFFF as a surrogate pair of \u escapes
// (Python's json.dumps does for every emoji): one character. Half a pair
// is no character: an error at the escape, where encoding/json alone
// would read U+FFFD.
func TestSurrogateEscapes(t *testing.T) {
	res := mustImport(t, MCP, `{"name": "a", "description": "smile \ud83d\ude00, \uD834\uDD1E and \u00e9 \/ \\ud83d"}`)
	if got, want := res.Tools[0].Tool.Description, `smile 😀, 𝄞 and é / \ud83d`; got != want {
		t.Errorf("description %q, want %q", got, want)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"high alone", "{\"name\": \"a\",\n \"description\": \"x \\ud83d y\"}", `in.json:2:20: invalid JSON string: unpaired surrogate escape \ud83d: a high surrogate (\uD800-\uDBFF) must be followed at once by a low one`},
		{"high then not low", `{"name": "a", "description": "\uD83D\u0041"}`, `in.json:1:31: invalid JSON string: unpaired surrogate escape \uD83D`},
		{"high then high", `{"name": "a", "description": "\uD83D\uD83D\uDE00"}`, `in.json:1:31: invalid JSON string: unpaired surrogate escape \uD83D: a high`},
		{"low alone", `{"name": "é", "x": ["\uDE00"]}`, `in.json:1:22: invalid JSON string: unpaired surrogate escape \uDE00: a low surrogate (\uDC00-\uDFFF) must come right after a high one`},
		{"at the end", `{"name": "a", "description": "\ud83d"}`, `in.json:1:31: invalid JSON string: unpaired surrogate escape \ud83d`},
		{"in a key, second document", "{\"name\": \"a\"}\n{\"\\udfff\": 1}", `in.json:2:3: invalid JSON string: unpaired surrogate escape \udfff`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantContains(t, importErr(t, MCP, tc.in), tc.want)
		})
	}
}
