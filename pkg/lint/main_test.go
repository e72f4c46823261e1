package lint

import (
	"os"
	"testing"
)

// TestMain keeps entry-python-drift's cache of read modules (pyast's, in
// the user cache directory) inside a temporary directory: tests leave
// nothing behind.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "toolctl-lint-cache-")
	if err == nil {
		os.Setenv("XDG_CACHE_HOME", dir)
	}
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}
