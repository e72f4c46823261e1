//go:build unix

package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

// cmdTestCall builds a command tool from argv (YAML flow list items) and a
// schema with the given optional string properties.
func cmdTestCall(t *testing.T, argv string, props []string, input map[string]any) (*Call, *bytes.Buffer) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("sh is not available")
	}
	dir := t.TempDir()
	var b strings.Builder
	fmt.Fprintf(&b, "name: cmd_test\ndescription: A test tool.\nentry:\n  type: command\n  command: %s\n", argv)
	if len(props) > 0 {
		b.WriteString("input_schema:\n  type: object\n  properties:\n")
		for _, p := range props {
			fmt.Fprintf(&b, "    %s: {type: string}\n", p)
		}
	}
	path := filepath.Join(dir, "tool.yaml")
	f := spec.ParseFile(path, []byte(b.String()))
	if len(f.Tools) != 1 {
		t.Fatalf("parse: %v", f.Errors)
	}
	if input == nil {
		input = map[string]any{}
	}
	stderr := &bytes.Buffer{}
	env := map[string]string{"TOOLCTL_TEST_TOKEN": "s3cret-value"}
	return &Call{Tool: f.Tools[0], Input: input, Dir: dir, Secrets: &Secrets{}, Stderr: stderr, Options: &Options{}, Getenv: func(k string) string { return env[k] }}, stderr
}

func cmdRun(t *testing.T, c *Call, timeout time.Duration) (any, *Error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	v, err := commandExecutor{}.Execute(ctx, c)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error is not an *Error: %T %v", err, err)
		}
		return v, e
	}
	return v, nil
}

// procWaitGone waits until pid no longer exists (or is a zombie nobody
// reaped yet: it is dead all the same).
func procWaitGone(t *testing.T, pid int) {
	t.Helper()
	if pid <= 0 {
		t.Fatalf("bad pid %d", pid)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
				return
			}
		}
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL) // do not leave it behind
			t.Fatalf("process %d still exists after the timeout", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestCommandJSONAndText(t *testing.T) {
	c, _ := cmdTestCall(t, `[sh, -c, 'cat; echo']`, nil, map[string]any{"a": json.Number("1"), "b": "x"})
	v, e := cmdRun(t, c, 10*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	if raw, _ := MarshalJSON(v); string(raw) != `{"a":1,"b":"x"}` {
		t.Errorf("stdin echoed as JSON: got %s", raw)
	}
	c, _ = cmdTestCall(t, `[sh, -c, 'printf "48\ttools\n"']`, nil, nil)
	v, e = cmdRun(t, c, 10*time.Second)
	if e != nil || v != "48\ttools" {
		t.Errorf("text: got %q, %v", v, e)
	}
	c, _ = cmdTestCall(t, `[sh, -c, 'printf "a\n\n"']`, nil, nil)
	if v, _ = cmdRun(t, c, 10*time.Second); v != "a\n" {
		t.Errorf("only one newline is trimmed: got %q", v)
	}
}

func TestCommandPlaceholders(t *testing.T) {
	c, _ := cmdTestCall(t, `[sh, -c, 'for a in "$@"; do printf "<%s>" "$a"; done', sh, "{name}", "--opt={opt}", "{absent}", "${TOOLCTL_TEST_TOKEN}", "{notaparam}"]`,
		[]string{"name", "opt", "absent"}, map[string]any{"name": "two words; $(rm -rf /)", "opt": "x"})
	v, e := cmdRun(t, c, 10*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	if want := "<two words; $(rm -rf /)><--opt=x><s3cret-value><{notaparam}>"; v != want {
		t.Errorf("got %q, want %q", v, want)
	}
	if c.Secrets.Redact("s3cret-value") != Redacted {
		t.Error("the ${ENV} value is not recorded as a secret")
	}
	plan, err := commandExecutor{}.Plan(c)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := MarshalJSON(plan)
	if !strings.Contains(string(raw), `"argv":["sh","-c",`) || strings.Contains(string(raw), `"dir":`) {
		t.Errorf("plan %s", raw)
	}
}

func TestCommandNonZeroExit(t *testing.T) {
	c, stderr := cmdTestCall(t, `[sh, -c, 'for i in $(seq 1 30); do echo "line $i" >&2; done; echo "final problem" >&2; exit 3']`, nil, nil)
	_, e := cmdRun(t, c, 10*time.Second)
	if e == nil || e.Kind != ToolExecutionError {
		t.Fatalf("want ToolExecutionError, got %v", e)
	}
	if e.Message != "sh exited with status 3: final problem" {
		t.Errorf("message %q", e.Message)
	}
	tail, _ := e.Detail.(string)
	if lines := strings.Split(tail, "\n"); len(lines) != 20 || lines[19] != "final problem" || lines[0] != "line 12" {
		t.Errorf("tail %q", tail)
	}
	if !strings.Contains(stderr.String(), "line 1\n") {
		t.Errorf("stderr not streamed: %q", stderr.String())
	}
}

func TestCommandNotFoundAndRelative(t *testing.T) {
	c, _ := cmdTestCall(t, `[no-such-program-xyz]`, nil, nil)
	_, e := cmdRun(t, c, 10*time.Second)
	if e == nil || !strings.Contains(e.Message, `"no-such-program-xyz" was not found in PATH`) {
		t.Errorf("got %v", e)
	}
	c, _ = cmdTestCall(t, `[./bin/tool.sh, arg]`, nil, nil)
	if err := os.MkdirAll(filepath.Join(c.Dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.Dir, "bin", "tool.sh"), []byte("#!/bin/sh\necho \"{\\\"dir\\\": \\\"$(pwd)\\\", \\\"arg\\\": \\\"$1\\\"}\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	v, e := cmdRun(t, c, 10*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	// The program is found next to the tool file, but runs in the
	// caller's working directory.
	m, _ := v.(*spec.Map)
	dir, _ := m.Get("dir")
	cwd, _ := os.Getwd()
	want, _ := filepath.EvalSymlinks(cwd)
	got, _ := filepath.EvalSymlinks(fmt.Sprint(dir))
	if arg, _ := m.Get("arg"); got != want || arg != "arg" {
		t.Errorf("got %v (want dir %s)", v, want)
	}
}

func TestCommandTimeoutKillsGroup(t *testing.T) {
	t.Parallel() // it mostly waits
	pidFile := filepath.Join(t.TempDir(), "pids")
	c, _ := cmdTestCall(t, `[sh, -c, 'sleep 1000 & echo $! > "$0"; sleep 1000', "`+pidFile+`"]`, nil, nil)
	start := time.Now()
	_, e := cmdRun(t, c, 2*time.Second)
	if e == nil || e.Kind != TimeoutError {
		t.Fatalf("want TimeoutError, got %v", e)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("returned after %s", d)
	}
	if !strings.Contains(e.Message, "2s timeout") {
		t.Errorf("message %q", e.Message)
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	procWaitGone(t, pid)
}

func TestCommandBundledDiskUsage(t *testing.T) {
	path := filepath.Join("..", "..", "tools", "disk_usage.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip("bundled tool not found:", err)
	}
	if _, err := exec.LookPath("du"); err != nil {
		t.Skip("du is not available")
	}
	f := spec.ParseFile(path, data)
	c := &Call{Tool: f.Tools[0], Input: map[string]any{"path": "../../tools/scripts"}, Dir: filepath.Dir(path), Secrets: &Secrets{}, Stderr: &bytes.Buffer{}, Options: &Options{}}
	v, e := cmdRun(t, c, 10*time.Second)
	if e != nil {
		t.Fatal(e)
	}
	if s, _ := v.(string); !strings.HasSuffix(s, "\t../../tools/scripts") {
		t.Errorf("got %q", v)
	}
}
