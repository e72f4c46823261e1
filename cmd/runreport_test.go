package cmd

import (
	"bytes"
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
