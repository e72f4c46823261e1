package breaking

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

func parseTool(t *testing.T, src string) *Tool {
	t.Helper()
	f := spec.ParseFile("t.yaml", []byte(src))
	if len(f.Errors) > 0 || len(f.Tools) != 1 {
		t.Fatalf("parse: %v\n%s", f.Errors, src)
	}
	return FromSpec(f.Tools[0])
}

func withInput(schema string) string {
	return "name: t\ndescription: Does t. Use when t is needed.\ninput_schema:\n" + indent(schema, "  ")
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// Equivalent spellings have one canonical form, and Compare finds
// nothing between them.
func TestEquivalentForms(t *testing.T) {
	groups := [][]string{
		{ // nullable, three ways
			"type: object\nproperties:\n  a: {type: [string, \"null\"], description: A.}\n",
			"type: object\nproperties:\n  a: {anyOf: [{type: string}, {type: \"null\"}], description: A.}\n",
			"type: object\nproperties:\n  a: {type: string, nullable: true, description: A.}\n",
			"type: object\nproperties:\n  a: {oneOf: [{type: \"null\"}, {type: string}], description: A.}\n",
		},
		{ // a nullable enum: null joins the enum
			"type: object\nproperties:\n  a: {type: [string, \"null\"], enum: [x, y, null]}\n",
			"type: object\nproperties:\n  a: {anyOf: [{type: string, enum: [x, y]}, {type: \"null\"}]}\n",
			"type: object\nproperties:\n  a: {type: string, enum: [x, y], nullable: true}\n",
		},
		{ // $ref into $defs, a one-element allOf, written inline
			"type: object\nproperties:\n  p: {$ref: \"#/$defs/pt\"}\n$defs:\n  pt: {type: object, properties: {x: {type: number}}, required: [x]}\n",
			"type: object\nproperties:\n  p: {allOf: [{type: object, properties: {x: {type: number}}}], required: [x]}\n",
			"type: object\nproperties:\n  p: {type: object, required: [x], properties: {x: {type: number}}}\n",
		},
		{ // a one-type list, numbers in any spelling, required in any order
			"type: object\nproperties:\n  n: {type: [integer], maximum: 10, enum: [1, 2]}\n  m: {type: string}\nrequired: [n, m]\n",
			"type: object\nproperties:\n  m: {type: string}\n  n: {type: integer, maximum: 10.0, enum: [1.0, 2e0]}\nrequired: [m, n]\n",
		},
		{ // integer beside number is number; an anyOf of bare types is a type list
			"type: object\nproperties:\n  n: {type: [number, integer, string]}\n",
			"type: object\nproperties:\n  n: {anyOf: [{type: string}, {type: number}]}\n",
		},
		{ // nullable beside a $ref is about the target's type
			"type: object\nproperties:\n  p: {$ref: \"#/$defs/s\", nullable: true}\n$defs:\n  s: {type: string}\n",
			"type: object\nproperties:\n  p: {type: [string, \"null\"]}\n",
		},
		{ // properties: {} says nothing
			"type: object\nproperties: {}\n",
			"type: object\n",
		},
		{ // draft 4's boolean exclusiveMinimum
			"type: object\nproperties:\n  n: {type: number, minimum: 0, exclusiveMinimum: true}\n",
			"type: object\nproperties:\n  n: {type: number, exclusiveMinimum: 0}\n",
		},
	}
	for gi, g := range groups {
		first := parseTool(t, withInput(g[0]))
		for _, src := range g[1:] {
			other := parseTool(t, withInput(src))
			if a, b := string(first.JSON()), string(other.JSON()); a != b {
				t.Errorf("group %d: canonical forms differ:\n%s\n%s\nfrom\n%s", gi, a, b, src)
			}
			for _, d := range Compare([]*Tool{first}, []*Tool{other}, Options{Additions: true}) {
				t.Errorf("group %d: %s\nfrom\n%s", gi, d.String(), src)
			}
		}
	}
}

// A recursive schema compares without end; a schema whose references
// multiply (each definition using the next twice) is cut at the budget
// instead of expanding 2^40 nodes.
func TestReferencesBounded(t *testing.T) {
	rec := withInput("type: object\nproperties:\n  tree: {$ref: \"#/$defs/node\"}\n$defs:\n  node:\n    type: object\n    properties:\n      children: {type: array, items: {$ref: \"#/$defs/node\"}}\n      label: {type: string}\n")
	a, b := parseTool(t, rec), parseTool(t, strings.Replace(rec, "label: {type: string}", "label: {type: integer}", 1))
	found := false
	for _, d := range Compare([]*Tool{a}, []*Tool{b}, Options{}) {
		found = found || (d.Rule == "type-changed" && strings.Contains(d.Message, "parameter tree.label "))
	}
	if !found {
		t.Errorf("recursive schema: no type-changed of tree.label")
	}

	var sb strings.Builder
	sb.WriteString("type: object\nproperties:\n  x: {$ref: \"#/$defs/d0\"}\n$defs:\n")
	for i := range 40 {
		sb.WriteString("  d" + itoa(i) + ": {type: object, properties: {l: {$ref: \"#/$defs/d" + itoa(i+1) + "\"}, r: {$ref: \"#/$defs/d" + itoa(i+1) + "\"}}}\n")
	}
	sb.WriteString("  d40: {type: string}\n")
	start := time.Now()
	bomb := parseTool(t, withInput(sb.String()))
	_ = Compare([]*Tool{bomb}, []*Tool{bomb}, Options{})
	_ = bomb.JSON()
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("a schema of multiplying references took %s", d)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// CanonicalJSON ignores layout and key order but not meaning.
func TestCanonicalJSON(t *testing.T) {
	a := spec.ParseFile("a.yaml", []byte("name: t\ndescription: Does t. Use when t is needed.\nversion: \"1.0.0\"\ninput_schema:\n  type: object\n  properties:\n    q: {type: string}\n"))
	b := spec.ParseFile("b.json", []byte(`{"input_schema": {"properties": {"q": {"type": "string"}}, "type": "object"}, "version": "1.0.0", "description": "Does t. Use when t is needed.", "name": "t"}`))
	c := spec.ParseFile("c.yaml", []byte("name: t\ndescription: Does t. Use when t is needed.\nversion: \"1.0.0\"\nparameters:\n  - {name: q, type: string, required: false}\n"))
	ja, jb, jc := string(CanonicalJSON(a.Tools[0])), string(CanonicalJSON(b.Tools[0])), string(CanonicalJSON(c.Tools[0]))
	want := `{"description":"Does t. Use when t is needed.","input_schema":{"properties":{"q":{"type":"string"}},"type":"object"},"name":"t","version":"1.0.0"}`
	if ja != want || jb != want || jc != want {
		t.Errorf("canonical JSON:\n%s\n%s\n%s\nwant\n%s", ja, jb, jc, want)
	}
	d := spec.ParseFile("d.yaml", []byte("name: t\ndescription: Does t. Use when t is needed.\nversion: \"1.0.0\"\ninput_schema:\n  type: object\n  properties:\n    q: {type: string, maxLength: 5}\n"))
	if string(CanonicalJSON(d.Tools[0])) == want {
		t.Error("a maxLength added does not change the canonical JSON")
	}
	// How it runs is pinned too: the entry's code, a binding's source, the
	// runtime; the entry type's alias is the canonical type.
	js := "name: t\ndescription: Does t. Use when t is needed.\nentry:\n  type: javascript\n  code: \"function execute(i) { return 1 }\"\nbind:\n  key: {env: KEY}\nruntime: {timeout: 5s}\n"
	base := string(CanonicalJSON(spec.ParseFile("e.yaml", []byte(js)).Tools[0]))
	for _, change := range [][2]string{{"return 1", "return 2"}, {"env: KEY", "env: OTHER_KEY"}, {"timeout: 5s", "timeout: 6s"}} {
		if got := string(CanonicalJSON(spec.ParseFile("e.yaml", []byte(strings.Replace(js, change[0], change[1], 1))).Tools[0])); got == base {
			t.Errorf("%s → %s does not change the canonical JSON %s", change[0], change[1], base)
		}
	}
	rest := "name: t\ndescription: Does t. Use when t is needed.\nentry: {type: rest, url: \"https://x.example/a\", method: GET}\n"
	if got := string(CanonicalJSON(spec.ParseFile("r.yaml", []byte(rest)).Tools[0])); !strings.Contains(got, `"type":"http"`) {
		t.Errorf("entry type rest: %s, want the canonical type http", got)
	}
}

// Numbers an attacker may write (1e999999, a mantissa of a million
// digits) neither hang nor grow the canonical form: they are compared as
// float64, and dropped when infinite; ordinary numbers stay exact.
func TestHugeNumbers(t *testing.T) {
	long := "1" + strings.Repeat("0", 1_000_000)
	start := time.Now()
	var huge []string
	for range 20 {
		huge = append(huge, "1e999999", long)
	}
	for _, s := range huge {
		if r, ok := toRat(json.Number(s)); ok && len(r.String()) > 400 {
			t.Fatalf("%.20s…: a %d-character rational", s, len(r.String()))
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("40 huge numbers took %s", d)
	}
	if r, ok := toRat(json.Number("0.1")); !ok || r.String() != "1/10" {
		t.Errorf("0.1 is %v %v, want exactly 1/10", r, ok)
	}
	if r, ok := toRat(json.Number("1e300")); !ok || !r.IsInt() {
		t.Errorf("1e300: %v %v", r, ok)
	}
}

// A tool removed while another with the same parameters appears is a
// rename; tools without parameters are never paired.
func TestRename(t *testing.T) {
	withParam := withInput("type: object\nproperties:\n  q: {type: string}\n")
	a := parseTool(t, withParam)
	b := parseTool(t, strings.Replace(withParam, "name: t", "name: u", 1))
	ds := Compare([]*Tool{a}, []*Tool{b}, Options{Additions: true})
	if len(ds) != 1 || ds[0].Rule != "tool-renamed" || !strings.Contains(ds[0].Message, "tool t was renamed to u") {
		t.Errorf("rename: %v", ds)
	}
	bare := "name: t\ndescription: Does t. Use when t is needed.\n"
	c, d := parseTool(t, bare), parseTool(t, strings.Replace(bare, "name: t", "name: u", 1))
	var rules []string
	for _, x := range Compare([]*Tool{c}, []*Tool{d}, Options{Additions: true}) {
		rules = append(rules, x.Rule)
	}
	if !slices.Equal(rules, []string{"tool-removed", "tool-added"}) && !slices.Equal(rules, []string{"tool-added", "tool-removed"}) {
		t.Errorf("tools without parameters: %v, want tool-removed and tool-added", rules)
	}
}

// A keyword beside an anyOf that changes is one finding, not one more per
// alternative.
func TestUnionBaseOnce(t *testing.T) {
	old := withInput("type: object\nproperties:\n  v:\n    maxLength: 10\n    anyOf: [{type: string, minLength: 1}, {type: integer, minimum: 0}]\n")
	a, b := parseTool(t, old), parseTool(t, strings.Replace(old, "maxLength: 10", "maxLength: 5", 1))
	n := 0
	for _, d := range Compare([]*Tool{a}, []*Tool{b}, Options{}) {
		if d.Rule == "constraint-tightened" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d constraint-tightened findings, want 1", n)
	}
}

// A type written beside an enum that implies it is no change; one that
// excludes enum values is.
func TestEnumImpliesType(t *testing.T) {
	old := parseTool(t, withInput("type: object\nproperties:\n  o: {enum: [asc, desc]}\n  n: {enum: [1, 2]}\n"))
	same := parseTool(t, withInput("type: object\nproperties:\n  o: {type: string, enum: [asc, desc]}\n  n: {type: number, enum: [1, 2]}\n"))
	for _, d := range Compare([]*Tool{old}, []*Tool{same}, Options{Additions: true}) {
		t.Errorf("a type the enum implies: %s", d.String())
	}
	narrower := parseTool(t, withInput("type: object\nproperties:\n  o: {type: string, enum: [asc, desc]}\n  n: {type: string, enum: [1, 2]}\n"))
	var got []string
	for _, d := range Compare([]*Tool{old}, []*Tool{narrower}, Options{}) {
		got = append(got, d.Rule+" "+d.Message)
	}
	if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), "type-changed the type of parameter n changed from integer to string") {
		t.Errorf("enum [1, 2] typed string: %v", got)
	}
}

// An http entry's target is its origin, placeholders kept: a new path is
// no new target, a new host (or host variable) is.
func TestURLOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.example.com/v1/search?q={q}": "https://api.example.com",
		"HTTPS://API.example.com:8443/x":          "https://api.example.com:8443",
		"https://{host}/v1/items":                 "https://{host}",
		"${BASE_URL}/v1/items":                    "${BASE_URL}",
		"https://${API_HOST}/v2":                  "https://${API_HOST}",
	} {
		if got := urlOrigin(in); got != want {
			t.Errorf("urlOrigin(%q) = %q, want %q", in, got, want)
		}
	}
}
