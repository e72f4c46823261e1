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
	"sync"
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
}

// memoryLimit is the limit the executor of kind enforces for this call, 0
// for none (see limitsMemory).
func (c *Call) memoryLimit() int64 {
	if c.Tool != nil && limitsMemory(c.Tool.EntryKind(), Policy{Memory: c.Memory, MemoryFrom: c.MemoryFrom}) {
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
		e := definitionErrorf(ptr, "%s program %q does not exist (%s); a path with a slash is relative to the tool file's directory", field, name, c.Path(name))
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

var (
	executorsMu sync.RWMutex
	executors   = map[string]Executor{}
)

// Register makes an executor available for an entry kind (spec.EntryHTTP,
// ...). Each executor file registers itself in an init function.
func Register(kind string, e Executor) {
	executorsMu.Lock()
	defer executorsMu.Unlock()
	executors[kind] = e
}

// ExecutorFor returns the executor of an entry kind.
func ExecutorFor(kind string) (Executor, bool) {
	executorsMu.RLock()
	defer executorsMu.RUnlock()
	e, ok := executors[kind]
	return e, ok
}
