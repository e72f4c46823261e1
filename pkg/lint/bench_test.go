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

// BenchmarkLoadAndRun is what toolctl lint does: load and lint.
func BenchmarkLoadAndRun(b *testing.B) {
	dir := benchDir(b)
	for b.Loop() {
		set, err := spec.Load([]string{dir})
		if err != nil {
			b.Fatal(err)
		}
		Run(set, Config{})
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
