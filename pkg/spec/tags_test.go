package spec

import (
	"fmt"
	"strings"
	"testing"
)

// Tags other than the core ones are a positioned error, and the file
// defines nothing: yaml.v3 reads any tag as the text after it.
func TestYAMLTags(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // "line:col-endcol: message fragment"; "" for none
	}{
		{"name: !!binary aGVsbG8=\ndescription: d\n", "1:7-15: the YAML tag !!binary is not supported"},
		{"name: a\ndescription: !custom x\n", "2:14-21: the YAML tag !custom is not supported: a tool file uses the core types only (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq and !!timestamp); remove the tag"},
		{"!custom name: a\ndescription: d\n", "1:1-8: the YAML tag !custom is not supported"},
		{"--- !custom\nname: a\ndescription: d\n", "1:5-12: the YAML tag !custom is not supported"},
		{"name: a\ndescription: d\nx-s: !!set {a}\n", "3:6-11: the YAML tag !!set is not supported"},
		{"name: a\ndescription: d\nx-p: !!python/object:os.system x\n", "3:6-31: the YAML tag !!python/object:os.system is not supported"},
		{"%TAG !e! tag:example.com,2000:\n---\nname: a\ndescription: !e!x d\n", "4:14-18: the YAML tag tag:example.com,2000:x is not supported"},
		{"name: a\ndescription: d\nx-m: !!merge x\n", "3:6-13: the YAML tag !!merge is not supported"},
		{"name: a\ndescription: d\ntags: !!map [a]\n", "3:7-12: the YAML tag !!map does not fit a list; remove the tag"},
		{"name: a\ndescription: d\ntags: !!str [a]\n", "3:7-12: the YAML tag !!str does not fit a list"},
		{"name: a\ndescription: d\nx-n: !!int abc\n", "3:6-11: the value \"abc\" is not an integer, as its YAML tag !!int says; fix the value or remove the tag"},
		{"name: a\ndescription: d\nx-n: !!float x\n", "3:6-13: the value \"x\" is not a number"},
		{"name: a\ndescription: d\nx-b: !!bool yes\n", "3:6-12: the value \"yes\" is not true or false"},
		{"name: a\ndescription: d\nx-z: !!null 5\n", "3:6-12: the value \"5\" is not null"},
		{"name: a\ndescription: d\nx-t: !!timestamp soon\n", "3:6-17: the value \"soon\" is not a date or time"},
		// An alias to a bad node: reported once, at the node.
		{"name: a\ndescription: &d !custom x\nx-d: *d\n", "2:17-24: the YAML tag !custom is not supported"},
		// Core tags that fit are fine.
		{"name: !!str a\ndescription: !!str d\nx-n: !!int 0x1F\nx-f: !!float 1\nx-b: !!bool true\nx-z: !!null ~\nx-l: !!seq [1]\nx-m: !!map {a: 1}\nx-v: !<tag:yaml.org,2002:str> v\n", ""},
		// Dates: plain ones are timestamps to yaml.v3, kept as text.
		{"name: a\ndescription: d\nx-d: 2024-01-31\nx-t: !!timestamp 2024-01-31T10:00:00Z\n", ""},
		{"name: a\ndescription: d\n<<: {x-a: 1}\n", ""},
	} {
		f := ParseFile("a.yaml", []byte(tc.src))
		if tc.want == "" {
			if len(f.Errors) > 0 || len(f.Tools) != 1 {
				t.Errorf("%q: errors %v, %d tools", tc.src, f.Errors, len(f.Tools))
			}
			continue
		}
		if len(f.Errors) != 1 || len(f.Tools) != 0 {
			t.Errorf("%q: errors %v, %d tools; want one error and no tool", tc.src, f.Errors, len(f.Tools))
			continue
		}
		e := f.Errors[0]
		got := fmt.Sprintf("%d:%d-%d: %s", e.Span.Start.Line, e.Span.Start.Col, e.Span.End.Col, e.Message)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q:\ngot  %s\nwant %s...", tc.src, got, tc.want)
		}
	}
	// Many tags: the first 20, and how many more.
	src := "name: a\ndescription: d\nx-l:\n" + strings.Repeat("  - !custom x\n", 1000)
	f := ParseFile("a.yaml", []byte(src))
	if len(f.Errors) != 21 || f.Errors[20].Message != "980 more YAML tags are not supported; toolctl stops reporting them here" {
		t.Errorf("%d errors, the last %v", len(f.Errors), f.Errors[len(f.Errors)-1])
	}
}
