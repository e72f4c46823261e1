package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bigTool is a tool file of about 200 lines: 24 parameters with
// descriptions, enums and bounds, examples, related tools.
func bigTool() string {
	var b strings.Builder
	b.WriteString("name: search_catalog\n")
	b.WriteString("description: Searches the product catalog by any of its fields and returns the matching products. Use it when the user looks for a product.\n")
	b.WriteString("category: http\nentry:\n  type: http\n  method: GET\n  url: https://api.example.com/search?q={query}\n")
	b.WriteString("input_schema:\n  type: object\n  properties:\n")
	b.WriteString("    query:\n      type: string\n      description: Words to search for.\n      minLength: 1\n")
	for i := range 26 {
		fmt.Fprintf(&b, "    field_%02d:\n      type: string\n      description: Filter number %d on the catalog.\n      enum: [a, b, c]\n      default: a\n", i, i)
		fmt.Fprintf(&b, "      maxLength: %d\n      x-note: filter %d\n", 10+i, i)
	}
	b.WriteString("  required: [query]\n")
	b.WriteString("examples:\n  - scenario: a plain search\n    params:\n      query: red shoes\n")
	b.WriteString("related_tools:\n  - name: get_weather\n")
	return b.String()
}

// BenchmarkDiagnostics measures the time from a didChange of a 200-line
// file in a tools directory (with the bundled example tools beside it)
// to its diagnostics published: "debounce0" without the wait (the lint
// itself), "default" with DefaultDebounce, "debounce0-200files" with 200
// more tool files in the directory (every change lints the directory). Each change alternates a typo
// so that every one publishes new diagnostics.
func BenchmarkDiagnostics(b *testing.B) {
	text := bigTool()
	if n := strings.Count(text, "\n"); n < 190 || n > 210 {
		b.Fatalf("the file has %d lines", n)
	}
	for _, bc := range []struct {
		name     string
		debounce time.Duration
		more     int // tool files added to the directory
	}{{"debounce0", time.Nanosecond, 0}, {"default", DefaultDebounce, 0}, {"debounce0-200files", time.Nanosecond, 200}} {
		b.Run(bc.name, func(b *testing.B) {
			root := b.TempDir()
			tools := filepath.Join(root, "tools")
			if err := os.MkdirAll(tools, 0o755); err != nil {
				b.Fatal(err)
			}
			bundled, _ := filepath.Glob("../../tools/*.y*ml")
			for _, p := range bundled {
				data, _ := os.ReadFile(p)
				_ = os.WriteFile(filepath.Join(tools, filepath.Base(p)), data, 0o644)
			}
			for i := range bc.more {
				name := fmt.Sprintf("get_forecast_%03d", i)
				_ = os.WriteFile(filepath.Join(tools, name+".yaml"), []byte(strings.Replace(forecast, "get_forecast", name, 1)), 0o644)
			}
			path := filepath.Join(tools, "search_catalog.yaml")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
			c := startServerOpts(b, root, Options{Debounce: bc.debounce})
			uri := c.open(path, text)
			c.diagnostics(uri)
			variants := []string{strings.Replace(text, "minLength: 1", "minLenght: 1", 1), text}
			b.ResetTimer()
			for i := range b.N {
				c.notify("textDocument/didChange", map[string]any{
					"textDocument":   map[string]any{"uri": uri, "version": i + 2},
					"contentChanges": []any{map[string]any{"text": variants[i%2]}},
				})
				c.diagnostics(uri)
			}
			b.StopTimer()
			c.shutdown()
		})
	}
}
