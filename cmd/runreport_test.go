package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
)

func TestRunReporterTerminalAndPipe(t *testing.T) {
	var tty bytes.Buffer
	r := &runReporter{w: &tty, tool: "t", bar: true}
	r.Progress(run.Progress{Progress: 1, Total: 4, Message: "one\nof four"})
	r.Log(run.LogMessage{Level: "info", Data: "hidden without -v"})
	r.done()
	if got, want := tty.String(), "\r\x1b[Kt [######------------------]  25% one of four\r\x1b[K"; got != want {
		t.Errorf("terminal: %q, want %q", got, want)
	}
	var pipe bytes.Buffer
	r = &runReporter{w: &pipe, tool: "t", verbose: true}
	r.Progress(run.Progress{Progress: 1, Total: 4})
	r.Log(run.LogMessage{Level: "warning", Logger: "db", Data: map[string]any{"message": "slow", "data": map[string]any{"ms": 5}}})
	r.done()
	if got, want := pipe.String(), "toolctl: t/db: warning: slow {\"ms\":5}\n"; got != want {
		t.Errorf("piped with -v: %q, want %q", got, want)
	}
}

// A tool's progress message, log text and logger name, and an error
// message on a terminal, cannot drive the terminal: escape sequences (a
// colour, OSC 52 setting the clipboard) and bidi controls are shown as
// U+FFFD.
func TestRunReporterNoEscapes(t *testing.T) {
	var tty bytes.Buffer
	r := &runReporter{w: &tty, tool: "t", bar: true, verbose: true}
	r.Progress(run.Progress{Progress: 1, Total: 2, Message: "half\x1b[31m red"})
	r.Log(run.LogMessage{Level: "info", Logger: "x\x1b]52;c;aGk=\x07", Data: "clip\u202eboard"})
	r.done()
	if got := tty.String(); bytes.Contains([]byte(got), []byte("\x1b[31m")) || bytes.Contains([]byte(got), []byte("\x1b]52")) || bytes.ContainsRune([]byte(got), '\u202e') || !bytes.Contains([]byte(got), []byte("half\ufffd[31m red")) {
		t.Errorf("terminal: %q", got)
	}
	dir := t.TempDir()
	tool := "name: boom\ndescription: Fails with a message the model wrote. Use when testing.\ncategory: custom\nentry:\n  type: javascript\n  code: |\n    function execute() { throw new Error(\"no\\u001b[2Jsuch\"); }\n"
	if err := os.WriteFile(filepath.Join(dir, "boom.yaml"), []byte(tool), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tty := range []bool{true, false} {
		var errOut bytes.Buffer
		app := &App{IO: &IOStreams{In: bytes.NewReader(nil), Out: &bytes.Buffer{}, ErrOut: &errOut, StderrTTY: tty}, Getenv: func(string) string { return "" }}
		Run(app, []string{"run", "--tools-dir", dir, "boom"})
		// piped too: a CI log shows escape sequences as a terminal does
		if bytes.Contains(errOut.Bytes(), []byte("\x1b[2J")) || !bytes.Contains(errOut.Bytes(), []byte("no\ufffd[2Jsuch")) {
			t.Errorf("error (terminal %v): %q", tty, errOut.String())
		}
	}
}
