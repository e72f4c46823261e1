package jsonschema

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
)

// wideSchema is one document of 2n+n/10 properties: p<i> declares
// $anchor a<i> and $dynamicAnchor d<i>; q<i> refers to it by anchor;
// every tenth p<i> has an $id that u<i> refers to (and q<i> with it).
func wideSchema(n int) string {
	props := map[string]any{}
	for i := range n {
		p := map[string]any{"type": "string", "maxLength": 3, "$anchor": fmt.Sprintf("a%d", i), "$dynamicAnchor": fmt.Sprintf("d%d", i)}
		if i%10 == 0 {
			p["$id"] = fmt.Sprintf("urn:toolctl:p%d", i)
			props[fmt.Sprintf("u%d", i)] = map[string]any{"$ref": fmt.Sprintf("urn:toolctl:p%d", i)}
		}
		props[fmt.Sprintf("p%d", i)] = p
		ref := fmt.Sprintf("#a%d", i)
		if i%10 == 0 { // the anchor is in p<i>'s own resource
			ref = fmt.Sprintf("urn:toolctl:p%d#a%d", i, i)
		}
		props[fmt.Sprintf("q%d", i)] = map[string]any{"$ref": ref}
	}
	b, _ := json.Marshal(map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": props})
	return string(b)
}

// TestWideSchemaLinear: compiling one document examines each subresource
// a bounded number of times, not once per subschema compiled ($dynamicAnchor
// lists), per $ref ($id lookups) and per anchor reference, as upstream
// did (n² visits: a tool with 50,000 parameters took 93 s to lint).
func TestWideSchemaLinear(t *testing.T) {
	for _, n := range []int{100, 5000} {
		const url = "toolctl:///wide.json"
		c := NewCompiler()
		if err := c.AddResource(url, strings.NewReader(wideSchema(n))); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(url)
		if err != nil {
			t.Fatal(err)
		}
		subschemas := len(c.resources[url].subresources)
		if visits := c.resources[url].visits; visits > 2*subschemas {
			t.Errorf("%d properties: %d subresources examined for %d subschemas; want at most %d", n, visits, subschemas, 2*subschemas)
		}
		// The lookups still find what they look for.
		last := n - 1
		last -= last % 10
		bad := map[string]any{fmt.Sprintf("q%d", n-1): "long", fmt.Sprintf("u%d", last): "long", fmt.Sprintf("p%d", n/2): "ok"}
		err = s.Validate(bad)
		if err == nil {
			t.Fatalf("%d properties: %v validated; the $refs to p%d (anchor) and p%d ($id) were not followed", n, bad, n-1, last)
		}
		for _, want := range []string{fmt.Sprintf("/q%d", n-1), fmt.Sprintf("/u%d", last)} {
			if !strings.Contains(fmt.Sprintf("%#v", err), want) {
				t.Errorf("%d properties: the error %v does not name %s", n, err, want)
			}
		}
		if got := len(s.dynamicAnchors); got != n {
			t.Errorf("%d properties: the root lists %d dynamic anchors, want %d", n, got, n)
		}
	}
}

// TestMetaSchemasOnFirstUse: the drafts' meta-schemas are compiled when
// a schema first needs one, once, however many compile at the same time
// (go test -race), and each still rejects what it should.
func TestMetaSchemasOnFirstUse(t *testing.T) {
	drafts := map[string]string{
		"http://json-schema.org/draft-04/schema#":        `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","minProperties":"1"}`,
		"http://json-schema.org/draft-06/schema#":        `{"$schema":"http://json-schema.org/draft-06/schema#","type":"object","minProperties":"1"}`,
		"http://json-schema.org/draft-07/schema#":        `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","minProperties":"1"}`,
		"https://json-schema.org/draft/2019-09/schema":   `{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object","minProperties":"1"}`,
		"https://json-schema.org/draft/2020-12/schema":   `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","minProperties":"1"}`,
		"https://json-schema.org/draft/2020-12/schema#2": `{"type":"object","minProperties":"1"}`,
	}
	errs := make(chan error, 8*len(drafts))
	for range 8 {
		for name, doc := range drafts {
			go func() {
				c := NewCompiler()
				if err := c.AddResource("toolctl:///s.json", strings.NewReader(doc)); err != nil {
					errs <- err
					return
				}
				if _, err := c.Compile("toolctl:///s.json"); err == nil {
					errs <- fmt.Errorf("%s: minProperties \"1\" compiled; the meta-schema was not checked", name)
					return
				}
				errs <- nil
			}()
		}
	}
	for range 8 * len(drafts) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for _, d := range []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020} {
		if d.meta == nil || d.meta.meta != d.meta {
			t.Errorf("%s: meta-schema not loaded after use", d)
		}
	}
}

// TestAddCheckedResource: a document added as checked is not checked
// against its meta-schema again, but what a $ref resolves elsewhere in it
// (a location no keyword makes a schema) still is.
func TestAddCheckedResource(t *testing.T) {
	const url = "toolctl:///s.json"
	titled := `{"title":5,"type":"string"}` // title must be a string: only the meta-schema says so
	for _, checked := range []bool{false, true} {
		c := NewCompiler()
		add := c.AddResource
		if checked {
			add = c.AddCheckedResource
		}
		if err := add(url, strings.NewReader(titled)); err != nil {
			t.Fatal(err)
		}
		_, err := c.Compile(url)
		if checked && err != nil {
			t.Errorf("checked: %v; want it compiled without the meta-schema", err)
		}
		if !checked && err == nil {
			t.Error("unchecked: title 5 compiled; want the meta-schema's error")
		}
	}
	c := NewCompiler()
	if err := c.AddCheckedResource(url, strings.NewReader(`{"x":{"minLength":"a"},"properties":{"p":{"$ref":"#/x"}}}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile(url); err == nil {
		t.Error(`"$ref": "#/x" to {"minLength": "a"} compiled; its target is not part of what was checked`)
	}
}

// TestRefDepthBounded: a $ref that leads back to itself through an $id
// the compiler normalizes ("?": the empty query is dropped), or a chain
// of $refs longer than maxRefDepth, is a compile error, not a fatal stack
// overflow after a minute (upstream); a long chain within it compiles.
func TestRefDepthBounded(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(256 << 20)) // without the bound: a quick crash, not 1 GB
	chain := func(n int) string {
		defs := map[string]any{fmt.Sprintf("d%d", n): map[string]any{"type": "string"}}
		for i := range n {
			defs[fmt.Sprintf("d%d", i)] = map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		}
		b, _ := json.Marshal(map[string]any{"$defs": defs, "properties": map[string]any{"a": map[string]any{"$ref": "#/$defs/d0"}}})
		return string(b)
	}
	for _, tc := range []struct {
		name, doc string
		ok        bool
	}{
		{"cycle through $id ?", `{"$id":"?","properties":{"a":{"$ref":"#/x"}},"x":{"type":"string"}}`, false},
		{"chain of 2,000", chain(2000), true},
		{"chain of 12,000", chain(12000), false},
	} {
		c := NewCompiler()
		if err := c.AddResource("toolctl:///s.json", strings.NewReader(tc.doc)); err != nil {
			t.Fatal(err)
		}
		_, err := c.Compile("toolctl:///s.json")
		if tc.ok && err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), "references nested more than")) {
			t.Errorf("%s: got %v, want the nesting error", tc.name, err)
		}
	}
}

// TestNumbersBounded: a number is made exact (big.Rat) only within
// ±400 of exponent and 1,000 characters; beyond, it fails the keywords
// that need its value instead of costing what its value is ("1e999999":
// 30 ms and 400 KB each; upstream validated 300 of them in 9 s of CPU),
// and a schema's bound beyond it is a compile error (upstream dropped it
// when big.Rat gave up).
func TestNumbersBounded(t *testing.T) {
	compile := func(doc string) (*Schema, error) {
		c := NewCompiler()
		if err := c.AddResource("toolctl:///n.json", strings.NewReader(doc)); err != nil {
			t.Fatal(err)
		}
		return c.Compile("toolctl:///n.json")
	}
	s, err := compile(`{"type":"array","items":{"type":"number","minimum":0,"maximum":1e308},"uniqueItems":true}`)
	if err != nil {
		t.Fatal(err)
	}
	many := make([]any, 300)
	for i := range many {
		many[i] = json.Number(fmt.Sprintf("%de999999", i+1))
	}
	err = s.Validate(many)
	if err == nil || !strings.Contains(fmt.Sprintf("%#v", err), "beyond the numbers that can be checked exactly") {
		t.Errorf("300 numbers of exponent 999999: %v; want each refused as beyond the bounds", err)
	}
	for _, tc := range []struct {
		value string
		ok    bool
	}{{"1e308", true}, {"2e308", false}, {"1e-400", true}, {"-1e-400", false}, {"1e-401", false}} {
		err := s.Validate([]any{json.Number(tc.value)})
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok=%v", tc.value, err, tc.ok)
		}
	}
	for _, doc := range []string{`{"maximum":1e999999}`, `{"multipleOf":1e-999999}`, `{"exclusiveMinimum":1e401}`} {
		if _, err := compile(doc); err == nil || !strings.Contains(err.Error(), "beyond the numbers") {
			t.Errorf("%s: %v; want a compile error", doc, err)
		}
	}
	s, err = compile(`{"type":"integer","enum":[1e999999,2]}`)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(json.Number("1e999999")); err == nil || !strings.Contains(err.Error(), "expected integer") {
		t.Errorf("integer 1e999999: %v; want the bounds in a type error", err)
	}
}
