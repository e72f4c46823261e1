package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// injectTool is a command tool with argv and string parameters a, b, path
// and mode (mode limited to an enum of option values), n an integer, and
// flag bound to the environment.
func injectTool(t *testing.T, argv string) *spec.Tool {
	t.Helper()
	return parseTool(t, fmt.Sprintf(`
name: t
description: A test tool. Use when testing.
category: custom
entry: {type: command, command: %s}
input_schema:
  type: object
  properties:
    a: {type: string}
    b: {type: string}
    path: {type: string}
    prog: {type: string}
    mode: {type: string, enum: [-a, -b]}
    n: {type: integer}
    flag: {type: string}
bind:
  flag: {env: T_FLAG}
`, argv))
}

func planArgv(t *testing.T, tool *spec.Tool, input map[string]any) ([]any, error) {
	t.Helper()
	r := &Runner{Getenv: func(k string) string { return map[string]string{"T_FLAG": "-z", "T_PROG": "printf"}[k] }}
	plan, err := r.Plan(tool, input)
	if err != nil {
		return nil, err
	}
	argv, _ := plan["request"].(*spec.Map).Get("argv")
	return argv.([]any), nil
}

// A parameter value that would start an argument with "-" before any "--"
// is refused: it would be read as an option (du --files0-from=FILE reads
// any file, git --output=FILE writes one).
func TestCommandOptionInjectionRefused(t *testing.T) {
	for _, tc := range []struct {
		argv  string
		input map[string]any
		param string
	}{
		{`[du, -sk, "{path}"]`, map[string]any{"path": "--files0-from=/etc/passwd"}, "path"},
		{`[git, log, "{path}"]`, map[string]any{"path": "--output=/tmp/x"}, "path"},
		{`[git, log, "{path}"]`, map[string]any{"path": "-"}, "path"},
		// only dashes before it: the value picks the option
		{`[prog, "-{path}"]`, map[string]any{"path": "-output=/tmp/x"}, "path"},
		// an empty or absent value before it leaves the value first
		{`[prog, "{a}{path}"]`, map[string]any{"a": "", "path": "-x"}, "path"},
		{`[prog, "{a}{path}"]`, map[string]any{"path": "-x"}, "path"},
		// a number is text in argv too (kill -1, head -5)
		{`[prog, "{n}"]`, map[string]any{"n": -1}, "n"},
		// "--" after the placeholder does not protect it
		{`[prog, "{path}", --, x]`, map[string]any{"path": "-rf"}, "path"},
		// a value "--" is not an end-of-options element of the tool file
		{`[prog, "{a}", "{path}"]`, map[string]any{"a": "--", "path": "-x"}, "a"},
	} {
		_, err := planArgv(t, injectTool(t, tc.argv), tc.input)
		var e *Error
		if !errors.As(err, &e) || e.Kind != ValidationError || e.Param != tc.param {
			t.Errorf("%s %v: got %v, want a ValidationError about %q", tc.argv, tc.input, err, tc.param)
			continue
		}
		for _, want := range []string{`parameter "` + tc.param + `"`, `starts with "-"`, `"--" before the placeholder`, "enum"} {
			if !strings.Contains(e.Message, want) {
				t.Errorf("%s: message lacks %q: %s", tc.argv, want, e.Message)
			}
		}
	}
}

// Values that cannot be options pass: after "--" or "--end-of-options",
// inside a larger argument, from an enum, from a binding, or not starting
// with "-".
func TestCommandOptionValuesAllowed(t *testing.T) {
	for _, tc := range []struct {
		argv  string
		input map[string]any
		want  []any
	}{
		{`[du, -sk, --, "{path}"]`, map[string]any{"path": "--files0-from=/etc/passwd"}, []any{"du", "-sk", "--", "--files0-from=/etc/passwd"}},
		{`[git, log, --end-of-options, "{path}"]`, map[string]any{"path": "--output=x"}, []any{"git", "log", "--end-of-options", "--output=x"}},
		{`[prog, "--name={path}"]`, map[string]any{"path": "-x"}, []any{"prog", "--name=-x"}},
		{`[prog, "-n{path}"]`, map[string]any{"path": "-5"}, []any{"prog", "-n-5"}},
		{`[prog, "x{path}"]`, map[string]any{"path": "-x"}, []any{"prog", "x-x"}},
		{`[prog, "{mode}"]`, map[string]any{"mode": "-a"}, []any{"prog", "-a"}},
		{`[prog, "{flag}"]`, map[string]any{}, []any{"prog", "-z"}},
		{`[prog, "{path}"]`, map[string]any{"path": "a-b"}, []any{"prog", "a-b"}},
		{`[prog, "{n}"]`, map[string]any{"n": 5}, []any{"prog", "5"}},
		{`["${T_PROG}", "{path}"]`, map[string]any{"path": "x"}, []any{"***", "x"}}, // ${ENV} is redacted
	} {
		got, err := planArgv(t, injectTool(t, tc.argv), tc.input)
		if err != nil {
			t.Errorf("%s %v: %v", tc.argv, tc.input, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %v: argv %q, want %q", tc.argv, tc.input, got, tc.want)
		}
	}
}

// The program is never a parameter's value, not even part of it: a caller
// could run anything. Refused before anything runs, whatever the value.
func TestCommandProgramFromParameterRefused(t *testing.T) {
	for _, argv := range []string{`["{prog}", x]`, `["./scripts/{prog}.sh"]`, `["{prog}"]`} {
		for _, input := range []map[string]any{{"prog": "sh"}, {}} {
			_, err := planArgv(t, injectTool(t, argv), input)
			var e *Error
			if !errors.As(err, &e) || e.Kind != DefinitionError || e.Pointer != "/entry/command/0" || !strings.Contains(e.Message, `takes the program to run from parameter "prog"`) {
				t.Errorf("%s %v: got %v", argv, input, err)
			}
		}
	}
	// a bound parameter is the tool file's own choice
	tool := parseTool(t, `
name: t
description: A test tool. Use when testing.
category: custom
entry: {type: command, command: ["{prog}", x]}
input_schema: {type: object, properties: {prog: {type: string}}}
bind: {prog: {env: T_PROG}}
`)
	if got, err := planArgv(t, tool, map[string]any{}); err != nil || got[0] != "***" {
		t.Errorf("bound program: %v %v", got, err)
	}
}

// End to end: du with the bundled tool's argv reads no file list, with the
// fixed argv it reports the odd name as a missing file.
func TestCommandDiskUsageInjection(t *testing.T) {
	if _, err := exec.LookPath("du"); err != nil {
		t.Skip("du is not available")
	}
	dir := t.TempDir()
	list := filepath.Join(dir, "list")
	if err := os.WriteFile(list, []byte(filepath.Join(dir, "list")+"\x00"), 0o600); err != nil {
		t.Fatal(err)
	}
	input := map[string]any{"path": "--files0-from=" + list}
	r := &Runner{Getenv: func(string) string { return "x" }}
	_, err := r.Run(context.Background(), injectTool(t, `[du, -sk, "{path}"]`), input)
	if e := AsError(err); e == nil || e.Kind != ValidationError {
		t.Fatalf("without --: %v", err)
	}
	_, err = r.Run(context.Background(), injectTool(t, `[du, -sk, --, "{path}"]`), input)
	if err == nil || !strings.Contains(err.Error(), "No such file") {
		t.Fatalf("with --: du should look for a file of that name, got %v", err)
	}
}
