package spec

import (
	"os"
	"path/filepath"
	"testing"
)

// corpusDir is the shared corpus of real tool files, beside the repository.
const corpusDir = "../../../shared/corpora"

// TestCorpora loads every corpus folder and pins what happens: nothing
// panics, every file either loads or yields a positioned error, and the
// counts are exactly these (a change in behaviour shows up here).
func TestCorpora(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	tests := []struct {
		dir                string
		files, tools, errs int
		dialects           map[Dialect]int
	}{
		// tools/ 5 + scripts-tools/ 5 + definitions-tools/ 2 (no entry: definition-only).
		{"feagent", 12, 12, 0, map[Dialect]int{DialectFeagent: 12}},
		{"feagent/tools", 5, 5, 0, map[Dialect]int{DialectFeagent: 5}},
		{"openakita/builtin", 140, 140, 0, map[Dialect]int{DialectOpenAkita: 140}},
		// 16 mcps/*/tools + 3 mcp-server-exposed; the 3 SERVER_METADATA.json
		// files have no name: "not a tool" errors.
		{"openakita/mcps", 19, 16, 3, map[Dialect]int{DialectMCP: 16}},
		{"openakita/mcp-server-exposed", 3, 3, 0, map[Dialect]int{DialectMCP: 3}},
		// 8 SDK tool files (parameters_schema is unknown to toolctl, so those
		// tools have no input schema); __registry__.json is not a tool.
		{"graph-agent/json", 9, 8, 1, map[Dialect]int{DialectSDK: 8}},
		// 293 in Docker's compact list form (arguments: 196 lists of
		// arguments, 97 empty), 319 with name and description only, 143 MCP.
		{"docker-mcp-registry", 28, 755, 0, map[Dialect]int{DialectDocker: 293, DialectToolctl: 319, DialectMCP: 143}},
		// One JSON array of 70 server records (name, description, tools as a
		// map): they load as 70 tools whose nested tools/list results are
		// unknown fields; importing them is `toolctl import`'s job.
		{"livemcpbench", 1, 70, 0, map[Dialect]int{DialectToolctl: 70}},
		// The 12 multi_turn_func_doc/*.json files are JSON Lines: one
		// positioned error each. The .jsonl files are not tool files.
		{"bfcl", 12, 0, 12, map[Dialect]int{}},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			set, err := Load([]string{filepath.Join(corpusDir, tc.dir)})
			if err != nil {
				t.Fatal(err)
			}
			tools, errs := set.Tools(), set.Errors()
			t.Logf("read %d files from %s: %d tools, %d errors", len(set.Files), tc.dir, len(tools), len(errs))
			if len(set.Files) != tc.files || len(tools) != tc.tools || len(errs) != tc.errs {
				t.Errorf("files/tools/errors = %d/%d/%d, want %d/%d/%d", len(set.Files), len(tools), len(errs), tc.files, tc.tools, tc.errs)
			}
			dialects := map[Dialect]int{}
			for _, tool := range tools {
				dialects[tool.Dialect]++
				_ = tool.ToMap()
			}
			for d, n := range tc.dialects {
				if dialects[d] != n {
					t.Errorf("dialect %s: %d tools, want %d (all: %v)", d, dialects[d], n, dialects)
				}
			}
			for _, f := range set.Files {
				if len(f.Tools) == 0 && len(f.Errors) == 0 {
					t.Errorf("%s: neither tools nor errors", f.Path)
				}
				for _, e := range f.Errors {
					if !e.Span.Start.IsValid() {
						t.Errorf("unpositioned error: %v", e)
					}
				}
			}
		})
	}
}

// The acceptance check: Feagent's 5 tools plus OpenAkita's 140.
func TestCorporaAcceptance(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	set, err := Load([]string{filepath.Join(corpusDir, "feagent/tools"), filepath.Join(corpusDir, "openakita/builtin")})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(set.Tools()); n != 145 || len(set.Errors()) != 0 {
		t.Fatalf("%d tools, errors %v; want 145 and none", n, set.Errors())
	}
	defs, _ := Load([]string{filepath.Join(corpusDir, "feagent/definitions-tools")})
	for _, tool := range defs.Tools() {
		if tool.Entry != nil || tool.EntryKind() != "" {
			t.Errorf("%s: want a definition-only tool", tool.Name)
		}
	}
}
