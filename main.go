// Command toolctl lints, runs, exports, documents and serves the files that
// define the tools an LLM agent can call.
package main

import (
	"os"

	"github.com/toolctl/toolctl/cmd"
)

func main() {
	os.Exit(cmd.Main())
}
