package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/internal/testhook"
)

// runIn runs toolctl with args in dir, stdin from in.
func runIn(t *testing.T, dir, in string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	app := &App{
		IO:     &IOStreams{In: strings.NewReader(in), Out: &out, ErrOut: &errOut},
		Getenv: func(string) string { return "" },
	}
	code := Run(app, args)
	return code, out.String(), errOut.String()
}

// A panic while one file is read (parse) or formatted or imported is that
// file's positioned error in every command: the other files are still
// processed, the exit code is 1 (a problem of a file), and nothing shows a
// stack trace. (export refuses a set with a broken file, as it does for any
// error; show prints the tool asked for and reports only its errors.)
func TestPanicInOneFile(t *testing.T) {
	tool := func(name string) string {
		return "name: " + name + "\ndescription: Says hello. Use when a greeting is needed.\ncategory: custom\n"
	}
	for _, tc := range []struct {
		name   string
		stage  string // where the panic is injected, for the file or input "b"
		args   []string
		in     string
		others string // output showing that another file was processed
	}{
		{"lint", "parse", []string{"lint", "tools"}, "", ""},
		{"list", "parse", []string{"list", "tools"}, "", "tools/a.yaml"},
		{"fmt -w (parse)", "parse", []string{"fmt", "-w", "tools"}, "", ""},
		{"fmt -w (format)", "format", []string{"fmt", "--check", "tools"}, "", "tools/c.yaml"},
		{"fmt -", "format", []string{"fmt", "-"}, tool("b"), ""},
		{"export", "parse", []string{"export", "--format", "openai", "tools"}, "", "nothing exported: 1 file with errors"},
		{"show", "parse", []string{"show", "a", "tools"}, "", "name: a"},
		{"docs", "parse", []string{"docs", "-o", "site", "tools"}, "", ""},
		{"import", "import", []string{"import", "-o", "-", "b.json"}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"tools/a.yaml": tool("a"),
				"tools/b.yaml": tool("b"),
				// unformatted, for fmt --check
				"tools/c.yaml": "description: Says hello. Use when a greeting is needed.\nname: c\ncategory: custom\n",
				"b.json":       `[{"name": "b", "description": "d", "inputSchema": {"type": "object"}}]`,
			}
			for name, text := range files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			defer testhook.Set(func(stage, name string) {
				base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
				if stage == tc.stage && (base == "b" || name == "<stdin>") {
					var list []int
					_ = list[len(name)] // index out of range
				}
			})()
			code, out, errOut := runIn(t, dir, tc.in, tc.args...)
			all := out + errOut
			want := ExitProblems
			if tc.name == "show" {
				want = 0
			}
			if code != want {
				t.Errorf("exit %d, want %d\n%s", code, want, all)
			}
			if tc.name != "show" && (!strings.Contains(all, ":1:1: ") || !strings.Contains(all, "internal error while reading ") ||
				!strings.Contains(all, "index out of range") || !strings.Contains(all, "please report this at https://github.com/toolctl/toolctl/issues")) {
				t.Errorf("no positioned internal error:\n%s", all)
			}
			if strings.Contains(all, "goroutine") || strings.Contains(all, "panic:") {
				t.Errorf("a stack trace:\n%s", all)
			}
			if tc.others != "" && !strings.Contains(all, tc.others) {
				t.Errorf("the other files were not processed (want %q):\n%s", tc.others, all)
			}
		})
	}
}

// "\r0" (a 2-byte file whose scalar is on line 2 for yaml.v3) panicked
// every command once; now it is a positioned error and the other files go
// on.
func TestLoneCRFileInEveryCommand(t *testing.T) {
	for _, args := range [][]string{
		{"lint", "tools"},
		{"list", "tools"},
		{"fmt", "-w", "tools"},
		{"fmt", "tools/x.yaml"},
		{"fmt", "-"},
		{"export", "--format", "openai", "tools"},
		{"show", "x", "tools/x.yaml"},
		{"docs", "-o", "site", "tools"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "tools"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "tools", "x.yaml"), []byte("\r0"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "tools", "a.yaml"), []byte("name: a\ndescription: Says hello. Use when a greeting is needed.\ncategory: custom\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runIn(t, dir, "\r0", args...)
			all := out + errOut
			if strings.Contains(all, "goroutine") || strings.Contains(all, "internal error") {
				t.Fatalf("a panic:\n%s", all)
			}
			wantCode, where := ExitProblems, ":2:1: "
			if args[0] == "show" {
				wantCode, where = ExitUsage, "had errors"
			}
			if code != wantCode || !strings.Contains(all, where) {
				t.Errorf("exit %d (want %d), output lacks %q:\n%s", code, wantCode, where, all)
			}
		})
	}
}
