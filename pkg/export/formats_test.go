package export

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/compat"
)

// TestFormatTable: every row of the format table is complete, so that a
// new format cannot leave the shared code to guess (an empty rename
// warning, a missing encoder), and every provider pack of lint --target
// has a format that exports for it.
func TestFormatTable(t *testing.T) {
	seen := map[Format]bool{}
	targets := map[string]bool{}
	for _, d := range formats {
		if d.Name == "" || seen[d.Name] {
			t.Errorf("format %q: empty or listed twice", d.Name)
		}
		seen[d.Name] = true
		if d.Convert == nil || d.Document == nil || d.File == nil {
			t.Errorf("%s: needs Convert, Document and File", d.Name)
		}
		if !strings.HasPrefix(d.Ext, ".") {
			t.Errorf("%s: Ext %q is no file extension", d.Name, d.Ext)
		}
		if d.Target != "" {
			targets[d.Target] = true
			if !slices.Contains(compat.Targets, d.Target) {
				t.Errorf("%s: target %q is not a compat target", d.Name, d.Target)
			}
			if d.Provider == "" || d.NameRule == "" {
				t.Errorf("%s: a format with a target needs Provider and NameRule for the rename warning", d.Name)
			}
		}
		if d.Strict && d.Target == "" {
			t.Errorf("%s: --strict needs a compat target to check against", d.Name)
		}
		if got := lookup(d.Name); got == nil || got.Name != d.Name {
			t.Errorf("lookup(%q) does not find its row", d.Name)
		}
	}
	for _, target := range compat.Targets {
		if !targets[target] {
			t.Errorf("compat target %q has no export format", target)
		}
	}
	if lookup("xml") != nil {
		t.Errorf("lookup finds an unknown format")
	}
}
