// Package cmd is the toolctl command line: one file per command, each with
// an options struct, a NewCmd function (flags and wiring) and a run function
// (the work), all writing to injected IOStreams.
package cmd

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// App is what every command shares: the streams, the environment and the
// settings resolved from flags > TOOLCTL_* env > config file > defaults.
type App struct {
	IO     *IOStreams
	Getenv func(string) string

	ToolsDir string
	Color    bool // colour on stdout
	ColorErr bool // colour on stderr
	Quiet    bool
	Verbose  bool

	configured bool
	// configFile is the config file read (if any) and configRoot its
	// validated top-level mapping, for sections viper does not type (lint).
	configFile string
	configRoot *yaml.Node
}

// Main runs toolctl with the process's arguments and returns the exit code.
func Main() int {
	return Run(&App{IO: System(), Getenv: os.Getenv}, os.Args[1:])
}

// Run executes the command line args and returns the exit code. Errors are
// printed to app.IO.ErrOut as "toolctl: message".
func Run(app *App, args []string) int {
	root := NewRootCmd(app)
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		if msg := err.Error(); msg != "" {
			fmt.Fprintf(app.IO.ErrOut, "toolctl: %s\n", msg)
		}
	}
	return exitCode(err)
}

// NewRootCmd builds the command tree.
func NewRootCmd(app *App) *cobra.Command {
	root := &cobra.Command{
		Use:   "toolctl",
		Short: "Lint, run, export, document and serve LLM agent tool definitions",
		Long: `toolctl works on the files that define the tools an LLM agent can call
(tools/*.yaml, *.json): one file is the single source of truth for every
provider format.

Settings come from flags, then TOOLCTL_* environment variables (TOOLCTL_TOOLS_DIR,
TOOLCTL_NO_COLOR, ...), then the config file (.toolctl.yaml in the working
directory, or --config), then defaults.

Exit codes: 0 success; 1 problems found in tool files; 2 usage error (bad flag
or argument, missing path, unknown tool, invalid config); toolctl run also uses
3-10 for the type of a failed call (toolctl run --help lists them).`,
		Version:       currentBuild().Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		// Only a flag check here: settings are read by the commands that use
		// them, so a broken config file never stops version or schema.
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			q, _ := cmd.Flags().GetBool("quiet")
			v, _ := cmd.Flags().GetBool("verbose")
			if q && v {
				return usageError(errors.New("--quiet and --verbose cannot be used together"))
			}
			return nil
		},
	}
	pf := root.PersistentFlags()
	pf.String("config", "", "config file (default "+DefaultConfigFile+" when present)")
	pf.String("tools-dir", "tools", "directory of tool files used when no paths are given")
	pf.Bool("no-color", false, "disable colour (also NO_COLOR=1)")
	pf.BoolP("quiet", "q", false, "print only results and errors")
	pf.BoolP("verbose", "v", false, "print progress and timings to stderr")

	root.SetIn(app.IO.In)
	root.SetOut(app.IO.Out)
	root.SetErr(app.IO.ErrOut)
	root.SetVersionTemplate("toolctl {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError(fmt.Errorf("%w\nRun '%s --help' for usage.", err, c.CommandPath()))
	})
	root.AddCommand(
		newCmdLint(app),
		newCmdList(app),
		newCmdShow(app),
		newCmdRun(app),
		newCmdExport(app),
		newCmdImport(app),
		newCmdDocs(app),
		newCmdSchema(app),
		newCmdNew(app),
		newCmdFmt(app),
		newCmdServe(app),
		newCmdVersion(app),
	)
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			// Cobra prints help and exits 0 for an unknown shell.
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(c *cobra.Command, args []string) error {
				if len(args) == 0 {
					return usageError(fmt.Errorf("name a shell: toolctl completion bash|zsh|fish|powershell"))
				}
				return usageError(fmt.Errorf("unknown shell %q; toolctl completes bash, zsh, fish and powershell", args[0]))
			}
		}
	}
	return root
}

// configure resolves settings once per invocation. Only commands that use
// settings call it, so a broken config file never stops version or schema.
func (app *App) configure(cmd *cobra.Command) error {
	if app.configured {
		return nil
	}
	app.configured = true
	// The command's own flag set holds the parsed values of inherited
	// persistent flags (also while completing).
	flags := cmd.Flags()
	for _, env := range []string{"TOOLCTL_NO_COLOR", "TOOLCTL_QUIET", "TOOLCTL_VERBOSE"} {
		if val := app.Getenv(env); val != "" {
			if _, err := strconv.ParseBool(val); err != nil {
				return usageError(fmt.Errorf("%s=%q is not a boolean; use true or false", env, val))
			}
		}
	}
	v := viper.New()
	v.SetEnvPrefix("TOOLCTL")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	v.SetDefault("tools_dir", "tools")
	for key, flag := range map[string]string{"tools_dir": "tools-dir", "no_color": "no-color", "quiet": "quiet", "verbose": "verbose"} {
		if err := v.BindPFlag(key, flags.Lookup(flag)); err != nil {
			return err
		}
	}

	// A named config file must exist; the default one is optional.
	path := flags.Lookup("config").Value.String()
	if path == "" {
		path = app.Getenv("TOOLCTL_CONFIG")
	}
	if path == "" {
		if _, err := os.Stat(DefaultConfigFile); err == nil {
			path = DefaultConfigFile
		}
	}
	// The config file is no tool file: walking a directory leaves it out.
	spec.SetConfigFiles()
	if path != "" {
		root, err := readConfig(path)
		if err != nil {
			return usageError(err)
		}
		app.configFile = path
		spec.SetConfigFiles(path)
		app.configRoot = root
		// From the tree readConfig read (viper's own YAML reading would
		// refuse a .json config's surrogate pairs).
		if root != nil {
			var settings map[string]any
			if err := root.Decode(&settings); err != nil {
				return usageError(fmt.Errorf("config file %s: %v", path, err))
			}
			if err := v.MergeConfigMap(settings); err != nil {
				return usageError(fmt.Errorf("config file %s: %v", path, err))
			}
		}
	}

	app.ToolsDir = v.GetString("tools_dir")
	if path != "" && !flags.Changed("tools-dir") && app.Getenv("TOOLCTL_TOOLS_DIR") == "" && v.InConfig("tools_dir") {
		app.ToolsDir = resolveRelative(path, app.ToolsDir)
	}
	app.Quiet = v.GetBool("quiet")
	app.Verbose = v.GetBool("verbose")
	if app.Quiet && app.Verbose { // e.g. TOOLCTL_QUIET=1 with -v
		return usageError(errors.New("--quiet and --verbose cannot be used together"))
	}
	// NO_COLOR (no-color.org) sits between our own env var and the config
	// file: an explicit flag or TOOLCTL_NO_COLOR overrides it.
	noColor := v.GetBool("no_color")
	if !flags.Changed("no-color") && app.Getenv("TOOLCTL_NO_COLOR") == "" && app.Getenv("NO_COLOR") != "" {
		noColor = true
	}
	noColor = noColor || app.Getenv("TERM") == "dumb"
	app.Color = app.IO.StdoutTTY && !noColor
	app.ColorErr = app.IO.StderrTTY && !noColor
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
