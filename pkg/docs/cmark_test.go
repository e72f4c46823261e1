package docs

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCmarkGFM renders the Markdown golden pages with cmark-gfm (GitHub's
// own renderer; Debian package cmark-gfm) with raw HTML allowed, and checks
// that nothing a tool file says became markup and that every escaped
// leading character stayed text. Skipped without cmark-gfm.
func TestCmarkGFM(t *testing.T) {
	bin, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skip("cmark-gfm not found (Debian: apt-get install cmark-gfm)")
	}
	pages, _ := filepath.Glob(filepath.Join(goldenDir, "markdown", "*.md"))
	cases, _ := filepath.Glob(filepath.Join(goldenDir, "cases", "markdown", "*.md"))
	pages = append(pages, cases...)
	if len(pages) == 0 {
		t.Fatal("no golden pages")
	}
	// Tags the pages themselves never produce from a tool file.
	markup := regexp.MustCompile(`<(script|img|b|i|iframe)\b|href="javascript:|<!-- a comment`)
	for _, page := range pages {
		cmd := exec.Command(bin, "--unsafe", "-e", "table", "-e", "autolink", page)
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("cmark-gfm %s: %v\n%s", page, err, stderr.Bytes())
		}
		html := out.String()
		if m := markup.FindString(html); m != "" {
			t.Errorf("%s: cmark-gfm renders %q", page, m)
		}
		if filepath.Base(page) != "tricky_text.md" {
			continue
		}
		for _, want := range []string{
			// escaped block starters stay text
			"<li># not a heading</li>", "<li>1. not a list</li>", "<li>- not a nested list</li>", "<li>&gt; not a quote</li>",
			// a pipe in a cell does not split it
			"<td><code>text|pipe</code></td>",
			"<td>First line | with a pipe. Second line &lt;i&gt;not italic&lt;/i&gt;.</td>",
			"<h1>tricky_text</h1>\n<p>Echoes &lt;script&gt;",
		} {
			if !strings.Contains(html, want) {
				t.Errorf("%s: cmark-gfm output lacks %q", page, want)
			}
		}
	}
}
