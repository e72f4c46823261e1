package spec

import (
	"encoding/json"
	"testing"
)

func TestMapKeepsOrder(t *testing.T) {
	m := NewMap(0)
	m.Set("zeta", 1)
	m.Set("alpha", "a")
	m.Set("mid", nil)
	m.Set("zeta", json.Number("2")) // replace in place
	m.SetFirst("type", "object")
	m.Delete("mid")
	got, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"object","zeta":2,"alpha":"a"}`; string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if keys := m.Keys(); len(keys) != 3 || keys[0] != "type" || keys[2] != "alpha" {
		t.Fatalf("keys %v", keys)
	}
}

func TestJSONRoundTripIsByteStable(t *testing.T) {
	src := `{"b":1.0,"a":[1e3,{"y":true,"x":null}],"s":"<&> \u2028 ü","n":-0.5}`
	v, err := DecodeJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := MarshalJSONIndent(v)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"b\": 1.0,\n  \"a\": [\n    1e3,\n    {\n      \"y\": true,\n      \"x\": null\n    }\n  ],\n  \"s\": \"<&> \\u2028 ü\",\n  \"n\": -0.5\n}\n"
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	var m Map
	if err := json.Unmarshal([]byte(src), &m); err != nil {
		t.Fatal(err)
	}
	if m.Keys()[0] != "b" {
		t.Fatalf("UnmarshalJSON lost order: %v", m.Keys())
	}
	if _, err := DecodeJSON([]byte(`{} {}`)); err == nil {
		t.Fatal("trailing data accepted")
	}
}

func TestCloneIsDeep(t *testing.T) {
	inner := NewMap(1)
	inner.Set("k", "v")
	m := NewMap(1)
	m.Set("inner", inner)
	m.Set("list", []any{inner})
	c := m.Clone()
	inner.Set("k", "changed")
	cm, _ := c.GetMap("inner")
	if s, _ := cm.GetString("k"); s != "v" {
		t.Fatalf("clone shares nested map")
	}
}

func TestPlain(t *testing.T) {
	m := NewMap(1)
	sub := NewMap(1)
	sub.Set("x", json.Number("1"))
	m.Set("a", []any{sub})
	p := Plain(m).(map[string]any)
	if p["a"].([]any)[0].(map[string]any)["x"] != json.Number("1") {
		t.Fatalf("plain = %#v", p)
	}
}

func TestYAMLOutput(t *testing.T) {
	m := NewMap(0)
	m.Set("name", "x")
	m.Set("multi", "line one\nline two\n")
	m.Set("looks_like_bool", "true")
	m.Set("version", "1.0")
	m.Set("num", json.Number("1.50"))
	m.Set("list", []any{"a", json.Number("2")})
	out, err := MarshalYAMLDoc(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `name: x
multi: |
  line one
  line two
looks_like_bool: "true"
version: "1.0"
num: 1.50
list:
  - a
  - 2
`
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}

func TestPointer(t *testing.T) {
	p := Pointer("a/b", "c~d", "0")
	if p != "/a~1b/c~0d/0" {
		t.Fatalf("pointer %q", p)
	}
	got := SplitPointer(p)
	if len(got) != 3 || got[0] != "a/b" || got[1] != "c~d" || got[2] != "0" {
		t.Fatalf("split %q", got)
	}
	if SplitPointer("") != nil || SplitPointer("/") != nil {
		t.Fatal("root pointer should have no tokens")
	}
}

func TestSuggest(t *testing.T) {
	cands := []string{"name", "description", "detail", "category", "parameters"}
	for word, want := range map[string]string{
		"descripton": "description", "catgory": "category", "nmae": "name",
		"paramters": "parameters", "zzzzzz": "", "parms": "",
	} {
		if got := Suggest(word, cands); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", word, got, want)
		}
	}
}
