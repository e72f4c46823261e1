package export

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/spec"
)

// corpusDir is the shared corpus of real tool files, beside the repository.
const corpusDir = "../../../shared/corpora"

// corpusSet is the tools of one source file (one request's worth).
type corpusSet struct {
	file  string
	tools []*spec.Tool
}

// corpusSets reads one corpus: tool files through spec.Load, and what only
// toolctl import reads (Docker's tools.json, LiveMCPBench's server list,
// BFCL's JSON Lines) through the importer, with each tool's source name
// put back so that export's own name mapping is exercised. A BFCL .jsonl
// line is a test case of its own: each is its own set.
func corpusSets(t *testing.T, corpus string) []corpusSet {
	root := filepath.Join(corpusDir, corpus)
	var sets []corpusSet
	switch corpus {
	case "docker-mcp-registry", "livemcpbench", "bfcl":
		files, _ := filepath.Glob(filepath.Join(root, "*", "*", "*.json"))
		more, _ := filepath.Glob(filepath.Join(root, "*.json"))
		files = append(files, more...)
		more, _ = filepath.Glob(filepath.Join(root, "*", "*.json*"))
		files = append(files, more...)
		t.Logf("read %d files from %s", len(files), root)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			chunks := [][]byte{data}
			from := importer.Auto
			switch {
			case strings.HasSuffix(f, ".jsonl"):
				chunks = bytes.Split(bytes.TrimSpace(data), []byte("\n"))
			case corpus == "livemcpbench":
				chunks, from = liveMCPBenchServers(t, data), importer.MCP
			}
			for i, chunk := range chunks {
				r, err := importer.Import(chunk, importer.Options{Name: f, From: from})
				if err != nil {
					t.Logf("%s (chunk %d): not imported: %v", f, i, firstLine(err.Error()))
					continue
				}
				var tools []*spec.Tool
				for _, it := range r.Tools {
					it.Tool.Name = it.SourceName
					tools = append(tools, it.Tool)
				}
				sets = append(sets, corpusSet{fmt.Sprintf("%s#%d", f, i), tools})
			}
		}
	default:
		set, err := spec.Load([]string{root})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("read %d files from %s", len(set.Files), root)
		for _, f := range set.Files {
			if len(f.Tools) > 0 {
				sets = append(sets, corpusSet{f.Path, f.Tools})
			}
		}
	}
	return sets
}

// liveMCPBenchServers splits LiveMCPBench's list of server records into
// one tools/list result per MCP server ({"tools": [...]}).
func liveMCPBenchServers(t *testing.T, data []byte) [][]byte {
	v, err := spec.DecodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, rec := range asAnyList(v) {
		r, _ := rec.(*spec.Map)
		servers, _ := r.GetMap("tools")
		for i := range servers.Len() {
			_, sv := servers.At(i)
			srv, _ := sv.(*spec.Map)
			tools, _ := srv.Get("tools")
			env := spec.NewMap(1)
			env.Set("tools", tools)
			b, err := spec.MarshalJSONIndent(env)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// reasonOf names the kind of a strict refusal for the counts.
func reasonOf(p Problem) string {
	m := p.Message
	for _, r := range []struct{ has, reason string }{
		{"allows additional properties", "additionalProperties other than false (free-form map)"},
		{"has no type", "schema without a type (any value)"},
		{"array without items", "array without items"},
		{"oneOf", "oneOf with overlapping alternatives"},
		{"recursively", "recursive $ref"},
		{"outside the input schema", "non-local $ref"},
		{"pattern", "pattern with lookaround, backreference or \\b"},
		{"with allOf", "allOf of several schemas"},
		{"inside allOf", "$ref inside allOf"},
		{"levels deep", "more than 10 levels of nesting"},
		{"enum value", "enum limits or complex enum values"},
		{"anyOf at the top level", "anyOf at the root"},
	} {
		if strings.Contains(m, r.has) {
			return r.reason
		}
	}
	for _, kw := range []string{" uses not", " uses if", " uses then", " uses else", " uses dependentRequired", " uses dependentSchemas"} {
		if strings.Contains(m, kw) {
			return "not, if/then/else or dependent*"
		}
	}
	return m
}

// exportOne exports tools, turning a panic into a test error.
func exportOne(t *testing.T, what string, tools []*spec.Tool, opts Options) (doc []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: export %s panicked: %v\n%s", what, opts.Format, r, debug.Stack())
			err = errors.New("panic")
		}
	}()
	doc, _, err = Export(tools, opts)
	return doc, err
}

// TestCorpora exports every corpus tool to every format. Non-strict
// exports must all succeed; strict ones either pass the independent
// checker or are refused, and the refusals are counted by reason. The
// counts are logged for the release notes (go test -v -run TestCorpora).
func TestCorpora(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	type variant struct {
		name string
		opts Options
	}
	plain := []variant{
		{"openai", Options{Format: OpenAI}}, {"openai-responses", Options{Format: OpenAIResponses}},
		{"anthropic", Options{Format: Anthropic}}, {"gemini", Options{Format: Gemini}},
		{"gemini-legacy", Options{Format: Gemini, Legacy: true}}, {"mcp", Options{Format: MCP}},
		{"mcp-envelope", Options{Format: MCP, Envelope: true}}, {"jsonschema", Options{Format: JSONSchema}},
		{"prompt-1", Options{Format: Prompt, Level: 1}}, {"prompt-2", Options{Format: Prompt, Level: 2}},
		{"yaml", Options{Format: YAML}},
	}
	strictVariants := []struct {
		provider string
		opts     Options
	}{
		{"openai", Options{Format: OpenAI, Strict: true}},
		{"anthropic", Options{Format: Anthropic, Strict: true}},
	}
	corpora := []string{"feagent", "openakita", "graph-agent", "docker-mcp-registry", "livemcpbench", "bfcl"}
	for _, corpus := range corpora {
		t.Run(corpus, func(t *testing.T) {
			sets := corpusSets(t, corpus)
			var all []*spec.Tool
			for _, s := range sets {
				all = append(all, s.tools...)
			}
			if len(all) == 0 {
				t.Fatalf("no tools read from %s", corpus)
			}
			// Every tool alone, every format: no error, no panic.
			failed := 0
			for _, tool := range all {
				for _, v := range plain {
					if _, err := exportOne(t, tool.Name, []*spec.Tool{tool}, v.opts); err != nil {
						failed++
						t.Errorf("%s %s: %s: %v", tool.Path(), tool.Name, v.name, err)
					}
				}
			}
			// Whole files as one request: only name collisions may refuse.
			collisions := 0
			for _, s := range sets {
				for _, v := range plain {
					_, err := exportOne(t, s.file, s.tools, v.opts)
					var refused *Error
					if errors.As(err, &refused) {
						collisions++
						for _, p := range refused.Problems {
							if p.Rule != "name-unique" {
								t.Errorf("%s: %s refused: %s", s.file, v.name, p)
							}
						}
					} else if err != nil {
						t.Errorf("%s: %s: %v", s.file, v.name, err)
					}
				}
			}
			// Names each target maps.
			mapped := map[string]int{}
			for _, tool := range all {
				for _, target := range compat.Targets {
					if compat.MapName(target, tool.Name) != tool.Name {
						mapped[target]++
					}
				}
			}
			// Strict: refused (by reason) or checked.
			var report []string
			for _, sv := range strictVariants {
				refused, exported := 0, 0
				reasons := map[string]int{}
				for _, tool := range all {
					doc, err := exportOne(t, tool.Name, []*spec.Tool{tool}, sv.opts)
					var ref *Error
					switch {
					case errors.As(err, &ref):
						refused++
						seen := map[string]bool{}
						for _, p := range ref.Problems {
							if r := reasonOf(p); !seen[r] {
								seen[r] = true
								reasons[r]++
							}
						}
						continue
					case err != nil:
						t.Errorf("%s: strict %s: %v", tool.Name, sv.provider, err)
						continue
					}
					exported++
					for _, e := range checkDocument(sv.provider, doc) {
						t.Errorf("%s (%s): strict %s output breaks a documented rule: %s", tool.Name, tool.Path(), sv.provider, e)
					}
				}
				report = append(report, fmt.Sprintf("%s --strict: %d exported, %d refused%s", sv.provider, exported, refused, topReasons(reasons, 4)))
			}
			t.Logf("%s: %d tools in %d sets; every tool exported to %d formats (%d failures); %d set exports refused for name collisions; names mapped: openai %d, anthropic %d, gemini %d, mcp %d\n  %s",
				corpus, len(all), len(sets), len(plain), failed, collisions, mapped[compat.OpenAI], mapped[compat.Anthropic], mapped[compat.Gemini], mapped[compat.MCP], strings.Join(report, "\n  "))
		})
	}
}

func topReasons(reasons map[string]int, n int) string {
	type kv struct {
		k string
		v int
	}
	var list []kv
	for k, v := range reasons {
		list = append(list, kv{k, v})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].v != list[j].v {
			return list[i].v > list[j].v
		}
		return list[i].k < list[j].k
	})
	var parts []string
	for _, e := range list[:min(n, len(list))] {
		parts = append(parts, fmt.Sprintf("%s %d", e.k, e.v))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (top reasons, tools: " + strings.Join(slices.Clip(parts), "; ") + ")"
}
