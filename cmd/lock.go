package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/toolctl/toolctl/pkg/breaking"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/lock"
	"github.com/toolctl/toolctl/pkg/spec"
)

type lockOptions struct {
	app      *App
	paths    []string
	lock     string
	upstream bool
	timeout  time.Duration
}

func newCmdLock(app *App) *cobra.Command {
	opts := &lockOptions{app: app}
	cmd := &cobra.Command{
		Use:   "lock [paths...]",
		Short: "Pin the tools' definitions in toolctl.lock (toolctl verify checks them)",
		Long: `Write toolctl.lock: for every tool in paths (default: the tools directory) its
name, file, the SHA-256 of its canonical definition and that definition itself.
The canonical definition is what toolctl breaking compares: name, title,
description, detail, version, input and output schema, annotations, examples,
triggers, warnings, and how the tool runs (entry, bind, runtime), with
references resolved, keys sorted and one spelling per schema. Key order,
formatting, comments and dialect (toolctl fmt --to) do not change it; any
change of meaning does. Commit the lock; toolctl verify in CI then fails on a
tool that changed, appeared or disappeared without the lock being written
again, and shows what changed.

The lock is deterministic (same tools, same bytes), sorted by tool name, and
records the paths it was built from, relative to its directory, so that
toolctl verify without paths checks the same set.

With --upstream, lock also connects to every MCP server the tools' mcp
entries call (starting stdio servers, as toolctl run would) and pins its
identity (the entry's command line or URL), its serverInfo and the
canonical definition of each tool it lists; toolctl verify --upstream
checks them. It is off by default: connecting runs the commands the tool
files name.

Exit codes: 0 written; 2 usage (files that do not load, two tools with one
name, an unwritable lock file, an upstream server that cannot be listed).`,
		Example: `  toolctl lock
  toolctl lock tools/ more-tools/
  toolctl lock --lock ci/tools.lock tools/
  toolctl lock --upstream`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.configure(cmd); err != nil {
				return err
			}
			opts.paths = args
			return runLock(opts)
		},
	}
	cmd.Flags().StringVar(&opts.lock, "lock", lock.FileName, "the lock `FILE` to write")
	cmd.Flags().BoolVar(&opts.upstream, "upstream", false, "also pin the tools of the MCP servers mcp entries call (connects to them: starts stdio servers)")
	cmd.Flags().DurationVar(&opts.timeout, "timeout", 60*time.Second, "time limit for listing each upstream server")
	return cmd
}

func runLock(opts *lockOptions) error {
	app := opts.app
	paths, err := app.defaultPaths(opts.paths)
	if err != nil {
		return err
	}
	// a path given twice (tools tools/, a file and its directory) is
	// recorded once
	if paths, err = spec.Roots(paths); err != nil {
		return usageError(err)
	}
	side, err := breaking.LoadPaths(paths)
	if err != nil {
		return usageError(err)
	}
	if len(side.Tools) == 0 {
		return usageError(fmt.Errorf("no tools in %s: nothing to lock", side.Label))
	}
	f, err := lock.Build(side, filepath.Dir(opts.lock), paths)
	if err != nil {
		return usageError(err)
	}
	ups := lock.Upstreams(side)
	if opts.upstream {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		for _, u := range ups {
			res, err := lock.Connect(ctx, u, app.Getenv, opts.timeout)
			if err != nil {
				return usageError(fmt.Errorf("upstream server %s (%s): %w", u.Server, diag.Where(u.Tool.File, u.Tool.Span("/entry/server").Start), err))
			}
			f.Servers = append(f.Servers, lock.PinServer(u, res))
		}
	} else if len(ups) > 0 && !app.Quiet {
		fmt.Fprintf(app.IO.ErrOut, "toolctl: note: %s of mcp entries not pinned; toolctl lock --upstream connects to them (starts them) and pins their tools\n", diag.Plural(len(ups), "upstream server", "upstream servers"))
	}
	if err := writeFileAtomic(opts.lock, f.Marshal()); err != nil {
		return usageError(fmt.Errorf("writing %s: %w", opts.lock, err))
	}
	if !app.Quiet {
		fmt.Fprintf(app.IO.ErrOut, "toolctl: locked %s in %s\n", diag.Plural(len(f.Tools), "tool", "tools"), opts.lock)
	}
	return nil
}
