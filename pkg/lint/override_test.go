package lint

import "testing"

func TestMatchGlob(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"tools/**/*.yaml", "tools/a/b/c.yaml", true},
		{"tools/**/*.yaml", "tools/c.yaml", true},
		{"tools/*.yaml", "tools/a/c.yaml", false},
		{"**/legacy/*", "x/y/legacy/z.yaml", true},
		{"./tools/*.yaml", "tools/z.yaml", true},
		{"*.json", "deep/dir/x.json", true}, // no slash: the base name
		{"t?ol.yaml", "tool.yaml", true},
		{"t?ol.yaml", "t/ol.yaml", false},
		{"[!a]*.yaml", "b.yaml", true},
		{"[!a]*.yaml", "a.yaml", false},
		// Non-ASCII names match by rune (issue 14, item 6).
		{"tools/café_tool.yaml", "tools/café_tool.yaml", true},
		{"tools/caf?_tool.yaml", "tools/café_tool.yaml", true},
		{"tools/查询*.yaml", "tools/查询天气.yaml", true},
		{"**/天气/*", "a/天气/x.yaml", true},
		// Escaped specials are literal: baselines name files like these.
		{`tool\[1\].yaml`, "tool[1].yaml", true},
		{`tool\[1\].yaml`, "tool1.yaml", false},
		{"tool[1].yaml", "tool1.yaml", true},
		{`\{a\}.yaml`, "{a}.yaml", true},
		{"{a,b}.yaml", "b.yaml", true},
	} {
		if got := MatchGlob(c.pattern, c.path); got != c.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}

func TestEscapeGlob(t *testing.T) {
	for _, name := range []string{"tool[1].yaml", "café_tool.yaml", "{a,b}*?.yaml", `back\slash.yaml`, "查询天气.yaml", "dir/[x]/t.json"} {
		p := EscapeGlob(name)
		if !ValidGlob(p) {
			t.Errorf("EscapeGlob(%q) = %q is not a valid glob", name, p)
		}
		if !MatchGlob(p, name) {
			t.Errorf("EscapeGlob(%q) = %q does not match the name", name, p)
		}
	}
	if MatchGlob(EscapeGlob("tool[1].yaml"), "tool1.yaml") || MatchGlob(EscapeGlob("a*.yaml"), "ab.yaml") {
		t.Error("an escaped glob matches other names")
	}
}
