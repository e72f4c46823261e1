package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

func newCmdVersion(app *App) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and Go version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutputFormat(output, "text", "json"); err != nil {
				return err
			}
			b := currentBuild()
			if output == "json" {
				return writeJSON(app.IO.Out, b)
			}
			writeVersion(app.IO.Out, b)
			return nil
		},
	}
	cmd.Flags().StringVar(&output, "output", "text", "output format: text or json")
	return cmd
}

func writeVersion(w io.Writer, b buildInfo) {
	fmt.Fprintf(w, "toolctl %s\n", b.Version)
	c := b.Commit
	if c == "" {
		c = "unknown"
	}
	if b.Modified {
		c += " (modified)"
	}
	fmt.Fprintf(w, "commit: %s\n", c)
	if b.Date != "" {
		fmt.Fprintf(w, "built:  %s\n", b.Date)
	}
	fmt.Fprintf(w, "go:     %s %s\n", b.Go, b.Platform)
}
