package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/cmd"
)

// TestBundledExamples: every example of the bundled tools passes, or is
// skipped with its reason, offline (toolctl test tools/ --offline from the
// repository's root, as .ci/run runs it: file_reader reads README.md and
// disk_usage measures tools/).
func TestBundledExamples(t *testing.T) {
	if _, err := os.Stat("README.md"); err != nil {
		t.Skip("not at the repository's root")
	}
	var out, errOut bytes.Buffer
	app := &cmd.App{IO: &cmd.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, Getenv: func(string) string { return "" }}
	code := cmd.Run(app, []string{"test", "tools", "--offline", "-p", "1"})
	if code != 0 || strings.Contains(out.String(), "FAIL") {
		t.Fatalf("toolctl test tools --offline exited %d:\n%s%s", code, out.String(), errOut.String())
	}
	for _, skip := range []string{"skip\tllm_call\t(llm_call:", "skip\thttp_request\t(needs the network (--offline))"} {
		if !strings.Contains(out.String(), skip) {
			t.Errorf("no %q in:\n%s", skip, out.String())
		}
	}
}
