package builtin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
)

// frTree makes a root with files, and a directory outside it with a
// secret that symbolic links inside the root point at.
func frTree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "root")
	outside = filepath.Join(base, "outside")
	lines := ""
	for i := 1; i <= 10; i++ {
		lines += "line " + string(rune('0'+i%10)) + "\n"
	}
	files := map[string]string{
		"root/a.txt":         "hello\nworld\n",
		"root/sub/b.md":      "# B",
		"root/utf8.txt":      "héllo",
		"root/latin1.txt":    "caf\xe9 \x80",
		"root/utf16.txt":     "\xff\xfeh\x00i\x00\n\x00",
		"root/utf16be.txt":   "\xfe\xff\x00h\x00i",
		"root/bom.txt":       "\xef\xbb\xbfbom",
		"root/bin.dat":       "PK\x03\x04\x00\x01\xff",
		"root/lines.txt":     lines,
		"root/nonl.txt":      "one\ntwo",
		"root/long.txt":      strings.Repeat("x", 100) + "\nshort\n",
		"outside/secret.txt": "top secret",
	}
	for name, data := range files {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"root/link_in.txt":  "a.txt",
		"root/link_out.txt": filepath.Join(outside, "secret.txt"),
		"root/link_rel.txt": "../outside/secret.txt",
		"root/link_dir":     outside,
		"root/sub/up":       "..",
		"root/dangling.txt": "nowhere.txt",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			t.Skipf("symbolic links are not available: %v", err)
		}
	}
	return root, outside
}

func frRun(t *testing.T, root, input string) (any, error) {
	t.Helper()
	return biRunCall(t, fileReaderHandler, input, &run.Call{Options: &run.Options{FileRoot: root}})
}

func TestFileReader(t *testing.T) {
	root, _ := frTree(t)
	abs, _ := json.Marshal(filepath.Join(root, "a.txt"))
	cases := []struct {
		input string
		want  string // the whole result as JSON
	}{
		{`{"path": "a.txt"}`, `{"content":"hello\nworld\n","encoding":"utf-8","path":"a.txt","size":12,"truncated":false}`},
		{`{"path": "./sub/../a.txt"}`, `{"content":"hello\nworld\n","encoding":"utf-8","path":"a.txt","size":12,"truncated":false}`},
		{`{"path": ` + string(abs) + `}`, `{"content":"hello\nworld\n","encoding":"utf-8","path":"a.txt","size":12,"truncated":false}`},
		{`{"path": "sub/b.md"}`, `{"content":"# B","encoding":"utf-8","path":"sub/b.md","size":3,"truncated":false}`},
		{`{"path": "link_in.txt"}`, `{"content":"hello\nworld\n","encoding":"utf-8","path":"link_in.txt","size":12,"truncated":false}`},
		{`{"path": "sub/up/a.txt"}`, `{"content":"hello\nworld\n","encoding":"utf-8","path":"sub/up/a.txt","size":12,"truncated":false}`},
		{`{"path": "a.txt", "max_bytes": 5}`, `{"content":"hello","encoding":"utf-8","path":"a.txt","size":12,"truncated":true}`},
		// é is two bytes: a cut through it drops it.
		{`{"path": "utf8.txt", "max_bytes": 2}`, `{"content":"h","encoding":"utf-8","path":"utf8.txt","size":6,"truncated":true}`},
		{`{"path": "utf8.txt", "max_bytes": 3}`, `{"content":"hé","encoding":"utf-8","path":"utf8.txt","size":6,"truncated":true}`},
		{`{"path": "latin1.txt", "encoding": "latin-1"}`, `{"content":"café €","encoding":"latin-1","path":"latin1.txt","size":6,"truncated":false}`},
		{`{"path": "utf16.txt", "encoding": "utf-16"}`, `{"content":"hi\n","encoding":"utf-16","path":"utf16.txt","size":8,"truncated":false}`},
		{`{"path": "utf16be.txt", "encoding": "utf-16"}`, `{"content":"hi","encoding":"utf-16","path":"utf16be.txt","size":6,"truncated":false}`},
		{`{"path": "utf16.txt", "encoding": "utf-16", "max_bytes": 5}`, `{"content":"h","encoding":"utf-16","path":"utf16.txt","size":8,"truncated":true}`},
		{`{"path": "bom.txt"}`, `{"content":"bom","encoding":"utf-8","path":"bom.txt","size":6,"truncated":false}`},
		{`{"path": "bin.dat", "encoding": "base64"}`, `{"content":"UEsDBAAB/w==","encoding":"base64","path":"bin.dat","size":7,"truncated":false}`},
		{`{"path": "bin.dat", "encoding": "base64", "max_bytes": 3}`, `{"content":"UEsD","encoding":"base64","path":"bin.dat","size":7,"truncated":true}`},
		// Line ranges.
		{`{"path": "lines.txt", "start_line": 3, "end_line": 4}`, `{"content":"line 3\nline 4\n","encoding":"utf-8","end_line":4,"path":"lines.txt","size":70,"start_line":3,"truncated":false}`},
		{`{"path": "lines.txt", "start_line": 9}`, `{"content":"line 9\nline 0\n","encoding":"utf-8","end_line":10,"path":"lines.txt","size":70,"start_line":9,"total_lines":10,"truncated":false}`},
		{`{"path": "lines.txt", "start_line": 9, "end_line": 99}`, `{"content":"line 9\nline 0\n","encoding":"utf-8","end_line":10,"path":"lines.txt","size":70,"start_line":9,"total_lines":10,"truncated":false}`},
		{`{"path": "lines.txt", "start_line": 20}`, `{"content":"","encoding":"utf-8","end_line":0,"path":"lines.txt","size":70,"start_line":0,"total_lines":10,"truncated":false}`},
		{`{"path": "lines.txt", "start_line": -2}`, `{"content":"line 9\nline 0\n","encoding":"utf-8","end_line":10,"path":"lines.txt","size":70,"start_line":9,"total_lines":10,"truncated":false}`},
		{`{"path": "lines.txt", "start_line": -50}`, `{"content":"line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 0\n","encoding":"utf-8","end_line":10,"path":"lines.txt","size":70,"start_line":1,"total_lines":10,"truncated":false}`},
		{`{"path": "lines.txt", "start_line": -5, "max_bytes": 15}`, `{"content":"line 9\nline 0\n","encoding":"utf-8","end_line":10,"path":"lines.txt","size":70,"start_line":9,"total_lines":10,"truncated":true}`},
		{`{"path": "lines.txt", "start_line": 2, "max_bytes": 10}`, `{"content":"line 2\nlin","encoding":"utf-8","end_line":3,"path":"lines.txt","size":70,"start_line":2,"truncated":true}`},
		{`{"path": "nonl.txt", "start_line": 2}`, `{"content":"two","encoding":"utf-8","end_line":2,"path":"nonl.txt","size":7,"start_line":2,"total_lines":2,"truncated":false}`},
		{`{"path": "long.txt", "start_line": 2}`, `{"content":"short\n","encoding":"utf-8","end_line":2,"path":"long.txt","size":107,"start_line":2,"total_lines":2,"truncated":false}`},
		{`{"path": "long.txt", "start_line": 1, "end_line": 1, "max_bytes": 4}`, `{"content":"xxxx","encoding":"utf-8","end_line":1,"path":"long.txt","size":107,"start_line":1,"truncated":true}`},
		{`{"path": "utf16.txt", "encoding": "utf-16", "start_line": 1, "end_line": 1}`, `{"content":"hi\n","encoding":"utf-16","end_line":1,"path":"utf16.txt","size":8,"start_line":1,"truncated":false}`},
	}
	for _, tc := range cases {
		got, err := frRun(t, root, tc.input)
		if err != nil {
			t.Errorf("%s: %v", tc.input, err)
			continue
		}
		if s := biJSON(t, got); s != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.input, s, tc.want)
		}
	}
}

// Without a root in the options, the working directory is the root.
func TestFileReaderWorkingDirectory(t *testing.T) {
	root, _ := frTree(t)
	t.Chdir(root)
	got, err := biRun(t, fileReaderHandler, `{"path": "a.txt"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got.(map[string]any)["content"] != "hello\nworld\n" {
		t.Errorf("got %v", got)
	}
	_, err = biRun(t, fileReaderHandler, `{"path": "../outside/secret.txt"}`)
	biWantError(t, "escape from the working directory", err, run.ValidationError, `leaves the file root`)
}

func TestFileReaderErrors(t *testing.T) {
	root, outside := frTree(t)
	secret, _ := json.Marshal(filepath.Join(outside, "secret.txt"))
	cases := []struct {
		input string
		kind  run.Kind
		param string
		msg   string
	}{
		{`{"path": "../outside/secret.txt"}`, run.ValidationError, "path", `path "../outside/secret.txt" leaves the file root`},
		{`{"path": "sub/../../outside/secret.txt"}`, run.ValidationError, "path", "leaves the file root"},
		{`{"path": ".."}`, run.ValidationError, "path", "leaves the file root"},
		{`{"path": ` + string(secret) + `}`, run.ValidationError, "path", "is outside the file root"},
		{`{"path": "/etc/passwd"}`, run.ValidationError, "path", `path "/etc/passwd" is outside the file root`},
		{`{"path": "link_out.txt"}`, run.ValidationError, "path", `path "link_out.txt" leads outside the file root ` + `"` + root + `" through a symbolic link`},
		{`{"path": "link_rel.txt"}`, run.ValidationError, "path", "through a symbolic link"},
		{`{"path": "link_dir/secret.txt"}`, run.ValidationError, "path", "through a symbolic link"},
		// Paths are cleaned before use: this is root/outside/secret.txt.
		{`{"path": "sub/up/../outside/secret.txt"}`, run.NotFoundError, "", "not found"},
		{`{"path": "."}`, run.ValidationError, "path", `path "." is a directory`},
		{`{"path": ""}`, run.ValidationError, "path", "path is empty"},
		{`{"path": "sub"}`, run.ValidationError, "path", `path "sub" is a directory`},
		{`{"path": "missing.txt"}`, run.NotFoundError, "", `file "missing.txt" not found under the file root`},
		{`{"path": "dangling.txt"}`, run.NotFoundError, "", "not found"},
		{`{"path": "bin.dat"}`, run.ValidationError, "encoding", `"bin.dat" does not look like utf-8 text (it has a NUL character); use encoding: base64`},
		{`{"path": "bin.dat", "start_line": 1, "end_line": 1}`, run.ValidationError, "encoding", "NUL character"},
		{`{"path": "a.txt", "encoding": "ebcdic"}`, run.ValidationError, "encoding", `encoding "ebcdic" is not supported`},
		{`{"path": "a.txt", "max_bytes": 0}`, run.ValidationError, "max_bytes", "max_bytes 0 is out of range"},
		{`{"path": "a.txt", "max_bytes": 999999999}`, run.ValidationError, "max_bytes", "out of range"},
		{`{"path": "a.txt", "start_line": 0}`, run.ValidationError, "start_line", "lines count from 1"},
		{`{"path": "a.txt", "start_line": 3, "end_line": 2}`, run.ValidationError, "end_line", "end_line 2 is before start_line 3"},
		{`{"path": "a.txt", "start_line": -3, "end_line": 2}`, run.ValidationError, "end_line", "cannot be combined with a negative start_line"},
		{`{"path": "a.txt", "end_line": -1}`, run.ValidationError, "end_line", "is negative"},
		{`{"path": "a.txt", "encoding": "base64", "start_line": 2}`, run.ValidationError, "encoding", "a line range cannot be used with encoding base64"},
	}
	for _, tc := range cases {
		_, err := frRun(t, root, tc.input)
		if e := biWantError(t, tc.input, err, tc.kind, tc.msg); e != nil && e.Param != tc.param {
			t.Errorf("%s: param %q, want %q", tc.input, e.Param, tc.param)
		}
	}
}

func TestFileReaderMissingRoot(t *testing.T) {
	_, err := frRun(t, filepath.Join(t.TempDir(), "nope"), `{"path": "a.txt"}`)
	biWantError(t, "missing root", err, run.ToolExecutionError, "cannot open the file root")
}
