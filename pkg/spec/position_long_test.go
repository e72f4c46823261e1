package spec

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPositionsOnLongLines: with rune checkpoints, offsets and columns on
// long lines convert exactly as counting runes from the line start does.
func TestPositionsOnLongLines(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "é", "€", "𝄞", `"`, `\`, "'", " "}
	var b strings.Builder
	b.WriteString("short: line\n")
	for range 3 * checkpointRunes * 4 {
		b.WriteString(pieces[rng.Intn(len(pieces))])
	}
	b.WriteString("\nend\n")
	data := []byte(b.String())
	f := &File{Path: "long.yaml", Data: data}
	line2 := f.lineBytes(2)
	if len(line2) == 0 || f.runeCheckpoints(2) == nil {
		t.Fatal("the long line has no checkpoints")
	}
	start := len("short: line\n")
	for off := 0; off <= len(data); off++ {
		if off < len(data) && !utf8.RuneStart(data[off]) {
			continue
		}
		got := f.PosAt(off)
		ls := f.lines()
		line := 0
		for i, s := range ls {
			if s <= off {
				line = i
			}
		}
		want := Pos{Line: line + 1, Col: utf8.RuneCount(data[ls[line]:min(off, len(data))]) + 1}
		if got != want {
			t.Fatalf("PosAt(%d) = %v, want %v", off, got, want)
		}
		if line == 1 && off < start+len(line2) {
			if i := f.colOffset(2, want.Col, line2); i != off-start {
				t.Fatalf("colOffset(2, %d) = %d, want %d", want.Col, i, off-start)
			}
		}
	}
	runes := []rune(string(line2))
	if i := f.colOffset(2, len(runes)+5, line2); i != len(line2) {
		t.Errorf("colOffset past the end = %d, want %d", i, len(line2))
	}
	for i, r := range runes {
		if r != '"' && r != '\'' {
			continue
		}
		at := f.colOffset(2, i+1, line2)
		if got, want := quotedLen(line2[at:]), quotedLenRunes(runes[i:]); got != want {
			t.Fatalf("quotedLen at column %d = %d, want %d", i+1, got, want)
		}
	}
}

// quotedLenRunes is quotedLen as it was written on runes, the reference.
func quotedLenRunes(s []rune) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i + 1
		}
	}
	return len(s)
}
