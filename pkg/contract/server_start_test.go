package contract

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConnectMissingProgram: toolctl test --server with a program that
// does not exist says so, as scan and import do, instead of
// "calling \"initialize\": EOF".
func TestConnectMissingProgram(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	prog := filepath.Join(t.TempDir(), "no-such-server")
	s, err := Connect(ctx, prog+" --stdio", nil)
	if err == nil {
		s.Close()
		t.Fatal("connected to a program that does not exist")
	}
	if msg := err.Error(); !strings.Contains(msg, "not found") || !strings.Contains(msg, prog) {
		t.Errorf("got %q; want it to say that %s was not found", msg, prog)
	}
}
