package cmd

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/scaffold"
)

// runNewFromPython is new --from python FILE.py:FUNC: the tool of one
// function, imported as import --from python does (importPython), written
// as new writes (checkNewTargets, writeNew: never over a file without
// --force, and never merged).
func runNewFromPython(cmd *cobra.Command, opts *newOptions) error {
	app := opts.app
	if opts.from != string(importer.Python) {
		if opts.from == "" {
			return usageError(errors.New("--exec applies to --from python only"))
		}
		return usageError(fmt.Errorf("--from %q: new makes a tool of a Python function (--from python FILE.py:FUNC); tools of other formats come in with 'toolctl import --from %s'", opts.from, opts.from))
	}
	if opts.name == "" {
		return usageError(errors.New("new --from python needs FILE.py:FUNC, the function to make a tool of"))
	}
	for _, fl := range []string{"entry", "dialect", "format", "description"} {
		if cmd.Flags().Changed(fl) {
			return usageError(fmt.Errorf("--%s does not apply to --from python: the tool is a YAML file with a python entry, its description from the docstring", fl))
		}
	}
	if opts.name == "-" {
		return usageError(errors.New("new --from python reads a file, FILE.py:FUNC; for a snippet on stdin use 'toolctl import --from python - --function NAME'"))
	}
	cfg, _, err := app.lintConfig()
	if err != nil {
		return usageError(err)
	}
	if opts.category != "" {
		categories := cfg.Categories
		if categories == nil {
			categories = lint.DefaultCategories
		}
		if !slices.Contains(categories, opts.category) {
			return usageError(fmt.Errorf("--category %q is not an allowed category; use one of %s (lint.categories in .toolctl.yaml sets them)", opts.category, strings.Join(categories, ", ")))
		}
	}
	file, funcs := importer.ParsePythonTarget(opts.name)
	if len(funcs) > 1 {
		return usageError(fmt.Errorf("new makes one tool; %s names %d functions: use 'toolctl import --from python %s' for several", opts.name, len(funcs), opts.name))
	}
	dir := opts.dir
	if !cmd.Flags().Changed("dir") {
		dir = app.ToolsDir
	}
	if dir == "" {
		return usageError(errors.New("--dir: give a directory"))
	}
	iopts := &importOptions{app: app, input: opts.name, dir: dir, exec: opts.exec, timeout: importTimeout}
	res, err := importPython(cmd.Context(), app, iopts)
	if err != nil {
		return err
	}
	if len(res.Tools) != 1 {
		names := make([]string, len(res.Tools))
		for i, t := range res.Tools {
			names[i] = t.SourceName
		}
		return usageError(fmt.Errorf("new makes one tool, and %s has %d public functions (%s): name one, e.g. %s:%s, or use 'toolctl import --from python %s' for all (nothing was written)", file, len(res.Tools), strings.Join(names, ", "), file, names[0], file))
	}
	if !app.Quiet {
		for _, w := range res.Warnings {
			printImportDiag(app, diag.Warning, w)
		}
	}
	tool := res.Tools[0].Tool
	if opts.category != "" {
		tool.Category = opts.category
	}
	if !cmd.Flags().Changed("schema-ref") {
		opts.schemaRef = defaultSchemaRef(app, dir)
	}
	data, err := renderTool(&importOptions{schemaRef: opts.schemaRef}, tool)
	if err != nil {
		return err
	}
	opts.source, opts.name, opts.dir = opts.name, tool.Name, dir
	files := []scaffold.File{{Path: tool.Name + ".yaml", Data: data}}
	if err := checkNewTargets(opts, files); err != nil {
		return err
	}
	if err := writeNew(app, opts, files); err != nil {
		return err
	}
	toolPath := filepath.Join(dir, files[0].Path)
	reportNewFindings(app, cfg, toolPath, data)
	if !app.Quiet {
		run := "toolctl run " + tool.Name
		if filepath.Clean(dir) != filepath.Clean(app.ToolsDir) {
			run = fmt.Sprintf("toolctl --tools-dir %s run %s", shellQuote(dir), tool.Name)
		}
		fmt.Fprintf(app.IO.ErrOut, "next: check the description and the parameters, then run 'toolctl lint %s' and '%s --help'\n", shellQuote(toolPath), run)
	}
	return nil
}
