package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/format"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

type fmtOptions struct {
	app   *App
	paths []string
	write bool
	diff  bool
	check bool
	to    string
}

const fmtLong = `Rewrite tool files in the canonical layout:

  - fields in the order of the file format (name, title, description, detail,
    category, version, author, icon, tags, shareable_scope, entry, parameters,
    returns, triggers, prerequisites, examples, warnings, related_tools,
    workflow, annotations, bind, runtime, then SDK fields, x-* extensions and
    unknown fields as written); entry, examples, runtime, annotations, ...
    in their documented order too;
  - key order inside schemas, example params and bindings kept as written;
  - YAML: 2-space indentation, multi-line text as literal block scalars (|),
    short flow lists such as tags: [a, b] kept, long or nested ones written
    as blocks; comments and blank lines between fields and list items kept;
    the yaml-language-server modeline stays on the first line;
  - JSON files stay JSON: canonical field order, 2-space indentation, numbers
    exactly as written (JSON has no comments to keep).

Without flags the formatted file is printed (one file only). -w rewrites the
files that change, atomically (a temporary file renamed over the original,
mode kept), and prints their names; -d prints a unified diff; --check lists
the files that are not formatted and exits 1 (for CI; with -d, the diffs).
Formatting is idempotent: formatting a formatted file changes nothing.

--to converts the parameter form of every tool: feagent writes the list form
(parameters: [{name, type, description, required, default, enum, ...}]),
schema a JSON Schema under input_schema. A conversion that would lose
something (keywords the list form cannot hold, such as additionalProperties
or an object parameter's own required list; a property with several types;
OpenAI's format, which needs a JSON Schema) is refused with the reason, and
the file is left untouched.

Every result is checked before it is written: it must define the same tools
with the same meaning and, for YAML, keep every comment. A file with a parse
error (whatever toolctl lint reports as parse-error: invalid YAML or JSON, a
duplicate key, a list item that is not a tool, a field of the wrong type) is
reported with the position of each error and left untouched; the others are
still formatted. Other lint findings do not stop fmt. "-" reads stdin and
prints the result (JSON when stdin holds valid JSON, else YAML).

Exit codes: 0 done (--check: every file is formatted); 1 a file could not
be formatted (parse error, refused conversion), or --check found files to
format; 2 usage or I/O error (bad flag, missing path, unwritable file).`

func newCmdFmt(app *App) *cobra.Command {
	opts := &fmtOptions{app: app}
	cmd := &cobra.Command{
		Use:   "fmt [paths...]",
		Short: "Rewrite tool files in the canonical layout, comments kept",
		Long:  fmtLong,
		Example: `  toolctl fmt tools/weather.yaml          # print the formatted file
  toolctl fmt -w                          # rewrite the tools directory in place
  toolctl fmt -d tools/                   # show what would change
  toolctl fmt --check                     # CI: exit 1 and list unformatted files
  toolctl fmt --to schema -w tools/a.yaml # list form → input_schema
  toolctl fmt - < tool.yaml               # stdin to stdout (editor integration)`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			opts.paths = args
			return runFmt(opts)
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&opts.write, "write", "w", false, "rewrite the files in place (atomically) and list the ones that changed")
	f.BoolVarP(&opts.diff, "diff", "d", false, "print a unified diff of the changes instead of the files")
	f.BoolVar(&opts.check, "check", false, "list the files that are not formatted and exit 1 if there are any")
	f.StringVar(&opts.to, "to", "", "convert the parameter form: feagent (list) or schema (input_schema)")
	_ = cmd.RegisterFlagCompletionFunc("to", cobra.FixedCompletions([]string{"feagent\tthe list form", "schema\ta JSON Schema under input_schema"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// fmtResult is one file's outcome.
type fmtResult struct {
	path     string
	src, out []byte
	err      error // a problem of the file (exit 1)
	ioErr    error // cannot read it (exit 2)
	notTool  bool  // one of toolctl's own files (a lint baseline): left alone
}

func (r *fmtResult) changed() bool {
	return r.err == nil && r.ioErr == nil && !bytes.Equal(r.src, r.out)
}

func runFmt(opts *fmtOptions) error {
	app := opts.app
	var to format.Target
	if opts.to != "" {
		t, err := format.ParseTarget(opts.to)
		if err != nil {
			return usageError(fmt.Errorf("--to: %v", err))
		}
		to = t
	}
	if opts.check && opts.write {
		return usageError(errors.New("--check and -w cannot be used together: --check only reports, -w rewrites"))
	}
	for _, p := range opts.paths {
		if p == "-" && len(opts.paths) > 1 {
			return usageError(errors.New(`"-" (stdin) cannot be mixed with file paths`))
		}
	}
	if len(opts.paths) == 1 && opts.paths[0] == "-" {
		if opts.write {
			return usageError(errors.New("-w cannot rewrite stdin; the result is printed"))
		}
		return fmtStdin(opts, to)
	}
	files, err := fmtFiles(app, opts.paths)
	if err != nil {
		return err
	}
	printing := !opts.write && !opts.diff && !opts.check
	if printing && len(files) != 1 {
		return usageError(fmt.Errorf("fmt prints one file, and there are %s; pass -w to rewrite them, -d to see the changes, or --check to list the ones to format",
			lint.Plural(len(files), "tool file", "tool files")))
	}

	results := slices.DeleteFunc(formatAll(files, format.Options{To: to}), func(r *fmtResult) bool { return r.notTool })
	problems, ioErrs, changed := 0, 0, 0
	for _, r := range results {
		switch {
		case r.ioErr != nil:
			ioErrs++
			fmt.Fprintf(app.IO.ErrOut, "toolctl: %v\n", r.ioErr)
			continue
		case r.err != nil:
			problems++
			printFmtError(app, r.err)
			continue
		}
		if printing {
			if _, err := app.IO.Out.Write(r.out); err != nil {
				return err
			}
			continue
		}
		if !r.changed() {
			continue
		}
		changed++
		if opts.diff {
			if _, err := app.IO.Out.Write(diff.Diff(r.path+".orig", r.src, r.path, r.out)); err != nil {
				return err
			}
		} else if opts.check {
			fmt.Fprintln(app.IO.Out, r.path)
		}
		if opts.write {
			if err := writeFormatted(r.path, r.out); err != nil {
				ioErrs++
				fmt.Fprintf(app.IO.ErrOut, "toolctl: %v\n", err)
				continue
			}
			if !opts.diff {
				fmt.Fprintln(app.IO.Out, r.path)
			}
		}
	}
	if opts.check && changed > 0 && !app.Quiet {
		fmt.Fprintf(app.IO.ErrOut, "not formatted: %d of %s; run: toolctl fmt -w%s\n",
			changed, lint.Plural(len(results), "file", "files"), fmtToFlag(opts.to))
	}
	app.logf("formatted %s: %d changed, %d with problems", lint.Plural(len(results), "file", "files"), changed, problems)
	switch {
	case ioErrs > 0:
		return &exitError{code: ExitUsage}
	case problems > 0 || (opts.check && changed > 0):
		return problemsFound()
	}
	return nil
}

func fmtToFlag(to string) string {
	if to == "" {
		return ""
	}
	return " --to " + to
}

// fmtFiles lists the tool files of the paths (default: the tools
// directory); files found by walking a directory that lint.ignore
// excludes are skipped, files named explicitly never are.
func fmtFiles(app *App, args []string) ([]string, error) {
	paths, err := app.defaultPaths(args)
	if err != nil {
		return nil, err
	}
	var ignore []string
	if app.config.Path != "" {
		_, ignore, err = app.lintConfig()
		if err != nil {
			return nil, usageError(err)
		}
	}
	var files []string
	seen := map[string]bool{}
	for _, p := range paths {
		found, err := spec.Collect([]string{p})
		if err != nil {
			return nil, usageError(err)
		}
		info, _ := os.Stat(p)
		for _, f := range found {
			if seen[f] || (info != nil && info.IsDir() && app.ignored(ignore, f)) {
				continue
			}
			seen[f] = true
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, usageError(fmt.Errorf("no tool files in %s (toolctl reads .yaml, .yml and .json)", strings.Join(paths, ", ")))
	}
	return files, nil
}

// formatAll formats the files on every CPU; the results keep the order.
func formatAll(files []string, opts format.Options) []*fmtResult {
	results := make([]*fmtResult, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = formatFile(files[i], opts)
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

func formatFile(path string, opts format.Options) *fmtResult {
	r := &fmtResult{path: path}
	data, err := readToolFile(path)
	var notRegular *spec.NotRegularError
	if errors.As(err, &notRegular) {
		// Found in a directory (a path named so is a usage error).
		r.err = format.Errors{{File: path, Message: "skipped, not opened: it is " + notRegular.Error() + "; fmt rewrites regular files only"}}
		return r
	}
	if err != nil {
		r.ioErr = err
		return r
	}
	r.src = data
	if spec.NotToolFile(data) != "" {
		r.notTool = true // found in a directory (named, it is a usage error)
		return r
	}
	r.out, r.err = format.Source(path, data, opts)
	return r
}

// readToolFile reads a file, refusing one larger than a tool file can be
// and, unopened, anything but a regular file (a *spec.NotRegularError).
func readToolFile(path string) ([]byte, error) {
	data, err := spec.ReadToolFile(path)
	var notRegular *spec.NotRegularError
	var tooLarge *spec.TooLargeError
	switch {
	case errors.As(err, &notRegular):
		return nil, err
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("%s is larger than %d MB, more than a tool file may have; it was left untouched", path, spec.MaxFileSize>>20)
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %v", path, unwrapPathError(err))
	}
	return data, nil
}

func fmtStdin(opts *fmtOptions, to format.Target) error {
	app := opts.app
	data, tooLarge, err := readLimited(app.IO.In)
	if err != nil {
		return usageError(fmt.Errorf("cannot read stdin: %v", err))
	}
	if tooLarge {
		return usageError(fmt.Errorf("stdin is larger than %d MB, more than a tool file may have", spec.MaxFileSize>>20))
	}
	// The name decides JSON or YAML; stdin has none, so look at the text.
	name := "<stdin>"
	if json.Valid(data) {
		name = "<stdin>.json"
	}
	out, err := format.Source(name, data, format.Options{To: to})
	if err != nil {
		printFmtError(app, err)
		return problemsFound()
	}
	changed := !bytes.Equal(data, out)
	switch {
	case opts.diff:
		_, err = app.IO.Out.Write(diff.Diff("<stdin>.orig", data, "<stdin>", out))
	case opts.check:
		if changed {
			fmt.Fprintln(app.IO.Out, "<stdin>")
		}
	default:
		_, err = app.IO.Out.Write(out)
	}
	if err != nil {
		return err
	}
	if opts.check && changed {
		return problemsFound()
	}
	return nil
}

// printFmtError prints "file:line:col: error: message" per problem, as
// lint and import do.
func printFmtError(app *App, err error) {
	var es format.Errors
	if !errors.As(err, &es) {
		fmt.Fprintf(app.IO.ErrOut, "toolctl: %v\n", err)
		return
	}
	ds := make([]*diag.Diagnostic, len(es))
	for i, e := range es {
		c := *e
		c.Severity = diag.Error
		if c.File == "<stdin>.json" {
			c.File = "<stdin>"
		}
		ds[i] = &c
	}
	app.problems(ds...)
}

// writeFormatted replaces a file atomically, keeping its mode. A symbolic
// link is followed, so the link stays a link.
func writeFormatted(path string, data []byte) error {
	fail := func(err error) error {
		return fmt.Errorf("cannot write %s: %v (it was left untouched)", path, unwrapPathError(err))
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fail(err)
	}
	info, err := os.Stat(target)
	if err != nil {
		return fail(err)
	}
	tmp, err := stageFile(target, data, info.Mode().Perm())
	if err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, target); err != nil {
		_ = os.Remove(tmp)
		return fail(err)
	}
	return nil
}
