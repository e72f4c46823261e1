package cmd

import (
	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/spec"
)

func newCmdSchema(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the tool file format",
		Long: `Print the JSON Schema (draft 2020-12) of a tool file, generated from toolctl's
own types. Editors use it for completion, hover and validation.

With yaml-language-server (the VS Code YAML extension and others), save it and
put a modeline on the first line of each tool file:

  toolctl schema > .toolctl/tool.schema.json
  # yaml-language-server: $schema=../.toolctl/tool.schema.json

JSON files cannot carry comments; give them a "$schema" field instead.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			out, err := spec.FileSchema()
			if err != nil {
				return err
			}
			_, err = app.IO.Out.Write(out)
			return err
		},
	}
}
