package lint

import (
	"os"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// benchDir is a corpus for the lint benchmarks: $TOOLCTL_BENCH_DIR (e.g.
// from go run ./bench/gencorpus -n 10000 DIR), else the shared corpora.
func benchDir(b *testing.B) string {
	if d := os.Getenv("TOOLCTL_BENCH_DIR"); d != "" {
		return d
	}
	if _, err := os.Stat(corpusDir); err != nil {
		b.Skip("set TOOLCTL_BENCH_DIR or put ../shared beside the repository")
	}
	return corpusDir
}

// BenchmarkRunFiles is what toolctl lint does: load and lint.
func BenchmarkRunFiles(b *testing.B) {
	files, err := spec.Collect([]string{benchDir(b)})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		RunFiles(files, Config{})
	}
}

// BenchmarkRun is the rules alone, on a set loaded once.
func BenchmarkRun(b *testing.B) {
	set, err := spec.Load([]string{benchDir(b)})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Run(set, Config{})
	}
}

// BenchmarkRunSecurity compares the rules with and without the security
// pack (its cost on the same set).
func BenchmarkRunSecurity(b *testing.B) {
	set, err := spec.Load([]string{benchDir(b)})
	if err != nil {
		b.Fatal(err)
	}
	off := map[string]Severity{}
	for _, r := range Rules() {
		if r.Pack == PackSecurity {
			off[r.ID] = Off
		}
	}
	b.Run("with", func(b *testing.B) {
		for b.Loop() {
			Run(set, Config{})
		}
	})
	b.Run("without", func(b *testing.B) {
		for b.Loop() {
			Run(set, Config{Severities: off})
		}
	})
}
