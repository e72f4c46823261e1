package cmd

import (
	"errors"
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

type exportOptions struct {
	app      *App
	paths    []string
	format   string
	output   string
	strict   bool
	level    int
	legacy   bool
	envelope bool
	noLint   bool
}

const exportLong = `Export tools (default: the tools directory) in the format an LLM API or a
prompt takes. Output is deterministic — schemas keep their source key order —
so it can be committed and diffed. Bound parameters (bind) are left out of
every format except yaml.

Formats:
  openai            Chat Completions tools: [{type: function, function: {name,
                    description, parameters, strict}}]
  openai-responses  Responses API tools: [{type: function, name, description,
                    parameters, strict}]
  anthropic         [{name, description, input_schema, strict?, input_examples?}];
                    the tool's examples become input_examples
  gemini            {functionDeclarations: [{name, description,
                    parametersJsonSchema}]}; --legacy emits the OpenAPI-subset
                    parameters form instead (uppercase types, nullable, no
                    $ref/oneOf/additionalProperties; what it cannot hold is
                    written into the descriptions)
  mcp               [{name, title, description, inputSchema, outputSchema,
                    annotations}]; --envelope wraps them as a tools/list result
                    {tools: [...]}
  jsonschema        the input schema: itself for one tool, an object keyed by
                    tool name for several
  prompt            --level 1 (default): one "name — description" line per
                    tool, for a system prompt; --level 2: each tool's full
                    text (detail, parameters, examples, warnings,
                    prerequisites, related tools, workflow), as a
                    get_tool_info tool returns it
  yaml              the canonical tool file (converts any dialect)
  python            a typed Python function stub per tool (Google docstring,
                    TypedDicts, Literal, Annotated[T, Field(...)]) that
                    import --from python reads back to the same schema; a tool
                    or parameter name that is no Python identifier skips the
                    tool with a warning
  typescript        per tool an interface NameInput (JSDoc per property), its
                    output type and the stub export async function
                    execute(input) of a javascript entry; several tools are
                    one namespace each

Names a provider forbids are mapped (math.factorial → math_factorial for
OpenAI and Anthropic) with a warning on stderr; two tools that end up with
the same name are an error.

--strict (openai, openai-responses, anthropic) makes the schemas strict: every
object gets additionalProperties: false; for OpenAI every property is required
and optional ones become nullable, with their default noted in the
description; what the provider cannot enforce (unsupported formats, and for
Anthropic numeric, length and array constraints) moves into the description.
A tool whose schema still does not fit is refused with the path of the
problem, and nothing is written; toolctl lint --target openai|anthropic
reports the same problems. A tool file's own strict: false keeps that tool
non-strict, with a warning that says what strict mode would refuse in it;
strict: true makes it strict without the flag.

Output goes to stdout, or with -o to a file (written atomically; missing
parent directories are created), or to a directory — a path ending in / or an existing directory — with one file per
tool named after it (NAME.json, NAME.yaml for yaml, NAME.txt for prompt, NAME.py,
NAME.ts).

Before exporting, the tools are linted with the settings of .toolctl.yaml, as
toolctl serve does: a file with lint errors (an unknown field such as
paramters:, a typo in a schema) is refused with its findings and nothing is
written. The config decides what blocks (rules turned off or set to warning,
overrides, inline ignores, lint.ignore); warnings do not block and are not
printed (toolctl lint shows them). Rules over the whole set (name-unique,
reference-unknown) are left to toolctl lint, since any subset of a tools
directory can be exported. --no-lint exports anyway.

Exit codes: 0 exported; 1 problems in tool files (a file that does not load,
lint errors, a tool refused by --strict, two tools with one name; nothing is
written); 2 usage or I/O error.`

func newCmdExport(app *App) *cobra.Command {
	opts := &exportOptions{app: app}
	formats := strs(export.Formats)
	cmd := &cobra.Command{
		Use:   "export [paths...] --format FORMAT",
		Short: "Export tools for OpenAI, Anthropic, Gemini, MCP, a prompt, as YAML or as Python/TypeScript stubs",
		Long:  exportLong,
		Example: `  toolctl export --format openai > tools.openai.json
  toolctl export tools/ --format openai --strict -o build/openai.json
  toolctl export --format anthropic --strict
  toolctl export --format gemini --legacy
  toolctl export --format mcp --envelope
  toolctl export --format jsonschema -o schemas/
  toolctl export --format python tools/slugify.yaml > slugify_stub.py
  toolctl export --format prompt --level 2 tools/http_request.yaml
  toolctl export legacy/feagent_tool.yaml --format yaml > tools/feagent_tool.yaml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			if opts.format == "" {
				return usageError(fmt.Errorf("export needs --format: one of %s", strings.Join(formats, ", ")))
			}
			eo := opts.exportOptions()
			if !cmd.Flags().Changed("level") {
				eo.Level = 0
			}
			if err := eo.Check(); err != nil {
				return usageError(err)
			}
			paths, err := app.defaultPaths(args)
			if err != nil {
				return err
			}
			opts.paths = paths
			return runExport(opts, eo)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.format, "format", "", "output format: "+strings.Join(formats, ", "))
	f.StringVarP(&opts.output, "output", "o", "", "write to `FILE`, or one file per tool to a DIR (a path ending in / or an existing directory); default stdout")
	f.BoolVar(&opts.strict, "strict", false, "strict schemas for openai, openai-responses and anthropic; refuse tools that cannot be strict")
	f.IntVar(&opts.level, "level", 1, "prompt level: 1 a line per tool, 2 everything get_tool_info returns")
	f.BoolVar(&opts.legacy, "legacy", false, "gemini: the OpenAPI-subset parameters form instead of parametersJsonSchema")
	f.BoolVar(&opts.envelope, "envelope", false, "mcp: wrap the tools as a tools/list result {tools: [...]}")
	f.BoolVar(&opts.noLint, "no-lint", false, "export without linting first (lint errors refuse the export otherwise)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("level", cobra.FixedCompletions([]string{"1", "2"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func (o *exportOptions) exportOptions() export.Options {
	return export.Options{Format: export.Format(o.format), Strict: o.strict, Level: o.level, Legacy: o.legacy, Envelope: o.envelope}
}

func runExport(opts *exportOptions, eo export.Options) error {
	app := opts.app
	// An export that silently drops a broken file would be committed as
	// complete; what lint rejects (paramters: for parameters, say) would
	// export as a tool without it: both are refused, as serve does.
	tools, err := app.loadWhole(opts.paths, opts.noLint, wholeSet{nothing: "nothing exported", verb: "export", gateVerb: "export"})
	if err != nil {
		return err
	}
	res, err := export.Build(tools, eo)
	var refused *export.Error
	if errors.As(err, &refused) {
		printExportProblems(app, refused.Problems)
		return &exitError{ExitProblems, fmt.Errorf("nothing exported: %s refused", lint.Plural(countTools(refused.Problems), "tool", "tools"))}
	}
	if err != nil {
		return usageError(err)
	}
	printExportWarnings(app, res.Warnings)

	dir := opts.output != "" && isDirTarget(opts.output)
	switch {
	case dir:
		files, err := res.Files()
		if errors.As(err, &refused) {
			printExportProblems(app, refused.Problems)
			return &exitError{ExitProblems, fmt.Errorf("nothing exported: file names collide")}
		}
		if err != nil {
			return err
		}
		if info, err := os.Stat(strings.TrimRight(opts.output, "/")); err == nil && !info.IsDir() {
			return usageError(fmt.Errorf("-o %s: %s is a file; a path ending in / names a directory to write one file per tool to", opts.output, strings.TrimRight(opts.output, "/")))
		}
		if err := os.MkdirAll(opts.output, 0o755); err != nil {
			return usageError(fmt.Errorf("cannot create %s: %v", opts.output, unwrapPathError(err)))
		}
		for _, f := range files {
			if err := writeFileAtomic(filepath.Join(opts.output, f.Name), f.Data); err != nil {
				return usageError(err)
			}
		}
		app.logf("exported %s as %s to %s", lint.Plural(len(files), "tool", "tools"), eo.Format, opts.output)
	default:
		doc, err := res.Document()
		if err != nil {
			return err
		}
		if opts.output == "" || opts.output == "-" {
			_, err = app.IO.Out.Write(doc)
			return err
		}
		if dir := filepath.Dir(opts.output); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return usageError(fmt.Errorf("cannot create %s: %v", dir, unwrapPathError(err)))
			}
		}
		if err := writeFileAtomic(opts.output, doc); err != nil {
			return usageError(err)
		}
		app.logf("exported %s as %s to %s", lint.Plural(len(res.Items), "tool", "tools"), eo.Format, opts.output)
	}
	return nil
}

// isDirTarget: -o names a directory when it ends in a separator or is one.
func isDirTarget(path string) bool {
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
		return true
	}
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// printExportProblems prints refusals as "file:line:col: error: ... [rule]".
func printExportProblems(app *App, problems []export.Problem) {
	ds := make([]*diag.Diagnostic, len(problems))
	for i, p := range problems {
		ds[i] = p.Diagnostic()
	}
	app.problems(ds...)
}

func printExportWarnings(app *App, ws []export.Warning) {
	if app.Quiet {
		return
	}
	if !app.textErrors() {
		for _, w := range ws {
			app.problems(w.Diagnostic())
		}
		return
	}
	for _, w := range ws {
		fmt.Fprintf(app.IO.ErrOut, "warning: %s\n", w)
	}
}

func countTools(ps []export.Problem) int {
	seen := map[*spec.Tool]bool{}
	for _, p := range ps {
		seen[p.Tool] = true
	}
	return len(seen)
}
