package fastnode_test

import (
	"bytes"
	"os"
	"sort"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
	"gopkg.in/yaml.v3"
)

// benchYAML returns the .yaml and .yml files of the corpus in
// TOOLCTL_BENCH_DIR.
func benchYAML(tb testing.TB) [][]byte {
	tb.Helper()
	dir := os.Getenv("TOOLCTL_BENCH_DIR")
	if dir == "" {
		tb.Skip("TOOLCTL_BENCH_DIR is not set")
	}
	byName := yamlFiles(tb, dir)
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	sort.Strings(names)
	files := make([][]byte, len(names))
	for i, name := range names {
		files[i] = byName[name]
	}
	if len(files) == 0 {
		tb.Skip("no YAML file in TOOLCTL_BENCH_DIR")
	}
	return files
}

// BenchmarkYAMLNodeFast and BenchmarkYAMLNodeYAML compare ParseYAML
// with what it replaces on a corpus:
//
//	TOOLCTL_BENCH_DIR=dir go test ./pkg/spec/internal/fastnode -run '^$' -bench YAMLNode -benchmem
func BenchmarkYAMLNodeFast(b *testing.B) {
	files := benchYAML(b)
	b.SetBytes(totalSize(files))
	for b.Loop() {
		for _, data := range files {
			fastnode.ParseYAML(data)
		}
	}
}

func BenchmarkYAMLNodeYAML(b *testing.B) {
	files := benchYAML(b)
	b.SetBytes(totalSize(files))
	for b.Loop() {
		for _, data := range files {
			var doc yaml.Node
			_ = yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc)
		}
	}
}
