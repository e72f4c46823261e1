package tokens

import (
	"strings"
	"testing"
	"time"
)

// The tokenizer's pre-split is quadratic in a whitespace run that holds
// line breaks (" \n" 200,000 times took ~6 minutes). Count slices such
// runs: a hostile description must not hang lint or tokens. The bound is
// generous (the sliced count takes well under a second); it catches the
// quadratic case, not a slow machine.
func TestCountLongWhitespaceRuns(t *testing.T) {
	for name, s := range map[string]string{
		"space-newline": "x" + strings.Repeat(" \n", 200000) + "x",
		"tab-newline":   strings.Repeat("\t\n", 200000),
		"nbsp-newline":  "a." + strings.Repeat("\u00a0\r\n", 100000) + "b",
	} {
		start := time.Now()
		n := Count(O200kBase, s)
		if d := time.Since(start); d > 60*time.Second {
			t.Errorf("%s: %v to count %d bytes", name, d, len(s))
		}
		// One token a pair, as the whole run counts (to within a token a
		// slice).
		if n < 100000 || n > 210000 {
			t.Errorf("%s: %d tokens", name, n)
		}
	}
}

// Runs up to maxBreakRun, and any text without such a run, are counted
// whole: exactly.
func TestCountShortRunsExact(t *testing.T) {
	for _, s := range []string{
		"a" + strings.Repeat(" \n", maxBreakRun/2) + "b",
		"Reads a file.\n\n  Use when the user asks for its contents.\n",
		strings.Repeat("word ", 1000),
	} {
		want, _ := encoder(O200kBase).Count(s)
		if got := Count(O200kBase, s); got != want {
			t.Errorf("%q: %d tokens, the tokenizer says %d", s[:20], got, want)
		}
	}
	if i, j := longBreakRun("a" + strings.Repeat(" \n", maxBreakRun) + "b"); i != 1 || j != 1+2*maxBreakRun {
		t.Errorf("longBreakRun: %d, %d", i, j)
	}
}
