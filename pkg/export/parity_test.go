package export

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

// TestLintParity checks that toolctl lint --target T reports exactly what
// toolctl export --format T says about a tool, warnings included: for
// openai and anthropic what export --strict refuses and what it warns
// about, for gemini and mcp what export warns about. Both commands' own
// code paths (lint.Run with the provider pack, the export of each tool)
// run on the same loaded files, and their findings are compared as the
// user sees them: file, line, column and rule (export's pointers are placed
// by the same spec.Tool spans lint uses; a warning names its lint rule and
// places). Every refusal and every warning of export must be a lint
// finding, and every lint finding of the provider's rules one of export's,
// or one of the intentional differences below. Set-wide limits (the tool
// count, Anthropic's strict limits) are compared on an export of the whole
// set when export takes every tool, and on a set made to pass them.
func TestLintParity(t *testing.T) {
	sources := []struct {
		name  string
		paths func(t *testing.T) []string
	}{
		{"bundled tools", fixed(bundledDir)},
		{"export cases", fixed(casesDir)},
		{"lint fixtures", fixed("../../testdata/lint/err", "../../testdata/lint/ok")},
		{"transform edge cases", edgeCases},
		{"set limits", setLimits},
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
			for _, format := range []Format{OpenAI, Anthropic, Gemini, MCP} {
				report = append(report, compareTarget(t, set, format))
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
		// What strict mode's copies of $refs with sibling keys make of a
		// schema: exponential, without end, too deep.
		"dag.json":       refDAGTool(30),
		"recursive.json": `{"name": "recursive", "description": "d", "input_schema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/node", "description": "X."}}, "$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node", "description": "Kid."}}}}}}}`,
		"deep.json":      deepTool(70),
	}
	for name, src := range tools {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return []string{dir}
}

// refDAGTool is a tool whose definitions each use the next twice, with a
// description beside the $ref.
func refDAGTool(levels int) string {
	defs := make([]string, levels)
	for k := range levels {
		next := fmt.Sprintf(`{"$ref": "#/$defs/d%d", "description": "N."}`, k+1)
		defs[k] = fmt.Sprintf(`"d%d": {"type": "object", "properties": {"a": %s, "b": %s}}`, k, next, next)
	}
	defs = append(defs, fmt.Sprintf(`"d%d": {"type": "string"}`, levels))
	return `{"name": "dag", "description": "d", "input_schema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0", "description": "X."}}, "$defs": {` + strings.Join(defs, ", ") + `}}}`
}

// deepTool is a tool whose parameter nests levels objects deep.
func deepTool(levels int) string {
	s := `{"type": "string"}`
	for range levels {
		s = `{"type": "object", "properties": {"n": ` + s + `}}`
	}
	return `{"name": "deep", "description": "d", "input_schema": {"type": "object", "properties": {"x": ` + s + `}}}`
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

// The intentional differences: lint findings that export does not report,
// each with its reason.
var parityDifferences = []struct {
	reason string
	// match tells whether a lint finding (its message, its tool, whether
	// export refused that tool) is one.
	match func(msg string, tool *spec.Tool, refused bool) bool
}{
	{
		"a recursive $ref with sibling keys, in a tool export --strict refuses because strict mode's copies of that $ref never end (lint reports that too): the transform has expanded the recursion before export's recursion check runs",
		func(msg string, _ *spec.Tool, refused bool) bool {
			return refused && strings.Contains(msg, "recursively; Anthropic strict mode does not support recursive schemas")
		},
	},
	{
		"a format or constraint strict mode cannot enforce, in a tool export --strict refuses for another reason: export moves such keywords into the description (with a warning) only for a tool it exports",
		func(msg string, _ *spec.Tool, refused bool) bool {
			return refused && regexp.MustCompile(`has format "[^"]*", which (OpenAI|Anthropic) strict mode does not support| uses (minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf|minLength|maxLength|maxItems|uniqueItems|contains|minContains|maxContains), which Anthropic strict mode does not support|has minItems [0-9.eE+-]+; Anthropic strict mode supports only 0 and 1`).MatchString(msg)
		},
	},
}

// parityNotes are export warnings that are no problem of the tool, so no
// lint rule reports them (Warning.Rule is "").
var parityNotes = []string{
	OptOutNote, // followed by why (what strict mode would refuse)
}

// parityRules are the lint rules whose findings export reports for format:
// the provider pack's, name-required (export renames an empty name), and
// description-required for Gemini (which requires a description).
func parityRules(format Format) map[string]bool {
	out := map[string]bool{"name-required": true}
	for _, r := range lint.Rules() {
		if r.Target == string(format) {
			out[r.ID] = true
		}
	}
	if format == Gemini {
		out["description-required"] = true
	}
	return out
}

// setRules are the rules that count the whole set.
var setRules = map[string]bool{"openai-tool-count": true, "anthropic-strict-limits": true}

// compareTarget compares the two commands on one loaded set for one
// provider and returns a line for the log.
func compareTarget(t *testing.T, set *spec.Set, format Format) string {
	rules := parityRules(format)
	strict := slices.Contains(StrictFormats, format)
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
		if !rules[f.Rule] || bad[f.File] {
			continue
		}
		k := finding{f.File, f.Span.Start.Line, f.Span.Start.Col, f.Rule}
		lintGot[k] = f.Message
		lintTool[k] = enclosingTool(byFile[f.File], f.Span.Start)
	}

	exportGot := map[finding]string{}
	place := func(tool *spec.Tool, ptr string, key bool, rule, msg string) {
		span := tool.Span(ptr)
		if key {
			span = tool.KeySpan(ptr)
		}
		exportGot[finding{tool.Path(), span.Start.Line, span.Start.Col, rule}] = fmt.Sprintf("%s (%s)", msg, ptr)
	}
	notes := 0
	warn := func(w Warning) {
		if w.Rule == "" {
			if !slices.ContainsFunc(parityNotes, func(n string) bool { return strings.HasPrefix(w.Message, n) }) {
				t.Errorf("export warns without naming the lint rule that reports it: %s", w)
			}
			notes++
			return
		}
		if w.Source == nil || len(w.Places) == 0 {
			t.Errorf("export warning of %s without a place: %s", w.Rule, w)
			return
		}
		for _, p := range w.Places {
			place(w.Source, p.Pointer, p.Key, w.Rule, w.Message)
		}
	}
	refused := map[*spec.Tool]bool{}
	var exported []*spec.Tool
	warnings := 0
	for _, tool := range set.Tools() {
		if bad[tool.Path()] {
			continue
		}
		_, ws, err := one(tool, Options{Format: format, Strict: strict})
		for _, w := range ws {
			warn(w)
		}
		warnings += len(ws)
		var ref *Error
		if !errors.As(err, &ref) {
			if err != nil {
				t.Errorf("%s %s: %v", tool.Path(), tool.Name, err)
			}
			exported = append(exported, tool)
			continue
		}
		refused[tool] = true
		for _, p := range ref.Problems {
			place(p.Tool, p.Pointer, p.Key, p.Rule, p.Message)
		}
	}
	// The set-wide limits, on an export of the whole set when it takes
	// every tool (lint counts every tool; export refuses the set first).
	setCompared := len(refused) == 0 && len(bad) == 0
	if setCompared {
		if r, err := Build(exported, Options{Format: format, Strict: strict}); err == nil {
			for _, w := range r.Warnings {
				if setRules[w.Rule] {
					warn(w)
					warnings++
				}
			}
		} else {
			setCompared = false // names that collide once mapped
		}
	}

	for k, msg := range exportGot {
		if _, ok := lintGot[k]; !ok {
			t.Errorf("%s: export --format %s%s says what lint --target %s does not report: %s", k, format, map[bool]string{true: " --strict"}[strict], format, msg)
		}
	}
	differences := map[string]int{}
	for k, msg := range lintGot {
		if _, ok := exportGot[k]; ok {
			continue
		}
		if setRules[k.rule] && !setCompared {
			differences["a set-wide limit where export does not take the whole set (it refuses it before counting)"]++
			continue
		}
		known := false
		for _, d := range parityDifferences {
			if d.match(msg, lintTool[k], refused[lintTool[k]]) {
				differences[d.reason]++
				known = true
				break
			}
		}
		if !known {
			t.Errorf("%s: lint --target %s reports what export does not: %s", k, format, msg)
		}
	}
	var diffs []string
	for reason, n := range differences {
		diffs = append(diffs, fmt.Sprintf("%d × %s", n, reason))
	}
	sort.Strings(diffs)
	line := fmt.Sprintf("%s: %d tools refused, %d warnings (%d notes); %d export findings = lint findings; %d lint findings more", format, len(refused), warnings, notes, len(exportGot), len(lintGot)-len(exportGot))
	if len(diffs) > 0 {
		line += " (" + strings.Join(diffs, "; ") + ")"
	}
	return line
}

// setLimits writes a set past OpenAI's tool count and Anthropic's strict
// limits (21 strict tools with an optional and a union-typed parameter
// each, and more), so that the set-wide findings are compared.
func setLimits(t *testing.T) []string {
	dir := t.TempDir()
	for i := range compat.OpenAIMaxTools + 1 {
		name := fmt.Sprintf("limit_%03d", i)
		src := fmt.Sprintf(`{"name": %q, "description": "One of many tools. Use when testing limits.", "input_schema": {"type": "object",
		  "properties": {"a": {"type": ["string", "null"], "description": "A."}, "b": {"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "B."}},
		  "required": ["b"]}}`, name)
		if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return []string{dir}
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
