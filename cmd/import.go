package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/config"
	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/lock"
	"github.com/toolctl/toolctl/pkg/spec"
)

type importOptions struct {
	app        *App
	input      string
	from       string
	fromServer string
	fromURL    string
	headers    []string
	timeout    time.Duration
	noEntry    bool
	dir        string
	force      bool
	category   string
	schemaRef  string
	functions  []string
	module     string
	exec       bool
	// lock is the lock file import --from-server/--from-url pins what it
	// imported in; noLock: none.
	lock        string
	lockChanged bool
	noLock      bool
}

const importLong = `Turn tool definitions written for an LLM provider or an MCP server into
toolctl tool files: one canonical YAML file per tool (NAME.yaml), as
'toolctl show' prints it, with an editor schema modeline on the first line.

Sources (--from, default auto: detected from the shape of the input):
  openai     Chat Completions {type: function, function: {...}} or Responses
             {type: function, name, ...} tools, a request body {tools: [...]}
             or the deprecated {functions: [...]}
  anthropic  {name, description, input_schema, input_examples?}, or a request
             body {tools: [...]}
  gemini     {functionDeclarations: [...]}, a request body {tools: [...]}, or
             declarations; parameters in Gemini's OpenAPI subset (OBJECT,
             nullable, ...) are converted to JSON Schema, parametersJsonSchema
             is kept as is
  mcp        a tools/list result {tools: [...]} (or its JSON-RPC response), a
             list of tools or one tool; Docker MCP registry tools.json too;
             a catalogue of servers [{name, config: {mcpServers}, tools:
             {SERVER: {tools: [...]}}}] (LiveMCPBench): every tool, named
             SERVER__TOOL, with an mcp entry from the server's config
  bfcl       Berkeley Function Calling Leaderboard function docs, one per line
             (JSON Lines) or in a list; dict, float, tuple, any and the
             Java/JavaScript type names are converted to JSON Schema types
  python     Python source, FILE.py or FILE.py:NAME,Class.method (or
             --function NAME): every public top-level function (or the
             named ones) becomes a tool with a python entry that runs it. The file is read statically with
             Python's ast module (python3, or run.python of .toolctl.yaml):
             none of its code runs. Type hints become the input schema, the
             docstring (Google, NumPy or reST) the description, detail and
             parameter descriptions, Returns the output schema's, Raises the
             tool's warnings; what cannot be translated is a warning.
             --exec IMPORTS the module instead (python3 -I, in the file's
             directory), WHICH RUNS ITS CODE, to resolve types only known
             at run time: aliases and NewTypes from other modules, pydantic
             models (model_json_schema()), Enum/TypedDict/dataclass classes
             of other modules, defaults that are names. Use it only on code
             you trust; it is bounded by --timeout, run.memory and 1 MiB of
             printed output.
             A snippet on stdin (--from python - --function NAME) has no
             file to run: --module MODULE gives the entry's module (save the
             snippet as MODULE.py next to the tool file, or install it);
             without --module the tools have no entry, with a warning.
             Importing again over a tool file of a Python function updates
             what comes from the code (description, detail, input_schema,
             output_schema, entry) and keeps every other field; a file that
             cannot be merged is named with its differing fields and left
             alone without --force

A live MCP server is read with --from-server 'CMD ARGS' (stdio) or --from-url
URL (Streamable HTTP): every page of tools/list is imported, and each tool
gets an mcp entry that calls it on that server (--no-entry leaves it out).
The import is pinned in the lock file (--lock, default toolctl.lock; see
toolctl lock): the SHA-256 of each tool file written and, for the mcp
entries, the server's identity (the command line or URL), its serverInfo
and the hash of each tool it lists: the entries toolctl lock --upstream
would write. An existing lock keeps everything else it pins; toolctl verify
(--upstream) then checks the import like any locked tool. The lock's
directory must exist unless the import creates it (-o new --lock
new/toolctl.lock). --no-lock writes no lock.

Everything the source says is kept: schemas as written (key order included),
descriptions, enums, defaults, examples (Anthropic input_examples become
examples), titles, annotations, output schemas, strict. Names toolctl does not
accept are mapped to snake_case (math.factorial → math_factorial, getUser →
get_user) with a warning; two tools that map to the same name are an error.

Files are written atomically, all or nothing: an existing file is never
replaced without --force (every target is checked before anything is
written). -o - prints the tools to stdout as a YAML stream instead.

Exit codes: 0 imported; 1 the input has problems (syntax, not a tool, name
collision), nothing written; 2 usage or I/O error (bad flag, unreadable
input, an existing file without --force, an unreachable server).`

func newCmdImport(app *App) *cobra.Command {
	opts := &importOptions{app: app}
	cmd := &cobra.Command{
		Use:   "import FILE|- [--from FORMAT] [-o DIR]",
		Short: "Create tool files from OpenAI, Anthropic, Gemini, MCP or BFCL definitions, or from Python functions",
		Long:  importLong,
		Example: `  toolctl import tools.json                          # format detected, files in the tools directory
  toolctl import openai-request.json --from openai -o agent/tools
  curl -s https://example.org/tools.json | toolctl import - --from mcp
  toolctl import functions.jsonl --from bfcl -o bfcl/
  toolctl import --from-server 'uvx mcp-server-fetch' -o tools/fetch
  toolctl import --from-url https://mcp.example.org/mcp --header 'Authorization: Bearer ${TOKEN}'
  toolctl import --from-server 'uvx mcp-server-fetch' --no-lock   # no toolctl.lock
  toolctl import --from python src/weather.py:forecast -o tools
  toolctl import --from python src/models.py --exec   # imports it: its code runs
  pbpaste | toolctl import --from python - --function slugify --module slugs
  toolctl import tools.json -o -                     # print instead of writing`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			if len(args) == 1 {
				opts.input = args[0]
			}
			opts.lockChanged = cmd.Flags().Changed("lock")
			return runImport(cmd.Context(), opts, cmd.Flags().Changed("output"))
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveDefault
		},
	}
	formats := strs(importer.Formats)
	f := cmd.Flags()
	f.StringVar(&opts.from, "from", "auto", "source format: "+strings.Join(formats, ", "))
	f.StringVarP(&opts.dir, "output", "o", "", "directory to write the tool files to (default: the tools directory); - prints them")
	f.BoolVar(&opts.force, "force", false, "replace existing files")
	f.StringVar(&opts.fromServer, "from-server", "", "import from a stdio MCP server started with this command line")
	f.StringVar(&opts.fromURL, "from-url", "", "import from a Streamable HTTP MCP server at this URL")
	f.StringArrayVar(&opts.headers, "header", nil, "HTTP header for --from-url, \"Name: value\" (repeatable; ${ENV} is expanded)")
	f.DurationVar(&opts.timeout, "timeout", importTimeout, "time limit for reading a live server, or a Python file (--from python)")
	f.BoolVar(&opts.noEntry, "no-entry", false, "with --from-server/--from-url: write definition-only tools, without the mcp entry")
	f.StringVar(&opts.lock, "lock", lock.FileName, "with --from-server/--from-url: the lock `FILE` to pin the imported tools and server in")
	f.BoolVar(&opts.noLock, "no-lock", false, "with --from-server/--from-url: write no lock entries")
	f.StringVar(&opts.category, "category", "", "category to give every imported tool (e.g. custom)")
	f.StringSliceVar(&opts.functions, "function", nil, "with --from python: the function(s) to import (NAME or Class.method; repeatable, comma-separated); required for a snippet on stdin")
	f.BoolVar(&opts.exec, "exec", false, "with --from python FILE.py: import the module (RUNS ITS CODE) to resolve run-time types (pydantic models, aliases from other modules)")
	f.StringVar(&opts.module, "module", "", "with --from python -: the module of the python entry (the snippet saved as MODULE.py); none: tools without an entry")
	f.StringVar(&opts.schemaRef, "schema-ref", spec.SchemaURL(currentBuild().Version), "the $schema of the yaml-language-server modeline; empty for none")
	_ = cmd.RegisterFlagCompletionFunc("from", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.MarkFlagDirname("output")
	return cmd
}

// importTimeout is import's --timeout by default (new --from python uses
// it too).
const importTimeout = 60 * time.Second

func runImport(ctx context.Context, opts *importOptions, dirChanged bool) error {
	app := opts.app
	from, err := importer.ParseFormat(opts.from)
	if err != nil {
		return usageError(fmt.Errorf("--from: %v", err))
	}
	live := opts.fromServer != "" || opts.fromURL != ""
	switch {
	case opts.fromServer != "" && opts.fromURL != "":
		return usageError(errors.New("--from-server and --from-url cannot be used together; pick one server"))
	case live && opts.input != "":
		return usageError(fmt.Errorf("give either a file (%s) or a live server (--from-server/--from-url), not both", opts.input))
	case live && from != importer.Auto && from != importer.MCP:
		return usageError(fmt.Errorf("--from %s does not apply to a live server, which always speaks MCP", from))
	case !live && opts.input == "":
		return usageError(errors.New("import needs a FILE to read, - for stdin, --from-server 'CMD ARGS' or --from-url URL\nRun 'toolctl import --help' for usage."))
	case from == importer.Python && live:
		return usageError(errors.New("--from python reads a Python file: give FILE.py (or FILE.py:NAME to pick functions)"))
	case from != importer.Python && (len(opts.functions) > 0 || opts.module != "" || opts.exec):
		return usageError(errors.New("--function, --module and --exec apply to --from python only"))
	case opts.exec && opts.input == "-":
		return usageError(errors.New("--exec imports a module from its file, and a snippet on stdin has none; save it as MODULE.py and import that file"))
	case from == importer.Python && opts.input == "-" && len(opts.functions) == 0:
		return usageError(errors.New("--from python - reads a snippet from stdin: name the function(s) to import with --function NAME"))
	case opts.module != "" && opts.input != "-":
		return usageError(fmt.Errorf("--module applies to a snippet on stdin (-); the module of %s is its file name", opts.input))
	case !live && (len(opts.headers) > 0 || opts.noEntry):
		return usageError(errors.New("--header and --no-entry apply to --from-server/--from-url only"))
	case !live && (opts.noLock || opts.lockChanged):
		return usageError(errors.New("--lock and --no-lock apply to --from-server/--from-url only"))
	case opts.noLock && opts.lockChanged:
		return usageError(errors.New("--lock names the lock file to write and --no-lock writes none; give one"))
	case opts.lockChanged && opts.lock == "":
		return usageError(errors.New("--lock: give a file name (or --no-lock)"))
	}
	if !dirChanged {
		opts.dir = app.ToolsDir
	}
	if opts.dir == "" {
		return usageError(errors.New("-o: give a directory (or - for stdout)"))
	}

	// The lock is read before the server is: one that cannot be
	// updated stops the import before anything is written.
	var pins *importLock
	if live && !opts.noLock && opts.dir != "-" {
		if pins, err = readImportLock(opts.lock, opts.dir); err != nil {
			return usageError(err)
		}
	}
	var res *importer.Result
	if live {
		if ctx == nil {
			ctx = context.Background()
		}
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
		defer stop()
		var stderr io.Writer
		if app.Verbose {
			stderr = app.IO.ErrOut
		}
		res, err = importer.ImportServer(ctx, importer.ServerOptions{
			Command: opts.fromServer, URL: opts.fromURL, Headers: opts.headers,
			Getenv: app.Getenv, Stderr: stderr, Timeout: opts.timeout, NoEntry: opts.noEntry,
		})
		var list importer.Errors
		if errors.As(err, &list) {
			return importFailed(app, res, err) // the server's tools have problems
		}
		if errors.Is(err, context.Canceled) {
			return usageError(errors.New("interrupted; nothing was written"))
		}
		if err != nil {
			return usageError(err)
		}
		if pins != nil {
			// what the server listed, before --category changes it
			pins.server, pins.pinServer = lock.PinImported(res)
		}
	} else if from == importer.Python {
		if res, err = importPython(ctx, app, opts); err != nil {
			return err
		}
	} else {
		data, name, err := readImportInput(app, opts.input)
		if err != nil {
			return usageError(err)
		}
		res, err = importer.Import(data, importer.Options{From: from, Name: name})
		if err != nil {
			return importFailed(app, res, err)
		}
	}
	if res.Detected != "" {
		app.logf("format: %s (%s)", res.Format, res.Detected)
	}
	if !app.Quiet {
		for _, w := range res.Warnings {
			printImportDiag(app, diag.Warning, w)
		}
	}
	for _, t := range res.Tools {
		if opts.category != "" {
			t.Tool.Category = opts.category
		}
	}
	if opts.dir == "-" {
		return printImported(app, opts, res)
	}
	if err := writeImported(app, opts, res); err != nil {
		return err
	}
	if pins != nil && len(res.Tools) > 0 {
		return writeImportLock(app, opts, res, pins)
	}
	return nil
}

// importLock is the lock import --from-server/--from-url updates.
type importLock struct {
	old       *lock.File // nil: there is none yet
	server    lock.Server
	pinServer bool
}

// readImportLock reads the lock file at path, if there is one. A lock
// whose directory does not exist yet is fine when the import creates it:
// the output directory outDir, or one of its parents (-o NEW --lock
// NEW/toolctl.lock); any other missing directory is refused (a typo
// should not import anything).
func readImportLock(path, outDir string) (*importLock, error) {
	data, err := spec.ReadToolFile(path) // a regular file, bounded
	if errors.Is(err, fs.ErrNotExist) {
		if createdWith(filepath.Dir(path), outDir) {
			return &importLock{}, nil
		}
		if info, err := os.Stat(filepath.Dir(path)); err != nil || !info.IsDir() {
			return nil, fmt.Errorf("--lock %s: the directory %s does not exist; create it, or pass --no-lock (nothing was imported)", path, filepath.Dir(path))
		}
		return &importLock{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the lock file %s: %v; fix it, give another with --lock, or pass --no-lock (nothing was imported)", path, unwrapPathError(err))
	}
	old, err := lock.Parse(path, data)
	if err != nil {
		return nil, fmt.Errorf("%v (nothing was imported; or pass --no-lock)", err)
	}
	return &importLock{old: old}, nil
}

// createdWith tells whether the directory dir, which does not exist, is
// created by writing into outDir: it is outDir or one of its parents.
func createdWith(dir, outDir string) bool {
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	d, err1 := filepath.Abs(dir)
	o, err2 := filepath.Abs(outDir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, o)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// writeImportLock pins the written tool files and the server in the lock
// (lock.Merge keeps what it pinned before).
func writeImportLock(app *App, opts *importOptions, res *importer.Result, pins *importLock) error {
	files := make([]string, len(res.Tools))
	for i, t := range res.Tools {
		files[i] = filepath.Join(opts.dir, t.Tool.Name+".yaml")
	}
	add, err := lock.BuildImported(files, opts.dir, filepath.Dir(opts.lock), pins.server, pins.pinServer)
	if err != nil {
		return usageError(fmt.Errorf("the tools were written, but cannot be pinned in %s: %v; run toolctl lock --upstream", opts.lock, err))
	}
	f := lock.Merge(pins.old, add)
	if err := writeFileAtomic(opts.lock, f.Marshal()); err != nil {
		return usageError(fmt.Errorf("the tools were written, but the lock file cannot be: %v; run toolctl lock --upstream", unwrapPathError(err)))
	}
	if !app.Quiet {
		what := diag.Plural(len(add.Tools), "tool", "tools")
		if pins.pinServer {
			what += " and server " + pins.server.Server
		}
		fmt.Fprintf(app.IO.ErrOut, "toolctl: pinned %s in %s\n", what, opts.lock)
	}
	return nil
}

// importPython reads FILE.py[:NAME,...] statically (importer.ImportPython).
func importPython(ctx context.Context, app *App, opts *importOptions) (*importer.Result, error) {
	file, funcs := opts.input, []string(nil)
	if file != "-" {
		file, funcs = importer.ParsePythonTarget(opts.input)
	}
	funcs = append(funcs, opts.functions...)
	data, name, err := readImportInput(app, file)
	if err != nil {
		return nil, usageError(err)
	}
	settings, err := config.Get[config.Run](app.config)
	if err != nil {
		return nil, usageError(err)
	}
	toolDir := opts.dir
	if toolDir == "-" {
		toolDir = "."
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.exec && !app.Quiet {
		interp := settings.Python
		if interp == "" {
			interp = "python3"
		}
		fmt.Fprintf(app.IO.ErrOut, "toolctl: --exec: importing %s with %s, which runs its code\n", name, interp)
	}
	res, err := importer.ImportPython(ctx, importer.PythonOptions{
		Name: name, Source: data, Functions: funcs, ToolDir: toolDir,
		Interpreter: settings.Python, Timeout: opts.timeout, Exec: opts.exec, Memory: settings.Memory,
		Module: opts.module, NoEntry: file == "-" && opts.module == "",
	})
	var list importer.Errors
	var one *importer.Diagnostic
	if errors.As(err, &list) || errors.As(err, &one) {
		return nil, importFailed(app, res, err)
	}
	if err != nil {
		return nil, usageError(err)
	}
	return res, nil
}

// readImportInput reads FILE or stdin ("-"), refusing what cannot be a
// tool list (a directory, more than spec.MaxFileSize).
func readImportInput(app *App, path string) ([]byte, string, error) {
	var r io.Reader
	name := path
	if path == "-" {
		r, name = app.IO.In, "<stdin>"
	} else {
		info, err := os.Stat(path)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %v", path, unwrapPathError(err))
		}
		if info.IsDir() {
			return nil, "", fmt.Errorf("%s is a directory; import reads one file of tool definitions", path)
		}
		fh, err := os.Open(path)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %v", path, unwrapPathError(err))
		}
		defer fh.Close()
		r = fh
	}
	data, tooLarge, err := readLimited(r)
	if err != nil {
		return nil, "", fmt.Errorf("cannot read %s: %v", name, unwrapPathError(err))
	}
	if tooLarge {
		return nil, "", fmt.Errorf("%s is larger than %d MB; split it", name, spec.MaxFileSize>>20)
	}
	return data, name, nil
}

// importFailed reports an input that cannot be imported: the warnings
// (they may say why, e.g. a skipped built-in tool), then the errors.
func importFailed(app *App, res *importer.Result, err error) error {
	if res != nil && !app.Quiet {
		for _, w := range res.Warnings {
			printImportDiag(app, diag.Warning, w)
		}
	}
	printImportErrors(app, err)
	return problemsFound()
}

func printImportErrors(app *App, err error) {
	var list importer.Errors
	var one *importer.Diagnostic
	switch {
	case errors.As(err, &list):
		for _, d := range list {
			printImportDiag(app, diag.Error, d)
		}
	case errors.As(err, &one):
		printImportDiag(app, diag.Error, one)
	default:
		fmt.Fprintf(app.IO.ErrOut, "toolctl: %v\n", err)
	}
}

// printImportDiag prints "file:line:col: error: message", as lint does.
func printImportDiag(app *App, severity diag.Severity, d *importer.Diagnostic) {
	c := *d
	c.Severity = severity
	app.problems(&c)
}

// renderTool is a tool's file: the modeline, then the canonical YAML.
func renderTool(opts *importOptions, t *spec.Tool) ([]byte, error) {
	body, err := spec.MarshalYAMLDoc(t.ToMap())
	if err != nil {
		return nil, fmt.Errorf("cannot render tool %q: %v", t.Name, err)
	}
	if opts.schemaRef == "" {
		return body, nil
	}
	return append([]byte("# yaml-language-server: $schema="+opts.schemaRef+"\n"), body...), nil
}

// printImported writes every tool to stdout as one YAML stream, which
// toolctl reads back as a file of several tools.
func printImported(app *App, opts *importOptions, res *importer.Result) error {
	var buf bytes.Buffer
	for i, t := range res.Tools {
		out, err := renderTool(opts, t.Tool)
		if err != nil {
			return err
		}
		if i > 0 {
			buf.WriteString("---\n")
		}
		buf.Write(out)
	}
	_, err := app.IO.Out.Write(buf.Bytes())
	return err
}

// writeImported writes NAME.yaml per tool, all or nothing: every target is
// checked first, every file is staged as a temporary file in the directory,
// and only then are they moved into place.
func writeImported(app *App, opts *importOptions, res *importer.Result) error {
	dir := opts.dir
	type target struct {
		tool   *importer.Tool
		path   string
		exists bool
		tmp    string
		merge  *importer.PythonMerge
	}
	targets := make([]*target, len(res.Tools))
	var existing []string
	for i, t := range res.Tools {
		path := filepath.Join(dir, t.Tool.Name+".yaml")
		tg := &target{tool: t, path: path}
		info, err := os.Lstat(path)
		switch {
		case err == nil && info.IsDir():
			return usageError(fmt.Errorf("%s is a directory; tool %q cannot be written there (nothing was written)", path, t.Tool.Name))
		case err == nil:
			tg.exists = true
			existing = append(existing, path)
		case !errors.Is(err, fs.ErrNotExist):
			return usageError(fmt.Errorf("cannot check %s: %v (nothing was written)", path, unwrapPathError(err)))
		}
		targets[i] = tg
	}
	if res.Format == importer.Python {
		// A re-import: each existing file is merged (what comes from the
		// code updated, the rest kept) unless it cannot be done safely.
		var refused []string
		existing = existing[:0]
		for _, tg := range targets {
			if !tg.exists {
				continue
			}
			// as a tool file: a regular file (a named pipe would block)
			// within the size limit
			data, err := spec.ReadToolFile(tg.path)
			if err != nil {
				return usageError(fmt.Errorf("cannot read %s: %v (nothing was written)", tg.path, unwrapPathError(err)))
			}
			tg.merge = importer.MergePython(tg.path, data, tg.tool.Tool)
			if len(tg.merge.Conflicts) > 0 {
				refused = append(refused, fmt.Sprintf("%s: %s", tg.path, strings.Join(tg.merge.Conflicts, "; ")))
			}
		}
		if len(refused) > 0 && !opts.force {
			return usageError(fmt.Errorf("cannot update from the code without losing what the file says:\n  %s\npass --force to replace the file(s) with the import, or -o another directory (nothing was written)", strings.Join(refused, "\n  ")))
		}
		for _, tg := range targets {
			if tg.merge != nil && tg.merge.Tool != nil {
				tg.tool = &importer.Tool{Tool: tg.merge.Tool, SourceName: tg.tool.SourceName, Pos: tg.tool.Pos}
			} else {
				tg.merge = nil // --force: replaced
			}
		}
	}
	if len(existing) > 0 && !opts.force {
		what := existing[0] + " already exists"
		if len(existing) > 1 {
			what = fmt.Sprintf("%d files already exist: %s", len(existing), strings.Join(existing, ", "))
		}
		return usageError(fmt.Errorf("%s; pass --force to replace, or -o another directory (nothing was written)", what))
	}
	warnSameNameElsewhere(app, dir, res)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return usageError(fmt.Errorf("cannot create the directory %s: %v", dir, unwrapPathError(err)))
	}
	cleanup := func() {
		for _, tg := range targets {
			if tg.tmp != "" {
				_ = os.Remove(tg.tmp)
			}
		}
	}
	defer cleanup()
	for _, tg := range targets {
		data, err := renderTool(opts, tg.tool.Tool)
		if err != nil {
			return err
		}
		if tg.tmp, err = stageFile(tg.path, data, 0o644); err != nil {
			return usageError(fmt.Errorf("cannot write %s: %v (nothing was written)", tg.path, unwrapPathError(err)))
		}
	}
	written := 0
	for _, tg := range targets {
		if err := commitFile(tg.tmp, tg.path, opts.force || tg.merge != nil); err != nil {
			msg := fmt.Sprintf("%v", err)
			if written > 0 {
				msg += fmt.Sprintf(" (%d of %d files were written before this one)", written, len(targets))
			}
			return usageError(errors.New(msg))
		}
		tg.tmp = ""
		written++
		verb := "created"
		if tg.exists {
			verb = "replaced"
		}
		if m := tg.merge; m != nil {
			verb = "updated"
			if !app.Quiet {
				upd, kept := "nothing changed", "nothing else"
				if len(m.Updated) > 0 {
					upd = strings.Join(m.Updated, ", ")
				}
				if len(m.Kept) > 0 {
					kept = strings.Join(m.Kept, ", ")
				}
				fmt.Fprintf(app.IO.ErrOut, "%s: from the code: %s; kept: %s\n", tg.path, upd, kept)
			}
		}
		fmt.Fprintf(app.IO.Out, "%s %s\n", verb, tg.path)
	}
	if !app.Quiet {
		fmt.Fprintf(app.IO.ErrOut, "imported %s (%s) into %s\n", lint.Plural(len(targets), "tool", "tools"), res.Format, dir)
	}
	return nil
}

// warnSameNameElsewhere warns when a tool of the directory, in another
// file, already has an imported tool's name: lint would report both.
func warnSameNameElsewhere(app *App, dir string, res *importer.Result) {
	if app.Quiet {
		return
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return
	}
	set, err := spec.Load([]string{dir})
	if err != nil {
		return
	}
	byName := map[string][]string{}
	for _, t := range set.Tools() {
		byName[t.Name] = append(byName[t.Name], t.Path())
	}
	var msgs []string
	for _, t := range res.Tools {
		target := filepath.Clean(filepath.Join(dir, t.Tool.Name+".yaml"))
		for _, p := range byName[t.Tool.Name] {
			if filepath.Clean(p) != target {
				msgs = append(msgs, fmt.Sprintf("%s: warning: tool %q is also defined here; lint will report the duplicate name", p, t.Tool.Name))
			}
		}
	}
	sort.Strings(msgs)
	for _, m := range msgs {
		fmt.Fprintln(app.IO.ErrOut, m)
	}
}
