package fastnode_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
	"gopkg.in/yaml.v3"
)

// benchJSON returns the .json files of the corpus in TOOLCTL_BENCH_DIR.
func benchJSON(tb testing.TB) [][]byte {
	tb.Helper()
	dir := os.Getenv("TOOLCTL_BENCH_DIR")
	if dir == "" {
		tb.Skip("TOOLCTL_BENCH_DIR is not set")
	}
	var files [][]byte
	for _, p := range jsonFiles(tb, dir) {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, data)
	}
	if len(files) == 0 {
		tb.Skip("no .json file in TOOLCTL_BENCH_DIR")
	}
	return files
}

// BenchmarkJSONNodeFast and BenchmarkJSONNodeYAML compare ParseJSONAsYAML
// with what it replaces (json.Valid is not counted) on a corpus:
//
//	TOOLCTL_BENCH_DIR=dir go test ./pkg/spec/internal/fastnode -run '^$' -bench JSONNode -benchmem
func BenchmarkJSONNodeFast(b *testing.B) {
	files := benchJSON(b)
	b.SetBytes(totalSize(files))
	for b.Loop() {
		for _, data := range files {
			fastnode.ParseJSONAsYAML(data)
		}
	}
}

// BenchmarkJSONNodeStrict is ParseJSON, the reader of .json files.
func BenchmarkJSONNodeStrict(b *testing.B) {
	files := benchJSON(b)
	b.SetBytes(totalSize(files))
	for b.Loop() {
		for _, data := range files {
			fastnode.ParseJSON(data)
		}
	}
}

func BenchmarkJSONNodeYAML(b *testing.B) {
	files := benchJSON(b)
	b.SetBytes(totalSize(files))
	for b.Loop() {
		for _, data := range files {
			var doc yaml.Node
			_ = yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc)
		}
	}
}

func totalSize(files [][]byte) (n int64) {
	for _, f := range files {
		n += int64(len(f))
	}
	return n
}

// TestJSONNodeBenchCorpus runs the differential check on the benchmark
// corpus too, when there is one.
func TestJSONNodeBenchCorpus(t *testing.T) {
	if os.Getenv("TOOLCTL_BENCH_DIR") == "" {
		t.Skip("TOOLCTL_BENCH_DIR is not set")
	}
	testJSONNodeFiles(t, jsonFiles(t, os.Getenv("TOOLCTL_BENCH_DIR")))
}
