package cmd

import (
	"fmt"

	"github.com/spf13/cobra"
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
	t, err := app.loadTool(opts.paths, opts.name) // as run: only NAME's file when it can
	if err != nil {
		return err
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
		app.printFileErrors(errs)
		return problemsFound()
	}
	return nil
}
