package spec

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/internal/testhook"
	"gopkg.in/yaml.v3"
)

// A lone CR is a line break for yaml.v3: "\r0" has its scalar on line 2,
// which used to panic in runeCheckpoints (index out of range).
func TestLoneCRLineBreaks(t *testing.T) {
	f := ParseFile("x.yaml", []byte("\r0"))
	if len(f.Errors) != 1 {
		t.Fatalf("errors %v", f.Errors)
	}
	e := f.Errors[0]
	if e.Span.Start != (Pos{Line: 2, Col: 1}) || !strings.Contains(e.Message, "expected a tool definition") {
		t.Errorf("got %v, want 2:1: expected a tool definition ...", e)
	}
	if got := f.Line(2); got != "0" {
		t.Errorf("line 2 is %q, want \"0\"", got)
	}
	for _, tc := range []struct {
		src   string
		lines []string
	}{
		{"a\rb\r\nc\nd", []string{"a", "b", "c", "d"}},
		{"a\r", []string{"a", ""}},
		{"a\r\n\r\n", []string{"a", "", ""}},
		{"a\u2028b\u2029c\u0085d", []string{"a", "b", "c", "d"}},
		{"\r\r", []string{"", "", ""}},
	} {
		f := &File{Path: "x.yaml", Data: []byte(tc.src)}
		var got []string
		for n := 1; n <= f.LineCount(); n++ {
			got = append(got, f.Line(n))
		}
		if strings.Join(got, "|") != strings.Join(tc.lines, "|") {
			t.Errorf("lines of %q: %q, want %q", tc.src, got, tc.lines)
		}
	}
	// Positions past the text (a line only one parser counts) are safe.
	f = &File{Path: "x.yaml", Data: []byte(strings.Repeat("x", 3000))}
	if p := f.PosAt(5000); p != (Pos{Line: 1, Col: 3001}) {
		t.Errorf("PosAt past the end: %v", p)
	}
	if sp := f.span(&yaml.Node{Kind: yaml.ScalarNode, Value: "v", Line: 7, Column: 2}); sp.Start != (Pos{Line: 7, Col: 2}) {
		t.Errorf("span of a node past the text: %v", sp)
	}
}

// A panic while reading one file is that file's positioned error; the
// other files load.
func TestPanicInOneFileIsItsError(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.yaml": "name: a\ndescription: d\n",
		"b.yaml": "name: b\ndescription: d\n",
		"c.yaml": "name: c\ndescription: d\n",
	})
	defer testhook.Set(func(stage, name string) {
		if stage == "parse" && filepath.Base(name) == "b.yaml" {
			var m map[string]int
			m["boom"]++ // a nil map write: a runtime panic
		}
	})()
	set, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range set.Tools() {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, ","); got != "a,c" {
		t.Errorf("tools %s, want a,c", got)
	}
	errs := set.Errors()
	if len(errs) != 1 {
		t.Fatalf("errors %v", errs)
	}
	e := errs[0]
	if filepath.Base(e.File) != "b.yaml" || e.Span.Start != (Pos{Line: 1, Col: 1}) {
		t.Errorf("error at %s:%v, want b.yaml:1:1", e.File, e.Span.Start)
	}
	for _, want := range []string{"internal error while reading " + e.File + ": assignment to entry in nil map", "recover_test.go:", "please report this at " + IssuesURL} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message %q lacks %q", e.Message, want)
		}
	}
	if strings.Contains(e.Message, "goroutine") || strings.Count(e.Message, ".go:") != 1 {
		t.Errorf("message has a stack trace: %q", e.Message)
	}
}

// A panic in the per-file callback (say, a lint rule) does not stop the
// other files either: the file is handed over again without its tools and
// with the internal error.
func TestPanicInLoadCallback(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.yaml": "name: a\ndescription: d\n",
		"b.yaml": "name: b\ndescription: d\n",
	})
	files, err := Collect([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	seen := make([][]string, len(files))
	LoadFilesFunc(files, func(i int, f *File) {
		var msgs []string
		for _, e := range f.Errors {
			msgs = append(msgs, e.Message)
		}
		seen[i] = append(seen[i], strings.Join(msgs, ";"))
		for _, tool := range f.Tools {
			if tool.Name == "b" {
				panic("rule failed")
			}
		}
	})
	if len(seen[0]) != 1 || seen[0][0] != "" {
		t.Errorf("a.yaml: calls %q", seen[0])
	}
	if len(seen[1]) != 2 || !strings.Contains(seen[1][1], "internal error while reading") || !strings.Contains(seen[1][1], "rule failed") {
		t.Errorf("b.yaml: calls %q", seen[1])
	}
}
