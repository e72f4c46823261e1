package cmd

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

type showOptions struct {
	app    *App
	name   string
	paths  []string
	output string
}

func newCmdShow(app *App) *cobra.Command {
	opts := &showOptions{app: app}
	cmd := &cobra.Command{
		Use:   "show NAME [paths...]",
		Short: "Print the canonical model of one tool",
		Long: `Print one tool as toolctl understands it, whatever dialect its file uses:
the canonical fields in canonical order, with the input as a JSON Schema object
(input_schema) and the output as output_schema. The YAML form is itself a valid
tool file, so show also converts a tool from one dialect to the canonical one.

The tool is looked up in the given paths (default: the tools directory).`,
		Example: `  toolctl show http_request
  toolctl show calculator --output json
  toolctl show browser_navigate ../other-project/tools`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError(fmt.Errorf("show needs the name of a tool, e.g. toolctl show http_request; 'toolctl list' lists them"))
			}
			return nil
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveDefault
			}
			return app.completeToolNames(cmd), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			if err := checkOutputFormat(opts.output, "yaml", "json"); err != nil {
				return err
			}
			opts.name = args[0]
			paths, err := app.defaultPaths(args[1:])
			if err != nil {
				return err
			}
			opts.paths = paths
			return runShow(opts)
		},
	}
	cmd.Flags().StringVar(&opts.output, "output", "yaml", "output format: yaml or json")
	return cmd
}

func runShow(opts *showOptions) error {
	app := opts.app
	set, err := spec.LoadNamed(opts.paths, opts.name) // as run: only NAME's file when it can
	if err != nil {
		return usageError(err)
	}
	t, err := findTool(set, opts.name, opts.paths)
	if err != nil {
		return usageError(err)
	}
	var out []byte
	if opts.output == "json" {
		out, err = spec.MarshalJSONIndent(t.ToMap())
	} else {
		out, err = spec.MarshalYAMLDoc(t.ToMap())
	}
	if err != nil {
		return err
	}
	if _, err := app.IO.Out.Write(out); err != nil {
		return err
	}
	// Problems in the tool's own definition mean the model above is incomplete.
	if errs := t.Errors(); len(errs) > 0 {
		printFileErrors(app.IO.ErrOut, app.stderrStyles(), errs)
		return problemsFound()
	}
	return nil
}

// findTool returns the one tool named name, or an error saying it is
// missing (with a did-you-mean) or defined more than once (with where).
func findTool(set *spec.Set, name string, paths []string) (*spec.Tool, error) {
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

// completeToolNames lists the tool names of the tools directory for shell
// completion; errors just mean no suggestions.
func (app *App) completeToolNames(cmd *cobra.Command) []cobra.Completion {
	if err := app.configure(cmd); err != nil {
		return nil
	}
	set, err := spec.Load([]string{app.ToolsDir})
	if err != nil {
		return nil
	}
	var out []cobra.Completion
	for _, t := range set.Tools() {
		out = append(out, cobra.CompletionWithDesc(t.Name, firstLine(t.Description)))
	}
	return out
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
