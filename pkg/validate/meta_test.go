package validate

import (
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// FuzzMetaValid: what MetaValid vouches for passes the library's draft
// 2020-12 meta-schema check, and compiles unchecked without a panic
// (Compile skips the library's check for it).
func FuzzMetaValid(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","properties":{"a":{"type":"string","minLength":1}},"required":["a"]}`,
		`{"type":["string","null"],"enum":["a",null],"default":"a"}`,
		`{"$defs":{"d":{"type":"integer","minimum":0}},"properties":{"n":{"$ref":"#/$defs/d"}}}`,
		`{"$id":"urn:toolctl:x#","anyOf":[{"type":"string"},{"const":1}]}`,
		`{"items":{"type":"number","multipleOf":0.5},"uniqueItems":true,"maxItems":3}`,
		`{"additionalProperties":false,"pattern":"^a+$","x-extra":{"type":"nope"}}`,
		`{"not":{"type":"null"},"title":"t","deprecated":true}`,
	} {
		f.Add(seed)
	}
	c := NewCompiler()
	meta, err := c.Compile("https://json-schema.org/draft/2020-12/schema")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var m spec.Map
		if len(doc) > 1<<12 || m.UnmarshalJSON([]byte(doc)) != nil || !MetaValid(&m) {
			return
		}
		if ps := Validate(meta, spec.Plain(&m)); len(ps) > 0 {
			t.Fatalf("MetaValid(%s), but the meta-schema says %v", doc, ps)
		}
		raw, _ := m.MarshalJSON()
		if _, panicked, err := compile(raw, true); panicked {
			t.Fatalf("MetaValid(%s), but compiling it unchecked panics: %v", doc, err)
		}
	})
}
