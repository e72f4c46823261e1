package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/toolctl/toolctl/pkg/spec"
)

// write creates name with data in dir and returns its path.
func write(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func load(t *testing.T, data string) *File {
	t.Helper()
	f, err := Load(write(t, t.TempDir(), "c.yaml", data))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return f
}

// wantError checks that err is a *spec.Error at line:col with pointer ptr
// whose message contains msg.
func wantError(t *testing.T, err error, line, col int, ptr, msg string) {
	t.Helper()
	var se *spec.Error
	if !errors.As(err, &se) {
		t.Fatalf("want a *spec.Error, got %T %v", err, err)
	}
	if se.Span.Start.Line != line || se.Span.Start.Col != col || se.Pointer != ptr || !strings.Contains(se.Message, msg) {
		t.Errorf("got %d:%d %q %q; want %d:%d %q containing %q", se.Span.Start.Line, se.Span.Start.Col, se.Pointer, se.Message, line, col, ptr, msg)
	}
}

func TestLoadEverySection(t *testing.T) {
	f := load(t, `tools_dir: t
no_color: true
lint:
  profile: feagent
run:
  timeout: 2m
  memory: 1GiB
  retries: 3
  python: /usr/bin/python3.12
  file_root: data
llm:
  model: gpt-x
values:
  region: eu
`)
	r, err := Get[Run](f)
	if err != nil {
		t.Fatal(err)
	}
	three := 3
	want := Run{Timeout: 2 * time.Minute, Memory: 1 << 30, Retries: &three, Python: "/usr/bin/python3.12", FileRoot: filepath.Join(f.Dir(), "data")}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("run: got %+v, want %+v", r, want)
	}
	l, err := Get[Lint](f)
	if err != nil {
		t.Fatal(err)
	}
	if l.File != f.Path || l.Dir != filepath.Dir(f.Path) || l.Node == nil || l.Node.Content[0].Value != "profile" || l.Node.Content[1].Value != "feagent" {
		t.Errorf("lint: got %+v", l)
	}
	// llm and values are looked up by key; values first.
	if v, ok := f.Lookup("llm.model"); !ok || v != "gpt-x" {
		t.Errorf("llm.model: %v %v", v, ok)
	}
	if v, ok := f.Lookup("region"); !ok || v != "eu" {
		t.Errorf("region: %v %v", v, ok)
	}
	if v, ok := f.Lookup("run.retries"); !ok || v != json.Number("3") { // numbers as the runner's input has them
		t.Errorf("run.retries: %#v %v", v, ok)
	}
	if v, ok := f.Lookup("llm"); !ok || !reflect.DeepEqual(v, map[string]any{"model": "gpt-x"}) {
		t.Errorf("llm: %#v %v", v, ok)
	}
	if _, ok := f.Lookup("llm.nope"); ok {
		t.Error("llm.nope found")
	}
}

func TestValuesBeforeTop(t *testing.T) {
	f := load(t, "llm: {model: top}\nvalues: {llm: {model: values}}\n")
	if v, _ := f.Lookup("llm.model"); v != "values" {
		t.Errorf("got %v, want the value under values:", v)
	}
}

// No file, an empty one or an absent section: every section is empty.
func TestEmpty(t *testing.T) {
	for name, f := range map[string]*File{"nil": nil, "none": {}, "empty": load(t, ""), "comments": load(t, "# nothing\n"), "other": load(t, "tools_dir: x\nrun:\n")} {
		r, err := Get[Run](f)
		if err != nil || !reflect.DeepEqual(r, Run{}) {
			t.Errorf("%s: run %+v %v", name, r, err)
		}
		l, err := Get[Lint](f)
		if err != nil || l.Node != nil && l.Node.Tag != "!!null" {
			t.Errorf("%s: lint %+v %v", name, l, err)
		}
		if _, ok := f.Lookup("tools_dir.x"); ok {
			t.Errorf("%s: lookup found something", name)
		}
	}
	if d := (*File)(nil).Dir(); d != "." {
		t.Errorf("Dir of no file: %q", d)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct {
		data      string
		line, col int
		ptr, msg  string
	}{
		{"tools_dir: t\ntool_dir: x\n", 2, 1, "/tool_dir", `unknown setting "tool_dir"; did you mean "tools_dir"? (known: [breaking lint llm no_color run tools_dir values])`},
		{"colour: true\n", 1, 1, "/colour", `unknown setting "colour" (known: [breaking lint llm no_color run tools_dir values])`},
		{"a/b~: 1\n", 1, 1, "/a~1b~0", `unknown setting "a/b~"`},
		{"no_color: maybe\n", 1, 11, "/no_color", `no_color must be true or false, got "maybe"`},
		{"tools_dir: [a, b]\n", 1, 12, "/tools_dir", `tools_dir must be a string, got ""`},
		{"tools_dir: ''\n", 1, 12, "/tools_dir", `tools_dir must be a string, got ""`},
		{"run: 3\n", 1, 6, "/run", "run must be a mapping, got a number (3)"},
		{"lint: [a]\n", 1, 7, "/lint", "lint must be a mapping, got a list"},
		{"llm: x\n", 1, 6, "/llm", "llm must be a mapping"},
		{"values: true\n", 1, 9, "/values", "values must be a mapping"},
		{"run: {}\nno_color: true\nrun: {}\n", 3, 1, "/run", `"run" is set twice (first at line 1); remove one`},
		{"- a\n", 1, 1, "", "the config file must be a mapping of settings"},
		{"just text\n", 1, 1, "", "the config file must be a mapping of settings"},
	} {
		_, err := Load(write(t, t.TempDir(), "c.yaml", c.data))
		wantError(t, err, c.line, c.col, c.ptr, c.msg)
	}
}

func TestLoadFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "nope.yaml")); err == nil || err.Error() != "config file "+filepath.Join(dir, "nope.yaml")+": no such file or directory" {
		t.Errorf("missing: %v", err)
	}
	if _, err := Load(dir); err == nil || err.Error() != "config file "+dir+": is a directory" {
		t.Errorf("directory: %v", err)
	}
	p := write(t, dir, "bad.yaml", "tools_dir: [x\n")
	if _, err := Load(p); err == nil || !strings.HasPrefix(err.Error(), p+":1:12: YAML syntax error") {
		t.Errorf("syntax: %v", err)
	}
}

func TestRunErrors(t *testing.T) {
	for _, c := range []struct {
		data      string
		line, col int
		ptr, msg  string
	}{
		{"run:\n  timeout: 0s\n", 2, 12, "/run/timeout", `run.timeout must be a positive duration such as 30s or 2m, got "0s"`},
		{"run:\n  timeout: [1]\n", 2, 12, "/run/timeout", `run.timeout must be a positive duration`},
		{"run:\n  memory: lots\n", 2, 11, "/run/memory", `run.memory must be a size such as 256MiB or 1GiB, or unlimited, got "lots": `},
		{"run:\n  retries: -1\n", 2, 12, "/run/retries", `run.retries must be a whole number ≥ 0, got "-1"`},
		{"run:\n  retries: {a: 1}\n", 2, 12, "/run/retries", `run.retries must be a whole number ≥ 0, got ""`},
		{"run:\n  timout: 1s\n", 2, 3, "/run/timout", `run.timout is not a run setting; did you mean "timeout"? (known: file_root, memory, python, retries, timeout)`},
		{"run:\n  x: 1\n", 2, 3, "/run/x", "run.x is not a run setting (known: file_root, memory, python, retries, timeout)"},
	} {
		f := load(t, c.data)
		_, err := Get[Run](f)
		wantError(t, err, c.line, c.col, c.ptr, c.msg)
		if err != nil && !strings.HasPrefix(err.Error(), f.Path+":") {
			t.Errorf("%v: not prefixed with the file", err)
		}
	}
}

// Every section type is a mapping row of keys, so Load lets it through.
func TestSectionsAreKeys(t *testing.T) {
	tags := map[string]string{}
	for _, k := range keys {
		tags[k.name] = k.tag
	}
	for _, s := range []Section{&Lint{}, &Run{}} {
		if tags[s.sectionKey()] != "!!map" {
			t.Errorf("section %s is no !!map row of keys", s.sectionKey())
		}
	}
}

// globalFlags are the global flags Resolve reads, as the root command
// defines them.
func globalFlags(t *testing.T, args ...string) *pflag.FlagSet {
	t.Helper()
	fs := pflag.NewFlagSet("toolctl", pflag.ContinueOnError)
	fs.String("config", "", "")
	fs.String("tools-dir", "tools", "")
	fs.Bool("no-color", false, "")
	fs.Bool("quiet", false, "")
	fs.Bool("verbose", false, "")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestResolvePrecedence: flags > TOOLCTL_* environment > config file >
// defaults, for every global setting.
func TestResolvePrecedence(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, env := range []string{"TOOLCTL_TOOLS_DIR", "TOOLCTL_NO_COLOR", "TOOLCTL_QUIET", "TOOLCTL_VERBOSE", "TOOLCTL_CONFIG", "NO_COLOR", "TERM"} {
		t.Setenv(env, "")
	}
	resolve := func(args ...string) *Settings {
		t.Helper()
		s, err := Resolve(globalFlags(t, args...), os.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	check := func(what string, s *Settings, toolsDir string, noColor, quiet bool) {
		t.Helper()
		if s.ToolsDir != toolsDir || s.NoColor != noColor || s.Quiet != quiet {
			t.Errorf("%s: got tools_dir %q no_color %v quiet %v; want %q %v %v", what, s.ToolsDir, s.NoColor, s.Quiet, toolsDir, noColor, quiet)
		}
	}

	s := resolve()
	check("defaults", s, "tools", false, false)
	if s.File == nil || s.File.Path != "" {
		t.Errorf("no config file: %+v", s.File)
	}

	write(t, dir, DefaultFile, "tools_dir: from_file\nno_color: true\n")
	s = resolve()
	check("file", s, "from_file", true, false)
	if s.File.Path != DefaultFile {
		t.Errorf("config file %q", s.File.Path)
	}

	t.Setenv("TOOLCTL_TOOLS_DIR", "from_env")
	t.Setenv("TOOLCTL_NO_COLOR", "false")
	t.Setenv("TOOLCTL_QUIET", "true")
	check("env", resolve(), "from_env", false, true)

	check("flags", resolve("--tools-dir", "from_flag", "--no-color", "--quiet=false"), "from_flag", true, false)
	// A flag given with the default value still wins.
	check("flag = default", resolve("--tools-dir", "tools"), "tools", false, true)

	// NO_COLOR sits between TOOLCTL_NO_COLOR and the file.
	t.Setenv("TOOLCTL_NO_COLOR", "")
	t.Setenv("TOOLCTL_TOOLS_DIR", "")
	t.Setenv("TOOLCTL_QUIET", "")
	write(t, dir, DefaultFile, "no_color: false\n")
	t.Setenv("NO_COLOR", "1")
	check("NO_COLOR over the file", resolve(), "tools", true, false)
	t.Setenv("TOOLCTL_NO_COLOR", "false")
	check("TOOLCTL_NO_COLOR over NO_COLOR", resolve(), "tools", false, false)
	check("--no-color=false over NO_COLOR", resolve("--no-color=false"), "tools", false, false)
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "dumb")
	check("TERM=dumb", resolve("--no-color=false"), "tools", true, false)
}

// The config file: --config > TOOLCTL_CONFIG > DefaultFile; a relative
// tools_dir is relative to the file that sets it.
func TestResolveConfigFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, env := range []string{"TOOLCTL_TOOLS_DIR", "TOOLCTL_CONFIG", "NO_COLOR", "TERM"} {
		t.Setenv(env, "")
	}
	write(t, dir, DefaultFile, "tools_dir: default\n")
	write(t, dir, "env/c.yaml", "tools_dir: t\n")
	write(t, dir, "flag/c.yaml", "tools_dir: /abs\n")
	t.Setenv("TOOLCTL_CONFIG", "env/c.yaml")
	s, err := Resolve(globalFlags(t), os.Getenv)
	if err != nil || s.File.Path != "env/c.yaml" || s.ToolsDir != filepath.Join("env", "t") {
		t.Errorf("TOOLCTL_CONFIG: %+v %v", s, err)
	}
	s, err = Resolve(globalFlags(t, "--config", "flag/c.yaml"), os.Getenv)
	if err != nil || s.File.Path != "flag/c.yaml" || s.ToolsDir != "/abs" {
		t.Errorf("--config: %+v %v", s, err)
	}
	// A tools_dir from a flag or the environment is not relative to the file.
	s, err = Resolve(globalFlags(t, "--tools-dir", "y"), os.Getenv)
	if err != nil || s.ToolsDir != "y" {
		t.Errorf("flag tools_dir: %+v %v", s, err)
	}
	t.Setenv("TOOLCTL_TOOLS_DIR", "x")
	s, err = Resolve(globalFlags(t), os.Getenv)
	if err != nil || s.ToolsDir != "x" {
		t.Errorf("env tools_dir: %+v %v", s, err)
	}
	// A named file must exist; its errors are Load's.
	t.Setenv("TOOLCTL_CONFIG", "")
	if _, err := Resolve(globalFlags(t, "--config", "nope.yaml"), os.Getenv); err == nil || err.Error() != "config file nope.yaml: no such file or directory" {
		t.Errorf("missing --config: %v", err)
	}
	write(t, dir, DefaultFile, "no_color: 3\n")
	_, err = Resolve(globalFlags(t), os.Getenv)
	wantError(t, err, 1, 11, "/no_color", "no_color must be true or false")
	t.Setenv("TOOLCTL_QUIET", "maybe")
	if _, err := Resolve(globalFlags(t), os.Getenv); err == nil || err.Error() != `TOOLCTL_QUIET="maybe" is not a boolean; use true or false` {
		t.Errorf("TOOLCTL_QUIET: %v", err)
	}
}
