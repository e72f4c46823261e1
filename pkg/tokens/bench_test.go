package tokens

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// genTools writes n distinct tools (a description, four parameters: a
// string, an enum, an integer with bounds, a nested object) as one YAML
// list and loads them.
func genTools(tb testing.TB, n int) []*spec.Tool {
	tb.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `- name: tool_%[1]d
  description: Looks up record %[1]d in the inventory service and returns its fields, owner and history. Use when the user asks about item %[1]d.
  parameters:
    type: object
    properties:
      query_%[1]d: {type: string, description: "Free text to match against the name of record %[1]d."}
      mode: {type: string, enum: [exact, prefix, fuzzy, regex], default: exact, description: How the query matches.}
      limit: {type: integer, minimum: 1, maximum: 100, default: 10, description: The most records to return.}
      filter:
        type: object
        description: Fields that must match.
        properties:
          owner: {type: string, description: The owner's e-mail address.}
          since: {type: string, format: date, description: Changed on or after this day.}
    required: [query_%[1]d]
`, i)
	}
	path := filepath.Join(tb.TempDir(), "tools.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	set, err := spec.Load([]string{path})
	if err != nil {
		tb.Fatal(err)
	}
	if errs := set.Errors(); len(errs) > 0 {
		tb.Fatal(errs[0])
	}
	return set.Tools()
}

// BenchmarkMeasure1000 counts 1,000 tools in the default formats (openai
// prompt and JSON, anthropic) with their parts: the target is
// under 1 s. The tables are built before the timer (see
// BenchmarkMeasure1000 counts 1,000 tools in the default formats (openai
// prompt and JSON, anthropic) with their parts: the target is
// under 1 s. The o200k_base table is built before the timer; a process
// pays that once, on its first count.
func BenchmarkMeasure1000(b *testing.B) {
	tools := genTools(b, 1000)
	encoder(O200kBase)
	for b.Loop() {
		if _, err := Measure(tools, Options{Parts: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMeasure1000NoParts is toolctl tokens' default: no split.
func BenchmarkMeasure1000NoParts(b *testing.B) {
	tools := genTools(b, 1000)
	encoder(O200kBase)
	for b.Loop() {
		if _, err := Measure(tools, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMeasure1000 checks the generated set is counted whole and in
// order (a hang shows as the test timing out; speed is the benchmark's).
func TestMeasure1000(t *testing.T) {
	tools := genTools(t, 1000)
	r, err := Measure(tools, Options{Parts: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tools) != 1000 || r.Sum[0] <= 0 || r.Total[0] != r.Sum[0]+12 || r.Total[1] != r.Sum[1]+346 {
		t.Fatalf("%d tools, sums %v totals %v", len(r.Tools), r.Sum, r.Total)
	}
	plain, err := Measure(tools, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range r.Tools {
		for j, c := range tc.Costs {
			if p := plain.Tools[i].Costs[j]; p.Tokens != c.Tokens || p.JSON != c.JSON || p.Parts != nil {
				t.Fatalf("%s: %+v without parts, %d/%d with", tc.Name, p, c.Tokens, c.JSON)
			}
			sum := 0
			for _, p := range c.Parts {
				sum += p.Tokens
			}
			if sum != c.Tokens || c.Tokens <= 0 {
				t.Fatalf("%s: parts %d, tokens %d", tc.Name, sum, c.Tokens)
			}
		}
	}
}
