package mcpclient

import (
	"context"
	"errors"
	"testing"
)

// TestFlagError: a program not found, whether exec or the guard found it
// (an *ExitError carrying the *StartError), is said in the words of the
// flag the command line came from, not of entry.server.
func TestFlagError(t *testing.T) {
	_, err := Start(context.Background(), []string{"toolctl-no-such-server", "--stdio"}, "", nil, 0)
	var se *StartError
	if !errors.As(err, &se) {
		t.Fatalf("Start: %T %v, want a *StartError", err, err)
	}
	want := `--server: command "toolctl-no-such-server" not found in PATH; install it or fix the command line`
	for _, e := range []error{err, &ExitError{Start: se, Err: errors.New("EOF")}} {
		if got := FlagError(e, "--server"); got == nil || got.Error() != want {
			t.Errorf("FlagError(%T) = %v, want %q", e, got, want)
		}
	}
	other := errors.New("connection refused")
	if got := FlagError(other, "--server"); got != other {
		t.Errorf("FlagError changed an unrelated error: %v", got)
	}
}
