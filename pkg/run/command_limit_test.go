package run

import (
	"strings"
	"testing"
	"time"
)

// TestCommandStdoutLimit: a command that writes more than procMaxOutput on
// stdout fails with a ToolExecutionError that says so, never a result of
// hundreds of megabytes.
func TestCommandStdoutLimit(t *testing.T) {
	c, _ := cmdTestCall(t, `[sh, -c, 'head -c 40000000 /dev/zero | tr "\0" a']`, nil, nil)
	v, e := cmdRun(t, c, 60*time.Second)
	if e == nil {
		s, _ := v.(string)
		t.Fatalf("40 MB on stdout was accepted as a result of %d bytes", len(s))
	}
	if e.Kind != ToolExecutionError || !strings.Contains(e.Message, "MiB") {
		t.Errorf("got %s: %s", e.Kind, e.Message)
	}
}
