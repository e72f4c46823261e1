package cmd

import (
	"runtime/debug"
	"testing"
)

// TestLintGC: the soft memory limit of a lint is 48 MiB and 4 KiB a file;
// a large list read a tool at a time makes it 16 MiB and 3x the list over
// the live heap, a large file parsed whole 16 MiB and 80x the file, each
// further large file adds as much, and the limit is never below the set's
// own nor above the ceiling.
func TestLintGC(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	const mb = 1 << 20
	limit := func() int64 { return debug.SetMemoryLimit(-1) }

	one := newLintGC(1, 512*mb)
	if one.base != 48*mb+4<<10 {
		t.Errorf("base of one file %d, want 48 MiB and 4 KiB", one.base)
	}
	one.streaming(10 * mb)
	first := limit()
	if first < 48*mb || first > 256*mb { // 16 + 3x10 MB, and the test binary's live heap
		t.Errorf("limit %d MiB after a 10 MiB list, want 46 MiB plus the live heap", first/mb)
	}
	one.streaming(10 * mb)
	if got := limit(); got < first+30*mb {
		t.Errorf("limit %d MiB after a second 10 MiB list, want at least %d MiB", got/mb, (first+30*mb)/mb)
	}
	one.streaming(200 * mb)
	if got := limit(); got != 512*mb {
		t.Errorf("limit %d MiB after a 200 MiB list, want the 512 MiB ceiling", got/mb)
	}

	// A list early in a run of 10,000 files: the limit must stay the
	// set's, or the GC runs without pause once the set's live heap passes
	// it (a 2 MB list first, then 10,000 files: 3x the CPU time).
	many := newLintGC(10000, 512*mb)
	many.streaming(1 * mb)
	if got := limit(); got < many.base {
		t.Errorf("limit %d MiB after a 1 MiB list in 10,000 files, below the set's %d MiB", got/mb, many.base/mb)
	}

	// A large file parsed whole: room for its tree.
	whole := newLintGC(1, 512*mb)
	whole.whole(5 * mb)
	if got := limit(); got < 416*mb {
		t.Errorf("limit %d MiB before a 5 MiB file is parsed whole, want at least 16 MiB and 400 MiB over the live heap", got/mb)
	}
}
