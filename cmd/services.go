package cmd

// The services every command may use, beside App's settings (app.go) and
// the lint gate (lintgate.go): the config file's sections, finding a tool,
// counting broken files, completing tool names and building a runner. A
// command file uses these and its own code, never another command's.

import (
	"errors"
	"fmt"
	"github.com/toolctl/toolctl/pkg/run/builtin"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/toolctl/toolctl/pkg/config"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/lock"
	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

// --- lint settings --------------------------------------------------------

// lintConfig decodes the lint section of the config file, if any.
func (app *App) lintConfig() (lint.Config, []string, error) {
	l, err := config.Get[config.Lint](app.config)
	if err != nil {
		return lint.Config{}, nil, err
	}
	cfg, ignore, err := lint.ParseConfig(l.File, l.Dir, l.Node)
	if err == nil {
		err = budgetCounter(&cfg, l.File)
	}
	// entry-python-drift reads modules with the interpreter run uses when
	// it is a command on PATH, never a path the repository ships; a run
	// section with errors is run's to report, never lint's
	if rs, rerr := config.Get[config.Run](app.config); rerr == nil {
		cfg.Python = rs.ReaderPython()
	}
	return cfg, ignore, err
}

// ignored tells whether lint.ignore excludes file; globs are relative to
// the config file's directory.
func (app *App) ignored(globs []string, file string) bool {
	return lint.Override{Files: globs, Root: app.config.Dir()}.Matches(file)
}

// --- tools ----------------------------------------------------------------

// loadTools loads the tool files of paths; a path that cannot be read is a
// usage error, a file that does not parse is in the set with its errors.
func (app *App) loadTools(paths []string) (*spec.Set, error) {
	set, err := spec.Load(paths)
	if err != nil {
		return nil, usageError(err)
	}
	return set, nil
}

// loadTool finds the one tool named name in paths, loading only its own
// file when its name says so and no other file can define it, the whole
// set otherwise (spec.LoadNamed). Errors are usage errors.
func (app *App) loadTool(paths []string, name string) (*spec.Tool, error) {
	set, err := spec.LoadNamed(paths, name)
	if err != nil {
		return nil, usageError(err)
	}
	t, err := app.findTool(set, name, paths)
	if err != nil {
		return nil, usageError(err)
	}
	return t, nil
}

// findTool returns the one tool named name, or an error saying it is
// missing (with a did-you-mean) or defined more than once (with where).
func (app *App) findTool(set *spec.Set, name string, paths []string) (*spec.Tool, error) {
	found := set.Lookup(name)
	switch len(found) {
	case 0:
		return nil, notFound(set, name, paths)
	case 1:
		return found[0], nil
	}
	places := make([]string, len(found))
	for i, t := range found {
		places[i] = t.Where()
	}
	return nil, fmt.Errorf("tool %q is defined %d times (%s); pass the file as a path", name, len(found), strings.Join(places, ", "))
}

func notFound(set *spec.Set, name string, paths []string) error {
	var names []string
	for _, t := range set.Tools() {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	msg := fmt.Sprintf("no tool named %q in %s (%s loaded)", name, strings.Join(paths, ", "), lint.Plural(len(names), "tool", "tools"))
	if s := spec.Suggest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	if bad := countBadFiles(set); bad > 0 {
		msg += fmt.Sprintf("\n%s had errors; run 'toolctl list' to see them", lint.Plural(bad, "file", "files"))
	}
	return fmt.Errorf("%s", msg)
}

// countBadFiles is the number of files of set that have errors.
func countBadFiles(set *spec.Set) int {
	n := 0
	for _, f := range set.Files {
		if len(f.Errors) > 0 {
			n++
		}
	}
	return n
}

// completeToolNames lists the tool names of the tools directory for shell
// completion; errors just mean no suggestions.
func (app *App) completeToolNames(cmd *cobra.Command) []cobra.Completion {
	if err := app.configure(cmd); err != nil {
		return nil
	}
	set, err := app.loadTools([]string{app.ToolsDir})
	if err != nil {
		return nil
	}
	var out []cobra.Completion
	for _, t := range set.Tools() {
		out = append(out, cobra.CompletionWithDesc(t.Name, firstLine(t.Description)))
	}
	return out
}

// --- the runner -------------------------------------------------------------

// runnerFlags are the flags toolctl run and serve share; they override the
// tool file's runtime section and the config file's run section.
type runnerFlags struct {
	timeout time.Duration
	memory  memorySize
	retries optionalInt
	root    string
	python  string
	locked  string
}

// register adds the runner flags to f.
func (o *runnerFlags) register(f *pflag.FlagSet) {
	f.DurationVar(&o.timeout, "timeout", 0, "timeout of each attempt, overriding runtime.timeout (e.g. 10s)")
	f.Var(&o.memory, "memory", "memory limit of a javascript, python or command call, overriding runtime.memory (e.g. 1GiB, or unlimited)")
	f.Var(&o.retries, "retries", "retries after a retryable failure, overriding runtime.retries (0 disables)")
	f.StringVar(&o.root, "root", "", "directory file_reader is confined to (default: the working directory)")
	f.StringVar(&o.python, "python", "", "Python interpreter for python entries that name none (default python3)")
	f.StringVar(&o.locked, "locked", "", "refuse to call an upstream MCP tool whose live definition differs from the lock `FILE` (--locked alone: toolctl.lock; written by toolctl lock --upstream)")
	f.Lookup("locked").NoOptDefVal = lock.FileName
}

// newRunner builds the runner of toolctl run and serve: the flags of
// runnerFlags over the tool file's runtime section over the run section of
// the config file.
func (app *App) newRunner(opts *runnerFlags) (*run.Runner, error) {
	settings, err := config.Get[config.Run](app.config)
	if err != nil {
		return nil, usageError(err)
	}
	r := &run.Runner{
		Getenv: app.Getenv,
		Stderr: app.IO.ErrOut,
		Options: run.Options{
			Python:   firstNonEmpty(opts.python, settings.Python),
			FileRoot: firstNonEmpty(opts.root, settings.FileRoot),
			Config:   app.config.Lookup,
		},
		Timeout:     opts.timeout,
		BaseTimeout: settings.Timeout,
		BaseRetries: settings.Retries,
		Memory:      opts.memory.n,
		BaseMemory:  settings.Memory,
		Executors:   builtin.Executors(),
	}
	if opts.retries.set {
		r.Retries = &opts.retries.n
	}
	if opts.locked != "" {
		lf, err := readLock(opts.locked)
		if err != nil {
			return nil, err
		}
		r.Options.MCPCheck = lf.CheckUpstream
	}
	if app.Verbose {
		r.Events = func(e run.Event) { printEvent(app.IO.ErrOut, e) }
	}
	return r, nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func printEvent(w io.Writer, e run.Event) {
	at := fmt.Sprintf("[%7.3fs]", e.Elapsed.Seconds())
	switch e.Type {
	case run.EventStart:
		fmt.Fprintf(w, "%s start %s (attempt %d)\n", at, e.Tool, e.Attempt)
	case run.EventRetry:
		fmt.Fprintf(w, "%s retry %s in %s after %s: %s\n", at, e.Tool, e.Delay.Round(time.Millisecond), e.Err.Kind, e.Err.Message)
	case run.EventFinish:
		if e.Err != nil {
			fmt.Fprintf(w, "%s finish %s: %s after %s\n", at, e.Tool, e.Err.Kind, lint.Plural(e.Attempt, "attempt", "attempts"))
		} else {
			fmt.Fprintf(w, "%s finish %s: ok in %s after %s\n", at, e.Tool, roundDuration(e.Elapsed), lint.Plural(e.Attempt, "attempt", "attempts"))
		}
	}
}

// optionalInt is an int flag that knows whether it was given.
type optionalInt struct {
	n   int
	set bool
}

func (o *optionalInt) String() string {
	if !o.set {
		return ""
	}
	return strconv.Itoa(o.n)
}

func (o *optionalInt) Type() string { return "int" }

func (o *optionalInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("expected a whole number ≥ 0, got %q", s)
	}
	o.n, o.set = n, true
	return nil
}

// memorySize is a --memory value (spec.ParseSize); 0 when not given.
type memorySize struct{ n int64 }

func (m *memorySize) String() string {
	if m.n == 0 {
		return ""
	}
	return spec.FormatSize(m.n)
}

func (m *memorySize) Type() string { return "size" }

func (m *memorySize) Set(s string) error {
	n, err := spec.ParseSize(s)
	if err != nil {
		return err
	}
	m.n = n
	return nil
}

// roundDuration keeps three significant figures: 1.23s, 45.6ms, 789µs.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// readLock reads and parses a lock file (exit 2 when it is missing or
// malformed).
func readLock(path string) (*lock.File, error) {
	// a regular file of at most spec.MaxFileSize: a lock committed as a
	// link to /dev/zero or a named pipe must not hang verify
	data, err := spec.ReadToolFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, usageError(fmt.Errorf("%s: no lock file; run toolctl lock to pin the tools first (or give --lock FILE)", path))
	}
	if err != nil {
		return nil, usageError(fmt.Errorf("%s: cannot read the lock file: %v", path, unwrapPathError(err)))
	}
	f, err := lock.Parse(path, data)
	if err != nil {
		return nil, usageError(err)
	}
	return f, nil
}

// smallSet is the most files loadWhole counts as a small set.
const smallSet = 200

// wholeSet is what a command whose output covers every tool of paths
// (export, docs, tokens) needs said about it: nothing is the outcome when it
// stops ("nothing exported"), verb what it does to the tools ("export"), and
// why, when not "", says why a broken file stops it.
type wholeSet struct{ nothing, verb, gateVerb, why string }

// loadWhole loads paths for such a command: an output that silently
// missed a broken file would look complete, so a file with errors stops
// it, as do no tools at all and, unless noLint, what lint rejects (the
// lint gate).
func (app *App) loadWhole(paths []string, noLint bool, w wholeSet) ([]*spec.Tool, error) {
	files, err := spec.Collect(paths)
	if err != nil {
		return nil, usageError(err)
	}
	// Every tree stays live to the end here. A small set (a tools
	// directory) allocates a few MB: at GOGC 300 its one collection, a
	// tenth of a 25 ms export of 15 files, is not needed. A large one
	// keeps the default, which bounds its peak to twice what it holds.
	if len(files) <= smallSet {
		app.tuneGC(300, 512<<20)
	}
	set := spec.LoadFiles(files)
	if errs := set.Errors(); len(errs) > 0 {
		app.printFileErrors(errs)
		why := ""
		if w.why != "" {
			why = w.why + ": "
		}
		return nil, &exitError{ExitProblems, fmt.Errorf("%s: %s with errors; %sfix them (toolctl lint shows them) or %s other paths", w.nothing, lint.Plural(countBadFiles(set), "file", "files"), why, w.verb)}
	}
	tools := set.Tools()
	if len(tools) == 0 {
		return nil, usageError(fmt.Errorf("no tools to %s in %s (toolctl reads .yaml, .yml and .json files)", w.verb, strings.Join(paths, ", ")))
	}
	if !noLint {
		if err := app.lintGate(set, paths, w.nothing, w.gateVerb); err != nil {
			return nil, err
		}
	}
	return tools, nil
}
