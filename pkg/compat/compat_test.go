package compat

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// schema parses a JSON object into the ordered form the checks take.
func schema(t *testing.T, text string) *spec.Map {
	t.Helper()
	v, err := spec.DecodeJSON([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	m, ok := v.(*spec.Map)
	if !ok {
		t.Fatalf("%s: not an object", text)
	}
	return m
}

// refusals keeps the problems that are not advisory.
func refusals(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if !p.Warning {
			out = append(out, p)
		}
	}
	return out
}

func TestNameValidity(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		name                           string
		openai, anthropic, gemini, mcp bool
	}{
		{"get_weather", true, true, true, true},
		{"get-weather", true, true, true, true},
		{"GetWeather2", true, true, true, true},
		{"_private", true, true, true, true},
		{"2fa_check", true, true, false, true},
		{"-dash_first", true, true, false, true},
		{"math.factorial", false, false, true, true},
		{"geo:lookup", false, false, true, false},
		{"get weather", false, false, false, false},
		{"files/search", false, false, false, false},
		{"a,b", false, false, false, false},
		{"café", false, false, false, false},
		{"", false, false, false, false},
		{long(64), true, true, true, true},
		{long(65), false, true, true, true},
		{long(128), false, true, true, true},
		{long(129), false, false, false, false},
	}
	for _, c := range cases {
		for target, want := range map[string]bool{OpenAI: c.openai, Anthropic: c.anthropic, Gemini: c.gemini, MCP: c.mcp} {
			var named []Problem
			for _, p := range NameProblems(target, c.name) {
				if p.Rule == target+"-name" {
					named = append(named, p)
				}
			}
			if (len(named) == 0) != want {
				t.Errorf("%s: NameProblems(%q) = %+v, want valid = %v", target, c.name, named, want)
			}
			for _, p := range named {
				if p.Pointer != "" || p.Message == "" {
					t.Errorf("%s: NameProblems(%q): problem %+v, want pointer \"\" and a message", target, c.name, p)
				}
				if p.Warning != (target == MCP) {
					t.Errorf("%s: NameProblems(%q): Warning = %v; only MCP's name rule is a SHOULD", target, c.name, p.Warning)
				}
			}
			mapped := MapName(target, c.name)
			if want && mapped != c.name {
				t.Errorf("%s: MapName(%q) = %q, want the valid name unchanged", target, c.name, mapped)
			}
			if ps := refusals(NameProblems(target, mapped)); len(ps) > 0 || target == MCP && len(NameProblems(target, mapped)) > 0 {
				t.Errorf("%s: MapName(%q) = %q, which has problems %+v", target, c.name, mapped, NameProblems(target, mapped))
			}
		}
	}
	for _, target := range Targets {
		if len(nameRules) != len(Targets) || nameRules[target].allowed == nil {
			t.Errorf("target %s has no name rule", target)
		}
	}
}

func TestMapNameAndMessages(t *testing.T) {
	for _, c := range []struct {
		target, in, mapped, why string
	}{
		{OpenAI, "get weather", "get_weather", "contains a space"},
		{OpenAI, "math.factorial", "math_factorial", `contains "."`},
		{Anthropic, "math.factorial", "math_factorial", `contains "."`},
		{OpenAI, "a . b", "a_b", "contains a space"},
		{OpenAI, "tab\tname", "tab_name", "contains a control character"},
		{OpenAI, strings.Repeat("ab", 40), strings.Repeat("ab", 32), "is 80 characters long"},
		{OpenAI, strings.Repeat("a", 63) + ".b", strings.Repeat("a", 63), `contains "."`},
		{OpenAI, "__keep__", "__keep__", ""},
		{OpenAI, "100%", "100", `contains "%"`},
		{Gemini, "2fa", "tool_2fa", `starts with "2"`},
		{Gemini, "math.factorial", "math.factorial", ""},
		{MCP, "files/search", "files_search", `contains "/"`},
		{MCP, "geo:lookup", "geo_lookup", `contains ":"`},
		{MCP, "math.factorial", "math.factorial", ""},
		{Anthropic, "/// ", "tool", `contains "/"`},
		{Anthropic, "", "tool", ""},
		{OpenAI, "café_lookup", "cafe_lookup", `contains "é"`},
		{Anthropic, "Straße", "Strasse", `contains "ß"`},
		{OpenAI, "查询天气", "tool", `contains "查"`},
		{"bfcl", "math.factorial", "math.factorial", ""},
	} {
		if got := MapName(c.target, c.in); got != c.mapped {
			t.Errorf("%s: MapName(%q) = %q, want %q", c.target, c.in, got, c.mapped)
		}
		ps := NameProblems(c.target, c.in)
		if c.why == "" {
			if c.in != "" && len(ps) > 0 && ps[0].Rule != "gemini-name-separator" {
				t.Errorf("%s: NameProblems(%q) = %+v, want none", c.target, c.in, ps)
			}
			continue
		}
		if len(ps) != 1 || !strings.Contains(ps[0].Message, ": it "+c.why+"; ") {
			t.Errorf("%s: NameProblems(%q) = %+v, want one saying it %s", c.target, c.in, ps, c.why)
			continue
		}
		// The message suggests what MapName gives, when something usable is left.
		if c.mapped != "tool" && !strings.HasSuffix(ps[0].Message, ", e.g. \""+c.mapped+"\"") {
			t.Errorf("%s: NameProblems(%q) message %q does not suggest %q", c.target, c.in, ps[0].Message, c.mapped)
		}
		if c.mapped == "tool" && strings.Contains(ps[0].Message, "e.g.") {
			t.Errorf("%s: NameProblems(%q) message %q suggests a name that no longer says what the tool is", c.target, c.in, ps[0].Message)
		}
	}
}

func TestNameProblemsMessages(t *testing.T) {
	for _, c := range []struct {
		target, name string
		want         []Problem
	}{
		{OpenAI, "math.factorial", []Problem{{Rule: "openai-name", Message: `name "math.factorial" is not valid for OpenAI: it contains "."; use only letters, digits, _ and - (at most 64 characters), e.g. "math_factorial"`}}},
		{Anthropic, "get weather", []Problem{{Rule: "anthropic-name", Message: `name "get weather" is not valid for Anthropic: it contains a space; use only letters, digits, _ and - (at most 128 characters), e.g. "get_weather"`}}},
		{Gemini, "2fa", []Problem{{Rule: "gemini-name", Message: `name "2fa" is not valid for Gemini: it starts with "2"; start with a letter or _ and use only letters, digits, _ . : and - (at most 128 characters), e.g. "tool_2fa"`}}},
		{Gemini, "geo:look-up", []Problem{{Rule: "gemini-name-separator", Warning: true, Message: `name "geo:look-up" uses ":", which Gemini accepts but advises against (some SDKs mishandle it); prefer "geo_look_up"`}}},
		{Gemini, "get weather.now", []Problem{{Rule: "gemini-name", Message: `name "get weather.now" is not valid for Gemini: it contains a space; start with a letter or _ and use only letters, digits, _ . : and - (at most 128 characters), e.g. "get_weather.now"`}}},
		{MCP, "files/search", []Problem{{Rule: "mcp-name", Warning: true, Message: `name "files/search" is not valid for MCP: it contains "/"; use 1 to 128 of A-Z, a-z, 0-9, _, - and ., e.g. "files_search"`}}},
		{OpenAI, "", []Problem{{Rule: "openai-name", Message: "the name is empty; use only letters, digits, _ and - (at most 64 characters)"}}},
		{OpenAI, "get_weather", nil},
		{"nowhere", "a b", nil},
	} {
		if got := NameProblems(c.target, c.name); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: NameProblems(%q)\n got %+v\nwant %+v", c.target, c.name, got, c.want)
		}
	}
}

func TestRegexProblem(t *testing.T) {
	for pattern, want := range map[string]string{
		`^[a-z0-9_]+$`:    "",
		`^\d{3}-\d{4}$`:   "",
		`(?<year>\d{4})`:  "",
		`(?:ab)+`:         "",
		`\\1`:             "", // an escaped backslash, then 1
		`[\b]`:            "", // backspace inside a class
		`[(?=]x`:          "", // no group inside a class
		`[]b]\d`:          "", // ] first in a class is literal
		`^(?=.*\d).+$`:    "lookahead",
		`^(?!0)\d+$`:      "negative lookahead",
		`(?<=\$)\d+`:      "lookbehind",
		`(?<!-)\d+`:       "negative lookbehind",
		`(a)\1`:           "backreference",
		`(?<q>')\k<q>`:    "named backreference",
		`\bword\b`:        "word boundary",
		`x\B`:             "word boundary",
		`[a-z]+(?=[A-Z])`: "lookahead",
		`[^\]](?!\d)`:     "negative lookahead",
	} {
		got := regexProblem(pattern)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("regexProblem(%q) = %q, want %q", pattern, got, want)
		}
		if want == "lookahead" && strings.Contains(got, "negative") {
			t.Errorf("regexProblem(%q) = %q, want a (positive) lookahead", pattern, got)
		}
	}
}

func TestWalk(t *testing.T) {
	s := schema(t, `{
	    "type": "object",
	    "properties": {
	      "q": {"type": "string"},
	      "token": {"type": "string", "properties": {"hidden": {"type": "string"}}},
	      "filter": {
	        "type": "object",
	        "properties": {"limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
	        "required": ["limit"]
	      },
	      "tags": {"type": "array", "items": {"type": "object", "properties": {"k/v": {"type": "string"}}}}
	    },
	    "required": ["q"],
	    "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}
	  }`)
	type row struct {
		Ptr, Name, Kw, Key string
		Depth              int
		Prop, Required     bool
		Label              string
	}
	var got []row
	walk(s, map[string]bool{"token": true}, func(n *node) {
		got = append(got, row{n.ptr, n.name, n.kw, n.key, n.depth, n.prop, n.required, n.label()})
	})
	want := []row{
		{"", "", "", "", 0, false, false, "the input schema"},
		{"/properties/q", "q", "properties", "q", 1, true, true, `parameter "q"`},
		// token is bound: skipped with what it holds.
		{"/properties/filter", "filter", "properties", "filter", 1, true, false, `parameter "filter"`},
		{"/properties/filter/properties/limit", "filter.limit", "properties", "limit", 2, true, true, `parameter "filter.limit"`},
		{"/properties/filter/properties/limit/anyOf/0", "filter.limit", "anyOf", "", 2, false, false, `parameter "filter.limit"`},
		{"/properties/filter/properties/limit/anyOf/1", "filter.limit", "anyOf", "", 2, false, false, `parameter "filter.limit"`},
		{"/properties/tags", "tags", "properties", "tags", 1, true, false, `parameter "tags"`},
		{"/properties/tags/items", "tags[]", "items", "", 2, false, false, `parameter "tags[]"`},
		{"/properties/tags/items/properties/k~1v", "tags[].k/v", "properties", "k/v", 3, true, false, `parameter "tags[].k/v"`},
		{"/$defs/node", "node", "$defs", "node", 0, false, false, `definition "node"`},
		{"/$defs/node/properties/next", "node.next", "properties", "next", 1, true, false, `definition "node.next"`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("walk:\n got %+v\nwant %+v", got, want)
	}
}

func TestRecursiveRefs(t *testing.T) {
	for _, c := range []struct {
		name   string
		schema string
		want   []string // pointers of the recursive refs
	}{
		{"none", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}, "b": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}}`, nil},
		{"root", `{"type": "object", "properties": {"child": {"$ref": "#"}}}`, []string{"/properties/child"}},
		{"self", `{"type": "object", "properties": {"n": {"$ref": "#/$defs/n"}}, "$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}}}}`,
			[]string{"/$defs/n/properties/next"}},
		{"mutual", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {
			"a": {"type": "object", "properties": {"b": {"$ref": "#/$defs/b"}}},
			"b": {"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}}}}`,
			[]string{"/$defs/a/properties/b", "/$defs/b/properties/a"}},
		{"chain", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {
			"a": {"type": "object", "properties": {"b": {"$ref": "#/$defs/b"}}},
			"b": {"type": "string"}}}`, nil},
		{"external", `{"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}`, nil},
	} {
		rs := refs(schema(t, c.schema), nil)
		rec := recursive(rs)
		var got []string
		for i := range rs {
			if rec[i] {
				got = append(got, rs[i].node.ptr)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: recursive refs %v, want %v", c.name, got, c.want)
		}
	}
}
func TestSchemaProblems(t *testing.T) {
	type want struct {
		rule, ptr string
		key       bool
		msg       string // a part of the message
	}
	// Every case's schema binds "token": its problems must not show.
	const token = `"token": {"type": "object", "additionalProperties": true, "not": {}, "minLength": 1, "const": "x"}`
	for _, c := range []struct {
		name, target, schema string
		want                 []want
	}{
		{"openai clean", OpenAI, `{"type": "object", "properties": {"q": {"type": "string", "format": "email", "default": "a"}, "n": {"type": "integer", "minimum": 1},
			"o": {"type": "object", "properties": {"k": {"type": "string"}}}, "one": {"allOf": [{"type": "string"}]}, ` + token + `}}`, nil},
		{"openai keywords", OpenAI, `{"type": "object", "anyOf": [{"required": ["a"]}],
			"properties": {"a": {"type": "string", "format": "uri"}, "b": {"allOf": [{"type": "string"}, {"minLength": 1}]},
			"c": {"type": "object", "additionalProperties": {"type": "string"}}, "d": {"if": {}, "then": {}}, ` + token + `},
			"$defs": {"x": {"dependentRequired": {}}}}`, []want{
			{"openai-strict-schema", "/anyOf", true, "the input schema is an anyOf at the top level"},
			{"openai-strict-schema", "/properties/a/format", false, `parameter "a" has format "uri"`},
			// The schemas under refused keywords (the root's anyOf, allOf of 2, if, then)
			// are not reported for their missing type.
			{"openai-strict-schema", "/properties/b/allOf", true, `parameter "b" combines 2 schemas with allOf`},
			{"openai-strict-schema", "/properties/c/additionalProperties", true, `parameter "c" allows additional properties ({"type":"string"})`},
			{"openai-strict-schema", "/properties/d", false, `parameter "d" has no type, so it accepts any JSON value; OpenAI strict mode needs a type on every schema`},
			{"openai-strict-schema", "/properties/d/if", true, `parameter "d" uses if`},
			{"openai-strict-schema", "/properties/d/then", true, `parameter "d" uses then`},
			{"openai-strict-schema", "/$defs/x", false, `definition "x" has no type`},
			{"openai-strict-schema", "/$defs/x/dependentRequired", true, `definition "x" uses dependentRequired`},
		}},
		{"anthropic clean", Anthropic, `{"type": "object", "properties": {"u": {"type": "string", "format": "uri", "pattern": "^[a-z]+$"},
			"l": {"type": "array", "minItems": 1, "items": {"enum": ["a", 1, true, null]}}, "r": {"$ref": "#/$defs/r"}, ` + token + `},
			"$defs": {"r": {"type": "string"}}}`, nil},
		{"anthropic keywords", Anthropic, `{"type": "object", "properties": {
			"n": {"type": "integer", "maximum": 5}, "s": {"type": "string", "maxLength": 5, "pattern": "\\bx"},
			"l": {"type": "array", "minItems": 2, "uniqueItems": true}, "e": {"enum": [{"a": 1}, [1]]},
			"f": {"type": "string", "format": "uri-reference"}, "x": {"$ref": "other.json"}, "me": {"$ref": "#"}, ` + token + `},
			"additionalProperties": true}`, []want{
			{"anthropic-strict-schema", "/properties/x/$ref", false, `parameter "x" refers to "other.json" outside the input schema`},
			{"anthropic-strict-schema", "/properties/me/$ref", false, `parameter "me" refers to "#" recursively`},
			// The root's keywords come first: the walk checks a schema before its parameters.
			{"anthropic-strict-schema", "/additionalProperties", true, "the input schema allows additional properties (true)"},
			{"anthropic-strict-schema", "/properties/n/maximum", true, `parameter "n" uses maximum`},
			{"anthropic-strict-schema", "/properties/s/maxLength", true, `parameter "s" uses maxLength`},
			{"anthropic-strict-schema", "/properties/s/pattern", false, `pattern "\\bx" uses a word boundary (\b)`},
			{"anthropic-strict-schema", "/properties/l/minItems", false, `parameter "l" has minItems 2`},
			{"anthropic-strict-schema", "/properties/l/uniqueItems", true, `parameter "l" uses uniqueItems`},
			{"anthropic-strict-schema", "/properties/e/enum/0", false, `enum value {"a":1} is an object`},
			{"anthropic-strict-schema", "/properties/e/enum/1", false, `enum value [1] is a list`},
			{"anthropic-strict-schema", "/properties/f/format", false, `parameter "f" has format "uri-reference"`},
		}},
		{"gemini clean", Gemini, `{"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 9}, "a": {"anyOf": [{"type": "string"}]}, ` + token + `}}`, nil},
		{"gemini keywords", Gemini, `{"type": "object", "properties": {"u": {"const": "c"}, "v": {"oneOf": [{"type": "string"}]}, "a~b": {"type": "number", "exclusiveMinimum": 0}, ` + token + `}}`, []want{
			{"gemini-schema", "/properties/u/const", true, `parameter "u" uses const, which Gemini ignores`},
			{"gemini-schema", "/properties/v/oneOf", true, `parameter "v" uses oneOf, which Gemini ignores, so the model never sees this constraint; use anyOf`},
			{"gemini-schema", "/properties/a~0b/exclusiveMinimum", true, `parameter "a~b" uses exclusiveMinimum`},
		}},
		{"mcp", MCP, `{"type": "object", "properties": {"x": {"$ref": "elsewhere.json", "not": {}}}, "additionalProperties": true}`, nil},
		{"unknown target", "bfcl", `{"type": "object", "not": {}}`, nil},
	} {
		got := SchemaProblems(c.target, schema(t, c.schema), map[string]bool{"token": true})
		if len(got) != len(c.want) {
			t.Errorf("%s: got %d problems, want %d: %+v", c.name, len(got), len(c.want), got)
			continue
		}
		for i, w := range c.want {
			g := got[i]
			if g.Rule != w.rule || g.Pointer != w.ptr || g.Key != w.key || !strings.Contains(g.Message, w.msg) || g.Warning != (c.target == Gemini) {
				t.Errorf("%s: problem %d = %+v, want %+v", c.name, i, g, w)
			}
		}
	}
	if got := SchemaProblems(OpenAI, nil, nil); got != nil {
		t.Errorf("no schema: %+v", got)
	}
}

func TestOpenAISizeLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type": "object", "properties": {"e": {"type": "string", "enum": [`)
	for i := range OpenAIMaxEnumValues + 1 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"v` + strings.Repeat("x", i%3) + `"`)
	}
	b.WriteString(`]}}}`)
	got := SchemaProblems(OpenAI, schema(t, b.String()), nil)
	if len(got) != 1 || got[0].Pointer != "/properties/e/enum/1000" || got[0].Key || !strings.Contains(got[0].Message, "enum value number 1001") {
		t.Errorf("1001 enum values: %+v", got)
	}
	deep := `{"type": "string"}`
	for range OpenAIMaxDepth + 1 {
		deep = `{"type": "object", "properties": {"p": ` + deep + `}}`
	}
	got = SchemaProblems(OpenAI, schema(t, deep), nil)
	if len(got) != 1 || got[0].Pointer != strings.Repeat("/properties/p", OpenAIMaxDepth+1) || !strings.Contains(got[0].Message, "nested 11 levels deep") {
		t.Errorf("11 levels: %+v", got)
	}
}

func TestAnthropicStrictLimits(t *testing.T) {
	optional := func(n int, union bool) *spec.Map {
		props := make([]string, n)
		for i := range props {
			typ := `"string"`
			if union {
				typ = `["string", "null"]`
			}
			props[i] = `"o` + strings.Repeat("x", i) + `": {"type": ` + typ + `}`
		}
		return schema(t, `{"type": "object", "properties": {`+strings.Join(props, ",")+`}}`)
	}
	tools := make([]StrictTool, AnthropicMaxStrictTools+1)
	for i := range tools {
		tools[i] = StrictTool{Name: "t" + strings.Repeat("i", i)}
	}
	tools[0].Schema = optional(AnthropicMaxOptional, false) // at the limit
	tools[1].Schema = optional(3, false)
	tools[1].Bound = map[string]bool{"o": true} // bound: not counted, so ox is the 25th
	tools[2].Schema = optional(AnthropicMaxUnions+1, true)
	got := AnthropicStrictLimits(tools)
	type row struct {
		tool  int
		whole bool
		ptr   string
		msg   string
	}
	want := []row{
		{1, false, "/properties/ox", `parameter "ox" is optional parameter number 25`},
		{2, false, "/properties/o" + strings.Repeat("x", AnthropicMaxUnions), "is union-typed parameter number 17"},
		{AnthropicMaxStrictTools, true, "", `tool "t` + strings.Repeat("i", AnthropicMaxStrictTools) + `" is strict tool number 21`},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %d problems", got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Tool != w.tool || g.Whole != w.whole || g.Pointer != w.ptr || g.Key == w.whole || g.Rule != "anthropic-strict-limits" || !strings.Contains(g.Message, w.msg) {
			t.Errorf("problem %d = %+v, want %+v", i, g, w)
		}
	}
	if got := AnthropicStrictLimits(tools[:2]); len(got) != 1 {
		t.Errorf("two tools: %+v, want only the optional count", got)
	}
}

func TestExclusive(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{`[{"type": "string"}, {"type": "integer"}]`, true},
		{`[{"type": "number"}, {"type": "integer"}]`, false},
		{`[{"type": "string"}, {"description": "anything"}]`, false},
		{`[{"const": "a"}, {"const": "b"}]`, true},
		{`[{"enum": ["a", "b"]}, {"enum": ["b"]}]`, false},
		{`[{"type": "object", "properties": {"k": {"const": 1}}, "required": ["k"]}, {"type": "object", "properties": {"k": {"const": 2}}, "required": ["k"]}]`, true},
		{`[{"type": "object", "properties": {"k": {"const": 1}}}, {"type": "object", "properties": {"k": {"const": 2}}, "required": ["k"]}]`, false},
		// Implied types count, as export --strict adds them before judging.
		{`[{"enum": ["a", "b"]}, {"properties": {"a": {"type": "string"}}}]`, true},
		{`[{"items": {"type": "string"}}, {"enum": [1, 2.5]}]`, true},
		{`[{"enum": [1]}, {"type": "number"}]`, false},
	} {
		v, err := spec.DecodeJSON([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := Exclusive(v.([]any), spec.NewMap(0)); got != tc.want {
			t.Errorf("%s: Exclusive %v, want %v", tc.src, got, tc.want)
		}
	}
}

// The checks export --strict used to run on its own: a type on every
// schema (implied ones count), items on OpenAI arrays, an exclusive oneOf;
// a one-schema allOf and a $ref with siblings are judged merged, as the
// transform merges them.
func TestStrictSharedChecks(t *testing.T) {
	type want struct{ ptr, msg string }
	for _, c := range []struct {
		name, target, schema string
		want                 []want
	}{
		{"implied types", OpenAI, `{"properties": {"e": {"enum": ["a", 1]}, "c": {"const": true}, "o": {"properties": {"k": {"type": "string"}}},
			"l": {"items": {"type": "string"}}, "k": {"oneOf": [{"enum": ["a"]}, {"properties": {"x": {"type": "string"}}}]}}}`, nil},
		{"no type", OpenAI, `{"properties": {"any": {"description": "Anything."}, "obj": {"const": {"a": 1}},
			"m": {"description": "M.", "allOf": [{"title": "inner"}]}, "r": {"$ref": "#/$defs/d", "title": "R"}, "r2": {"$ref": "#/$defs/d"}},
			"$defs": {"d": {"description": "Anything."}}}`, []want{
			{"/properties/any", `parameter "any" has no type, so it accepts any JSON value; OpenAI strict mode needs a type`},
			{"/properties/obj", `parameter "obj" has no type`},
			{"/properties/m", `parameter "m" has no type`},
			{"/properties/r", `parameter "r" has no type`},
			{"/$defs/d", `definition "d" has no type`},
		}},
		{"anthropic const", Anthropic, `{"properties": {"obj": {"const": {"a": 1}}, "s": {"const": "x"}}}`, []want{
			{"/properties/obj/const", `parameter "obj": const value {"a":1} is an object`},
		}},
		{"items", OpenAI, `{"properties": {"a": {"type": "array"}, "n": {"type": ["array", "null"]}, "t": {"prefixItems": [{"type": "string"}]},
			"m": {"description": "M.", "allOf": [{"type": "array"}]}, "ok": {"type": "array", "items": {"type": "string"}}}}`, []want{
			{"/properties/a", `parameter "a" is an array without items, which OpenAI refuses even without strict mode`},
			{"/properties/n", `parameter "n" is an array without items`},
			{"/properties/t", `parameter "t" is an array without items`},
			{"/properties/m", `parameter "m" is an array without items`},
		}},
		{"anthropic arrays", Anthropic, `{"properties": {"a": {"type": "array"}}}`, nil},
		{"oneOf", Anthropic, `{"properties": {"x": {"oneOf": [{"type": "number"}, {"type": "integer"}]},
			"y": {"oneOf": [{"type": "string"}, {"type": "integer"}]}, "z": {"oneOf": [{"type": "string"}], "anyOf": [{"type": "string"}]}}}`, []want{
			{"/properties/x/oneOf", `parameter "x" uses oneOf whose alternatives may overlap; Anthropic strict mode supports only anyOf`},
			{"/properties/z/oneOf", `parameter "z" uses both oneOf and anyOf`},
		}},
		{"anthropic allOf $ref", Anthropic, `{"properties": {"one": {"allOf": [{"$ref": "#/$defs/s"}]}, "two": {"allOf": [{"$ref": "#/$defs/s"}, {"type": "string"}]}},
			"$defs": {"s": {"type": "string"}}}`, []want{
			{"/properties/two/allOf/0/$ref", `parameter "two" uses $ref inside allOf`},
		}},
	} {
		got := SchemaProblems(c.target, schema(t, c.schema), nil)
		if len(got) != len(c.want) {
			t.Errorf("%s: got %d problems, want %d: %+v", c.name, len(got), len(c.want), got)
			continue
		}
		for i, w := range c.want {
			if got[i].Pointer != w.ptr || !strings.Contains(got[i].Message, w.msg) {
				t.Errorf("%s: problem %d = %+v, want %+v", c.name, i, got[i], w)
			}
		}
	}
	// Without strict mode only the arrays count.
	got := ArraysWithoutItems(schema(t, `{"properties": {"a": {"type": "array"}, "b": {"description": "B."}, "tok": {"type": "array"}}}`), map[string]bool{"tok": true})
	if len(got) != 1 || got[0].Pointer != "/properties/a" || got[0].Rule != "openai-strict-schema" {
		t.Errorf("ArraysWithoutItems: %+v", got)
	}
}

func TestInferType(t *testing.T) {
	for _, c := range []struct {
		schema string
		want   any
	}{
		{`{"enum": ["a", "b"]}`, "string"},
		{`{"enum": [1, 2.5]}`, "number"},
		{`{"enum": ["a", 1, null]}`, []any{"string", "integer", "null"}},
		{`{"const": false}`, "boolean"},
		{`{"enum": [{"a": 1}]}`, nil},
		{`{"properties": {}}`, "object"},
		{`{"prefixItems": []}`, "array"},
		{`{"enum": ["a"], "anyOf": [{"type": "string"}]}`, nil},
		{`{"description": "x"}`, nil},
	} {
		if got := InferType(schema(t, c.schema)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("InferType(%s) = %v, want %v", c.schema, got, c.want)
		}
	}
}

func TestMerge(t *testing.T) {
	root := schema(t, `{"$defs": {"x": {"type": "object", "description": "X.", "allOf": [{"required": ["a"]}]}}}`)
	s := schema(t, `{"description": "Mine.", "allOf": [{"$ref": "#/$defs/x", "title": "T"}]}`)
	var moves []string
	Merge(s, root, func(key, from string, local bool) { moves = append(moves, fmt.Sprintf("%s<-%s %v", key, from, local)) })
	b, _ := s.MarshalJSON()
	if want := `{"description":"Mine.","title":"T","type":"object","required":["a"]}`; string(b) != want {
		t.Errorf("merged %s, want %s", b, want)
	}
	wantMoves := []string{"$ref<-/allOf/0/$ref true", "title<-/allOf/0/title true", "type<-/$defs/x/type false", "allOf<-/$defs/x/allOf false", "required<-/allOf/0/required true"}
	if !reflect.DeepEqual(moves, wantMoves) {
		t.Errorf("moves %v, want %v", moves, wantMoves)
	}
}

// An object that declares no keys and allows no others can only be {} in
// strict mode: advisory for both providers (export --strict warns), the
// same on the source (lint) and on export's output.
func TestFreeFormObjects(t *testing.T) {
	src := `{"type": "object", "properties": {
	  "a": {"type": "object", "description": "A."},
	  "b": {"type": "object", "properties": {}, "additionalProperties": false},
	  "c": {"type": "object", "additionalProperties": {"type": "string"}},
	  "d": {"type": "object", "patternProperties": {"^x": {"type": "string"}}},
	  "e": {"type": "object", "properties": {"k": {"type": "string"}}},
	  "f": {"allOf": [{"type": "object", "properties": {"k": {"type": "string"}}}]},
	  "g": {"type": "array", "items": {"type": "object"}},
	  "h": {"properties": {}},
	  "token": {"type": "object"}},
	  "$defs": {"x": {"type": "object"}}}`
	for _, target := range []string{OpenAI, Anthropic} {
		var got []string
		for _, p := range SchemaProblems(target, schema(t, src), map[string]bool{"token": true}) {
			if strings.Contains(p.Message, "is an object without properties") {
				if !p.Warning || p.Key || p.Rule != target+"-strict-schema" {
					t.Errorf("%s: %+v, want a warning of %s-strict-schema at the value", target, p, target)
				}
				got = append(got, p.Pointer+" "+strings.SplitN(p.Message, " is ", 2)[0])
			}
		}
		want := []string{`/properties/a parameter "a"`, `/properties/b parameter "b"`, `/properties/g/items parameter "g[]"`, `/properties/h parameter "h"`, `/$defs/x definition "x"`}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("%s: free-form objects\n got %q\nwant %q", target, got, want)
		}
	}
	// The root is the tool's input: without parameters it is no problem.
	if ps := SchemaProblems(OpenAI, schema(t, `{"type": "object"}`), nil); len(ps) != 0 {
		t.Errorf("an empty root: %+v", ps)
	}
}
