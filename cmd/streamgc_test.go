package cmd

import (
	"runtime/debug"
	"testing"
)

// TestStreamGC: the soft memory limit lint sets when it starts reading a
// large JSON list one tool at a time is 16 MiB and 3x the list over the
// live heap, grows by 3x each further list, and never passes the ceiling.
func TestStreamGC(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	const mb = 1 << 20
	streaming := streamGC(512 * mb)
	streaming(10 * mb)
	first := debug.SetMemoryLimit(-1)
	if first < 46*mb || first > 256*mb { // 16 + 3x10 MB, and the test binary's live heap
		t.Errorf("limit %d MiB after a 10 MiB list, want 46 MiB plus the live heap", first/mb)
	}
	streaming(10 * mb)
	if got := debug.SetMemoryLimit(-1); got < first+30*mb {
		t.Errorf("limit %d MiB after a second 10 MiB list, want at least %d MiB", got/mb, (first+30*mb)/mb)
	}
	streaming(200 * mb)
	if got := debug.SetMemoryLimit(-1); got != 512*mb {
		t.Errorf("limit %d MiB after a 200 MiB list, want the 512 MiB ceiling", got/mb)
	}
}
