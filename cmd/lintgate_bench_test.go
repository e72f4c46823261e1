package cmd

import (
	"testing"

	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

// BenchmarkLintGateOneFile is the lint gate's cost for toolctl run: the
// one file of the tool run (the bundled calculator), loaded, linted with
// the default settings. go test ./cmd -bench LintGate -benchmem
func BenchmarkLintGateOneFile(b *testing.B) {
	app := &App{}
	for b.Loop() {
		set := spec.LoadFiles([]string{"../tools/calculator.json"})
		if bad := app.lintErrors(set, lint.Config{}, nil, lintEachFile); len(bad) != 0 {
			b.Fatal(bad)
		}
	}
}
