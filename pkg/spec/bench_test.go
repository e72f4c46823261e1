package spec

import (
	"os"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"
)

// benchFiles returns the bundled tools' contents (always present).
func benchFiles(b *testing.B) map[string][]byte {
	b.Helper()
	paths, _ := filepath.Glob("../../tools/*.*")
	files := map[string][]byte{}
	for _, p := range paths {
		if IsToolFile(p) {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			files[p] = data
		}
	}
	return files
}

// BenchmarkParseFile measures the full parse (YAML nodes → model) of every
// bundled tool; compare with BenchmarkYAMLNodeOnly, the yaml.v3 floor.
//
//	go test ./pkg/spec -run '^$' -bench 'ParseFile|YAMLNodeOnly' -benchmem
func BenchmarkParseFile(b *testing.B) {
	files := benchFiles(b)
	b.ResetTimer()
	for b.Loop() {
		for p, data := range files {
			if f := ParseFile(p, data); len(f.Errors) > 0 {
				b.Fatal(f.Errors)
			}
		}
	}
}

func BenchmarkYAMLNodeOnly(b *testing.B) {
	files := benchFiles(b)
	b.ResetTimer()
	for b.Loop() {
		for _, data := range files {
			var n yaml.Node
			if err := yaml.Unmarshal(data, &n); err != nil {
				b.Fatal(err)
			}
		}
	}
}
