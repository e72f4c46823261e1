package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/cmd"
)

// TestBundledExamples: every example of the bundled tools passes, or is
// skipped with its reason, offline (.ci/run runs toolctl test tools/ from
// the repository's root: file_reader reads README.md and disk_usage
// measures tools/; the http tools replay tools/testdata's cassettes, so
// --offline here changes nothing but guards against a missing one).
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
	// The http tools replay their cassettes (tools/testdata, recorded
	// against a stub by pkg/contract's TestBundledHTTPCassettes): they
	// pass without the network; only llm_call is skipped.
	for _, line := range []string{"skip\tllm_call\t(llm_call:", "ok  \thttp_request\t", "ok  \tweather_forecast\t"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("no %q in:\n%s", line, out.String())
		}
	}
	if n := strings.Count(out.String(), "skip\t"); n != 1 {
		t.Errorf("%d tools skipped, want 1 (llm_call):\n%s", n, out.String())
	}
}
