package builtin

import (
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
)

func TestString(t *testing.T) {
	cases := []struct {
		input string
		want  string // the whole result as JSON
	}{
		{`{"operation": "upper", "text": "straße é"}`, `{"result":"STRASSE É"}`},
		{`{"operation": "lower", "text": "ÉCOLE Ab"}`, `{"result":"école ab"}`},
		{`{"operation": "title", "text": "hello wORLD-wide o'neil"}`, `{"result":"Hello World-Wide O'neil"}`},
		{`{"operation": "trim", "text": "  a b \n"}`, `{"result":"a b"}`},
		{`{"operation": "trim", "text": "  a  ", "side": "left"}`, `{"result":"a  "}`},
		{`{"operation": "trim", "text": "  a  ", "side": "right"}`, `{"result":"  a"}`},
		{`{"operation": "trim", "text": "--a-b--", "characters": "-"}`, `{"result":"a-b"}`},
		{`{"operation": "length", "text": "héllo 世界"}`, `{"result":8}`},
		{`{"operation": "length", "text": ""}`, `{"result":0}`},
		{`{"operation": "reverse", "text": "abc世界"}`, `{"result":"界世cba"}`},
		{`{"operation": "reverse", "text": "ae\u0301b"}`, "{\"result\":\"be\u0301a\"}"},
		{`{"operation": "contains", "text": "Hello World", "search": "world"}`, `{"result":false}`},
		{`{"operation": "contains", "text": "Hello World", "search": "world", "case_sensitive": false}`, `{"result":true}`},
		{`{"operation": "starts_with", "text": "Hello", "search": "He"}`, `{"result":true}`},
		{`{"operation": "ends_with", "text": "Hello", "search": "LO", "case_sensitive": false}`, `{"result":true}`},
		{`{"operation": "index_of", "text": "héllo wörld", "search": "wö"}`, `{"result":6}`},
		{`{"operation": "index_of", "text": "abc", "search": "z"}`, `{"result":-1}`},
		{`{"operation": "replace", "text": "a.b.c", "search": ".", "replacement": "-"}`, `{"replacements":2,"result":"a-b-c"}`},
		{`{"operation": "replace", "text": "a.b.c", "search": ".", "replacement": "$1", "count": 1}`, `{"replacements":1,"result":"a$1b.c"}`},
		{`{"operation": "replace", "text": "Cat cat CAT", "search": "cat", "replacement": "dog", "case_sensitive": false}`, `{"replacements":3,"result":"dog dog dog"}`},
		{`{"operation": "regex_replace", "text": "2026-11-21", "pattern": "(\\d+)-(\\d+)-(\\d+)", "replacement": "$3/$2/$1"}`, `{"replacements":1,"result":"21/11/2026"}`},
		{`{"operation": "regex_replace", "text": "a1b22c333", "pattern": "(?P<n>\\d+)", "replacement": "<${n}>", "count": 2}`, `{"replacements":2,"result":"a<1>b<22>c333"}`},
		{`{"operation": "regex_replace", "text": "x", "pattern": "^", "replacement": ">"}`, `{"replacements":1,"result":">x"}`},
		{`{"operation": "regex_match", "text": "tel: 555-1234, 555-9876", "pattern": "(\\d{3})-(?P<line>\\d{4})"}`, `{"matches":[{"groups":["555","1234"],"index":5,"match":"555-1234","named":{"line":"1234"}},{"groups":["555","9876"],"index":15,"match":"555-9876","named":{"line":"9876"}}],"result":true}`},
		{`{"operation": "regex_match", "text": "ab", "pattern": "a(x)?", "count": 1}`, `{"matches":[{"groups":[null],"index":0,"match":"a"}],"result":true}`},
		{`{"operation": "regex_match", "text": "ABC", "pattern": "b", "case_sensitive": false}`, `{"matches":[{"groups":[],"index":1,"match":"B"}],"result":true}`},
		{`{"operation": "regex_match", "text": "abc", "pattern": "\\d"}`, `{"matches":[],"result":false}`},
		{`{"operation": "split", "text": "a,b,,c", "separator": ","}`, `{"result":["a","b","","c"]}`},
		{`{"operation": "split", "text": "a,b,c", "separator": ",", "count": 2}`, `{"result":["a","b,c"]}`},
		{`{"operation": "split", "text": "  one two\tthree\n"}`, `{"result":["one","two","three"]}`},
		{`{"operation": "split", "text": " one two  three four", "count": 2}`, `{"result":["one","two  three four"]}`},
		{`{"operation": "split", "text": "", "separator": ","}`, `{"result":[""]}`},
		{`{"operation": "substring", "text": "héllo wörld", "start": 6}`, `{"result":"wörld"}`},
		{`{"operation": "substring", "text": "héllo wörld", "start": 1, "end": 4}`, `{"result":"éll"}`},
		{`{"operation": "substring", "text": "héllo wörld", "start": -5, "end": null}`, `{"result":"wörld"}`},
		{`{"operation": "substring", "text": "héllo", "start": 0, "end": -1}`, `{"result":"héll"}`},
		{`{"operation": "substring", "text": "abc", "start": 5, "end": 9}`, `{"result":""}`},
		{`{"operation": "substring", "text": "abc", "start": 2, "end": 1}`, `{"result":""}`},
		{`{"operation": "pad", "text": "7", "width": 3, "pad_char": "0", "side": "left"}`, `{"result":"007"}`},
		{`{"operation": "pad", "text": "ab", "width": 5, "side": "right", "pad_char": "·"}`, `{"result":"ab···"}`},
		{`{"operation": "pad", "text": "ab", "width": 5}`, `{"result":" ab  "}`},
		{`{"operation": "pad", "text": "abcdef", "width": 3}`, `{"result":"abcdef"}`},
	}
	for _, tc := range cases {
		got, err := biRun(t, stringHandler, tc.input)
		if err != nil {
			t.Errorf("%s: %v", tc.input, err)
			continue
		}
		if s := biJSON(t, got); s != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.input, s, tc.want)
		}
	}
}

func TestStringErrors(t *testing.T) {
	cases := []struct {
		input, param, msg string
	}{
		{`{"operation": "shout", "text": "a"}`, "operation", `unknown operation "shout"; use one of upper, lower`},
		{`{"operation": "contains", "text": "a"}`, "search", "operation contains needs search"},
		{`{"operation": "replace", "text": "a", "search": ""}`, "search", "needs search"},
		{`{"operation": "regex_match", "text": "a"}`, "pattern", "needs pattern"},
		{`{"operation": "regex_match", "text": "a", "pattern": "(a"}`, "pattern", "pattern is not a valid regular expression: missing closing ): `(a`"},
		{`{"operation": "regex_match", "text": "a", "pattern": "(?<=a)b"}`, "pattern", "no lookaround"},
		{`{"operation": "pad", "text": "a", "width": 5, "pad_char": "ab"}`, "pad_char", "exactly one character"},
		{`{"operation": "pad", "text": "a", "width": 99999999}`, "width", "too large"},
		{`{"operation": "trim", "text": "a", "side": "middle"}`, "side", `side "middle" is not known`},
		{`{"operation": "upper", "text": 5}`, "text", `parameter "text": expected a string, got number`},
		{`{"operation": "regex_replace", "text": "` + strings.Repeat("a", 2000) + `", "pattern": "a?", "replacement": "` + strings.Repeat("b", 1000) + `"}`, "replacement", "grow by more than"},
	}
	for _, tc := range cases {
		_, err := biRun(t, stringHandler, tc.input)
		if e := biWantError(t, tc.input, err, run.ValidationError, tc.msg); e != nil && e.Param != tc.param {
			t.Errorf("%s: param %q, want %q", tc.input, e.Param, tc.param)
		}
	}
}
