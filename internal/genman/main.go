// Command genman writes toolctl's man pages (section 1) into a directory. It
// runs at release time (see .goreleaser.yaml) and is not part of the binary.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/toolctl/toolctl/cmd"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/genman DIR")
		os.Exit(2)
	}
	if err := generate(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// generate writes the man page of every command into dir.
func generate(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root := cmd.NewRootCmd(&cmd.App{IO: cmd.System(), Getenv: os.Getenv})
	root.DisableAutoGenTag = true
	literal(root)
	header := &doc.GenManHeader{Title: "TOOLCTL", Section: "1", Source: "toolctl", Manual: "toolctl manual"}
	return doc.GenManTree(root, header, dir)
}

// markdown escapes what Markdown would read in a help text: cobra renders
// Short and Long as Markdown (go-md2man), but they are plain text. A
// regular expression such as "^[a-z-]+$" in toolctl test's help made
// go-md2man v2.0.6 panic on a link without text, and *, _, ` and <...>
// would turn into emphasis, code or vanish as HTML.
var markdown = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`)

// literal makes the help texts of c and its subcommands render as written.
func literal(c *cobra.Command) {
	c.Short = markdown.Replace(c.Short)
	c.Long = markdown.Replace(c.Long)
	for _, sub := range c.Commands() {
		literal(sub)
	}
}
