package jsonschema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	upstream "github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolctl/toolctl/internal/jsonschema"
)

// The copy must compile and validate as upstream v5.3.1 does: the
// toolctl changes only index what upstream scanned.

const docURL = "toolctl:///schema.json"

// remotes serves the JSON-Schema-Test-Suite's remotes directory (dir)
// as http://localhost:1234/, the address its tests use; nothing else is
// loaded.
func remotes(dir string) func(string) (io.ReadCloser, error) {
	return func(url string) (io.ReadCloser, error) {
		if dir != "" {
			if rest, ok := strings.CutPrefix(url, "http://localhost:1234/"); ok && !strings.Contains(rest, "..") {
				return os.Open(filepath.Join(dir, filepath.FromSlash(rest)))
			}
		}
		return nil, fmt.Errorf("%s is not loaded", url)
	}
}

// outcome compiles schema with both implementations and validates each
// instance: "compile error" or one "valid"/"invalid" per instance.
func outcomes(schema []byte, instances []any, draft string, remoteDir string) (ours, theirs []string) {
	c := jsonschema.NewCompiler()
	c.LoadURL = remotes(remoteDir)
	u := upstream.NewCompiler()
	u.LoadURL = remotes(remoteDir)
	switch draft {
	case "draft2019-09":
		c.Draft, u.Draft = jsonschema.Draft2019, upstream.Draft2019
	case "draft7":
		c.Draft, u.Draft = jsonschema.Draft7, upstream.Draft7
	case "draft6":
		c.Draft, u.Draft = jsonschema.Draft6, upstream.Draft6
	case "draft4":
		c.Draft, u.Draft = jsonschema.Draft4, upstream.Draft4
	}
	verdict := func(err error) string {
		if err == nil {
			return "valid"
		}
		return "invalid"
	}
	if err := c.AddResource(docURL, strings.NewReader(string(schema))); err != nil {
		ours = append(ours, "resource error")
	} else if s, err := c.Compile(docURL); err != nil {
		ours = append(ours, "compile error")
		if strings.Contains(err.Error(), "references nested more than") {
			return ours, ours // upstream overflows its stack (TestRefDepthBounded)
		}
	} else {
		for _, v := range instances {
			ours = append(ours, verdict(safeValidate(func() error { return s.Validate(v) })))
		}
	}
	if err := u.AddResource(docURL, strings.NewReader(string(schema))); err != nil {
		theirs = append(theirs, "resource error")
	} else if s, err := u.Compile(docURL); err != nil {
		theirs = append(theirs, "compile error")
	} else {
		for _, v := range instances {
			theirs = append(theirs, verdict(safeValidate(func() error { return s.Validate(v) })))
		}
	}
	return ours, theirs
}

func safeValidate(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}

// sameCases reach each lookup the copy indexes: $id, anchors (also in
// embedded resources and duplicated), $dynamicAnchor / $dynamicRef,
// references to non-standard locations (which add subresources while
// compiling), and a duplicated canonical URI (an error). Not a $ref to
// an $id or anchor found only under a non-standard location: upstream
// finds it or not by the order it compiles properties in (map order),
// and so does the copy.
var sameCases = []struct {
	name      string
	schema    string
	instances string
}{
	{"id", `{"properties":{"a":{"$id":"urn:x:a","type":"string"},"b":{"$ref":"urn:x:a"}}}`, `[{"a":"s","b":"s"},{"b":1}]`},
	{"anchor", `{"$defs":{"s":{"$anchor":"s","type":"string"}},"properties":{"a":{"$ref":"#s"}}}`, `[{"a":"s"},{"a":1}]`},
	{"anchor in embedded resource", `{"$defs":{"r":{"$id":"urn:x:r","$defs":{"s":{"$anchor":"s","maxLength":1}}}},"properties":{"a":{"$ref":"urn:x:r#s"},"b":{"$ref":"#s"}}}`, `[{"a":"x"},{"a":"xx"}]`},
	{"anchor of another resource", `{"$defs":{"r":{"$id":"urn:x:r","$anchor":"s","maxLength":1}},"properties":{"a":{"$ref":"#s"}}}`, `[{"a":"xx"}]`},
	{"duplicate anchor", `{"$defs":{"s":{"$anchor":"s","type":"string"},"t":{"$anchor":"s","type":"string"}},"properties":{"a":{"$ref":"#s"}}}`, `[{"a":"s"},{"a":1}]`},
	{"dynamic", `{"$id":"urn:x:tree","$dynamicAnchor":"node","type":"object","properties":{"kids":{"type":"array","items":{"$dynamicRef":"#node"}}}}`, `[{"kids":[{"kids":[]}]},{"kids":[1]}]`},
	{"dynamic extended", `{"$id":"urn:x:strict","$ref":"urn:x:tree","$dynamicAnchor":"node","unevaluatedProperties":false,"$defs":{"t":{"$id":"urn:x:tree","$dynamicAnchor":"node","type":"object","properties":{"kids":{"type":"array","items":{"$dynamicRef":"#node"}}}}}}`, `[{"kids":[{"kids":[]}]},{"kids":[{"x":1}]},{"x":1}]`},
	{"non-standard location", `{"x":{"y":{"type":"string","properties":{"z":{"$anchor":"z","minimum":2}}}},"properties":{"a":{"$ref":"#/x/y"},"b":{"$ref":"#/x/y/properties/z"}}}`, `[{"a":"s","b":3},{"a":1},{"b":1}]`},
	{"non-standard location with id", `{"x":{"$id":"urn:x:y","type":"string"},"properties":{"a":{"$ref":"#/x"}}}`, `[{"a":"s"},{"a":1}]`},
	{"properties as a schema", `{"properties":{"items":{"$id":"urn:x:i","type":"string"},"a":{"$ref":"#/properties"}}}`, `[{"items":"s"},{"a":{"items":1}}]`},
	{"duplicate canonical uri", `{"$defs":{"a":{"$id":"urn:x:same"},"b":{"$id":"urn:x:same"}}}`, `[1]`},
	{"missing anchor", `{"properties":{"a":{"$ref":"#nowhere"}}}`, `[{}]`},
	{"remote refused", `{"$ref":"https://example.com/s.json"}`, `[{}]`},
	{"draft 7", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"$id":"#s","type":"string"}},"properties":{"a":{"$ref":"#s"}}}`, `[{"a":"s"},{"a":1}]`},
}

func TestSameAsUpstream(t *testing.T) {
	for _, tc := range sameCases {
		var instances []any
		if err := json.Unmarshal([]byte(tc.instances), &instances); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		ours, theirs := outcomes([]byte(tc.schema), instances, "", "")
		if fmt.Sprint(ours) != fmt.Sprint(theirs) {
			t.Errorf("%s: the copy says %v, upstream %v", tc.name, ours, theirs)
		}
	}
}

// beyondBounds matches a number the copy does not make exact (exponent
// of 400 or more, or 900 digits and more: TestNumbersBounded), which it
// refuses and upstream takes, however long that takes.
var beyondBounds = regexp.MustCompile(`(?i)e[+-]?0*([4-9][0-9]{2}|[0-9]{4,})|[0-9]{900}`)

// FuzzSameAsUpstream: any schema and instance get the same verdicts.
func FuzzSameAsUpstream(f *testing.F) {
	for _, tc := range sameCases {
		var instances []json.RawMessage
		json.Unmarshal([]byte(tc.instances), &instances)
		for _, inst := range instances {
			f.Add(tc.schema, string(inst))
		}
	}
	f.Fuzz(func(t *testing.T, schema, instance string) {
		if len(schema) > 1<<14 || beyondBounds.MatchString(schema) || beyondBounds.MatchString(instance) {
			return
		}
		var v any
		if json.Unmarshal([]byte(instance), &v) != nil {
			v = instance
		}
		ours, theirs := outcomes([]byte(schema), []any{v}, "", "")
		if fmt.Sprint(ours) != fmt.Sprint(theirs) {
			t.Errorf("schema %s, instance %s: the copy says %v, upstream %v", schema, instance, ours, theirs)
		}
	})
}

// TestSameAsUpstreamSuite runs the JSON-Schema-Test-Suite through both
// when TOOLCTL_JSON_SCHEMA_TEST_SUITE names a checkout of it (its tests
// and remotes directories); it is not vendored here.
func TestSameAsUpstreamSuite(t *testing.T) {
	root := os.Getenv("TOOLCTL_JSON_SCHEMA_TEST_SUITE")
	if root == "" {
		t.Skip("TOOLCTL_JSON_SCHEMA_TEST_SUITE is not set (a checkout of github.com/json-schema-org/JSON-Schema-Test-Suite)")
	}
	var schemas, instances int
	for _, draft := range []string{"draft2020-12", "draft2019-09", "draft7", "draft6", "draft4"} {
		files, _ := filepath.Glob(filepath.Join(root, "tests", draft, "*.json"))
		optional, _ := filepath.Glob(filepath.Join(root, "tests", draft, "optional", "*.json"))
		for _, file := range append(files, optional...) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var groups []struct {
				Description string          `json:"description"`
				Schema      json.RawMessage `json:"schema"`
				Tests       []struct {
					Data any `json:"data"`
				} `json:"tests"`
			}
			if err := json.Unmarshal(data, &groups); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			for _, g := range groups {
				var data []any
				for _, tc := range g.Tests {
					data = append(data, tc.Data)
				}
				ours, theirs := outcomes(g.Schema, data, draft, filepath.Join(root, "remotes"))
				schemas++
				instances += len(data)
				if fmt.Sprint(ours) != fmt.Sprint(theirs) {
					t.Errorf("%s: %s: the copy says %v, upstream %v", file, g.Description, ours, theirs)
				}
			}
		}
	}
	if schemas == 0 {
		t.Fatal(errors.New("no test files under " + root + "/tests"))
	}
	t.Logf("%d schemas and %d instances give the same verdicts", schemas, instances)
}
