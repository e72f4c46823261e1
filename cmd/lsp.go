package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/lsp"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/tokens"
)

type lspOptions struct {
	app      *App
	stdio    bool
	debounce time.Duration
	logFile  string
}

func newCmdLsp(app *App) *cobra.Command {
	opts := &lspOptions{app: app}
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Language server for tool files: lint as you type, hover, completion, fixes",
		Long: `Run a Language Server Protocol server on stdin/stdout for YAML and JSON tool
files. Editors start it themselves (README, "Editors"): every lint finding of
the open file as you type (the buffer, not the file on disk), with the rule
IDs, severities and settings of toolctl lint (.toolctl.yaml is found upward
from each file; a file in the tools directory is linted with the rest of it,
so cross-file rules follow a rename at once); hover documentation of fields,
parameters and referenced tools; completion of field names, enum values, tool
names and parameter names; go to definition and references of tool names;
rename of a tool across the tool files (its file too when it is named after
it and the editor can rename files; a name that is not snake_case or is
another tool's is refused); an outline of each file's tools and their
parameters (document symbols); quick fixes for the findings that name their fix; formatting through toolctl
fmt (comments kept).

Exit codes: 0 after the client's shutdown and exit; 1 when the client ends the
connection without them; 2 usage error.`,
		Example: `  toolctl lsp            # started by the editor
  toolctl lsp --log /tmp/toolctl-lsp.log`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLsp(opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.stdio, "stdio", true, "talk over stdin/stdout (the only transport; accepted because LSP clients pass it)")
	f.DurationVar(&opts.debounce, "debounce", lsp.DefaultDebounce, "wait this long after a change before linting (changes within it are linted once)")
	f.StringVar(&opts.logFile, "log", "", "append the server's log to `FILE`")
	return cmd
}

// stdio joins stdin and stdout into the connection the server reads and
// writes.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

func runLsp(opts *lspOptions) error {
	app := opts.app
	if opts.debounce < 0 {
		return usageError(fmt.Errorf("--debounce %s: give a duration of 0 or more, e.g. 20ms", opts.debounce))
	}
	srvOpts := lsp.Options{Debounce: opts.debounce, Version: currentBuild().Version, LintConfig: budgetCounter, ToolCost: toolCost}
	if opts.logFile != "" {
		f, err := os.OpenFile(opts.logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return usageError(fmt.Errorf("--log %s: %v", opts.logFile, unwrapPathError(err)))
		}
		defer f.Close()
		srvOpts.Logf = func(format string, args ...any) {
			fmt.Fprintf(f, time.Now().Format(time.RFC3339)+" "+format+"\n", args...)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := lsp.New(srvOpts).Serve(ctx, stdio{app.IO.In, app.IO.Out}); err != nil {
		return &exitError{code: ExitProblems, err: fmt.Errorf("lsp: %v", err)}
	}
	return nil
}

// toolCost is hover's line on what t costs in an OpenAI request (the
// tokens command's count; counted on first use).
func toolCost(t *spec.Tool) string {
	c, info, err := tokens.MeasureTool(t, export.OpenAI, "")
	if err != nil {
		return ""
	}
	return fmt.Sprintf("Context cost: %s as an OpenAI function (%s, %s; toolctl tokens for other providers)", lint.Plural(c.Tokens, "token", "tokens"), info.Model, info.Encoding)
}
