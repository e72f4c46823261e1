package importer

import (
	"strings"
	"testing"
)

// FuzzImport: any input, read as every format, is imported or refused with
// diagnostics; never a panic (Import recovers one as an "internal error"
// diagnostic, which counts as a failure here).
func FuzzImport(f *testing.F) {
	for _, seed := range []string{
		`[{"type":"function","function":{"name":"a","description":"d","parameters":{"type":"object","properties":{"x":{"type":"string"}}}}}]`,
		`{"tools":[{"name":"a","description":"d","input_schema":{"type":"object"}}]}`,
		`{"functionDeclarations":[{"name":"a","parameters":{"type":"OBJECT","properties":{"x":{"type":"STRING"}}}}]}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":null}]}}`,
		`[{"name":"a","description":"d","arguments":[{"name":"x","type":"string","desc":"X"}]}]`,
		`{"name":"a","description":"d","parameters":{"type":"dict","properties":{"x":{"type":"string","optional":true}}}}`,
		`[{"name":"srv","config":{"mcpServers":{"s":{"command":"npx","args":["s"]}}},"tools":{"s":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}}]`,
		"\xef\xbb\xbf[\"\\uD83D\\uDE00\"]",
		`[[[[[[`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, from := range Formats {
			_, err := Import(data, Options{From: from, Name: "f.json"})
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatalf("--from %s: %v", from, err)
			}
		}
	})
}
