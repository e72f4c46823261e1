// Command genman writes toolctl's man pages (section 1) into a directory. It
// runs at release time (see .goreleaser.yaml) and is not part of the binary.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra/doc"
	"github.com/toolctl/toolctl/cmd"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/genman DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	root := cmd.NewRootCmd(&cmd.App{IO: cmd.System(), Getenv: os.Getenv})
	root.DisableAutoGenTag = true
	header := &doc.GenManHeader{Title: "TOOLCTL", Section: "1", Source: "toolctl", Manual: "toolctl manual"}
	if err := doc.GenManTree(root, header, dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
