package cmd

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/scaffold"
	"github.com/toolctl/toolctl/pkg/spec"
)

type newOptions struct {
	app         *App
	name        string
	entry       string
	category    string
	description string
	dir         string
	format      string
	dialect     string
	force       bool
	schemaRef   string
	from        string // python: the tool from FILE.py:FUNC (newFromPython)
	source      string // FILE.py:FUNC
	exec        bool
}

const newLong = `Create a tool file that passes 'toolctl lint' as it is: every field with a
realistic placeholder and a comment saying what it is for and its limits, an
example whose params are valid, and the editor schema modeline on the first
line (# yaml-language-server: $schema=...; a "$schema" field in JSON).

--entry picks how the tool runs: http (the default), builtin, javascript,
python, command or mcp. javascript, python and command tools run as they are
('toolctl run NAME'): python gets its module in DIR/scripts/NAME.py, command a
shell script DIR/scripts/NAME.sh.

--dialect canonical (the default) writes the input as a JSON Schema under
input_schema; feagent writes the list form (parameters: [{name, type, ...}])
and returns: {field: {type, description}}, for Feagent's loader (builtin,
http, javascript and python entries only). --format json writes NAME.json.

The modeline points at --schema-ref; by default at a local copy of the schema
when the project has one (.toolctl/tool.schema.json or schema/tool.schema.json,
from 'toolctl schema'), else at the schema of this release in the repository
(https://raw.githubusercontent.com/` + spec.SchemaRepo + `/vX.Y.Z/schema/tool.schema.json,
at main for a build that is no release).

NAME is checked (snake_case, at most 64 characters or lint.limits.name_max)
before anything is written. An existing file is never replaced without
--force; files are written atomically. With no NAME and a terminal on stdin,
toolctl asks for the name, entry type, description and category.

--from python FILE.py:FUNC writes the tool of one Python function instead,
as 'toolctl import --from python' does (schema from the type hints,
description and parameter descriptions from the docstring, a python entry
that runs it; the name is the function's): a shortcut that writes into the
tools directory (or --dir) and never updates an existing file (import
does). --exec imports the module to resolve run-time types, which runs its
code (see 'toolctl import --help').

Exit codes: 0 created; 1 the Python function cannot be imported (--from
python); 2 usage or I/O error (bad name or flag, an existing file without
--force, an unwritable directory).`

func newCmdNew(app *App) *cobra.Command {
	opts := &newOptions{app: app}
	cmd := &cobra.Command{
		Use:   "new NAME [--entry TYPE] | --from python FILE.py:FUNC",
		Short: "Create a commented tool file that passes lint, with a runnable stub",
		Long:  newLong,
		Example: `  toolctl new get_customer                      # an http tool in the tools directory
  toolctl new word_count --entry python         # + tools/scripts/word_count.py
  toolctl new word_count --entry javascript --dialect feagent
  toolctl new calc --entry builtin --format json --dir agent/tools
  toolctl new --from python scripts/weather.py:forecast   # the tool of a Python function
  toolctl new                                   # asks for the name (on a terminal)`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			if len(args) == 1 {
				opts.name = args[0]
			}
			if opts.from != "" || opts.exec {
				return runNewFromPython(cmd, opts)
			}
			return runNew(opts, cmd.Flags().Changed("dir"), cmd.Flags().Changed("schema-ref"), cmd.Flags().Changed("entry"))
		},
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	f := cmd.Flags()
	f.StringVar(&opts.entry, "entry", spec.EntryHTTP, "how the tool runs: "+strings.Join(spec.EntryTypes, ", "))
	f.StringVar(&opts.category, "category", "", "category (default: http for http tools, custom otherwise)")
	f.StringVar(&opts.description, "description", "", "description (default: a placeholder for the entry type)")
	f.StringVar(&opts.dir, "dir", "", "directory to write to (default: the tools directory)")
	f.StringVar(&opts.format, "format", scaffold.YAML, "file format: yaml or json")
	f.StringVar(&opts.dialect, "dialect", scaffold.Canonical, "canonical (input_schema) or feagent (parameters list)")
	f.BoolVar(&opts.force, "force", false, "replace existing files")
	f.StringVar(&opts.from, "from", "", "python: make the tool of a Python function, given as FILE.py:FUNC")
	f.BoolVar(&opts.exec, "exec", false, "with --from python: import the module (RUNS ITS CODE) to resolve run-time types")
	f.StringVar(&opts.schemaRef, "schema-ref", "", "the JSON Schema of the modeline / $schema (default: a local copy, else "+spec.SchemaID+"); empty for none")
	_ = cmd.RegisterFlagCompletionFunc("entry", cobra.FixedCompletions(spec.EntryTypes, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(scaffold.Formats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("dialect", cobra.FixedCompletions(scaffold.Dialects, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("category", cobra.FixedCompletions(lint.DefaultCategories, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.MarkFlagDirname("dir")
	return cmd
}

func runNew(opts *newOptions, dirChanged, refChanged, entryChanged bool) error {
	app := opts.app
	cfg, _, err := app.lintConfig()
	if err != nil {
		return usageError(err)
	}
	categories := cfg.Categories
	if categories == nil {
		categories = lint.DefaultCategories
	}
	nameMax := cfg.Limits.NameMax
	if nameMax == 0 {
		nameMax = lint.DefaultLimits.NameMax
	}
	descMax := cfg.Limits.DescriptionMax
	if descMax == 0 {
		descMax = lint.DefaultLimits.DescriptionMax
	}
	if !slices.Contains(scaffold.Formats, opts.format) {
		return usageError(fmt.Errorf("--format %q: use yaml or json", opts.format))
	}
	if !slices.Contains(scaffold.Dialects, opts.dialect) {
		return usageError(fmt.Errorf("--dialect %q: use canonical (input_schema) or feagent (the parameters list)", opts.dialect))
	}
	if opts.entry, err = entryType(opts.entry); err != nil {
		return usageError(fmt.Errorf("--entry: %v", err))
	}
	if opts.category != "" && !slices.Contains(categories, opts.category) {
		return usageError(fmt.Errorf("--category %q is not an allowed category; use one of %s (lint.categories in .toolctl.yaml sets them)", opts.category, strings.Join(categories, ", ")))
	}
	if opts.description != "" {
		if err := checkDescription(opts.description, descMax); err != nil {
			return usageError(fmt.Errorf("--description: %v", err))
		}
	}

	if opts.name == "" {
		if !app.IO.StdinTTY {
			return usageError(errors.New("new needs a NAME: toolctl new NAME [--entry TYPE] (stdin is not a terminal, so toolctl cannot ask for it)"))
		}
		if err := askNew(app, opts, entryChanged, categories, nameMax, descMax); err != nil {
			return err
		}
	}
	if err := scaffold.ValidateName(opts.name, nameMax); err != nil {
		return usageError(fmt.Errorf("%v (nothing was written)", err))
	}
	if opts.category == "" {
		opts.category = scaffold.DefaultCategory(opts.entry)
		if !slices.Contains(categories, opts.category) {
			opts.category = categories[0]
			if slices.Contains(categories, "custom") {
				opts.category = "custom"
			}
		}
	}
	if !dirChanged {
		opts.dir = app.ToolsDir
	}
	if opts.dir == "" {
		return usageError(errors.New("--dir: give a directory"))
	}
	if !refChanged {
		opts.schemaRef = defaultSchemaRef(app, opts.dir)
	}

	files, err := scaffold.Generate(scaffold.Options{
		Name: opts.name, Entry: opts.entry, Description: opts.description, Category: opts.category,
		Format: opts.format, Dialect: opts.dialect, SchemaRef: opts.schemaRef, NameMax: nameMax,
	})
	if err != nil {
		return usageError(err)
	}
	if err := checkNewTargets(opts, files); err != nil {
		return err
	}
	if err := writeNew(app, opts, files); err != nil {
		return err
	}
	toolPath := filepath.Join(opts.dir, files[0].Path)
	reportNewFindings(app, cfg, toolPath, files[0].Data)
	if !app.Quiet {
		run := "toolctl run " + opts.name
		if filepath.Clean(opts.dir) != filepath.Clean(app.ToolsDir) {
			run = fmt.Sprintf("toolctl --tools-dir %s run %s", shellQuote(opts.dir), opts.name)
		}
		fmt.Fprintf(app.IO.ErrOut, "next: replace the placeholders, then run 'toolctl lint %s' and '%s --help'\n", shellQuote(toolPath), run)
	}
	return nil
}

// entryType reads --entry, with the aliases rest and native.
func entryType(s string) (string, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	switch k {
	case "rest":
		k = spec.EntryHTTP
	case "native":
		k = spec.EntryCommand
	}
	if !slices.Contains(spec.EntryTypes, k) {
		msg := fmt.Sprintf("%q is not an entry type; use %s", s, strings.Join(spec.EntryTypes, ", "))
		if sug := spec.Suggest(k, spec.EntryTypes); sug != "" {
			msg = fmt.Sprintf("%q is not an entry type; did you mean %q?", s, sug)
		}
		return "", errors.New(msg)
	}
	return k, nil
}

func checkDescription(d string, max int) error {
	switch {
	case strings.TrimSpace(d) == "":
		return errors.New("the description is empty")
	case strings.ContainsAny(d, "\n\r"):
		return errors.New("the description is one line; longer notes go in detail")
	case len([]rune(d)) > max:
		return fmt.Errorf("the description is %d characters long; the limit is %d (longer notes go in detail)", len([]rune(d)), max)
	}
	return nil
}

// askNew asks for what the command line did not say. Prompts go to
// stderr, so that stdout stays the list of files created.
func askNew(app *App, opts *newOptions, entryChanged bool, categories []string, nameMax, descMax int) error {
	in := bufio.NewReader(app.IO.In)
	w := app.IO.ErrOut
	ask := func(prompt string, check func(string) error) (string, error) {
		for {
			fmt.Fprint(w, prompt)
			line, err := in.ReadString('\n')
			answer := strings.TrimSpace(line)
			if err != nil && (err != io.EOF || answer == "") {
				fmt.Fprintln(w)
				return "", usageError(errors.New("no answer (end of input); nothing was written"))
			}
			if cerr := check(answer); cerr != nil {
				fmt.Fprintf(w, "  %v\n", cerr)
				continue
			}
			return answer, nil
		}
	}
	var err error
	if opts.name, err = ask("Tool name (snake_case, e.g. get_weather): ", func(s string) error {
		return scaffold.ValidateName(s, nameMax)
	}); err != nil {
		return err
	}
	if !entryChanged {
		answer, err := ask(fmt.Sprintf("Entry type (%s) [%s]: ", strings.Join(spec.EntryTypes, ", "), opts.entry), func(s string) error {
			if s == "" {
				return nil
			}
			_, err := entryType(s)
			return err
		})
		if err != nil {
			return err
		}
		if answer != "" {
			opts.entry, _ = entryType(answer)
		}
	}
	if opts.description == "" {
		if opts.description, err = ask("Description: what it does and when to use it (Enter for a placeholder): ", func(s string) error {
			if s == "" {
				return nil
			}
			return checkDescription(s, descMax)
		}); err != nil {
			return err
		}
	}
	if opts.category == "" {
		def := scaffold.DefaultCategory(opts.entry)
		if !slices.Contains(categories, def) {
			def = categories[0]
		}
		answer, err := ask(fmt.Sprintf("Category (%s) [%s]: ", strings.Join(categories, ", "), def), func(s string) error {
			if s != "" && !slices.Contains(categories, s) {
				return fmt.Errorf("%q is not one of %s", s, strings.Join(categories, ", "))
			}
			return nil
		})
		if err != nil {
			return err
		}
		opts.category = def
		if answer != "" {
			opts.category = answer
		}
	}
	return nil
}

// defaultSchemaRef points the modeline at the project's copy of the schema
// when there is one (relative to the new file, as yaml-language-server
// resolves it), else at the published schema.
func defaultSchemaRef(app *App, dir string) string {
	root := app.config.Dir()
	for _, cand := range []string{".toolctl/tool.schema.json", "schema/tool.schema.json"} {
		p := filepath.Join(root, cand)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			absSchema, err1 := filepath.Abs(p)
			absDir, err2 := filepath.Abs(dir)
			if err1 != nil || err2 != nil {
				break
			}
			if rel, err := filepath.Rel(absDir, absSchema); err == nil {
				return filepath.ToSlash(rel)
			}
		}
	}
	return spec.SchemaURL(currentBuild().Version)
}

// checkNewTargets refuses to replace a file without --force, and refuses
// a second file for the same tool (NAME.json beside NAME.yaml) even with
// it, since lint would then report the name twice.
func checkNewTargets(opts *newOptions, files []scaffold.File) error {
	var existing []string
	for i, f := range files {
		path := filepath.Join(opts.dir, f.Path)
		info, err := os.Lstat(path)
		switch {
		case err == nil && info.IsDir():
			return usageError(fmt.Errorf("%s is a directory; the tool cannot be written there (nothing was written)", path))
		case err == nil:
			existing = append(existing, path)
		case !errors.Is(err, fs.ErrNotExist):
			return usageError(fmt.Errorf("cannot check %s: %v (nothing was written)", path, unwrapPathError(err)))
		}
		if i > 0 {
			continue
		}
		for _, ext := range []string{".yaml", ".yml", ".json"} {
			other := filepath.Join(opts.dir, opts.name+ext)
			if other == path {
				continue
			}
			if _, err := os.Lstat(other); err == nil {
				return usageError(fmt.Errorf("%s already defines tool %q; a second file would make the name ambiguous (remove it, or pick another name; nothing was written)", other, opts.name))
			}
		}
	}
	if len(existing) > 0 && !opts.force {
		what := existing[0] + " already exists"
		if len(existing) > 1 {
			what = strings.Join(existing, " and ") + " already exist"
		}
		if opts.from != "" { // new --from python: the name is the function's
			return usageError(fmt.Errorf("%s; toolctl import --from python %s updates it from the code and keeps what was added by hand, --force replaces it (nothing was written)", what, shellQuote(opts.source)))
		}
		return usageError(fmt.Errorf("%s; pass --force to replace it, or pick another name (nothing was written)", what))
	}
	return nil
}

// writeNew stages every file beside its target, then moves them into
// place: the files the entry runs first, the tool file last, so a tool
// file never points at a missing stub.
func writeNew(app *App, opts *newOptions, files []scaffold.File) error {
	type staged struct {
		path, tmp string
		existed   bool
	}
	var all []*staged
	defer func() {
		for _, s := range all {
			if s.tmp != "" {
				_ = os.Remove(s.tmp)
			}
		}
	}()
	for _, f := range files {
		path := filepath.Join(opts.dir, f.Path)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			return usageError(fmt.Errorf("cannot create the directory %s: %v (nothing was written)", filepath.Dir(path), unwrapPathError(err)))
		}
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		tmp, err := stageFile(path, f.Data, mode)
		if err != nil {
			return usageError(fmt.Errorf("cannot write %s: %v (nothing was written)", path, unwrapPathError(err)))
		}
		s := &staged{path: path, tmp: tmp}
		all = append(all, s)
		_, statErr := os.Lstat(path)
		s.existed = statErr == nil
	}
	order := append(all[1:len(all):len(all)], all[0])
	var done []*staged
	for _, s := range order {
		if err := commitFile(s.tmp, s.path, opts.force); err != nil {
			// undo what this run created, so nothing is left half made
			for _, d := range done {
				if !d.existed {
					_ = os.Remove(d.path)
				}
			}
			return usageError(fmt.Errorf("%v (nothing was written)", err))
		}
		s.tmp = ""
		done = append(done, s)
	}
	for _, s := range all {
		verb := "created"
		if s.existed {
			verb = "replaced"
		}
		fmt.Fprintf(app.IO.Out, "%s %s\n", verb, s.path)
	}
	return nil
}

// reportNewFindings lints the new file with the project's settings. The
// scaffold itself is clean; a finding comes from what the user gave (a
// description without a "when") or from the project's own rules.
func reportNewFindings(app *App, cfg lint.Config, path string, data []byte) {
	f := spec.ParseFile(path, data)
	findings := lint.Run(&spec.Set{Files: []*spec.File{f}}, cfg)
	for _, fd := range findings {
		fmt.Fprintf(app.IO.ErrOut, "%s\n", fd)
	}
}

// shellQuote quotes a path for a command line shown to the user.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r == ':' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
