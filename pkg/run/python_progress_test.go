package run

import (
	"strings"
	"testing"
)

// TestPythonProgressNotANumber: ctx.progress with a value that is not a
// finite number raises TypeError in the tool, as the JavaScript
// ctx.progress does, instead of writing a notice the caller drops into
// stderr as an ordinary line.
func TestPythonProgressNotANumber(t *testing.T) {
	pyNeed(t)
	for _, call := range []string{`ctx.progress("a")`, `ctx.progress(1, float("nan"))`, `ctx.progress(True)`} {
		mod := "def run(ctx):\n    " + call + "\n    return 'done'\n"
		doc := "name: prog\ndescription: A test tool.\nentry:\n  type: python\n  module: prog\n  function: run\n"
		_, e, rec, stderr := richRun(t, doc, map[string]string{"prog.py": mod}, nil)
		if e == nil || e.Kind != ToolExecutionError || !strings.Contains(e.Message, "TypeError") || !strings.Contains(e.Message, "finite number") {
			t.Errorf("%s: error %v; want a TypeError that progress must be a finite number", call, e)
		}
		if len(rec.progress) != 0 || strings.Contains(stderr, "##toolctl") {
			t.Errorf("%s: progress %+v, stderr %q", call, rec.progress, stderr)
		}
	}
}
