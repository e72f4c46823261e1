// Package cmd is the toolctl command line: one file per command, each with
// an options struct, a NewCmd function (flags and wiring) and a run function
// (the work), all writing to injected IOStreams.
package cmd

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/config"
	"github.com/toolctl/toolctl/pkg/run"
)

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
	if app.errorFormat == "" {
		// a command that failed before its settings were read
		if v, ferr := root.PersistentFlags().GetString("error-format"); ferr == nil && app.setErrorFormat(v) != nil {
			app.errorFormat = "text"
		}
	}
	// With a report on stderr, it is all stderr holds when the command
	// found problems: the summary line would break a reader of the report.
	quiet := !app.textErrors() && len(app.pending) > 0 && exitCode(err) == ExitProblems
	if err != nil && !app.errorProblem(err) && !quiet {
		if msg := err.Error(); msg != "" {
			// A message may quote a tool's or a server's text: in a
			// terminal or a CI log it must not drive the display (escape
			// sequences).
			msg = run.Printable(msg, true)
			fmt.Fprintf(app.IO.ErrOut, "toolctl: %s\n", msg)
		}
	}
	app.flushProblems()
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
	pf.String("config", "", "config file (default "+config.DefaultFile+" when present)")
	pf.String("tools-dir", "tools", "directory of tool files used when no paths are given")
	pf.Bool("no-color", false, "disable colour (also NO_COLOR=1)")
	pf.BoolP("quiet", "q", false, "print only results and errors")
	pf.BoolP("verbose", "v", false, "print progress and timings to stderr")
	pf.String("error-format", "text", errorFormatUsage())

	root.SetIn(app.IO.In)
	root.SetOut(app.IO.Out)
	root.SetErr(app.IO.ErrOut)
	root.SetVersionTemplate("toolctl {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError(fmt.Errorf("%w\nRun '%s --help' for usage.", err, c.CommandPath()))
	})
	root.AddCommand(
		newCmdLint(app),
		newCmdScan(app),
		newCmdList(app),
		newCmdShow(app),
		newCmdRun(app),
		newCmdTest(app),
		newCmdExport(app),
		newCmdTokens(app),
		newCmdImport(app),
		newCmdBreaking(app),
		newCmdLock(app),
		newCmdVerify(app),
		newCmdDocs(app),
		newCmdSchema(app),
		newCmdNew(app),
		newCmdFmt(app),
		newCmdServe(app),
		newCmdLsp(app),
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
