package pyast

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A module read once is read from the cache after: no interpreter runs
// (the second read names one that does not exist), and the answer is the
// same. Another source is another entry.
func TestReadCached(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not available")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	src := []byte("def add(a: int, b: int = 2) -> int:\n    \"\"\"Adds.\"\"\"\n    return a + b\n")
	first, err := ReadCached(context.Background(), Options{Name: "m.py", Source: src})
	if err != nil || len(first.Functions) != 1 || first.Functions[0].Name != "add" {
		t.Fatalf("first read: %+v %v", first, err)
	}
	second, err := ReadCached(context.Background(), Options{Name: "m.py", Source: src, Interpreter: "no-such-python-xyz"})
	if err != nil || len(second.Functions) != 1 || len(second.Functions[0].Params) != 2 {
		t.Fatalf("cached read: %+v %v", second, err)
	}
	if _, err := ReadCached(context.Background(), Options{Name: "m.py", Source: append(src, '\n'), Interpreter: "no-such-python-xyz"}); err == nil {
		t.Error("another source was answered from the cache")
	}
	// a corrupt entry is read again, not trusted
	dir, _ := os.UserCacheDir()
	entries, _ := filepath.Glob(filepath.Join(dir, "toolctl", "pyast", "*.json"))
	if len(entries) != 1 {
		t.Fatalf("%d cache entries, want 1", len(entries))
	}
	if err := os.WriteFile(entries[0], []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCached(context.Background(), Options{Name: "m.py", Source: src, Interpreter: "no-such-python-xyz"}); err == nil {
		t.Error("a corrupt cache entry was used")
	}
}
