package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

const corpusDir = "../../../shared/corpora"

func countByRule(fs []Finding) map[string]int {
	out := map[string]int{}
	for _, f := range fs {
		out[f.Rule]++
	}
	return out
}

func formatCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%q: %d, ", k, m[k])
	}
	return b.String()
}

// TestCorpora lints every corpus folder with the default profile and pins
// the findings per rule: nothing panics, no parse-error beyond the files
// pkg/spec itself cannot load (its own corpus test pins those), and a change
// in any rule's behaviour shows up here as a changed count.
func TestCorpora(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	tests := []struct {
		dir  string
		want map[string]int
	}{
		// field-unknown: kind and executor_type of both definitions-tools
		// files, and the constraints: {min, max} of three of their
		// parameter items (neither toolctl nor JSON Schema: the bounds are
		// never enforced).
		{"feagent", map[string]int{"description-trailing-whitespace": 5, "description-when": 11, "entry-field-missing": 1, "entry-javascript-invalid": 1, "entry-required": 2, "field-unknown": 7, "name-category-prefix": 2, "name-unique": 7, "param-default-missing": 10, "param-required-default": 1}},
		// security-exfiltration-url: browser_navigate's detail lists
		// https://image.baidu.com/... as a search URL to fill in (its
		// other search URLs are marked as examples): it does send the
		// user's query to a third party, which a reviewer should see.
		{"openakita/builtin", map[string]int{"description-max-length": 70, "description-third-person": 56, "description-when": 34, "example-params-invalid": 1, "field-unknown": 1, "name-category-prefix": 7, "param-default-missing": 139, "param-required-default": 2, "reference-unknown": 1, "security-exfiltration-url": 1}},
		{"openakita/mcps", map[string]int{"description-when": 15, "param-default-missing": 5, "parse-error": 3}},
		{"openakita/mcp-server-exposed", map[string]int{"description-when": 3}},
		{"graph-agent/json", map[string]int{"description-max-length": 1, "description-third-person": 1, "description-trailing-whitespace": 1, "description-when": 7, "field-unknown": 59, "name-matches-file": 1, "parse-error": 1}},
		// Docker's compact arguments are a dialect of their own: no
		// field-unknown for the 293 arguments fields; their 80 optional
		// arguments have no default, 44 an empty desc.
		{"docker-mcp-registry", map[string]int{"description-max-length": 79, "description-third-person": 45, "description-too-short": 40, "description-when": 675, "name-matches-file": 1, "name-snake-case": 25, "name-unique": 6, "param-default-missing": 268, "param-description-missing": 45}},
		{"livemcpbench", map[string]int{"description-max-length": 24, "description-third-person": 5, "description-when": 65, "field-unknown": 252, "name-snake-case": 69}},
		{"bfcl", map[string]int{"parse-error": 12}},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			set, err := spec.Load([]string{filepath.Join(corpusDir, tc.dir)})
			if err != nil {
				t.Fatal(err)
			}
			fs := Run(set, Config{})
			t.Logf("read %d files from %s: %d findings", len(set.Files), tc.dir, len(fs))
			got := countByRule(fs)
			if got[ParseErrorID] != len(set.Errors()) {
				t.Errorf("%d parse-error findings for %d load errors", got[ParseErrorID], len(set.Errors()))
			}
			// The security pack runs by default: at most 1% of a
			// corpus's tools may get a finding from it.
			flagged := map[string]bool{}
			for _, f := range fs {
				if r, ok := Lookup(f.Rule); ok && r.Pack == PackSecurity {
					flagged[f.File+"\x00"+f.Tool] = true
				}
			}
			if tools := len(set.Tools()); len(flagged)*100 > tools {
				t.Errorf("%d of %d tools have security findings: more than 1%%", len(flagged), tools)
			}
			if formatCounts(got) != formatCounts(tc.want) {
				t.Errorf("findings per rule changed:\n got: %s\nwant: %s", formatCounts(got), formatCounts(tc.want))
			}
		})
	}
}

// The feagent profile reproduces Feagent's own loader: tools/ and
// scripts-tools/ load, both definitions-tools/ files fail for the missing
// entry (see ../shared/corpora/feagent/SOURCES.md for the ground truth).
func TestFeagentProfileVerdicts(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	for dir, wantFailing := range map[string][]string{"feagent/tools": nil, "feagent/scripts-tools": nil, "feagent/definitions-tools": {"http_request.yaml", "llm_call.yaml"}} {
		set, err := spec.Load([]string{filepath.Join(corpusDir, dir)})
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Files) != map[bool]int{true: 2, false: 5}[wantFailing != nil] {
			t.Fatalf("%s: %d files", dir, len(set.Files))
		}
		failing := map[string]bool{}
		entryMissing := map[string]bool{}
		for _, f := range Run(set, Config{Profile: ProfileFeagent}) {
			if f.Severity == Error {
				failing[filepath.Base(f.File)] = true
			}
			if f.Rule == "entry-required" {
				entryMissing[filepath.Base(f.File)] = true
			}
		}
		if len(failing) != len(wantFailing) {
			t.Errorf("%s: failing files %v, want %v", dir, failing, wantFailing)
		}
		for _, name := range wantFailing {
			if !entryMissing[name] {
				t.Errorf("%s: %s should fail for the missing entry", dir, name)
			}
		}
	}
}
