package cmd

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/config"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
)

// App is what every command shares (as gh's cmdutil.Factory): the
// streams, the environment, the settings resolved from flags > TOOLCTL_*
// env > config file > defaults, and the services of services.go and
// lintgate.go (find a tool, build a runner, lint a set...). A command file
// uses these and its own code, never another command's.
type App struct {
	IO     *IOStreams
	Getenv func(string) string

	ToolsDir string
	Color    bool // colour on stdout
	ColorErr bool // colour on stderr
	Quiet    bool
	Verbose  bool

	// errorFormat is --error-format (problems.go); pending holds the
	// problems of a report in a format other than text.
	errorFormat string
	pending     []diag.Diagnostic

	configured bool
	// config is the config file read (nil before configure, Path "" when
	// there is none); services decode its sections when they need them.
	config *config.File
}

// configure resolves settings once per invocation. Only commands that use
// settings call it, so a broken config file never stops version or schema.
func (app *App) configure(cmd *cobra.Command) error {
	if app.configured {
		return nil
	}
	app.configured = true
	if v, err := cmd.Flags().GetString("error-format"); err == nil {
		if err := app.setErrorFormat(v); err != nil {
			return err
		}
	}
	// The config file is no tool file: walking a directory leaves it out.
	spec.SetConfigFiles()
	// The command's own flag set holds the parsed values of inherited
	// persistent flags (also while completing).
	s, err := config.Resolve(cmd.Flags(), app.Getenv)
	if err != nil {
		return usageError(err)
	}
	app.config = s.File
	if s.File.Path != "" {
		spec.SetConfigFiles(s.File.Path)
	}
	app.ToolsDir = s.ToolsDir
	app.Quiet = s.Quiet
	app.Verbose = s.Verbose
	if app.Quiet && app.Verbose { // e.g. TOOLCTL_QUIET=1 with -v
		return usageError(errors.New("--quiet and --verbose cannot be used together"))
	}
	app.Color = app.IO.StdoutTTY && !s.NoColor
	app.ColorErr = app.IO.StderrTTY && !s.NoColor
	return nil
}

// defaultPaths returns args, or the tools directory when there are none.
func (app *App) defaultPaths(args []string) ([]string, error) {
	if len(args) > 0 {
		return args, nil
	}
	info, err := os.Stat(app.ToolsDir)
	if err != nil || !info.IsDir() {
		return nil, usageError(fmt.Errorf("no paths given and the tools directory %q does not exist; pass files or directories, or set --tools-dir", app.ToolsDir))
	}
	return []string{app.ToolsDir}, nil
}

// logf prints a progress line in verbose mode.
func (app *App) logf(format string, args ...any) {
	if app.Verbose {
		fmt.Fprintf(app.IO.ErrOut, format+"\n", args...)
	}
}

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
