package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
	"gopkg.in/yaml.v3"
)

type runOptions struct {
	app    *App
	cmd    *cobra.Command
	name   string
	paths  []string
	input  string
	dryRun bool
	output string
	runnerFlags
	help   bool
	noLint bool
	// params are the values of the flags generated from the input schema.
	params map[string]any
}

const runLong = `Run one tool locally exactly as an agent runtime would call it: bound
parameters are filled, defaults applied and the input validated against the
tool's input schema before anything runs; the entry's executor runs under the
tool's timeout, and network errors, timeouts, HTTP 429 and 5xx are retried with
exponential backoff and jitter (Retry-After honoured; POST/PATCH only with
runtime.retry_non_idempotent).

Parameters are flags generated from the input schema (toolctl run NAME --help
lists them; objects and arrays take JSON), or a JSON object with --input
'{...}', --input @file.json or --input - (stdin). Flags override --input.

The result goes to stdout (JSON on a pipe; on a terminal strings print as they
are), diagnostics to stderr. Values bound from the environment or substituted
from ${ENV} are printed as *** everywhere.

Before running, the tool's own file is linted with the settings of
.toolctl.yaml, as toolctl serve lints what it serves: lint errors refuse the
tool (exit 1) with the findings, and nothing runs. The config decides what
blocks (rules turned off or set to warning, overrides, inline ignores,
lint.ignore); warnings neither block nor print. Only that file is linted, so
rules over the whole set (name-unique, reference-unknown) are left to
toolctl lint. --no-lint runs the tool anyway.

An mcp tool's result is the server's CallToolResult. --output json (and yaml)
prints it whole, as the server sent it: every content item with its
annotations and _meta, structuredContent, isError. --output text prints text
items as text and summarises the others, one line each ([image: image/png,
1.2 KB], [resource link: URI (name)]), never their base64 data. An isError
result exits 4 with its text on stderr; with --output json or yaml the whole
result is printed to stdout as well.

Defaults when the tool's runtime section leaves them out: timeout 30s; retries
2 for tools that use the network (http, mcp, http_request, llm_call) and 0 for
local code; retry_delay 1s, max_delay 30s, exponential backoff; memory 256MiB
for a javascript, python or command call (all its processes together; a stdio
mcp server only when a limit is set). No process a call starts outlives it
(Linux).

Exit codes:
  0  the tool returned a result
  1  the tool's file has errors or lint errors (toolctl lint shows them), or
     the tool cannot run as written (DefinitionError: no entry, an unknown
     entry type or handler, a missing field, module or file), said with its
     file:line:col, by --dry-run too
  2  usage: bad flag or argument, unknown tool, invalid config
  3  ValidationError: the input does not match the input schema, or a bound
     value is missing; nothing was executed
  4  ToolExecutionError: the tool ran and failed (exception, non-zero exit,
     HTTP 4xx other than below, MCP isError)
  5  TimeoutError: no result within the timeout
  6  NetworkError: connection refused, DNS failure, reset
  7  AuthenticationError: HTTP 401 or 403
  8  NotFoundError: HTTP 404, or a file that does not exist
  9  RateLimitError: HTTP 429
  10 ServerError: HTTP 5xx
  11 MemoryLimitError: the call used more memory than its limit
     (runtime.memory, --memory) and was stopped`

func newCmdRun(app *App) *cobra.Command {
	opts := &runOptions{app: app}
	cmd := &cobra.Command{
		Use:   "run NAME [--PARAM value ...] [paths...]",
		Short: "Run one tool locally with validation, timeout and retries",
		Long:  runLong,
		Example: `  toolctl run calculator --expression "2*(3+4)"
  toolctl run http_request --url https://example.org --method GET
  toolctl run json_transformer --input '{"data": {"a": 1}, "mapping": {"x": "a"}}'
  echo '{"text": "Hello world"}' | toolctl run text_analyzer --input -
  toolctl run weather_forecast --latitude 52.5 --longitude 13.4 --dry-run
  toolctl run calculator --help          # the tool's parameters as flags`,
		// The flags depend on the tool, so they are parsed here once NAME is
		// known (runRun), not by cobra.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.cmd = cmd
			return runRun(opts, args)
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return completeRun(opts, cmd, args, toComplete)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.input, "input", "", "input as a JSON object, @FILE to read it from a file, or - for stdin")
	f.BoolVar(&opts.dryRun, "dry-run", false, "validate and print what would be done (request, argv) without running")
	f.StringVar(&opts.output, "output", "", "result format: json, yaml or text (default: json on a pipe, text on a terminal)")
	opts.runnerFlags.register(f)
	f.BoolVar(&opts.noLint, "no-lint", false, "run the tool without linting its file first (lint errors refuse it otherwise)")
	f.BoolVarP(&opts.help, "help", "h", false, "help for run, or for a tool's parameters with NAME")
	return cmd
}

// staticRunFlags are the names a tool parameter may not take as a flag.
func staticRunFlags(cmd *cobra.Command) map[string]bool {
	out := map[string]bool{}
	cmd.Flags().VisitAll(func(f *pflag.Flag) { out[f.Name] = true })
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) { out[f.Name] = true })
	return out
}

func runRun(opts *runOptions, args []string) error {
	app, cmd := opts.app, opts.cmd
	cmd.InheritedFlags() // merges the persistent flags into cmd.Flags()
	positional, err := prescan(cmd.Flags(), args)
	if err != nil {
		return usageError(fmt.Errorf("%v\nRun 'toolctl run --help' for usage.", err))
	}
	if len(positional) == 0 {
		if opts.help || hasHelpFlag(args) {
			return cmd.Help()
		}
		return usageError(errors.New("run needs the name of a tool, e.g. toolctl run calculator --expression 1+2; 'toolctl list' lists them"))
	}
	opts.name = positional[0]
	// Settings (tools dir, config) are read before the tool is loaded; the
	// prescan has set the global flags' values.
	if err := app.configure(cmd); err != nil {
		return err
	}
	paths, err := app.defaultPaths(positional[1:])
	if err != nil {
		return err
	}
	opts.paths = paths
	// Only the tool's own file when its name says so and no other file
	// can define it; the whole set otherwise (not found, defined twice).
	t, err := app.loadTool(paths, opts.name)
	if err != nil {
		return err
	}
	if errs := t.Errors(); len(errs) > 0 {
		app.printFileErrors(errs)
		return &exitError{ExitProblems, fmt.Errorf("tool %q cannot run: its file has errors (above); fix them or run 'toolctl lint %s'", t.Name, t.Path())}
	}
	// The lint gate, on the tool's own file only, before its flags are
	// parsed: a parameter lint finds misspelt (paramters:) has no flag, and
	// the lint error, not "unknown flag", is what to report. --help still
	// shows the flags. (The prescan has set --no-lint and --help.)
	if !opts.noLint && !opts.help {
		if err := app.lintGate(fileSet(t), opts.paths, fmt.Sprintf("tool %q cannot run", t.Name), "run it"); err != nil {
			return err
		}
	}

	// Now parse every flag, the tool's parameters included.
	fs := cmd.Flags()
	static := staticRunFlags(cmd)
	skipped := addParamFlags(fs, t, static, opts)
	if err := fs.Parse(joinBoolValues(fs, args)); err != nil {
		return usageError(fmt.Errorf("%v%s\nRun 'toolctl run %s --help' for its parameters.", err, flagSuggestion(fs, err), t.Name))
	}
	// What the full parse leaves must be what the prescan took for NAME and
	// the paths: anything else is an argument no flag took (a value after
	// a flag that takes none, say), and it is never silently dropped.
	if extra := extraArgs(fs.Args(), positional); extra != "" {
		// The prescan, not knowing the tool's flags, took a path after a
		// bare boolean flag (--verbose_mode tools/) as that flag's value.
		// Such paths are fine if they define the same tool.
		if !samePathsTool(app, fs.Args(), t) {
			return usageError(fmt.Errorf("unexpected argument %q: no flag takes it%s\nRun 'toolctl run %s --help' for its parameters.", extra, map[bool]string{true: " (write a boolean as --flag=false)", false: "; give paths right after NAME"}[isBoolWord(extra)], t.Name))
		}
	}
	if opts.help {
		return runHelp(app.IO.Out, cmd, t, static, skipped)
	}
	if q, _ := fs.GetBool("quiet"); q && app.Verbose {
		return usageError(errors.New("--quiet and --verbose cannot be used together"))
	}
	if opts.output == "" {
		opts.output = "json"
		if app.IO.StdoutTTY {
			opts.output = "text"
		}
	}
	if err := checkOutputFormat(opts.output, "json", "yaml", "text"); err != nil {
		return err
	}
	input, err := readRunInput(app, opts.input)
	if err != nil {
		return usageError(err)
	}
	for k, v := range opts.params {
		input[k] = v
	}

	r, err := app.newRunner(&opts.runnerFlags)
	if err != nil {
		return err
	}
	if opts.dryRun {
		plan, err := r.Plan(t, input)
		if err != nil {
			return runFailure(t, err, app.Verbose)
		}
		return writeValue(app.IO.Out, plan, opts.output)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep := &runReporter{w: app.IO.ErrOut, tool: t.Name, bar: app.IO.StderrTTY, verbose: app.Verbose}
	ctx = run.WithReporter(ctx, rep)
	// On a terminal the person there answers the tool's requests to the
	// client (ctx.sample, ctx.elicit); otherwise there is no client.
	if app.IO.StdinTTY && app.IO.StderrTTY && opts.input != "-" {
		ctx = run.WithAsker(ctx, &run.TerminalClient{In: app.IO.In, Out: app.IO.ErrOut})
	}
	res, err := r.Run(ctx, t, input)
	rep.done()
	if err != nil {
		// An MCP server's isError result is a result too: printed whole
		// where the whole is asked for.
		if m := mcpErrorResult(err); m != nil && opts.output != "text" {
			if werr := writeValue(app.IO.Out, m, opts.output); werr != nil {
				return werr
			}
		}
		return runFailure(t, err, app.Verbose)
	}
	return writeValue(app.IO.Out, res.Value, opts.output)
}

// mcpErrorResult is the isError result of an mcp tool's server, or nil.
func mcpErrorResult(err error) *run.MCPResult {
	var e *run.Error
	if errors.As(err, &e) {
		if m, ok := e.Detail.(*run.MCPResult); ok {
			return m
		}
	}
	return nil
}

// prescan parses the known flags (run's and the global ones) leniently to
// find NAME and the paths: the tool's own flags are unknown until NAME is.
func prescan(known *pflag.FlagSet, args []string) ([]string, error) {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.ParseErrorsAllowlist.UnknownFlags = true
	fs.AddFlagSet(known)
	fs.SetNormalizeFunc(known.GetNormalizeFunc())
	if err := fs.Parse(joinBoolValues(fs, args)); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, nil
		}
		return nil, err
	}
	return fs.Args(), nil
}

func hasHelpFlag(args []string) bool {
	for _, a := range args {
		if a == "--help" || a == "-h" {
			return true
		}
		if a == "--" {
			break
		}
	}
	return false
}

// paramFlag is a flag generated from one top-level input parameter: it
// parses its text as the parameter's type so that a typo is a flag error
// naming the flag.
type paramFlag struct {
	name   string
	typ    string // string, integer, number, boolean, object, array, "" (any)
	values map[string]any
	text   string
}

func (p *paramFlag) String() string { return p.text }

func (p *paramFlag) Type() string {
	switch p.typ {
	case "", "object", "array":
		return "json"
	case "boolean":
		return "bool"
	case "integer":
		return "int"
	}
	return p.typ
}

func (p *paramFlag) Set(s string) error {
	p.text = s
	switch p.typ {
	case "string":
		p.values[p.name] = s
	case "integer":
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			return fmt.Errorf("expected an integer, got %q", s)
		}
		p.values[p.name] = json.Number(s)
	case "number":
		if _, err := strconv.ParseFloat(s, 64); err != nil || !json.Valid([]byte(s)) {
			return fmt.Errorf("expected a number, got %q", s)
		}
		p.values[p.name] = json.Number(s)
	case "boolean":
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("expected true or false, got %q", s)
		}
		p.values[p.name] = b
	default:
		v, err := decodeInputJSON([]byte(s))
		if err != nil {
			if p.typ == "" { // untyped: a bare word is a string
				p.values[p.name] = s
				return nil
			}
			return fmt.Errorf("expected JSON (%s), got %q: %v", p.typ, s, err)
		}
		p.values[p.name] = v
	}
	return nil
}

// addParamFlags adds a flag per top-level parameter that is not bound and
// does not collide with a flag of run itself; it returns the parameters left
// without a flag (they can still be passed with --input).
func addParamFlags(fs *pflag.FlagSet, t *spec.Tool, taken map[string]bool, opts *runOptions) []string {
	opts.params = map[string]any{}
	props, ok := t.Input().GetMap("properties")
	if !ok {
		return nil
	}
	bound := validate.BoundParams(t)
	var skipped []string
	for _, name := range props.Keys() {
		if bound[name] {
			continue
		}
		if taken[name] || fs.Lookup(name) != nil || strings.HasPrefix(name, "-") || strings.ContainsAny(name, " =") {
			skipped = append(skipped, name)
			continue
		}
		p, _ := props.GetMap(name)
		typ := run.SchemaType(p)
		pf := &paramFlag{name: name, typ: typ, values: opts.params}
		fl := fs.VarPF(pf, name, "", paramUsage(t, name, p))
		if typ == "boolean" {
			fl.NoOptDefVal = "true"
		}
		// The kebab-case spelling of a snake_case parameter is the same
		// flag (--customer-id for customer_id), hidden from help.
		if kebab := strings.ReplaceAll(name, "_", "-"); kebab != name && !taken[kebab] && fs.Lookup(kebab) == nil && !props.Has(kebab) {
			alias := fs.VarPF(pf, kebab, "", "same as --"+name)
			alias.NoOptDefVal = fl.NoOptDefVal
			alias.Hidden = true
		}
		// --no-NAME sets a boolean parameter to false.
		if no := "no-" + name; typ == "boolean" && !taken[no] && fs.Lookup(no) == nil && !props.Has(no) {
			neg := fs.VarPF(&negatedFlag{pf}, no, "", "same as --"+name+"=false")
			neg.NoOptDefVal = "true"
			neg.Hidden = true
		}
	}
	return skipped
}

// negatedFlag is --no-NAME of a boolean parameter flag.
type negatedFlag struct{ p *paramFlag }

func (n *negatedFlag) String() string { return "" }
func (n *negatedFlag) Type() string   { return "bool" }
func (n *negatedFlag) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("expected true or false, got %q", s)
	}
	return n.p.Set(strconv.FormatBool(!b))
}

// isBoolWord tells whether a word reads as a boolean value.
func isBoolWord(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false":
		return true
	}
	return false
}

// joinBoolValues rewrites "--flag true|false" as "--flag=true|false" for
// the boolean flags, which take no separate value otherwise: pflag reads
// "--b false" as --b (true) and a stray "false" (issue 14).
func joinBoolValues(fs *pflag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if name, ok := strings.CutPrefix(a, "--"); ok && !strings.Contains(name, "=") && i+1 < len(args) && isBoolWord(args[i+1]) {
			if f := fs.Lookup(name); f != nil && f.NoOptDefVal != "" && f.Value.Type() == "bool" {
				out = append(out, a+"="+args[i+1])
				i++
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// samePathsTool tells whether args (NAME and paths, as the full parse left
// them) name the tool t was loaded as, from the same file.
func samePathsTool(app *App, args []string, t *spec.Tool) bool {
	if len(args) < 2 || args[0] != t.Name || slices.ContainsFunc(args[1:], isBoolWord) {
		return false
	}
	paths, err := app.defaultPaths(args[1:])
	if err != nil {
		return false
	}
	t2, err := app.loadTool(paths, t.Name) // as runRun loads it
	return err == nil && t2.Path() == t.Path()
}

// extraArgs returns the first argument the full parse left that the
// prescan did not (NAME and paths), or "".
func extraArgs(got, want []string) string {
	for i, a := range got {
		if i >= len(want) || a != want[i] {
			return a
		}
	}
	return ""
}

// flagSuggestion is "; did you mean --x?" for an unknown flag close to a
// defined one (a parameter or run's own), or "".
func flagSuggestion(fs *pflag.FlagSet, err error) string {
	var unknown *pflag.NotExistError
	if !errors.As(err, &unknown) || unknown.GetSpecifiedShortnames() != "" {
		return "" // not an unknown --name (-x names no flag to suggest)
	}
	name := unknown.GetSpecifiedName()
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	if s := spec.Suggest(name, names); s != "" {
		return fmt.Sprintf("; did you mean --%s?", s)
	}
	return ""
}

func paramUsage(t *spec.Tool, name string, p *spec.Map) string {
	var b strings.Builder
	if p != nil {
		if d, ok := p.GetString("description"); ok {
			b.WriteString(firstLine(d))
		}
		if v, ok := p.Get("enum"); ok {
			if list, ok := v.([]any); ok {
				texts := make([]string, len(list))
				for i, x := range list {
					texts[i] = run.ValueText(x)
				}
				fmt.Fprintf(&b, " (one of: %s)", strings.Join(texts, ", "))
			}
		}
		if v, ok := p.Get("default"); ok {
			fmt.Fprintf(&b, " (default %s)", valueJSON(v))
		}
	}
	if isRequired(t, name) {
		b.WriteString(" (required)")
	}
	return b.String()
}

func isRequired(t *spec.Tool, name string) bool {
	v, _ := t.Input().Get("required")
	list, _ := v.([]any)
	for _, x := range list {
		if x == name {
			return true
		}
	}
	return false
}

func valueJSON(v any) string {
	raw, err := spec.MarshalJSONIndent(v)
	if err != nil {
		return run.ValueText(v)
	}
	var c bytes.Buffer
	if json.Compact(&c, raw) != nil {
		return strings.TrimSpace(string(raw))
	}
	return c.String()
}

// runHelp prints the tool's parameters as flags, then run's own flags.
func runHelp(w io.Writer, cmd *cobra.Command, t *spec.Tool, static map[string]bool, skipped []string) error {
	fmt.Fprintf(w, "%s — %s\n\n", t.Name, strings.TrimSpace(t.Description))
	fmt.Fprintf(w, "Usage:\n  toolctl run %s [--PARAM value ...] [flags]\n\n", t.Name)
	params := pflag.NewFlagSet(t.Name, pflag.ContinueOnError)
	run := pflag.NewFlagSet("run", pflag.ContinueOnError)
	inherited := cmd.InheritedFlags()
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		switch {
		case inherited.Lookup(f.Name) != nil:
		case static[f.Name]:
			run.AddFlag(f)
		default:
			params.AddFlag(f)
		}
	})
	if params.HasFlags() {
		fmt.Fprintf(w, "Parameters (%s):\n%s\n", t.Path(), params.FlagUsages())
	} else {
		fmt.Fprintf(w, "Parameters: none\n\n")
	}
	if len(skipped) > 0 {
		fmt.Fprintf(w, "Pass with --input (their names are taken by run's own flags): %s\n\n", strings.Join(skipped, ", "))
	}
	if bound := t.Bind; len(bound) > 0 {
		fmt.Fprintln(w, "Bound (filled at run time, not passed):")
		for _, b := range bound {
			fmt.Fprintf(w, "  %s  %s\n", b.Param, bindText(b))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Flags:\n%s\nGlobal Flags:\n%s\nExit codes: see toolctl run --help.\n", run.FlagUsages(), cmd.InheritedFlags().FlagUsages())
	return nil
}

func bindText(b spec.Binding) string {
	if b.Kind == spec.BindValue {
		return "fixed value"
	}
	return run.BindSource(b)
}

// readInputBounded reads r whole, up to the bound on a tool file: the
// arguments of one call are far smaller, and a reader without end (a link
// to /dev/zero, a runaway pipe) must not fill the memory.
func readInputBounded(r io.Reader) ([]byte, error) {
	data, tooLarge, err := readLimited(r)
	if tooLarge {
		err = fmt.Errorf("larger than %d MiB, more than a tool's arguments may be; pass a smaller JSON object", spec.MaxFileSize>>20)
	}
	return data, err
}

// readRunInput reads --input: a JSON object, @FILE or - for stdin.
func readRunInput(app *App, spec string) (map[string]any, error) {
	if spec == "" {
		return map[string]any{}, nil
	}
	var data []byte
	var err error
	from := "--input"
	switch {
	case spec == "-":
		from = "stdin"
		data, err = readInputBounded(app.IO.In)
	case strings.HasPrefix(spec, "@"):
		// A pipe is fine (--input @<(make-args)); a link to /dev/zero
		// stops at the bound, as stdin does.
		from = spec[1:]
		var f *os.File
		if f, err = os.Open(spec[1:]); err == nil {
			data, err = readInputBounded(f)
			f.Close()
		}
		err = unwrapPathError(err)
	default:
		data = []byte(spec)
	}
	if err != nil {
		return nil, fmt.Errorf("--input %s: %v", spec, err)
	}
	v, err := decodeInputJSON(data)
	if err != nil {
		return nil, fmt.Errorf("input from %s is not valid JSON: %v", from, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("input from %s must be a JSON object of parameters, got %s", from, run.JSONType(v))
	}
	return m, nil
}

// decodeInputJSON is decodeJSON for the user's input, where half a
// surrogate pair (\uD83D without its \uDE00), which encoding/json reads as
// U+FFFD, is an error at its line and column.
func decodeInputJSON(data []byte) (any, error) {
	v, err := decodeJSON(data)
	if err != nil {
		return nil, err
	}
	if bad := spec.FindUnpairedSurrogate(data); bad != nil {
		p := (&spec.File{Data: data}).PosAt(bad.Offset)
		return nil, fmt.Errorf("line %d, column %d: %v", p.Line, p.Col, bad)
	}
	return v, nil
}

// decodeJSON decodes one JSON value keeping numbers exact.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("unexpected data after the JSON value at offset %d", dec.InputOffset())
	}
	return v, nil
}

// runFailure maps a run error to its exit code; the message already names
// the kind and the tool.
func runFailure(t *spec.Tool, err error, verbose bool) error {
	var e *run.Error
	if !errors.As(err, &e) {
		return err
	}
	if e.Kind == run.DefinitionError {
		// a problem in the tool file: where it is, as lint would say it
		return &exitError{e.Kind.ExitCode(), definitionProblem(t, e)}
	}
	msg := e.Error()
	if e.Attempts > 1 {
		msg += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	if e.Detail != nil && e.Kind != run.ValidationError {
		if verbose {
			msg += "\n" + detailText(e.Detail)
		} else {
			msg += " (-v shows the details)"
		}
	}
	return &exitError{e.Kind.ExitCode(), errors.New(msg)}
}

// definitionProblem is a DefinitionError at the field at fault in t's
// file (or the closest position known).
func definitionProblem(t *spec.Tool, e *run.Error) *diag.Diagnostic {
	span := t.Span(e.Pointer)
	if !span.Start.IsValid() {
		span = t.Span("")
	}
	return &diag.Diagnostic{File: t.Path(), Span: span, Pointer: e.Pointer, Severity: diag.Error, Tool: t.Name,
		Message: fmt.Sprintf("tool %q cannot run: %s", t.Name, e.Message)}
}

// detailText renders an error's detail (a traceback, a response body).
func detailText(d any) string {
	if s, ok := d.(string); ok {
		return strings.TrimRight(s, "\n")
	}
	if m, ok := d.(*run.MCPResult); ok {
		return m.Text()
	}
	raw, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Sprint(d)
	}
	return string(raw)
}

// writeValue prints a result: json (indented, keys sorted, byte-stable),
// yaml, or text (a string as it is, anything else as indented JSON). An
// MCP server's result is printed whole in json (as the server sent it,
// indented) and yaml, summarised in text (MCPResult.Text).
func writeValue(w io.Writer, v any, format string) error {
	if m, ok := v.(*run.MCPResult); ok {
		return writeMCPResult(w, m, format)
	}
	if s, ok := v.(string); ok && format == "text" {
		if !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		_, err := io.WriteString(w, s)
		return err
	}
	if format == "yaml" {
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(spec.ValueNode(spec.FromPlain(v))); err != nil {
			return err
		}
		_, err := w.Write(b.Bytes())
		return err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("the result cannot be written as JSON: %v", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func writeMCPResult(w io.Writer, m *run.MCPResult, format string) error {
	switch format {
	case "text":
		s := m.Text()
		if s == "" {
			return nil
		}
		_, err := io.WriteString(w, strings.TrimSuffix(s, "\n")+"\n")
		return err
	case "yaml":
		v, err := decodeJSON(m.Raw)
		if err != nil {
			return fmt.Errorf("the MCP server's result is not valid JSON: %v", err)
		}
		return writeValue(w, v, format)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, m.Raw, "", "  "); err != nil {
		return fmt.Errorf("the MCP server's result is not valid JSON: %v", err)
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}

// completeRun completes tool names, then the tool's parameter flags and
// enum values.
func completeRun(opts *runOptions, cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	app := opts.app
	cmd.InheritedFlags()
	positional, _ := prescan(cmd.Flags(), args)
	if len(positional) == 0 {
		if strings.HasPrefix(toComplete, "-") {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return app.completeToolNames(cmd), cobra.ShellCompDirectiveNoFileComp
	}
	if err := app.configure(cmd); err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	t, err := app.loadTool([]string{app.ToolsDir}, positional[0])
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	props, _ := t.Input().GetMap("properties")
	if props == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	// The value of an enum parameter: the previous word is its flag.
	if len(args) > 0 && strings.HasPrefix(args[len(args)-1], "--") && !strings.Contains(args[len(args)-1], "=") {
		name := strings.TrimPrefix(args[len(args)-1], "--")
		if p, ok := props.GetMap(name); ok {
			return enumCompletions(p, ""), cobra.ShellCompDirectiveNoFileComp
		}
	}
	if name, prefix, ok := strings.Cut(strings.TrimPrefix(toComplete, "--"), "="); ok && strings.HasPrefix(toComplete, "--") {
		if p, ok := props.GetMap(name); ok {
			return enumCompletions(p, "--"+name+"="+prefix), cobra.ShellCompDirectiveNoFileComp
		}
	}
	var out []cobra.Completion
	bound := validate.BoundParams(t)
	for _, name := range props.Keys() {
		if bound[name] {
			continue
		}
		p, _ := props.GetMap(name)
		desc := ""
		if p != nil {
			desc, _ = p.GetString("description")
		}
		out = append(out, cobra.CompletionWithDesc("--"+name, firstLine(desc)))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

func enumCompletions(p *spec.Map, prefix string) []cobra.Completion {
	v, _ := p.Get("enum")
	list, _ := v.([]any)
	name := ""
	if prefix != "" {
		name = prefix[:strings.Index(prefix, "=")+1]
	}
	var out []cobra.Completion
	for _, x := range list {
		out = append(out, name+run.ValueText(x))
	}
	return out
}
