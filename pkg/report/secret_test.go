package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

// No report format prints a literal credential that secret-literal found:
// the text format masks it in the excerpt of its own finding and of every
// other finding on a line that holds it; the other formats carry no source
// text, and the messages show only its first four characters.
func TestSecretsMaskedInEveryFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secret_literal.yaml")
	src := `name: secret_literal
description: Checks that literal credentials are masked. Use when testing lint.
category: http
entry:
  type: http
  url: https://api.example.org/v1/search?q={q}&api_key=a1b2c3d4e5f6g7h8
  method: GET
  headers:
    Authorization: Bearer sk-live-9e8d7c6b5a4f3e2d1c0b9a8f
    X-Api-Key: 9f8e7d6c5b4a39281706
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := spec.Load([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	findings := lint.Run(set, lint.Config{})
	// another finding on the url line, which holds a key too
	findings = append(findings, diag.Diagnostic{File: findings[0].File, Span: spec.Span{Start: spec.Pos{Line: 6, Col: 8}, End: spec.Pos{Line: 6, Col: 13}}, Severity: diag.Warning, Rule: "other", Message: "another finding on the line"})
	secrets := []string{"a1b2c3d4e5f6g7h8", "sk-live-9e8d7c6b5a4f3e2d1c0b9a8f", "9f8e7d6c5b4a39281706"}
	n := 0
	for _, f := range findings {
		if f.Secret != "" {
			n++
		}
	}
	if n != len(secrets) {
		t.Fatalf("%d secret findings, want %d: %v", n, len(secrets), findings)
	}
	file := set.Files[0]
	opt := Options{Source: func(string) *spec.File { return file }, Rules: testRules(), Version: "test", Root: "."}
	for _, format := range Formats {
		for _, color := range []bool{false, true} {
			opt.Color = color
			out := string(render(t, format, findings, Summary{Files: []string{findings[0].File}}, opt))
			for _, s := range secrets {
				if strings.Contains(out, s) || strings.Contains(out, s[4:12]) {
					t.Errorf("%s (color %v) shows the secret %s:\n%s", format, color, s, out)
				}
			}
			if format == "text" && !color {
				for _, want := range []string{
					" 9 |     Authorization: Bearer sk-l****************************",
					"   |                           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
					" 6 |   url: https://api.example.org/v1/search?q={q}&api_key=a1b2************",
				} {
					if !strings.Contains(out, want+"\n") {
						t.Errorf("text lacks %q:\n%s", want, out)
					}
				}
			}
		}
	}
}
