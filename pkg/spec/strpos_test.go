package spec

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// StringSpan finds the source of a character inside a string whatever its
// style: the cases where source and text columns differ.
func TestStringSpan(t *testing.T) {
	tests := []struct {
		name, file, src, ptr string
		key                  bool
		find                 string // the text whose first character is looked up
		want                 string // LINE:COL-LINE:COL
	}{
		{"plain", "a.yaml", "name: t\ndescription: Reads a\u200bfile.\n", "/description", false, "\u200b", "2:21-2:22"},
		{"double quoted escape", "a.yaml", "name: t\ndescription: \"Say \\\"hi\\\" then\\u200b x\"\n", "/description", false, "\u200b", "2:30-2:36"},
		{"double quoted folded", "a.yaml", "name: t\ndescription: \"first line\n  second\u202e line\"\n", "/description", false, "\u202e", "3:9-3:10"},
		{"double quoted escaped break", "a.yaml", "name: t\ndescription: \"first \\\n  second\\U000E0041\"\n", "/description", false, "\U000E0041", "3:9-3:19"},
		{"single quoted", "a.yaml", "name: t\ndescription: 'it''s \u2066 here'\n", "/description", false, "\u2066", "2:21-2:22"},
		{"plain folded", "a.yaml", "name: t\ndescription: one two\n  three\n\n  four \u200b\n", "/description", false, "\u200b", "5:8-5:9"},
		{"folded block", "a.yaml", "name: t\ndescription: >-\n  one two\n  three \u200b four\n", "/description", false, "\u200b", "4:9-4:10"},
		{"literal block", "a.yaml", "name: t\ndescription: |\n  one\n    indented \u200b\n", "/description", false, "\u200b", "4:14-4:15"},
		{"word", "a.yaml", "name: t\ndescription: >\n  read the\n  ~/.ssh/id_rsa file\n", "/description", false, "~/.ssh/id_rsa", "4:3-4:16"},
		{"json escape", "a.json", "{\"name\": \"t\", \"description\": \"a\\u200bb \\ud83d\\ude00 \\u202e\"}", "/description", false, "\u202e", "1:53-1:59"},
		{"json surrogate pair", "a.json", "{\"name\": \"t\", \"description\": \"a\\u200bb \\ud83d\\ude00 \\u202e\"}", "/description", false, "\U0001F600", "1:40-1:52"},
		{"key", "a.yaml", "name: t\ninput_schema:\n  type: object\n  properties:\n    \"pa\\u0430th\": {type: string}\n", "/input_schema/properties/pa\u0430th", true, "\u0430", "5:8-5:14"},
		{"list parameter name", "a.yaml", "name: t\nparameters:\n  - name: p\u0430th\n    type: string\n", "/input_schema/properties/p\u0430th", true, "\u0430", "3:12-3:13"},
		{"crlf", "a.yaml", "name: t\r\ndescription: >\r\n  one\r\n  two \u200b\r\n", "/description", false, "\u200b", "4:7-4:8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := ParseFile(tc.file, []byte(tc.src))
			if len(f.Errors) > 0 || len(f.Tools) != 1 {
				t.Fatalf("parse: %v", f.Errors)
			}
			tool := f.Tools[0]
			n := tool.stringNode(tc.ptr, tc.key)
			if n == nil {
				t.Fatalf("no node at %s", tc.ptr)
			}
			from := strings.Index(n.Value, tc.find)
			if from < 0 {
				t.Fatalf("%q not in %q", tc.find, n.Value)
			}
			span, exact := tool.StringSpan(tc.ptr, tc.key, from, from+len(tc.find))
			got := fmt.Sprintf("%d:%d-%d:%d", span.Start.Line, span.Start.Col, span.End.Line, span.End.Col)
			if !exact || got != tc.want {
				t.Errorf("StringSpan = %s (exact %v), want %s", got, exact, tc.want)
			}
		})
	}
}

// TextPos (which lint's text rules use) is exact where escapes and folded
// lines shift columns; it used to return the value's start there.
func TestTextPosEscapesAndFolding(t *testing.T) {
	for _, tc := range []struct {
		file, src string
		line, col int
		want      Pos
	}{
		{"a.json", "{\"name\": \"t\", \"description\": \"Say \\\"hi\\\" to you\"}", 1, 13, Pos{Line: 1, Col: 45}},
		{"a.yaml", "name: t\ndescription: >\n  one two\n  three you\n", 1, 15, Pos{Line: 4, Col: 9}},
		{"a.yaml", "name: t\ndescription: one\n  you\n", 1, 5, Pos{Line: 3, Col: 3}},
	} {
		f := ParseFile(tc.file, []byte(tc.src))
		if got := f.Tools[0].TextPos("/description", tc.line, tc.col); got != tc.want {
			t.Errorf("%q: TextPos(%d, %d) = %v, want %v", tc.src, tc.line, tc.col, got, tc.want)
		}
	}
}

// FuzzStringSpan: on any file, StringSpan of any character of a tool's
// strings never panics, and an exact span lies inside the file with its
// start before its end.
func FuzzStringSpan(f *testing.F) {
	for _, s := range []string{
		"name: t\ndescription: \"a\\u200bb \\\n  c\\U000E0041\"\n",
		"name: t\ndescription: >-\n  one\n\n  two \u200b\r\n",
		"name: t\ndescription: |2\n   x\u202e\n",
		"name: t\ndescription: 'it''s\n  here'\n",
		"{\"name\": \"t\", \"description\": \"a\\ud83d\\ude00\\u202e\\/\"}",
		"name: t\nparameters:\n  - name: p\u0430th\n    type: string\n    description: \"x\\ty\"\n",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, asJSON bool) {
		if len(data) > 4096 {
			return
		}
		name := "a.yaml"
		if asJSON {
			name = "a.json"
		}
		file := ParseFile(name, data)
		lines := strings.Count(string(data), "\n") + 1
		for _, tool := range file.Tools {
			var ptrs []string
			ptrs = append(ptrs, "/name", "/description", "/detail", "/title")
			if props, ok := tool.Input().GetMap("properties"); ok {
				for _, p := range props.Keys() {
					ptrs = append(ptrs, Pointer("input_schema", "properties", p), Pointer("input_schema", "properties", p, "description"))
				}
			}
			for _, ptr := range ptrs {
				for _, key := range []bool{false, true} {
					n := tool.stringNode(ptr, key)
					if n == nil {
						continue
					}
					v := n.Value
					for i := 0; i <= len(v); {
						w := 1
						if i < len(v) {
							_, w = utf8.DecodeRuneInString(v[i:])
						}
						span, exact := tool.StringSpan(ptr, key, i, min(i+w, len(v)))
						if exact {
							s, e := span.Start, span.End
							if s.Line < 1 || s.Col < 1 || e.Line > lines+1 || e.Line < s.Line || (e.Line == s.Line && e.Col < s.Col) {
								t.Fatalf("%s %s [%d]: span %v in a file of %d lines", name, ptr, i, span, lines)
							}
						}
						i += w
					}
				}
			}
		}
	})
}
