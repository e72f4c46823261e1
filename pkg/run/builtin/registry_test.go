package builtin

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// The handlers lint accepts (spec.BuiltinHandlers) are exactly the ones run
// can execute, and each has a bundled tool file that describes it.
func TestBuiltinHandlersRegisteredAndBundled(t *testing.T) {
	want := slices.Sorted(slices.Values(spec.BuiltinHandlers))
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("registered handlers %v, spec.BuiltinHandlers %v", got, want)
	}
	set, err := spec.Load([]string{filepath.Join("..", "..", "..", "tools")})
	if err != nil {
		t.Fatal(err)
	}
	bundled := map[string]bool{}
	for _, tool := range set.Tools() {
		if tool.EntryKind() == spec.EntryBuiltin {
			bundled[tool.Entry.Handler] = true
		}
	}
	for _, h := range want {
		if !bundled[h] {
			t.Errorf("builtin handler %q has no tool file in tools/", h)
		}
	}
}
