package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Every kind of bad file in one directory: each yields a positioned
// parse-error (or a finding), lint never panics, and the good file beside
// them is still linted.
func TestBadInputDirectory(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("malformed.yaml", []byte("name: x\ndescription: \"unterminated\n"))
	write("list.yaml", []byte("- just\n- strings\n"))
	write("deep.json", []byte(`{"name":"deep","description":"Nested too deep. Use when testing.","input_schema":`+strings.Repeat(`{"a":`, 10000)+`1`+strings.Repeat(`}`, 10000)+`}`))
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	for i := 'b'; i <= 'j'; i++ {
		prev := string(i - 1)
		bomb += string(i) + ": &" + string(i) + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
	}
	write("bomb.yaml", []byte("name: bomb\ndescription: An alias bomb. Use when testing.\nx-bomb:\n  "+strings.ReplaceAll(strings.TrimSpace(bomb), "\n", "\n  ")+"\n"))
	write("binary.yaml", []byte{0x7f, 'E', 'L', 'F', 0, 1, 2, 3, 0xff, 0xfe})
	write("empty.yaml", nil)
	big := make([]byte, 50<<20)
	for i := range big {
		big[i] = '#'
	}
	write("big.yaml", big)
	write("good_one.yaml", []byte("name: good_one\ndescription: A fine tool among bad files. Use when testing lint.\n"))

	set, err := spec.Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	fs := Run(set, Config{})
	byFile := map[string][]Finding{}
	for _, f := range fs {
		byFile[filepath.Base(f.File)] = append(byFile[filepath.Base(f.File)], f)
	}
	for _, name := range []string{"malformed.yaml", "list.yaml", "deep.json", "bomb.yaml", "binary.yaml", "empty.yaml", "big.yaml"} {
		got := byFile[name]
		if len(got) == 0 {
			t.Errorf("%s: no finding", name)
			continue
		}
		if got[0].Rule != ParseErrorID || got[0].Message == "" {
			t.Errorf("%s: first finding %v, want a parse-error", name, got[0])
		}
		if name != "big.yaml" && !got[0].Span.Start.IsValid() {
			t.Errorf("%s: parse-error without a position: %v", name, got[0])
		}
	}
	if len(byFile["good_one.yaml"]) != 0 {
		t.Errorf("the good file got findings: %v", byFile["good_one.yaml"])
	}
	// The alias bomb is in one field: that field is the error, the tool
	// around it still loads (as with any wrong-typed field).
	var names []string
	for _, tl := range set.Tools() {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "bomb,good_one" {
		t.Errorf("tools loaded: %v, want bomb and good_one", names)
	}
}

// A number beyond float64's range is one parse-error at the number, not
// also an input-schema-invalid "expected number, but got string".
func TestNumberOutOfRangeIsOneFinding(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"big_yaml.yaml": "name: big_yaml\ndescription: Holds a number too large. Use when testing lint.\ninput_schema:\n  type: object\n  properties:\n    n: {type: number, description: N., default: 1, maximum: 1e400}\n",
		"big_json.json": `{"name": "big_json", "description": "Holds a number too large. Use when testing lint.", "input_schema": {"type": "object", "properties": {"n": {"type": "number", "description": "N.", "default": 1, "maximum": 1e400}}}}`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := render(lintPaths(t, dir))
	want := "big_json.json:1:209: error: 1e400 is out of range: toolctl reads numbers as 64-bit floats (at most about ±1.8e308); use a smaller number, or quote it to mean a string [parse-error]\n" +
		"big_yaml.yaml:6:61: error: 1e400 is out of range: toolctl reads numbers as 64-bit floats (at most about ±1.8e308); use a smaller number, or quote it to mean a string [parse-error]\n"
	if got != want {
		t.Errorf("findings:\n%s\nwant:\n%s", got, want)
	}
}
