package breaking

import (
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/diag"
	"gopkg.in/yaml.v3"
)

func parseSection(t *testing.T, src string) (Config, error) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return ParseConfig(".toolctl.yaml", doc.Content[0].Content[1])
}

func TestParseConfig(t *testing.T) {
	cfg, err := parseSection(t, "breaking:\n  rules: {prompt: warning, param-removed: off}\n  ignore: [\"x/**\"]\n  targets: [openai]\n")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Severity["prompt"] != diag.Warning || cfg.Severity["param-removed"] != diag.Off || cfg.Ignore[0] != "x/**" || cfg.Targets[0] != "openai" {
		t.Errorf("got %+v", cfg)
	}
	for src, want := range map[string]string{
		"breaking:\n  rules: {param-remove: off}\n": `.toolctl.yaml:2:11: breaking.rules: unknown rule or category "param-remove"; did you mean "param-removed"?`,
		"breaking:\n  rules: {prompt: loud}\n":      `.toolctl.yaml:2:19: breaking.rules.prompt: "loud" is not a severity; use off, info, warning or error`,
		"breaking:\n  targets: [openia]\n":          `.toolctl.yaml:2:12: breaking.targets: unknown target "openia"; use openai, anthropic, gemini, mcp`,
		"breaking:\n  ignores: [a]\n":               `.toolctl.yaml:2:3: breaking.ignores is not a breaking setting; did you mean "ignore"? (known: ignore, rules, targets)`,
		"breaking:\n  rules: [a]\n":                 `.toolctl.yaml:2:10: breaking.rules must be a mapping of rule IDs or categories to off, info, warning or error`,
	} {
		_, err := parseSection(t, src)
		if err == nil || err.Error() != want {
			t.Errorf("%q:\n got %v\nwant %s", src, err, want)
		}
	}
}

// A break whose rule is off, or that an ignore comment suppresses, asks
// for no major version bump.
func TestVersionIgnoresWhatIsOff(t *testing.T) {
	old := withInput("type: object\nproperties:\n  a: {type: string}\n  b: {type: string}\n")
	a, b := parseTool(t, old), parseTool(t, strings.Replace(old, "  b: {type: string}\n", "", 1))
	has := func(opts Options, rule string) bool {
		for _, d := range Compare([]*Tool{a}, []*Tool{b}, opts) {
			if d.Rule == rule {
				return true
			}
		}
		return false
	}
	if !has(Options{}, "version-major-not-bumped") {
		t.Error("a removed parameter without a major bump: no version-major-not-bumped")
	}
	if has(Options{Severity: map[string]diag.Severity{"param-removed": diag.Off}}, "version-major-not-bumped") {
		t.Error("param-removed off still asks for a major bump")
	}
	if has(Options{Ignore: func(d diag.Diagnostic) bool { return d.Rule == "param-removed" }}, "version-major-not-bumped") {
		t.Error("an ignored param-removed still asks for a major bump")
	}
	if has(Options{Severity: map[string]diag.Severity{"call": diag.Off}}, "param-removed") {
		t.Error("the call category off leaves param-removed on")
	}
}
