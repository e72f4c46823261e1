package export

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

// TestLintParity checks that toolctl lint --target openai|anthropic reports
// exactly what toolctl export --format openai|anthropic --strict refuses:
// both commands' own code paths (lint.Run with the provider pack, Build per
// tool) run on the same loaded files, and their findings are compared as
// the user sees them: file, line, column and rule (export's pointers are
// placed by the same spec.Tool spans lint uses). Export's refusals must all
// be lint findings; a lint finding export does not refuse must be one of
// the intentional differences below.
func TestLintParity(t *testing.T) {
	sources := []struct {
		name  string
		paths func(t *testing.T) []string
	}{
		{"bundled tools", fixed(bundledDir)},
		{"export cases", fixed(casesDir)},
		{"lint fixtures", fixed("../../testdata/lint/err", "../../testdata/lint/ok")},
		{"transform edge cases", edgeCases},
		{"corpus feagent", corpusPaths("feagent")},
		{"corpus openakita", corpusPaths("openakita")},
		{"corpus graph-agent", corpusPaths("graph-agent")},
		{"corpus docker-mcp-registry", corpusPaths("docker-mcp-registry")},
		{"corpus livemcpbench", corpusPaths("livemcpbench")},
		{"corpus bfcl", corpusPaths("bfcl")},
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			set, err := spec.Load(src.paths(t))
			if err != nil {
				t.Fatal(err)
			}
			var report []string
			for _, target := range []Format{OpenAI, Anthropic} {
				r := compareStrict(t, set, target)
				report = append(report, r)
			}
			t.Logf("%s: %d tools\n  %s", src.name, len(set.Tools()), strings.Join(report, "\n  "))
		})
	}
}

func fixed(paths ...string) func(*testing.T) []string {
	return func(*testing.T) []string { return paths }
}

// corpusPaths reads a corpus as TestCorpora does. Tool files are linted
// where they are; what only the importer reads (BFCL, MCP lists) is written
// out as canonical tool files first, which is what toolctl import makes of
// it and what both commands then read.
func corpusPaths(corpus string) func(*testing.T) []string {
	return func(t *testing.T) []string {
		if _, err := os.Stat(corpusDir); err != nil {
			t.Skip("../shared/corpora is not present")
		}
		switch corpus {
		case "docker-mcp-registry", "livemcpbench", "bfcl":
		default:
			return []string{filepath.Join(corpusDir, corpus)}
		}
		dir := t.TempDir()
		n := 0
		for _, s := range corpusSets(t, corpus) {
			for _, tool := range s.tools {
				doc, err := spec.MarshalYAMLDoc(tool.ToMap())
				if err != nil {
					t.Fatal(err)
				}
				n++
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%05d.yaml", n)), doc, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		return []string{dir}
	}
}

// edgeCases writes tools whose problems the transform moves before compat
// sees them: inside a merged allOf, a $ref target inlined at a use, a
// renamed oneOf, a nullable wrapper, a const turned enum; types implied;
// a tool with strict: false.
func edgeCases(t *testing.T) []string {
	dir := t.TempDir()
	tools := map[string]string{
		"merged.json": `{"name": "merged", "description": "d", "input_schema": {"type": "object", "properties": {
		  "a": {"description": "A.", "allOf": [{"not": {"const": 1}, "type": "integer"}]},
		  "m": {"description": "M.", "allOf": [{"description": "Anything."}]},
		  "i": {"description": "I.", "allOf": [{"$ref": "#/$defs/s"}]},
		  "n": {"type": "object", "description": "N.", "allOf": [{"properties": {"p": {"type": "object", "additionalProperties": true}}}]}},
		  "$defs": {"s": {"type": "string"}}}}`,
		"refs.json": `{"name": "refs", "description": "d", "input_schema": {"type": "object", "properties": {
		  "b": {"$ref": "#/$defs/x", "description": "B."},
		  "b2": {"$ref": "#/$defs/x", "title": "B2"},
		  "c": {"$ref": "#/$defs/any", "title": "C"}},
		  "required": ["b"],
		  "$defs": {"x": {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}, "arr": {"type": "array"}}},
		    "any": {"description": "Anything."}}}}`,
		"oneof.json": `{"name": "oneof", "description": "d", "input_schema": {"type": "object", "properties": {
		  "d": {"oneOf": [{"enum": ["a", "b"]}, {"properties": {"k": {"type": "string"}}}]},
		  "e": {"oneOf": [{"type": "string", "pattern": "(?=x)"}, {"type": "string"}]},
		  "f": {"oneOf": [{"type": "integer"}, {"type": "object", "additionalProperties": true}]},
		  "f2": {"description": "F2.", "oneOf": [{"type": "integer"}, {"type": "array"}], "anyOf": [{"type": "integer"}]}}}}`,
		"implied.json": `{"name": "implied", "description": "d", "input_schema": {"properties": {
		  "g": {"prefixItems": [{"type": "string"}]},
		  "h": {"const": {"a": 1}},
		  "h2": {"enum": [[1], {"b": 2}]},
		  "j": {"type": "object", "properties": {"k": {"type": "object", "properties": {"l": {"type": ["array", "null"]}}}}}}}}`,
		"optout.json": `{"name": "optout", "description": "d", "strict": false, "input_schema": {"type": "object", "properties": {
		  "l": {"type": "array"}, "free": {"type": "object", "additionalProperties": true}}}}`,
		"empty.json": `{"name": "empty", "description": "d", "input_schema": {}}`,
	}
	for name, src := range tools {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return []string{dir}
}

// finding is one problem as the user sees it.
type finding struct {
	file      string
	line, col int
	rule      string
}

func (f finding) String() string {
	return fmt.Sprintf("%s:%d:%d [%s]", f.file, f.line, f.col, f.rule)
}

// The intentional differences: lint findings that export --strict does not
// refuse, each with its reason.
var parityDifferences = []struct {
	reason string
	// match tells whether a lint finding (its message, the tool) is one.
	match func(msg string, tool *spec.Tool) bool
}{
	{
		"a format the provider does not support: export --strict moves it into the description (with a warning)",
		func(msg string, _ *spec.Tool) bool {
			return regexp.MustCompile(`has format "[^"]*", which (OpenAI|Anthropic) strict mode does not support`).MatchString(msg)
		},
	},
	{
		"a numeric, length or array constraint Anthropic cannot enforce: export --strict moves it into the description (minItems above 1 becomes 1 plus the note)",
		func(msg string, _ *spec.Tool) bool {
			return regexp.MustCompile(` uses (minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf|minLength|maxLength|maxItems|uniqueItems|contains|minContains|maxContains), which Anthropic strict mode does not support|has minItems [0-9.eE+-]+; Anthropic strict mode supports only 0 and 1`).MatchString(msg)
		},
	},
	{
		"an array without items in a tool that sets strict: false: OpenAI refuses it even without strict mode, so lint reports it, but export keeps the tool non-strict and only warns",
		func(msg string, tool *spec.Tool) bool {
			return tool.Strict != nil && !*tool.Strict && strings.Contains(msg, "is an array without items")
		},
	},
}

// compareStrict compares the two commands on one loaded set for one
// provider and returns a line for the log.
func compareStrict(t *testing.T, set *spec.Set, format Format) string {
	rule := string(format) + "-strict-schema"
	bad := map[string]bool{}
	for _, f := range set.Files {
		if len(f.Errors) > 0 {
			bad[f.Path] = true // neither command takes a file with errors
		}
	}
	byFile := map[string][]*spec.Tool{}
	for _, tool := range set.Tools() {
		byFile[tool.Path()] = append(byFile[tool.Path()], tool)
	}

	lintGot := map[finding]string{}
	lintTool := map[finding]*spec.Tool{}
	for _, f := range lint.Run(set, lint.Config{Targets: []string{string(format)}}) {
		if f.Rule != rule || bad[f.File] {
			continue
		}
		k := finding{f.File, f.Span.Start.Line, f.Span.Start.Col, f.Rule}
		lintGot[k] = f.Message
		lintTool[k] = enclosingTool(byFile[f.File], f.Span.Start)
	}

	exportGot := map[finding]string{}
	refusedTools := 0
	for _, tool := range set.Tools() {
		if bad[tool.Path()] {
			continue
		}
		_, err := Build([]*spec.Tool{tool}, Options{Format: format, Strict: true})
		var refused *Error
		if !errors.As(err, &refused) {
			if err != nil {
				t.Errorf("%s %s: %v", tool.Path(), tool.Name, err)
			}
			continue
		}
		refusedTools++
		for _, p := range refused.Problems {
			if p.Rule != rule {
				continue
			}
			span := p.Tool.Span(p.Pointer)
			if p.Key {
				span = p.Tool.KeySpan(p.Pointer)
			}
			k := finding{p.Tool.Path(), span.Start.Line, span.Start.Col, p.Rule}
			exportGot[k] = fmt.Sprintf("%s (%s)", p.Message, p.Pointer)
		}
	}

	for k, msg := range exportGot {
		if _, ok := lintGot[k]; !ok {
			t.Errorf("%s: export --strict refuses what lint --target %s does not report: %s", k, format, msg)
		}
	}
	differences := map[string]int{}
	for k, msg := range lintGot {
		if _, ok := exportGot[k]; ok {
			continue
		}
		known := false
		for _, d := range parityDifferences {
			if d.match(msg, lintTool[k]) {
				differences[d.reason]++
				known = true
				break
			}
		}
		if !known {
			t.Errorf("%s: lint --target %s reports what export --strict does not refuse: %s", k, format, msg)
		}
	}
	var diffs []string
	for reason, n := range differences {
		diffs = append(diffs, fmt.Sprintf("%d × %s", n, reason))
	}
	sort.Strings(diffs)
	line := fmt.Sprintf("%s: %d tools refused, %d refusals = lint findings; %d lint findings more", format, refusedTools, len(exportGot), len(lintGot)-len(exportGot))
	if len(diffs) > 0 {
		line += " (" + strings.Join(diffs, "; ") + ")"
	}
	return line
}

// enclosingTool returns the tool of a file whose source holds pos: the
// last one that starts before it.
func enclosingTool(tools []*spec.Tool, pos spec.Pos) *spec.Tool {
	var out *spec.Tool
	for _, tool := range tools {
		start := tool.Span("").Start
		if out == nil || start.Line < pos.Line || start.Line == pos.Line && start.Col <= pos.Col {
			out = tool
		}
	}
	return out
}
