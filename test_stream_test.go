package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/cmd"
)

// TestTestStreamsText: toolctl test writes each tool's line as soon as the
// tool (and every tool before it) finished, not at the end. Tool b's
// command waits until tool a's line is in toolctl's stdout (a file) and
// fails after 30 s otherwise (a hang bound, not a timing assertion).
func TestTestStreamsText(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	tool := func(name, script string) {
		src := "name: " + name + `
description: A tool. Use when testing streamed output.
category: custom
parameters: {type: object, properties: {}}
entry:
  type: command
  command: [sh, -c, '` + script + `']
examples:
  - scenario: Run
    params: {}
    expected: {ok: true}
`
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tool("a", `echo "{\"ok\": true}"`)
	tool("b", `i=0; while ! grep -q "^ok  	a	" "$OUT"; do i=$((i+1)); [ $i -gt 600 ] && exit 1; sleep 0.05; done; echo "{\"ok\": true}"`)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var errOut strings.Builder
	app := &cmd.App{IO: &cmd.IOStreams{In: strings.NewReader(""), Out: f, ErrOut: &errOut}, Getenv: func(k string) string {
		if k == "OUT" {
			return out
		}
		return os.Getenv(k)
	}}
	t.Setenv("OUT", out)
	code := cmd.Run(app, []string{"test", dir, "-p", "1"})
	data, _ := os.ReadFile(out)
	if code != 0 || !strings.Contains(string(data), "ok  \tb\t") {
		t.Fatalf("exit %d; tool b did not see tool a's line while running:\n%s%s", code, data, errOut.String())
	}
}
