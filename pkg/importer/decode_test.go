package importer

import (
	"strings"
	"testing"
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
	if err == nil || !strings.Contains(err.Error(), `unknown format "opneai"; use one of: auto, openai, anthropic, gemini, mcp, bfcl (did you mean "openai"?)`) {
		t.Errorf("err %v", err)
	}
}
