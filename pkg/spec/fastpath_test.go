package spec

import (
	"testing"

	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
)

// The fast parsers take what ParseFile reads: a file over MaxFileSize is
// refused before them, and a larger limit of theirs would change nothing.
func TestFastnodeMaxInput(t *testing.T) {
	if fastnode.MaxInput != MaxFileSize {
		t.Errorf("fastnode.MaxInput %d, MaxFileSize %d: keep them equal", fastnode.MaxInput, MaxFileSize)
	}
}
