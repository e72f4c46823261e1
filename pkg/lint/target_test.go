package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// targetFindings lints the given tool files (name → content) with one
// provider pack and returns the messages of one rule.
func targetFindings(t *testing.T, target, rule string, files map[string]string) []string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out []string
	for _, f := range lintWith(t, Config{Targets: []string{target}}, dir) {
		if f.Rule == rule {
			out = append(out, f.Message)
		}
	}
	return out
}

// nested returns a schema whose deepest property is depth levels down.
func nested(depth int) string {
	s := `{"type": "string", "description": "The leaf."}`
	for range depth - 1 {
		s = `{"type": "object", "description": "A level.", "properties": {"p": ` + s + `}, "required": ["p"]}`
	}
	return `{"type": "object", "properties": {"p": ` + s + `}, "required": ["p"]}`
}

// manyProps returns an object schema with n string properties, each name
// padded to width characters.
func manyProps(n, width int) string {
	var b strings.Builder
	b.WriteString(`{"type": "object", "properties": {`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%0*d": {"type": "string", "description": "A value."}`, width-1, i)
	}
	b.WriteString(`}}`)
	return b.String()
}

// enumOf returns an object schema with one string parameter of n enum
// values, each width characters long.
func enumOf(n, width int) string {
	vals := make([]string, n)
	for i := range vals {
		vals[i] = fmt.Sprintf(`"%0*d"`, width, i)
	}
	return `{"type": "object", "properties": {"e": {"type": "string", "description": "A choice.", "enum": [` + strings.Join(vals, ",") + `]}}, "required": ["e"]}`
}

func toolJSON(name, schema string) string {
	return `{"name": "` + name + `", "description": "Has a large input schema. Use when testing lint.", "input_schema": ` + schema + `}`
}

func TestOpenAIStrictLimits(t *testing.T) {
	for _, c := range []struct {
		name, schema, want string // want "" means no finding
	}{
		{"depth 10", nested(10), ""},
		{"depth 11", nested(11), "nested 11 levels deep"},
		{"5000 properties", manyProps(5000, 5), ""},
		{"5001 properties", manyProps(5001, 5), "property number 5001"},
		{"1000 enum values", enumOf(1000, 3), ""},
		{"1001 enum values", enumOf(1001, 3), "enum value number 1001"},
		{"250 long enum values", enumOf(250, 100), ""},
		{"251 long enum values", enumOf(251, 60), "251 string enum values of 15060 characters"},
		{"251 short enum values", enumOf(251, 50), ""},
		{"120,000 characters", manyProps(4000, 30), ""},
		{"120,001 characters", manyProps(4000, 30)[:len(manyProps(4000, 30))-2] + `, "x": {"type": "string", "description": "One more."}}}`, "pass 120,000 characters"},
	} {
		got := targetFindings(t, "openai", "openai-strict-schema", map[string]string{"tool.json": toolJSON("tool", c.schema)})
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%s: unexpected findings %q", c.name, got)
		case c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want)):
			t.Errorf("%s: findings %q, want one containing %q", c.name, got, c.want)
		}
	}
}

func TestOpenAIStrictKeywords(t *testing.T) {
	// token is bound, so not exported: its keywords do not count.
	got := targetFindings(t, "openai", "openai-strict-schema", map[string]string{"tool.json": `{"name": "tool",
	  "description": "Uses keywords strict mode lacks. Use when testing lint.",
	  "input_schema": {
	    "type": "object",
	    "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
	    "properties": {
	      "a": {"type": "string", "format": "email", "allOf": [{"minLength": 1}]},
	      "b": {"type": "object", "additionalProperties": false, "properties": {}},
	      "c": {"type": "string", "format": "uri-reference", "dependentSchemas": {}},
	      "token": {"type": "object", "additionalProperties": true, "not": {}}
	    },
	    "else": {}
	  },
	  "bind": {"token": {"env": "TOKEN"}}}`})
	want := []string{
		"the input schema is an anyOf at the top level",
		// export --strict warns about it: lint too
		`parameter "b" is an object without properties; in strict mode it can only be {}`,
		`parameter "c" has format "uri-reference"`,
		`parameter "c" uses dependentSchemas`,
		"the input schema uses else",
	}
	if len(got) != len(want) {
		t.Fatalf("findings %q, want %d", got, len(want))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("finding %d = %q, want it to contain %q", i, got[i], w)
		}
	}
}

func TestAnthropicStrictSchema(t *testing.T) {
	got := targetFindings(t, "anthropic", "anthropic-strict-schema", map[string]string{"tool.json": toolJSON("tool", `{
	  "type": "object",
	  "properties": {
	    "a": {"type": "array", "minItems": 1, "items": {"type": "string", "format": "uri", "pattern": "^[a-z]+$"}},
	    "b": {"type": "array", "minItems": 0, "items": {"enum": ["x", 1, true, null]}},
	    "c": {"$ref": "https://example.com/c.json"},
	    "d": {"allOf": [{"$ref": "#/$defs/d"}, {"type": "string", "title": "D"}]},
	    "d1": {"description": "A one-schema allOf is merged by export --strict.", "allOf": [{"$ref": "#/$defs/d"}]},
	    "e": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
	    "f": {"type": "object", "additionalProperties": false, "properties": {"g": {"type": "string", "minLength": 1}}}
	  },
	  "$defs": {"d": {"type": "string"}}
	}`)})
	want := []string{
		`parameter "c" refers to "https://example.com/c.json" outside the input schema`,
		`parameter "d" uses $ref inside allOf`,
		`parameter "e" uses exclusiveMinimum`,
		`parameter "e" uses multipleOf`,
		`parameter "f.g" uses minLength`,
	}
	if len(got) != len(want) {
		t.Fatalf("findings %q, want %d", got, len(want))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("finding %d = %q, want it to contain %q", i, got[i], w)
		}
	}
}

func TestAnthropicStrictLimits(t *testing.T) {
	optional := func(name string, n int, extra string) string {
		props := make([]string, n)
		for i := range props {
			props[i] = fmt.Sprintf(`"o%d": {"type": "string", "description": "A setting.", "default": ""}`, i)
		}
		return `{"name": "` + name + `", "description": "Has optional settings. Use when testing lint.", ` + extra +
			`"input_schema": {"type": "object", "properties": {` + strings.Join(props, ",") + `}}}`
	}
	// 24 optional parameters in all: within the limit; strict: false tools and
	// bound parameters do not count.
	files := map[string]string{
		"a.json": optional("a", 12, ""),
		"b.json": optional("b", 12, `"strict": true, `),
		"c.json": optional("c", 30, `"strict": false, `),
		"d.json": optional("d", 1, `"bind": {"o0": {"env": "D_TOKEN"}}, `),
	}
	if got := targetFindings(t, "anthropic", "anthropic-strict-limits", files); len(got) > 0 {
		t.Errorf("unexpected findings %q", got)
	}
	// A nested optional property is one more.
	files["e.json"] = `{"name": "e", "description": "Has a nested option. Use when testing lint.", "input_schema": {"type": "object",
	  "properties": {"opts": {"type": "object", "description": "Options.", "properties": {"deep": {"type": "string", "description": "Deep."}}}},
	  "required": ["opts"]}}`
	got := targetFindings(t, "anthropic", "anthropic-strict-limits", files)
	if len(got) != 1 || !strings.Contains(got[0], `parameter "opts.deep" is optional parameter number 25`) {
		t.Errorf("findings %q, want opts.deep as the 25th optional parameter", got)
	}
	// Union types: anyOf or a type list of two types; a one-type list is not.
	unionTool := func(name string) string {
		props, names := make([]string, 17), make([]string, 17)
		for i := range props {
			names[i] = fmt.Sprintf(`"u%02d"`, i)
			switch i % 3 {
			case 0:
				props[i] = names[i] + `: {"type": ["string", "null"], "description": "A value."}`
			case 1:
				props[i] = names[i] + `: {"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "A value."}`
			case 2:
				props[i] = names[i] + `: {"type": ["string"], "description": "A value."}`
			}
		}
		return `{"name": "` + name + `", "description": "Has union-typed values. Use when testing lint.", "input_schema": {"type": "object", "properties": {` +
			strings.Join(props, ",") + `}, "required": [` + strings.Join(names, ",") + `]}}`
	}
	if got := targetFindings(t, "anthropic", "anthropic-strict-limits", map[string]string{"u.json": unionTool("u")}); len(got) > 0 {
		t.Errorf("12 union-typed parameters: unexpected findings %q", got)
	}
	got = targetFindings(t, "anthropic", "anthropic-strict-limits", map[string]string{"u.json": unionTool("u"), "v.json": unionTool("v")})
	if len(got) != 1 || !strings.Contains(got[0], `parameter "u06" is union-typed parameter number 17`) {
		t.Errorf("24 union-typed parameters: findings %q, want u06 of v (its fifth union) as number 17", got)
	}
}

func TestGeminiSchemaSkipsBoundParameters(t *testing.T) {
	got := targetFindings(t, "gemini", "gemini-schema", map[string]string{"tool.json": `{"name": "tool",
	  "description": "Has a bound parameter. Use when testing lint.",
	  "input_schema": {"type": "object", "properties": {
	    "token": {"type": "string", "const": "x"},
	    "n": {"type": "integer", "description": "A count.", "exclusiveMaximum": 10}},
	    "required": ["n"]},
	  "bind": {"token": {"env": "TOKEN"}}}`})
	if len(got) != 1 || !strings.Contains(got[0], `parameter "n" uses exclusiveMaximum, which Gemini ignores`) {
		t.Errorf("findings %q, want only n's exclusiveMaximum", got)
	}
}

func TestTargetRulesOffWithoutTarget(t *testing.T) {
	fs := lintWith(t, Config{}, filepath.Join(fixtures, "err", "openai_strict_schema.yaml"), filepath.Join(fixtures, "err", "gemini_name.yaml"))
	for _, f := range fs {
		if r, ok := Lookup(f.Rule); ok && r.Target != "" {
			t.Errorf("rule %s ran without --target %s: %s", f.Rule, r.Target, f)
		}
	}
	for _, id := range []string{"openai-name", "openai-strict-schema", "openai-tool-count", "anthropic-name", "anthropic-strict-schema", "anthropic-strict-limits", "gemini-name", "gemini-name-separator", "gemini-schema", "mcp-name"} {
		r, ok := Lookup(id)
		if !ok {
			t.Errorf("rule %s is not registered", id)
			continue
		}
		if !strings.HasPrefix(id, r.Target+"-") {
			t.Errorf("rule %s has target %q, want its ID's prefix", id, r.Target)
		}
	}
}
