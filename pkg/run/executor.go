package run

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Executor runs one entry type. Timeouts, retries and error conversion are
// the runner's: an executor makes one attempt, honours ctx (its deadline is
// the call's timeout) and returns a JSON-like value (nil, bool, json.Number,
// float64, int64, string, []any, map[string]any or *spec.Map) or an error,
// preferably an *Error of the right Kind.
type Executor interface {
	Execute(ctx context.Context, c *Call) (any, error)
}

// Planner is implemented by executors that can describe, for --dry-run,
// what they would do (an HTTP request, an argv) without doing it. The plan
// is redacted by the runner.
type Planner interface {
	Plan(c *Call) (any, error)
}

// Checker is implemented by executors that can tell from the tool's file
// alone that it cannot run: a missing field, a placeholder where a caller
// could pick the program or the host, a file next to the tool file that
// is not there. The runner calls Check before it binds and validates the
// input, for a run and a dry run alike, so a broken definition is a
// DefinitionError (exit 1, with the field's position) whatever the input.
// c has no Input yet.
type Checker interface {
	Check(c *Call) error
}

// Network is implemented by executors (and builtin handlers) whose calls
// go over the network; the runner asks it rather than naming entry types.
type Network interface {
	// Networked tells whether calls of t go over the network, where a
	// failure is often passing: they are retried DefaultRetries times
	// unless the tool or the config says otherwise. Local code is not
	// (running a deterministic program again after it failed or hung
	// rarely helps and triples the wait).
	Networked(t *spec.Tool) bool
	// Method is the HTTP method c sends, "" for none. A POST or PATCH is
	// not idempotent (a retried POST can create twice): it is retried only
	// with runtime.retry_non_idempotent.
	Method(c *Call) string
}

// memoryLimiter is implemented by executors that run code under the
// call's memory limit (Policy.Memory).
type memoryLimiter interface {
	// limitsMemory tells whether a call under p runs under p.Memory.
	limitsMemory(p Policy) bool
}

// Call is one attempt's view of a call: the tool, its validated input and
// what the environment offers.
type Call struct {
	Tool *spec.Tool
	// Input is the validated input: defaults applied and bound parameters
	// filled. Numbers are json.Number.
	Input map[string]any
	// Dir is the directory of the tool's file: relative paths in the entry
	// (a JS file, a python path, a command) are resolved against it.
	Dir string
	// Getenv reads the environment (${ENV} substitution, llm_call's key).
	Getenv func(string) string
	// Secrets collects values that must never be printed; an executor that
	// substitutes ${ENV} adds the value here.
	Secrets *Secrets
	// Stderr receives the tool's own diagnostics: console.log, a
	// subprocess's stderr. Never stdout, which carries the result.
	Stderr io.Writer
	// Options are the runner's settings (HTTP client, interpreter, root).
	Options *Options
	// Timeout is each attempt's timeout (its ctx deadline), for messages.
	Timeout time.Duration
	// Memory is the call's memory limit in bytes (0: none) and MemoryFrom
	// where it was set ("" for the default), as in Policy.
	Memory     int64
	MemoryFrom string
	// notices takes what the tool reports while it runs (progress, log
	// messages) to the Reporter of Run's context; nil drops it.
	notices *notices
	// asks takes the tool's requests to the client (sampling,
	// elicitation) to the Asker of Run's context; nil has none.
	asks *asks
}

// memoryLimit is the limit executor x enforces for this call, 0 for none.
func (c *Call) memoryLimit(x memoryLimiter) int64 {
	if c.Tool != nil && x.limitsMemory(Policy{Memory: c.Memory, MemoryFrom: c.MemoryFrom}) {
		return c.Memory
	}
	return 0
}

// Options are settings that come from the command line or config rather
// than from the tool file.
type Options struct {
	// HTTPClient is used by the http executor and the http builtins; nil
	// means a client without a timeout of its own (the call's deadline
	// applies).
	HTTPClient *http.Client
	// Python is the interpreter for python entries when the entry names
	// none ("python3" when empty).
	Python string
	// FileRoot confines file_reader (the working directory when empty).
	FileRoot string
	// Config looks up dotted config keys (bind kind config, llm_call
	// settings); nil means none are set.
	Config func(key string) (any, bool)
	// MCPCheck, when set, is asked before every mcp call, once per
	// connection to the server: with the tool as the server's tools/list
	// gives it (JSON; nil when the server does not list it). An error
	// refuses the call (toolctl run and serve --locked).
	MCPCheck func(t *spec.Tool, listed []byte) error
	// MCPWire, when set, records or replays the messages of every mcp
	// call (toolctl test's cassettes).
	MCPWire MCPWire
}

// Path resolves p against the tool file's directory.
func (c *Call) Path(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}

// checkProgramPath refuses a program written (at ptr, named field in
// messages) as a path relative to the tool file that is not there: the
// file is part of the tool's definition, like the tool file itself. A bare
// name (looked up in PATH) and an absolute path are the machine's business
// and are left to the run.
func checkProgramPath(c *Call, ptr, field, name string) error {
	if !hasDir(name) || filepath.IsAbs(name) {
		return nil
	}
	if _, err := os.Stat(c.Path(name)); errors.Is(err, fs.ErrNotExist) {
		e := DefinitionErrorf(ptr, "%s program %q does not exist (%s); a path with a slash is relative to the tool file's directory", field, name, c.Path(name))
		e.Err = err
		return e
	}
	return nil
}

// hasDir tells whether a program name holds a directory (a slash): a path,
// relative to the tool file, rather than a name looked up in PATH.
func hasDir(name string) bool {
	return strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator)
}

// Env reads an environment variable.
func (c *Call) Env(name string) string {
	if c.Getenv == nil {
		return ""
	}
	return c.Getenv(name)
}

// HTTPClient returns the client to use.
func (c *Call) HTTPClient() *http.Client {
	if c.Options != nil && c.Options.HTTPClient != nil {
		return c.Options.HTTPClient
	}
	return http.DefaultClient
}

// Executors returns the executors of the entry types this package runs,
// by entry.type: adding an executor is one file and one row here. The
// builtin type's is in pkg/run/builtin (its handlers use this package), so
// a Runner runs builtin tools when given builtin.Executors(), which adds it.
func Executors() map[string]Executor {
	return map[string]Executor{
		spec.EntryCommand:    commandExecutor{},
		spec.EntryHTTP:       httpExecutor{},
		spec.EntryJavaScript: jsExecutor{},
		spec.EntryMCP:        mcpExecutor{},
		spec.EntryPython:     pythonExecutor{},
	}
}
