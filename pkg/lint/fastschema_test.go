package lint

import (
	"os"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// The fast checks may only say "valid" where the library agrees. This
// compares them on every schema and example of the fixtures, the bundled
// tools and (when present) the corpora, plus hand-made edge cases.
func TestFastSchemaAgreesWithLibrary(t *testing.T) {
	dirs := []string{fixtures, "../../tools"}
	if _, err := os.Stat(corpusDir); err == nil {
		dirs = append(dirs, corpusDir)
	}
	var fastValidMeta, fastValidExamples, checked int
	for _, dir := range dirs {
		set, err := spec.Load([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range set.Tools() {
			for _, doc := range []*spec.Map{tool.InputSchema, tool.OutputSchema} {
				if doc == nil {
					continue
				}
				checked++
				if fastMeta(doc) == valid {
					fastValidMeta++
					if ps := validate.Problems(metaSchemaFor(doc).Validate(spec.Plain(doc))); len(ps) > 0 {
						t.Errorf("%s: fast meta check says valid, the library says %v", tool.Path(), ps)
					}
				}
			}
			if tool.InputSchema == nil || len(tool.Examples) == 0 || fastMeta(tool.InputSchema) != valid {
				continue
			}
			s, err := validate.Compile(validate.CallSchema(tool))
			if err != nil {
				continue
			}
			for i, ex := range tool.Examples {
				var params any = spec.NewMap(0)
				if ex.Params != nil {
					params = ex.Params
				}
				if fastValidate(validate.CallSchema(tool), params, 0) == valid {
					fastValidExamples++
					plain := spec.Plain(params)
					if ps := validate.Validate(s, plain); len(ps) > 0 {
						t.Errorf("%s example %d: fast check says valid, the library says %v", tool.Path(), i+1, ps)
					}
				}
			}
		}
	}
	t.Logf("%d schemas: fast meta check decided %d; %d examples decided fast", checked, fastValidMeta, fastValidExamples)
	if fastValidMeta == 0 {
		t.Error("the fast meta check never decided anything")
	}
}

func TestFastSchemaEdgeCases(t *testing.T) {
	meta := []struct {
		schema string
		want   verdict
	}{
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, valid},
		{`{"type":"strng"}`, unsure},
		{`{"type":["string","string"]}`, unsure},
		{`{"type":[]}`, unsure},
		{`{"required":"a"}`, unsure},
		{`{"required":["a","a"]}`, unsure},
		{`{"minLength":-1}`, unsure},
		{`{"minLength":1.5}`, unsure},
		{`{"anyOf":[]}`, unsure},
		{`{"pattern":"(?=x)"}`, unsure},
		{`{"if":{"type":"string"}}`, unsure},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`, unsure},
		{`{"x-anything":{"type":"nope"},"nullable":true}`, valid},
		{`{"multipleOf":0}`, unsure},
		{`{"items":[{"type":"string"}]}`, unsure},
		{`{"$id":"urn:toolctl:x"}`, valid},
		{`{"$id":"urn:toolctl:x#"}`, valid},
		{`{"$id":"urn:toolctl:x#frag"}`, unsure}, // the meta-schema's pattern ^[^#]*#?$
		{`{"$ref":"#/$defs/a"}`, valid},
		{`{"$ref":"a\\b"}`, unsure}, // not a uri-reference
		{`{"$ref":"http://[::1"}`, unsure},
	}
	for _, tc := range meta {
		var m spec.Map
		if err := m.UnmarshalJSON([]byte(tc.schema)); err != nil {
			t.Fatal(err)
		}
		if got := fastMeta(&m); got != tc.want {
			t.Errorf("fastMeta(%s) = %v, want %v", tc.schema, got, tc.want)
		}
		if got := fastMeta(&m); got == valid && len(validate.Problems(metaSchemaFor(&m).Validate(spec.Plain(&m)))) > 0 {
			t.Errorf("fastMeta(%s) valid but the library disagrees", tc.schema)
		}
	}
	inst := []struct {
		schema, value string
		want          verdict
	}{
		{`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`, `{"n":3}`, valid},
		{`{"type":"object","properties":{"n":{"type":"integer"}}}`, `{"n":1.5}`, unsure},
		{`{"type":"object","properties":{"n":{"type":"integer"}}}`, `{"n":"3"}`, unsure},
		{`{"type":"object","required":["n"]}`, `{}`, unsure},
		{`{"type":"object","additionalProperties":false,"properties":{"a":{}}}`, `{"a":1,"b":2}`, unsure},
		{`{"type":"object","properties":{"s":{"enum":["a","b"]}}}`, `{"s":"c"}`, unsure},
		{`{"type":"object","properties":{"s":{"type":"string","maxLength":2}}}`, `{"s":"日本"}`, valid},
		{`{"type":"object","properties":{"s":{"type":"string","maxLength":1}}}`, `{"s":"日本"}`, unsure},
		{`{"type":"object","properties":{"s":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"string"}}}`, `{"s":1}`, unsure},
		{`{"type":"object","properties":{"s":{"anyOf":[{"type":"string"}]}}}`, `{"s":"x"}`, unsure},
		{`{"type":"object","properties":{"s":{"pattern":"^a+$"}}}`, `{"s":"aaa"}`, valid},
		{`{"type":"object","properties":{"s":{"pattern":"^a+$"}}}`, `{"s":"b"}`, unsure},
		{`{"type":"object","properties":{"n":{"maximum":9007199254740992}}}`, `{"n":9007199254740993}`, unsure},
		{`{"type":"object","properties":{"s":{"enum":["xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxA"]}}}`, `{"s":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxB"}`, unsure},
		{`{"type":"object","properties":{"m":{"type":"object","minProperties":1}}}`, `{"m":{}}`, unsure},
		{`{"type":"object","properties":{"m":{"type":"object","maxProperties":1}}}`, `{"m":{"a":1}}`, valid},
		{`{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"},"uniqueItems":true}}}`, `{"l":["a","a"]}`, unsure},
	}
	for _, tc := range inst {
		var s, v spec.Map
		if err := s.UnmarshalJSON([]byte(tc.schema)); err != nil {
			t.Fatal(err)
		}
		if err := v.UnmarshalJSON([]byte(tc.value)); err != nil {
			t.Fatal(err)
		}
		got := fastValidate(&s, &v, 0)
		if got != tc.want {
			t.Errorf("fastValidate(%s, %s) = %v, want %v", tc.schema, tc.value, got, tc.want)
		}
		compiled, err := validate.Compile(&s)
		if err != nil {
			t.Fatal(err)
		}
		libValid := len(validate.Validate(compiled, spec.Plain(&v))) == 0
		if got == valid && !libValid {
			t.Errorf("fastValidate(%s, %s) valid but the library disagrees", tc.schema, tc.value)
		}
		if !strings.Contains(tc.schema, "$ref") && !strings.Contains(tc.schema, "anyOf") && !strings.Contains(tc.schema, "9007") && !strings.Contains(tc.value, "1.5") && libValid != (tc.want == valid) {
			t.Errorf("%s with %s: the library says valid=%v; the case's expectation is off", tc.schema, tc.value, libValid)
		}
	}
}

// fastValidate is validate.Conforms, the fast check lint's examples use,
// as a verdict.
func fastValidate(schema *spec.Map, v any, _ int) verdict {
	if validate.Conforms(schema, v) {
		return valid
	}
	return unsure
}
