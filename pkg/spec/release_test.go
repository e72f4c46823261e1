package spec

import (
	"os"
	"path/filepath"
	"testing"
)

const releaseTool = `name: fetch_page
description: Fetches a web page and returns its text. Use when a URL is given.
related_tools:
  - name: web_serch
    relation: find the URL first
  - name: summarize
    relation: shorten the text
`

func readReleaseTool(t *testing.T) (*File, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fetch_page.yaml")
	if err := os.WriteFile(path, []byte(releaseTool), 0o644); err != nil {
		t.Fatal(err)
	}
	f := ReadFile(path)
	if len(f.Errors) > 0 || len(f.Tools) != 1 {
		t.Fatalf("errors %v, %d tools", f.Errors, len(f.Tools))
	}
	return f, path
}

// A pinned position needs neither the tree nor the file after Release.
func TestPinSurvivesRelease(t *testing.T) {
	f, path := readReleaseTool(t)
	tl := f.Tools[0]
	want := map[string]Span{"/name": tl.Span("/name"), "/related_tools/1/name": tl.Span("/related_tools/1/name")}
	if want["/related_tools/1/name"] != (Span{Start: Pos{Line: 6, Col: 11}, End: Pos{Line: 6, Col: 20}}) {
		t.Fatalf("span of the second related tool: %v", want["/related_tools/1/name"])
	}
	tl.Pin("/name", "/related_tools/1/name")
	f.Release(true)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	for ptr, span := range want {
		if got := tl.Span(ptr); got != span {
			t.Errorf("Span(%s) after Release = %v, want the pinned %v", ptr, got, span)
		}
	}
	// Not pinned: the file is gone, so the position is unknown.
	if got := tl.Span("/related_tools/0/name"); got != (Span{}) {
		t.Errorf("unpinned Span after the file was removed = %v, want none", got)
	}
}

// Source after Release re-reads the text and keeps no tree; a position
// asked for afterwards parses it again.
func TestSourceAfterReleaseKeepsNoTree(t *testing.T) {
	f, _ := readReleaseTool(t)
	tl := f.Tools[0]
	span := tl.Span("/related_tools/0/name")
	f.Release(true)
	if f.Data != nil {
		t.Fatal("Release(true) kept the text")
	}
	if got := string(f.Source()); got != releaseTool {
		t.Fatalf("Source after Release = %q", got)
	}
	if f.reparsed != nil {
		t.Error("Source kept the syntax tree of the file it read again")
	}
	if got := tl.Span("/related_tools/0/name"); got != span {
		t.Errorf("Span after Release and Source = %v, want %v", got, span)
	}
}

// Source after Release gives the text as parsing decoded it: UTF-8 for a
// UTF-16 file, the bytes otherwise.
func TestSourceAfterReleaseDecodesAsParse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fetch_page.yaml")
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range releaseTool {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	if err := os.WriteFile(path, utf16, 0o644); err != nil {
		t.Fatal(err)
	}
	f := ReadFile(path)
	if len(f.Errors) > 0 {
		t.Fatal(f.Errors)
	}
	want := string(f.Data)
	if want != releaseTool {
		t.Fatalf("parsed text %q", want)
	}
	f.Release(true)
	if got := string(f.Source()); got != want {
		t.Errorf("Source after Release = %q, want %q", got, want)
	}
	if got := f.Line(2); got != "description: Fetches a web page and returns its text. Use when a URL is given." {
		t.Errorf("line 2 after Release = %q", got)
	}
}
