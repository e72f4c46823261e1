package spec

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Every parse error, with the exact position it must report.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, path, src string
		want            string // "line:col: message fragment"
		tools           int    // tools still loaded from the file
	}{
		// Syntax.
		{"yaml mapping value", "a.yaml", "name: x\ndescription: a: b\n", "2:14: YAML syntax error: mapping value is not allowed", 0},
		{"yaml tab indentation", "a.yaml", "name: x\nparameters:\n\t- name: y\n", "3:1: YAML syntax error: found character '\t' that cannot start any token (YAML indentation must use spaces, not tabs)", 0},
		{"yaml unclosed flow", "a.yaml", "name: x\ntags: [a, b\ndescription: d\n", "3:1: YAML syntax error: ',' or ']' must be specified", 0},
		{"yaml unterminated quote", "a.yaml", "name: x\ndescription: \"open\ncategory: c\n", "2:14: YAML syntax error: could not find end character of double-quoted text", 0},
		{"yaml bad indentation", "a.yaml", "name: x\ndescription: d\n  category: c\n", "3:11: YAML syntax error: mapping values are not allowed", 0},
		{"json syntax", "a.json", "{\n  \"name\": \"x\",\n  \"description\": \"d\",\n}\n", "4:1: JSON syntax error: invalid character '}' looking for beginning of object key string", 0},
		{"json unclosed", "a.json", "{\n  \"name\": \"x\"\n", "3:1: JSON syntax error: unexpected end of file", 0},
		{"json lines", "a.json", "{\"name\": \"a\", \"description\": \"d\"}\n{\"name\": \"b\", \"description\": \"d\"}\n", "2:1: a second JSON value starts here", 0},
		{"syntax error drops earlier documents", "a.yaml", "name: a\ndescription: d\n---\nname: [b\n", "4:7: YAML syntax error: sequence end token ']' not found", 0},
		// Content.
		{"empty file", "a.yaml", "", "1:1: no tool in this file", 0},
		{"only comments", "a.yaml", "# nothing\n", "1:1: no tool in this file", 0},
		{"scalar document", "a.yaml", "just text\n", "1:1: expected a tool definition (a mapping with name, description, ...) or a list of them, got a string", 0},
		{"list item not a mapping", "a.yaml", "- name: a\n  description: d\n- oops\n", "3:3: expected a tool (a mapping with name, description, ...), got a string (\"oops\")", 1},
		{"empty list", "a.yaml", "[]\n", "1:1: no tool in this file: the list is empty", 0},
		{"empty tools list", "a.yaml", "tools: []\n", "1:8: no tool in this file: the tools list is empty", 0},
		{"tools not a list", "a.yaml", "tools: {a: 1}\n", "1:8: tools: expected a list of tools, got a mapping", 0},
		{"no name", "a.yaml", "description: d\ncategory: c\n", "1:1: not a tool: there is no \"name\" field (keys here: description, category)", 0},
		{"name not a string", "a.yaml", "name: [a, b]\ndescription: d\n", "1:7: name: expected a string, got a list", 1},
		{"tags not a list", "a.yaml", "name: a\ndescription: d\ntags: foo\n", "3:7: tags: expected a list of strings, got a string (\"foo\")", 1},
		{"tag item not a string", "a.yaml", "name: a\ndescription: d\ntags: [a, {b: c}]\n", "3:11: tags[1]: expected a string, got a mapping", 1},
		{"duplicate key", "a.yaml", "name: a\ndescription: d\nname: b\n", "3:1: duplicate key \"name\" (first defined at line 1)", 1},
		{"duplicate key in json", "a.json", "{\"name\": \"a\", \"description\": \"d\", \"description\": \"e\"}", "1:35: duplicate key \"description\" (first defined at line 1)", 1},
		{"parameters and input_schema", "a.yaml", "name: a\ndescription: d\nparameters: []\ninput_schema: {type: object}\n", "4:1: both \"parameters\" (line 3) and \"input_schema\" define the input", 1},
		{"input_schema and inputSchema", "a.yaml", "name: a\ndescription: d\ninput_schema: {type: object}\ninputSchema: {type: object}\n", "4:1: both \"input_schema\" (line 3) and \"inputSchema\" define the input", 1},
		{"returns and output_schema", "a.yaml", "name: a\ndescription: d\nreturns: {x: string}\noutput_schema: {type: object}\n", "4:1: both \"returns\" (line 3) and \"output_schema\" define the output", 1},
		{"input_schema as list", "a.yaml", "name: a\ndescription: d\ninput_schema:\n  - name: x\n", "4:3: input_schema: expected a JSON Schema object, got a list; the list form of parameters goes under \"parameters\"", 1},
		{"parameters scalar", "a.yaml", "name: a\ndescription: d\nparameters: url\n", "3:13: parameters: expected a list of parameters or a JSON Schema object, got a string", 1},
		{"parameter without name", "a.yaml", "name: a\ndescription: d\nparameters:\n  - type: string\n", "4:5: parameters[0]: missing name", 1},
		{"parameter twice", "a.yaml", "name: a\ndescription: d\nparameters:\n  - name: x\n  - name: x\n", "5:5: parameters[1]: parameter \"x\" is already defined by parameters[0]", 1},
		{"parameter item scalar", "a.yaml", "name: a\ndescription: d\nparameters: [x]\n", "3:14: parameters[0]: expected {name, type, description, required, ...}, got a string", 1},
		{"required not a boolean", "a.yaml", "name: a\ndescription: d\nparameters:\n  - name: x\n    required: \"yes\"\n", "5:15: parameters[0].required: expected true or false, got a string (\"yes\")", 1},
		{"returns list", "a.yaml", "name: a\ndescription: d\nreturns: [a]\n", "3:10: returns: expected a JSON Schema or a map of fields to types, got a list", 1},
		{"returns field list", "a.yaml", "name: a\ndescription: d\nreturns:\n  x: [a]\n", "4:6: returns.x: expected a type name or {type, description}, got a list", 1},
		{"output_schema scalar", "a.yaml", "name: a\ndescription: d\noutput_schema: object\n", "3:16: output_schema: expected a JSON Schema object, got a string", 1},
		{"entry not a mapping", "a.yaml", "name: a\ndescription: d\nentry: http\n", "3:8: entry: expected a mapping, got a string", 1},
		{"command as a string", "a.yaml", "name: a\ndescription: d\nentry:\n  type: command\n  command: wc -l\n", "5:12: entry.command: expected a list of arguments (no shell is used)", 1},
		{"headers value list", "a.yaml", "name: a\ndescription: d\nentry:\n  type: http\n  headers: {X: [1]}\n", "5:16: entry.headers.X: expected a string, got a list", 1},
		{"sdk type unknown", "a.yaml", "name: a\ndescription: d\ntype: object\n", "3:7: type: \"object\" is not a tool type", 1},
		{"metadata not a mapping", "a.yaml", "name: a\ndescription: d\nmetadata: x\n", "3:11: metadata: expected a mapping", 1},
		{"prerequisite list", "a.yaml", "name: a\ndescription: d\nprerequisites: [[x]]\n", "3:17: prerequisites[0]: expected a string or {condition, check_tool, action_if_not_met}, got a list", 1},
		{"example not a mapping", "a.yaml", "name: a\ndescription: d\nexamples: [x]\n", "3:12: examples[0]: expected {scenario, params, expected}, got a string", 1},
		{"example params list", "a.yaml", "name: a\ndescription: d\nexamples:\n  - params: [1]\n", "4:13: examples[0].params: expected a mapping, got a list", 1},
		{"related tool string", "a.yaml", "name: a\ndescription: d\nrelated_tools: [b]\n", "3:17: related_tools[0]: expected {name, relation}, got a string", 1},
		{"workflow step string", "a.yaml", "name: a\ndescription: d\nworkflow:\n  steps: [go]\n", "4:11: workflow.steps[0]: expected {step, action, tool or tools, condition}, got a string", 1},
		{"annotation not boolean", "a.yaml", "name: a\ndescription: d\nannotations: {readOnlyHint: maybe}\n", "3:29: annotations.readOnlyHint: expected true or false, got a string (\"maybe\")", 1},
		{"bind two sources", "a.yaml", "name: a\ndescription: d\nbind:\n  key: {env: A, value: b}\n", "4:8: bind.key: expected exactly one of {env: VAR}, {value: x} or {config: dotted.key}, got a mapping", 1},
		{"bind unknown source", "a.yaml", "name: a\ndescription: d\nbind:\n  key: {file: x}\n", "4:9: bind.key: \"file\" is not a binding source; use env, value or config", 1},
		{"bind empty env", "a.yaml", "name: a\ndescription: d\nbind:\n  key: {env: \"\"}\n", "4:14: bind.key.env: name the environment variable to read", 1},
		{"runtime timeout", "a.yaml", "name: a\ndescription: d\nruntime:\n  timeout: 30 sec\n", "4:12: runtime.timeout: a string (\"30 sec\") is not a duration; write it like \"30s\", \"1m30s\" or a number of seconds", 1},
		{"runtime negative timeout", "a.yaml", "name: a\ndescription: d\nruntime:\n  timeout: -1\n", "4:12: runtime.timeout: a number (-1) is not a duration", 1},
		{"runtime memory unit", "a.yaml", "name: a\ndescription: d\nruntime:\n  memory: 256M\n", "4:11: runtime.memory: a string (\"256M\") is not a memory limit: the unit \"M\" is ambiguous; write 256MiB (powers of 1024) or 256MB (powers of 1000)", 1},
		{"runtime memory bytes", "a.yaml", "name: a\ndescription: d\nruntime:\n  memory: 256\n", "4:11: runtime.memory: a number (256) is not a memory limit: less than the smallest limit, 16MiB (a bare number is bytes; write 256MiB for 256 mebibytes)", 1},
		{"runtime memory word", "a.yaml", "name: a\ndescription: d\nruntime:\n  memory: lots\n", "4:11: runtime.memory: a string (\"lots\") is not a memory limit: write a size like 256MiB, 1GiB or 512MB, or unlimited", 1},
		{"runtime memory list", "a.yaml", "name: a\ndescription: d\nruntime:\n  memory: [1]\n", "4:11: runtime.memory: a list is not a memory limit", 1},
		{"runtime retries", "a.yaml", "name: a\ndescription: d\nruntime:\n  retries: 2.5\n", "4:12: runtime.retries: expected a whole number from 0 to 100, got a number (2.5)", 1},
		{"runtime backoff", "a.yaml", "name: a\ndescription: d\nruntime:\n  backoff: linear\n", "4:12: runtime.backoff: \"linear\" is not a backoff; use exponential (the default) or fixed", 1},
		{"strict not boolean", "a.yaml", "name: a\ndescription: d\nstrict: 1\n", "3:9: strict: expected true or false, got a number (1)", 1},
		{"non-finite number", "a.yaml", "name: a\ndescription: d\ninput_schema: {type: object, maximum: .inf}\n", "3:39: .inf has no JSON form", 1},
		{"number out of range", "a.yaml", "name: a\ndescription: d\ninput_schema:\n  type: object\n  properties:\n    n: {type: number, maximum: 1e400}\n", "6:32: 1e400 is out of range: toolctl reads numbers as 64-bit floats (at most about ±1.8e308); use a smaller number, or quote it to mean a string", 1},
		{"negative number out of range", "a.yaml", "name: a\ndescription: d\nexamples:\n  - params: {n: -2e308}\n", "4:17: -2e308 is out of range", 1},
		{"number out of range in json", "a.json", `{"name": "a", "description": "d", "input_schema": {"type": "object", "minimum": 1E+999}}`, "1:81: 1E+999 is out of range", 1},
		{"non-string key", "a.yaml", "name: a\ndescription: d\ninput_schema: {[a]: 1}\n", "3:16: mapping keys must be strings, got a list", 1},
		{"merge of a scalar", "a.yaml", "name: a\ndescription: d\ninput_schema:\n  <<: 1\n", "4:7: the merge key << needs a mapping or a list of mappings, got a number (1)", 1},
		{"recursive alias", "a.yaml", "name: a\ndescription: d\ninput_schema: &s {type: object, properties: {self: *s}}\n", "3:52: alias *s refers to a value that contains it", 1},
		// Bytes.
		{"binary", "a.yaml", "name: a\x00\x01", "1:8: binary data (a NUL byte)", 0},
		{"invalid utf-8", "a.yaml", "name: a\ndescription: caf\xe9\n", "2:17: invalid UTF-8; save the file as UTF-8", 0},
		// yaml.v3 names no place for these; the character is found.
		{"control character", "a.yaml", "name: a\ndescription: \"caf\x01e\"\n", "2:18: YAML syntax error: control character U+0001 is not allowed in YAML; remove it, or in a double-quoted string write it as \"\\u0001\"", 0},
		{"control character in a comment", "a.yaml", "name: a\n# note \x1b[31m\ndescription: d\n", "2:8: YAML syntax error: control character U+001B", 0},
		{"delete character", "a.yaml", "name: a\ntags:\n  - ab\x7f\n", "3:7: YAML syntax error: control character U+007F", 0},
		{"C1 control character", "a.yaml", "name: a\ndescription: été\u0080\n", "2:17: YAML syntax error: control character U+0080", 0},
	}
	for _, tc := range tests {
		if tc.path == "a.yaml" && strings.Contains(tc.want, "YAML syntax error") {
			// The same error after 70 KB of other keys: goccy/go-yaml
			// then places it from the lines around it alone.
			pad := ""
			for i := 0; len(pad) < goccyMaxBytes+6000; i++ {
				pad += fmt.Sprintf("x-pad-%d: %d\n", i, i)
			}
			line, rest, _ := strings.Cut(tc.want, ":")
			n, _ := strconv.Atoi(line)
			tests = append(tests, struct {
				name, path, src string
				want            string
				tools           int
			}{tc.name + " after 70 KB", tc.path, pad + tc.src, fmt.Sprintf("%d:%s", n+strings.Count(pad, "\n"), rest), tc.tools})
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := parse(t, tc.path, tc.src)
			if len(f.Errors) == 0 {
				t.Fatalf("no error; want %q", tc.want)
			}
			e := f.Errors[0]
			got := fmt.Sprintf("%d:%d: %s", e.Span.Start.Line, e.Span.Start.Col, e.Message)
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("got  %q\nwant %q...", got, tc.want)
			}
			if !strings.HasPrefix(e.Error(), tc.path+":") {
				t.Errorf("Error() %q does not start with the file", e.Error())
			}
			if len(f.Tools) != tc.tools {
				t.Errorf("%d tools loaded, want %d", len(f.Tools), tc.tools)
			}
		})
	}
}

func TestHostileInput(t *testing.T) {
	t.Run("alias bomb", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("name: bomb\ndescription: d\ninput_schema:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
		for i := 1; i < 10; i++ {
			fmt.Fprintf(&b, "  a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
		}
		f := parse(t, "bomb.yaml", b.String())
		if len(f.Errors) == 0 || !strings.Contains(f.Errors[0].Message, "alias bomb") {
			t.Fatalf("errors %v", f.Errors)
		}
	})
	t.Run("deep nesting", func(t *testing.T) {
		src := "name: deep\ndescription: d\ninput_schema: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n"
		f := parse(t, "deep.yaml", src)
		if len(f.Errors) == 0 {
			t.Fatal("no error for 10,000 levels")
		}
	})
	// Nesting past the limit, up to the size limit, is refused at the
	// collection that goes past it before any parser runs: yaml.v3 and
	// goccy/go-yaml took seconds and gigabytes on it.
	t.Run("deep nesting up to 16 MB", func(t *testing.T) {
		big, mb := MaxFileSize-100, 1<<20
		for _, tc := range []struct {
			name, path, src string
			want            Pos
		}{
			{"flow 30k", "d.yaml", "name: d\nparameters: " + strings.Repeat("[", 30000) + strings.Repeat("]", 30000) + "\n", Pos{Line: 2, Col: 13 + 256}},
			{"flow 100k", "d.yaml", "name: d\nparameters: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n", Pos{Line: 2, Col: 13 + 256}},
			{"flow 16 MB", "d.yaml", "name: d\nparameters: " + strings.Repeat("[", big), Pos{Line: 2, Col: 13 + 256}},
			{"json array", "d.json", strings.Repeat("[", big/2) + strings.Repeat("]", big/2), Pos{Line: 1, Col: 258}},
			{"json array in .yaml", "d.yaml", strings.Repeat("[", mb/2) + strings.Repeat("]", mb/2), Pos{Line: 1, Col: 258}},
			{"json object", "d.json", strings.Repeat(`{"a":`, mb/5), Pos{Line: 1, Col: 1 + 257*5}},
			{"json object with a BOM", "d.json", "\xef\xbb\xbf" + strings.Repeat(`{"a":`, mb/5), Pos{Line: 1, Col: 2 + 257*5}},
			{"block sequences", "d.yaml", "name: d\np:\n" + strings.Repeat("- ", big/2), Pos{Line: 3, Col: 1 + 2*256}},
			{"block sequences with a syntax error", "d.yaml", "name: d\np:\n" + strings.Repeat("- ", 20000) + "x\n: : [\n", Pos{Line: 3, Col: 1 + 2*256}},
		} {
			// The least of three runs: sync.Pool caches are per P, so one
			// run may allocate what a pool on another P already held.
			var f *File
			alloc := uint64(1<<64 - 1)
			for range 3 {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				f = ParseFile(tc.path, []byte(tc.src))
				runtime.ReadMemStats(&after)
				alloc = min(alloc, after.TotalAlloc-before.TotalAlloc)
			}
			if len(f.Errors) != 1 || f.Errors[0].Message != TooDeepMsg || f.Errors[0].Span.Start != tc.want {
				t.Errorf("%s: errors %.300v, want %v: %s", tc.name, f.Errors, tc.want, TooDeepMsg)
			}
			// The file and its line index, give or take: not the parsers'
			// hundreds of bytes per byte.
			if alloc > 4*uint64(len(tc.src))+1<<20 {
				t.Errorf("%s: %d MB allocated for %d MB", tc.name, alloc>>20, len(tc.src)>>20)
			}
		}
	})
	// A syntax error in a large file is placed without parsing the whole
	// file with goccy/go-yaml (400 bytes a byte).
	t.Run("syntax error in a large file", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("name: big\ndescription: d\nx-data:\n")
		for i := 0; b.Len() < 2<<20; i++ {
			fmt.Fprintf(&b, "  k%d: v\n", i)
		}
		lines := strings.Count(b.String(), "\n")
		b.WriteString("x-bad: \"open\n")
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f := parse(t, "big.yaml", b.String())
		runtime.ReadMemStats(&after)
		want := fmt.Sprintf("big.yaml:%d:8: YAML syntax error: could not find end character of double-quoted text", lines+1)
		if len(f.Errors) != 1 || f.Errors[0].Error() != want {
			t.Errorf("errors %v, want %s", f.Errors, want)
		}
		// yaml.v3 reading the file is most of it (some 95 bytes a byte);
		// goccy on the whole file added 70 more.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 130*uint64(b.Len()) {
			t.Errorf("%d MB allocated for %d MB", alloc>>20, b.Len()>>20)
		}
	})
	t.Run("too large", func(t *testing.T) {
		f := ParseFile("big.yaml", make([]byte, MaxFileSize+1))
		if len(f.Errors) != 1 || !strings.Contains(f.Errors[0].Message, "more than the 16.0 MB") {
			t.Fatalf("errors %v", f.Errors)
		}
	})
}

func TestUTF16(t *testing.T) {
	src := "name: wide\ndescription: \"ü\"\ntags: x\n"
	for _, bom := range []string{"le", "be"} {
		var data []byte
		if bom == "le" {
			data = append(data, 0xFF, 0xFE)
		} else {
			data = append(data, 0xFE, 0xFF)
		}
		for _, r := range src {
			if bom == "le" {
				data = append(data, byte(r), byte(r>>8))
			} else {
				data = append(data, byte(r>>8), byte(r))
			}
		}
		f := ParseFile("w.yaml", data)
		if len(f.Tools) != 1 || f.Tools[0].Description != "ü" {
			t.Fatalf("%s: tools %v errors %v", bom, f.Tools, f.Errors)
		}
		// Positions and source lines are those of the UTF-8 text.
		if len(f.Errors) != 1 || f.Errors[0].Span.Start != (Pos{Line: 3, Col: 7}) || f.Line(3) != "tags: x" {
			t.Fatalf("%s: errors %v, line %q", bom, f.Errors, f.Line(3))
		}
	}
}

func TestToolErrorsBelongToTheirTool(t *testing.T) {
	f := parse(t, "m.yaml", "- name: alpha\n  description: d\n- name: beta\n  description: d\n  tags: x\n")
	if len(f.Tools) != 2 || len(f.Errors) != 1 {
		t.Fatalf("tools %d errors %v", len(f.Tools), f.Errors)
	}
	if errs := f.Tools[0].Errors(); len(errs) != 0 {
		t.Errorf("alpha has beta's errors: %v", errs)
	}
	if errs := f.Tools[1].Errors(); len(errs) != 1 {
		t.Errorf("beta errors %v", errs)
	}
	single := parse(t, "s.yaml", "name: a\ndescription: d\ntags: x\n")
	if len(single.Tools[0].Errors()) != 1 {
		t.Error("a single tool owns its file's errors")
	}
}

func FuzzParseFile(f *testing.F) {
	for _, s := range []string{
		"name: a\ndescription: d\nparameters:\n  - name: x\n    type: string\n",
		"{\"name\": \"a\", \"inputSchema\": {\"type\": \"object\"}}",
		"- {name: a}\n- b\n", "tools: [{name: x, returns: {a: string}}]", "a: &x [*x]", "<<: {name: q}",
		"\r0", // a lone CR: a line break for yaml.v3 (a panic in runeCheckpoints once)
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := ParseFile("fuzz.yaml", data)
		for _, tool := range file.Tools {
			_ = tool.ToMap()
			_ = tool.Span("/input_schema/properties/x/type")
			_ = tool.KeySpan("/examples/0/params/x")
			_ = tool.Where()
		}
		for _, e := range file.Errors {
			_ = e.Error()
			// ParseFile recovers panics; the fuzzer must still see them.
			if strings.Contains(e.Message, "internal error") {
				t.Fatalf("%v\n%q", e, data)
			}
			if p := e.Span.Start; p.Line > file.LineCount() {
				t.Errorf("%v: line %d of %d\n%q", e, p.Line, file.LineCount(), data)
			}
		}
	})
}

// yaml.v3 reports a tab in indentation at the line of the key before it;
// the error points at the tab.
func TestTabIndentErrorPointsAtTheTab(t *testing.T) {
	f := ParseFile("t.yaml", []byte("name: a\ndescription: b\n\t entry: x\n"))
	if len(f.Errors) != 1 {
		t.Fatalf("errors: %v", f.Errors)
	}
	e := f.Errors[0]
	if e.Span.Start != (Pos{Line: 3, Col: 1}) || !strings.Contains(e.Message, "tab") {
		t.Errorf("got %d:%d %q, want 3:1 and a message about the tab", e.Span.Start.Line, e.Span.Start.Col, e.Message)
	}
}
