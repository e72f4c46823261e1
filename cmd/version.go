package cmd

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Set at release time with
// -ldflags "-X github.com/toolctl/toolctl/cmd.version=... -X ...cmd.commit=... -X ...cmd.date=...".
var (
	version = ""
	commit  = ""
	date    = ""
)

type buildInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Date     string `json:"date"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// currentBuild uses the ldflags values, falling back to what the Go toolchain
// recorded (go install github.com/toolctl/toolctl@v1.2.3 sets the module
// version; a build from a git checkout records the revision).
func currentBuild() buildInfo {
	b := buildInfo{Version: version, Commit: commit, Date: date, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.time":
				if b.Date == "" {
					b.Date = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	return b
}

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

// writeJSON prints v as indented JSON without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	out, err := spec.MarshalJSONIndent(v)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}
