package breaking

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/lint"
)

// Every rule has a unique ID that no lint rule has (ignore comments and
// reports share the namespace), a known category, a one-line description
// and an --explain text with a bad and a good example.
func TestRuleCatalog(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.ID] {
			t.Errorf("rule %s twice", r.ID)
		}
		seen[r.ID] = true
		if _, clash := lint.Lookup(r.ID); clash {
			t.Errorf("rule %s is also a lint rule", r.ID)
		}
		if !slices.Contains(Categories, r.Category) {
			t.Errorf("rule %s: unknown category %q", r.ID, r.Category)
		}
		if r.Description == "" || strings.Contains(r.Description, "\n") || !strings.HasSuffix(r.Description, ".") {
			t.Errorf("rule %s: the description is one sentence on one line: %q", r.ID, r.Description)
		}
		if !strings.Contains(r.Explain, "Bad") || !strings.Contains(r.Explain, "Good") {
			t.Errorf("rule %s: --explain has no Bad and Good example", r.ID)
		}
	}
	for _, c := range Categories {
		if slices.Contains(RuleIDs(), c) {
			t.Errorf("category %s is also a rule ID", c)
		}
	}
}
