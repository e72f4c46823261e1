package cmd

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/tokens"
)

type tokensOptions struct {
	app     *App
	paths   []string
	formats []string
	model   string
	by      string
	sort    string
	output  string
	suggest bool
	strict  bool
	noLint  bool
}

const tokensLong = `Count what the tool definitions cost in a model's context: every tool is sent
with every request, whether the model calls it or not. One row per tool,
costliest first (--sort name for alphabetical), a column per format, the
tool's share of the total, the tokens paid once per request, and the total.
On a terminal each row has a bar; piped output is a plain, stable table.

Formats (--format, repeatable; default openai and anthropic):
  openai, openai-responses  OPENAI: the prompt tokens the definitions cost as
                    the model sees them — OpenAI renders tools into its own
                    prompt format; counted as OpenAI's cookbook "How to count
                    tokens with tiktoken" does (per-function and per-property
                    overheads, enum items) with the model's encoding, exact
                    for that accounting. OPENAI JSON: the tokens of the
                    exported JSON (what the API receives).
  anthropic, gemini ANTHROPIC~, GEMINI~: an estimate (no offline tokenizer
                    exists for them): o200k_base tokens of the exported JSON
                    times a calibration factor, plus the provider's tool-use
                    system prompt once per request; expect ±25%.
  mcp               MCP JSON: the tokens of the exported tools/list entries.

--model picks the accounting of its provider: an OpenAI model sets the
encoding (o200k_base for gpt-4o, gpt-4.1, gpt-5, the o-series; cl100k_base for
gpt-4 and gpt-3.5-turbo) and constants; a Claude model the tool-use system
prompt; the other providers keep their defaults (gpt-4o, claude-sonnet-4-5,
gemini-2.5-pro). The tables are compiled in: nothing is downloaded.

--by parameter splits each tool into its description, each parameter (name,
schema and description) and the rest, so that you see what to trim.
--suggest lists savings: long descriptions, sub-schemas repeated where one
$defs entry would do, long enums, and what inlining $refs costs.
--strict counts the strict schemas export --strict writes (openai,
openai-responses, anthropic); a tool strict mode refuses is reported as
export reports it. --output json prints the same as JSON, byte-stable.

The tools are linted first as export does (lint errors refuse; --no-lint
counts anyway). lint's budget rules (lint.budget in .toolctl.yaml) check the
same numbers in CI.

Exit codes: 0 counted; 1 problems in tool files (a file that does not load,
lint errors, two tools with one name for a provider, a tool --strict
refuses); 2 usage or I/O error.`

func newCmdTokens(app *App) *cobra.Command {
	opts := &tokensOptions{app: app}
	formats := strs(tokens.Formats)
	cmd := &cobra.Command{
		Use:   "tokens [paths...]",
		Short: "Count what the tool definitions cost in context tokens, per tool and provider",
		Long:  tokensLong,
		Example: `  toolctl tokens
  toolctl tokens tools/ --format openai --format gemini --model gpt-4.1
  toolctl tokens --by parameter tools/http_request.yaml
  toolctl tokens --suggest
  toolctl tokens --output json | jq '.total'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			if err := checkOutputFormat(opts.output, "text", "json"); err != nil {
				return err
			}
			if opts.by != "" && opts.by != "parameter" {
				return usageError(fmt.Errorf("--by %q: the cost splits by parameter (--by parameter)", opts.by))
			}
			if opts.sort != "tokens" && opts.sort != "name" {
				return usageError(fmt.Errorf("--sort %q: use tokens (costliest first) or name", opts.sort))
			}
			if err := tokens.CheckFormats(opts.exportFormats()); err != nil {
				return usageError(err)
			}
			if opts.model != "" {
				if _, err := tokens.LookupModel(opts.model); err != nil {
					return usageError(fmt.Errorf("--model: %v", err))
				}
			}
			paths, err := app.defaultPaths(args)
			if err != nil {
				return err
			}
			opts.paths = paths
			return runTokens(opts)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&opts.formats, "format", nil, "provider format to count: "+strings.Join(formats, ", ")+" (repeatable; default openai,anthropic)")
	f.StringVar(&opts.model, "model", "", "`MODEL` whose accounting counts (gpt-4o, gpt-4.1, gpt-5, o3, gpt-4, claude-sonnet-4-5, gemini-2.5-pro ...)")
	f.StringVar(&opts.by, "by", "", "split each tool's cost: parameter (description, each parameter, the rest)")
	f.StringVar(&opts.sort, "sort", "tokens", "row order: tokens (costliest first, by the first format) or name")
	f.StringVar(&opts.output, "output", "text", "output format: text or json")
	f.BoolVar(&opts.suggest, "suggest", false, "list ways to save tokens")
	f.BoolVar(&opts.strict, "strict", false, "count the strict schemas of openai, openai-responses and anthropic (export --strict)")
	f.BoolVar(&opts.noLint, "no-lint", false, "count without linting first (lint errors refuse otherwise)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("model", cobra.FixedCompletions(tokens.KnownModels, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("by", cobra.FixedCompletions([]string{"parameter"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("sort", cobra.FixedCompletions([]string{"tokens", "name"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func (o *tokensOptions) exportFormats() []export.Format {
	var out []export.Format
	for _, f := range o.formats {
		if !slices.Contains(out, export.Format(f)) {
			out = append(out, export.Format(f))
		}
	}
	return out
}

func runTokens(opts *tokensOptions) error {
	app := opts.app
	tools, err := app.loadWhole(opts.paths, opts.noLint, wholeSet{nothing: "nothing counted", verb: "count", gateVerb: "count", why: "a total without them would be wrong"})
	if err != nil {
		return err
	}
	rep, err := tokens.Measure(tools, tokens.Options{Formats: opts.exportFormats(), Model: opts.model, Parts: opts.by == "parameter", Sort: opts.sort, Strict: opts.strict})
	var refused *export.Error
	if errors.As(err, &refused) {
		printExportProblems(app, refused.Problems)
		return &exitError{ExitProblems, fmt.Errorf("nothing counted: %s refused", lint.Plural(countTools(refused.Problems), "tool", "tools"))}
	}
	if err != nil {
		return usageError(err)
	}
	var hints []tokens.Suggestion
	if opts.suggest {
		hints = tokens.Suggest(tools)
	}
	if opts.output == "json" {
		return writeJSON(app.IO.Out, tokensJSON(rep, hints, opts.by == "parameter"))
	}
	writeTokensTable(app.IO.Out, app, rep)
	writeTokensLegend(app.IO.Out, rep)
	if opts.suggest {
		writeSuggestions(app.IO.Out, hints)
	}
	return nil
}

// tokenColumns are a report's columns: for each format its headline and,
// for the OpenAI formats, the JSON payload too.
type tokenColumn struct {
	title  string
	format int
	json   bool
}

func tokenColumns(rep *tokens.Report) []tokenColumn {
	var cols []tokenColumn
	for i, f := range rep.Formats {
		name := strings.ToUpper(string(f.Format))
		switch {
		case f.Format == export.MCP:
			cols = append(cols, tokenColumn{title: name + " JSON", format: i})
		case !f.Exact:
			cols = append(cols, tokenColumn{title: name + "~", format: i})
		default:
			cols = append(cols, tokenColumn{title: name, format: i}, tokenColumn{title: name + " JSON", format: i, json: true})
		}
	}
	return cols
}

func writeTokensTable(w io.Writer, app *App, rep *tokens.Report) {
	cols := tokenColumns(rep)
	header := []string{"TOOL"}
	for _, c := range cols {
		header = append(header, c.title)
	}
	header = append(header, "SHARE")
	bars := app.Color
	if bars {
		header = append(header, "")
	}
	maxTokens := 1
	for _, t := range rep.Tools {
		maxTokens = max(maxTokens, t.Costs[0].Tokens)
	}
	r := lipgloss.NewRenderer(w)
	r.SetColorProfile(termenv.ANSI)
	barStyle := r.NewStyle().Foreground(lipgloss.Color("6"))
	const barWidth = 24
	var rows [][]string
	for _, t := range rep.Tools {
		row := []string{t.Name}
		for _, c := range cols {
			cost := t.Costs[c.format]
			row = append(row, fmt.Sprint(map[bool]int{false: cost.Tokens, true: cost.JSON}[c.json]))
		}
		row = append(row, percent(t.Costs[0].Tokens, rep.Sum[0]))
		if bars {
			n := (t.Costs[0].Tokens*barWidth + maxTokens - 1) / maxTokens
			row = append(row, barStyle.Render(strings.Repeat("█", n)))
		}
		rows = append(rows, row)
		for _, p := range partRows(t, cols) {
			rows = append(rows, p)
		}
	}
	per := []string{"per request"}
	total := []string{"total"}
	for _, c := range cols {
		if c.json {
			per = append(per, "-")
			total = append(total, fmt.Sprint(sumJSON(rep, c.format)))
			continue
		}
		per = append(per, fmt.Sprint(rep.Formats[c.format].PerRequest))
		total = append(total, fmt.Sprint(rep.Total[c.format]))
	}
	rows = append(rows, append(per, ""), append(total, "100.0%"))
	// counts and shares to the right, so digits line up; names and bars left
	numbers := len(cols) + 1
	writeAlignedTable(w, app.styles(), header, rows, func(col int) bool { return col >= 1 && col <= numbers })
}

// partRows are a tool's parts (--by parameter), indented under it: the
// parts of every format (Anthropic's examples, say), the rest last.
func partRows(t tokens.ToolCost, cols []tokenColumn) [][]string {
	type key struct{ kind, name string }
	var keys []key
	var labels []string
	for _, c := range t.Costs {
		for _, p := range c.Parts {
			k := key{p.Kind, p.Name}
			if p.Kind != tokens.PartRest && !slices.Contains(keys, k) {
				keys, labels = append(keys, k), append(labels, p.Label())
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	keys, labels = append(keys, key{tokens.PartRest, ""}), append(labels, tokens.PartRest)
	var rows [][]string
	for i, k := range keys {
		row := []string{"  " + labels[i]}
		for _, c := range cols {
			if c.json {
				row = append(row, "")
				continue
			}
			cell := "-"
			for _, q := range t.Costs[c.format].Parts {
				if q.Kind == k.kind && q.Name == k.name {
					cell = fmt.Sprint(q.Tokens)
				}
			}
			row = append(row, cell)
		}
		rows = append(rows, append(row, ""))
	}
	return rows
}

func sumJSON(rep *tokens.Report, format int) int {
	n := 0
	for _, t := range rep.Tools {
		n += t.Costs[format].JSON
	}
	return n
}

func percent(n, total int) string {
	if total <= 0 {
		return "0.0%"
	}
	return fmt.Sprintf("%.1f%%", float64(n)*100/float64(total))
}

// writeTokensLegend says what each column counts.
func writeTokensLegend(w io.Writer, rep *tokens.Report) {
	fmt.Fprintln(w)
	for _, c := range tokenColumns(rep) {
		f := rep.Formats[c.format]
		switch {
		case c.json:
			fmt.Fprintf(w, "%s: tokens of the exported JSON (%s)\n", c.title, f.Encoding)
		case f.Format == export.MCP:
			fmt.Fprintf(w, "%s: tokens of the exported tools/list JSON (%s)\n", c.title, f.Encoding)
		case f.Exact:
			fmt.Fprintf(w, "%s: prompt tokens as %s sees the definitions (OpenAI cookbook accounting, %s); per request: %d\n", c.title, f.Model, f.Encoding, f.PerRequest)
			writeUncountedDefs(w, rep, c)
		default:
			fmt.Fprintf(w, "%s: estimate for %s (%s): %s; per request: %d\n", c.title, f.Model, f.Error, strings.TrimPrefix(f.Method, "estimate: "), f.PerRequest)
		}
	}
	fmt.Fprintf(w, "SHARE: of the %s total of the tools\n", strings.ToUpper(string(rep.Formats[0].Format)))
}

// writeUncountedDefs says which tools' $defs an OpenAI column leaves out
// (tokens.Cost.UncountedDefs), so that its number is not silently low.
func writeUncountedDefs(w io.Writer, rep *tokens.Report, c tokenColumn) {
	var names []string
	n := 0
	for _, t := range rep.Tools {
		if d := t.Costs[c.format].UncountedDefs; d > 0 {
			names = append(names, t.Name)
			n += d
		}
	}
	if len(names) == 0 {
		return
	}
	shown := strings.Join(names, ", ")
	if len(names) > 3 {
		shown = fmt.Sprintf("%s and %d more", strings.Join(names[:3], ", "), len(names)-3)
	}
	fmt.Fprintf(w, "%s: not counted: the $defs of %s (%s, %d tokens as JSON); how OpenAI renders $ref and $defs in the prompt is not published, so %s a floor\n",
		c.title, lint.Plural(len(names), "tool", "tools"), shown, n, map[bool]string{true: "its count is", false: "their counts are"}[len(names) == 1])
}

func writeSuggestions(w io.Writer, hints []tokens.Suggestion) {
	fmt.Fprintln(w)
	if len(hints) == 0 {
		fmt.Fprintln(w, "No suggestions: no description over", tokens.SuggestDescriptionMax, "characters, no repeated sub-schema, no enum over", tokens.SuggestEnumMax, "values, no $ref to inline.")
		return
	}
	fmt.Fprintln(w, "Suggestions:")
	for _, h := range hints {
		fmt.Fprintf(w, "  %s: tool %q: %s [%s, %d tokens]\n", diag.Where(h.Tool.Path(), h.Tool.Span(h.Pointer).Start), h.Name, h.Message, h.Kind, h.Tokens)
	}
}

// tokensReport is the JSON form; field names are stable.
type tokensReport struct {
	Formats     []tokensFormat     `json:"formats"`
	Tools       []tokensTool       `json:"tools"`
	Total       []tokensTotal      `json:"total"`
	Suggestions []tokensSuggestion `json:"suggestions,omitempty"`
}

type tokensFormat struct {
	Format     string `json:"format"`
	Model      string `json:"model,omitempty"`
	Encoding   string `json:"encoding"`
	Exact      bool   `json:"exact"`
	Error      string `json:"error,omitempty"`
	PerRequest int    `json:"per_request"`
	Method     string `json:"method"`
}

type tokensTool struct {
	Name  string       `json:"name"`
	File  string       `json:"file"`
	Line  int          `json:"line"`
	Share float64      `json:"share"`
	Costs []tokensCost `json:"costs"`
}

type tokensCost struct {
	Format string `json:"format"`
	Tokens int    `json:"tokens"`
	JSON   int    `json:"json"`
	// UncountedDefs: the JSON tokens of the $defs tokens leaves out
	// (openai, openai-responses).
	UncountedDefs int          `json:"uncounted_defs,omitempty"`
	Parts         []tokensPart `json:"parts,omitempty"`
}

type tokensPart struct {
	Part    string `json:"part"`
	Name    string `json:"name,omitempty"`
	Pointer string `json:"pointer,omitempty"`
	Tokens  int    `json:"tokens"`
}

type tokensTotal struct {
	Format     string `json:"format"`
	Tools      int    `json:"tools"`
	PerRequest int    `json:"per_request"`
	Total      int    `json:"total"`
	JSON       int    `json:"json"`
}

type tokensSuggestion struct {
	Tool    string `json:"tool"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Kind    string `json:"kind"`
	Pointer string `json:"pointer"`
	Tokens  int    `json:"tokens"`
	Message string `json:"message"`
}

func tokensJSON(rep *tokens.Report, hints []tokens.Suggestion, parts bool) tokensReport {
	out := tokensReport{Formats: []tokensFormat{}, Tools: []tokensTool{}, Total: []tokensTotal{}}
	for i, f := range rep.Formats {
		out.Formats = append(out.Formats, tokensFormat{Format: string(f.Format), Model: f.Model, Encoding: f.Encoding, Exact: f.Exact, Error: f.Error, PerRequest: f.PerRequest, Method: f.Method})
		out.Total = append(out.Total, tokensTotal{Format: string(f.Format), Tools: rep.Sum[i], PerRequest: f.PerRequest, Total: rep.Total[i], JSON: sumJSON(rep, i)})
	}
	for _, t := range rep.Tools {
		pos := t.Tool.Span("/name").Start
		item := tokensTool{Name: t.Name, File: t.Tool.Path(), Line: pos.Line, Costs: []tokensCost{}}
		if rep.Sum[0] > 0 {
			item.Share = float64(int(float64(t.Costs[0].Tokens)*10000/float64(rep.Sum[0])+0.5)) / 10000
		}
		for i, c := range t.Costs {
			tc := tokensCost{Format: string(rep.Formats[i].Format), Tokens: c.Tokens, JSON: c.JSON, UncountedDefs: c.UncountedDefs}
			if parts {
				tc.Parts = []tokensPart{}
				for _, p := range c.Parts {
					tc.Parts = append(tc.Parts, tokensPart{Part: p.Kind, Name: p.Name, Pointer: p.Pointer, Tokens: p.Tokens})
				}
			}
			item.Costs = append(item.Costs, tc)
		}
		out.Tools = append(out.Tools, item)
	}
	for _, h := range hints {
		out.Suggestions = append(out.Suggestions, tokensSuggestion{Tool: h.Name, File: h.Tool.Path(), Line: h.Tool.Span(h.Pointer).Start.Line, Kind: h.Kind, Pointer: h.Pointer, Tokens: h.Tokens, Message: h.Message})
	}
	return out
}
