package importer

import (
	"os"
	"strings"
	"testing"
)

// TestRulesDocumented: the README lists every rule ID of import's
// warnings (section "Tools from Python functions"), and no other.
func TestRulesDocumented(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skip("no README")
	}
	readme := string(data)
	start := strings.Index(readme, "<!-- import-rules -->")
	end := strings.Index(readme, "<!-- /import-rules -->")
	if start < 0 || end < start {
		t.Fatal("README has no <!-- import-rules --> ... <!-- /import-rules --> list")
	}
	list := readme[start:end]
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r.ID] {
			t.Errorf("rule %s is twice in Rules", r.ID)
		}
		seen[r.ID] = true
		if !strings.Contains(list, "| `"+r.ID+"` |") {
			t.Errorf("README's import rules list lacks %s", r.ID)
		}
	}
	for _, line := range strings.Split(list, "\n") {
		if id, _, ok := strings.Cut(strings.TrimPrefix(line, "| `"), "` |"); ok && strings.HasPrefix(line, "| `") && !seen[id] {
			t.Errorf("README lists %s, which import does not report", id)
		}
	}
}
