package cmd

import (
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

type listOptions struct {
	app    *App
	paths  []string
	output string
}

func newCmdList(app *App) *cobra.Command {
	opts := &listOptions{app: app}
	cmd := &cobra.Command{
		Use:   "list [paths...]",
		Short: "List the tools defined in files and directories",
		Long: `List every tool found in the given files and directories (default: the tools
directory): name, category, entry type, dialect and file.

Directories are walked recursively for .yaml, .yml and .json files. A file that
cannot be read or parsed is reported on stderr with file:line:col and the exit
code is 1; the other files are still listed.`,
		Example: `  toolctl list
  toolctl list tools/ more-tools/extra.yaml
  toolctl list --output json | jq '.tools[].name'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			if err := checkOutputFormat(opts.output, "text", "json"); err != nil {
				return err
			}
			paths, err := app.defaultPaths(args)
			if err != nil {
				return err
			}
			opts.paths = paths
			return runList(opts)
		},
	}
	cmd.Flags().StringVar(&opts.output, "output", "text", "output format: text or json")
	return cmd
}

// listItem is the JSON form of one row; field names are stable.
type listItem struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	Category    string `json:"category"`
	Entry       string `json:"entry"`
	Dialect     string `json:"dialect"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Column      int    `json:"column"`
}

type errorItem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

func runList(opts *listOptions) error {
	app := opts.app
	start := time.Now()
	set, err := app.loadTools(opts.paths)
	if err != nil {
		return err
	}
	tools, errs := set.Tools(), set.Errors()
	app.logf("loaded %s from %s in %s", lint.Plural(len(tools), "tool", "tools"), lint.Plural(len(set.Files), "file", "files"), time.Since(start).Round(time.Millisecond))

	if opts.output == "json" {
		out := struct {
			Tools  []listItem  `json:"tools"`
			Errors []errorItem `json:"errors"`
		}{Tools: []listItem{}, Errors: errorItems(errs)}
		for _, t := range tools {
			p := t.Pos("")
			out.Tools = append(out.Tools, listItem{t.Name, t.Title, t.Description, t.Category, t.EntryKind(), string(t.Dialect), t.Path(), p.Line, p.Col})
		}
		if err := writeJSON(app.IO.Out, out); err != nil {
			return err
		}
	} else {
		if len(tools) > 0 {
			rows := make([][]string, 0, len(tools))
			for _, t := range tools {
				file := t.Path()
				if len(t.File.Tools) > 1 {
					file += ":" + strconv.Itoa(t.Pos("").Line)
				}
				rows = append(rows, []string{orDash(t.Name), orDash(t.Category), orDash(t.EntryKind()), string(t.Dialect), file})
			}
			writeTable(app.IO.Out, app.styles(), []string{"NAME", "CATEGORY", "ENTRY", "DIALECT", "FILE"}, rows)
		}
		app.printFileErrors(errs)
		if !app.Quiet {
			summary := fmt.Sprintf("%s in %s", lint.Plural(len(tools), "tool", "tools"), lint.Plural(len(set.Files), "file", "files"))
			if bad := countBadFiles(set); bad > 0 {
				summary += fmt.Sprintf("; %s with errors", lint.Plural(bad, "file", "files"))
			}
			fmt.Fprintln(app.IO.ErrOut, summary)
		}
	}
	if len(errs) > 0 {
		return problemsFound()
	}
	return nil
}

func errorItems(errs []*spec.Error) []errorItem {
	items := make([]errorItem, 0, len(errs))
	for _, e := range errs {
		items = append(items, errorItem{e.File, e.Span.Start.Line, e.Span.Start.Col, e.Message})
	}
	return items
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
