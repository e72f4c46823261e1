package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

// jsExecutor runs `entry.type: javascript` in goja (package jsvm): a fresh
// VM per call (no state leaks between calls), with nothing but the
// ECMAScript built-ins, console and setTimeout: no require, no filesystem,
// no network.
//
// The VM runs in a worker process (javascript_worker.go), this binary
// started again, so that a call over its memory limit or stuck in one long
// native operation (a huge string, a catastrophic regular expression) is
// stopped without harm to the process that made it: serve runs many calls.
type jsExecutor struct{}

// limitsMemory: the code runs under the memory limit unless it is unlimited.
func (jsExecutor) limitsMemory(p Policy) bool { return p.Memory > 0 }

func (jsExecutor) Execute(ctx context.Context, c *Call) (any, error) {
	src, name, err := jsSource(c)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctxEndError(ctx, c, time.Now(), "before the JavaScript code started")
	}
	return jsCallWorker(ctx, c, src, name)
}

// Check refuses an entry without code, or whose file cannot be read.
func (jsExecutor) Check(c *Call) error {
	_, _, err := jsSource(c)
	return err
}

// jsSource returns the code to run and the name positions are reported
// against: entry.code, or the path written in entry.file.
func jsSource(c *Call) (src, name string, err error) {
	e := c.Tool.Entry
	switch {
	case e == nil:
		return "", "", DefinitionErrorf("", "the tool has no entry; a javascript entry needs code or file")
	case e.Code != "":
		return e.Code, "entry.code", nil
	case e.File != "":
		// a regular file of bounded size (entry.file: /dev/zero must not
		// fill memory, nor a named pipe hang the call)
		data, err := spec.ReadToolFile(c.Path(e.File))
		if err != nil {
			e := DefinitionErrorf("/entry/file", "cannot read entry.file %q (%v); the path is relative to the tool file's directory", e.File, jsPathErr(err))
			e.Err = err
			return "", "", e
		}
		return string(data), e.File, nil
	}
	return "", "", DefinitionErrorf("/entry", "a javascript entry needs entry.code (the source) or entry.file (a .js file next to the tool file) defining function execute(input)")
}

func jsPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// jsWhere names a line of the tool's code and, for entry.code, the line
// of the tool file it is on: " (line 3 of entry.code, tools/x.yaml:17)".
func jsWhere(c *Call, name string, line int) string {
	if line <= 0 {
		return ""
	}
	s := fmt.Sprintf(" (line %d of %s", line, name)
	if name == "entry.code" && c.Tool != nil && c.Tool.File != nil && c.Tool.Path() != "" {
		if p := c.Tool.TextPos("/entry/code", line, 1); p.Line > 0 {
			s += fmt.Sprintf(", %s:%d", c.Tool.Path(), p.Line)
		}
	}
	return s + ")"
}
