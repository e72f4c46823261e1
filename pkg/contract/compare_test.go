package contract

import (
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

func norm(t *testing.T, src string) any {
	t.Helper()
	v, err := spec.DecodeJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	n, err := Normalize(v)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestCompare(t *testing.T) {
	cases := []struct {
		name, want, got string
		exact           bool
		tol             float64
		diffs           []string // paths
	}{
		{"subset extra key", `{"a":1}`, `{"a":1,"b":2}`, false, 0, nil},
		{"exact extra key", `{"a":1}`, `{"a":1,"b":2}`, true, 0, []string{"$.b"}},
		{"missing key", `{"a":1,"c":{"d":true}}`, `{"a":1,"c":{}}`, false, 0, []string{"$.c.d"}},
		{"nested value", `{"r":[{"n":"x"},{"n":"y"}]}`, `{"r":[{"n":"x"},{"n":"z"}]}`, false, 0, []string{"$.r[1].n"}},
		{"array length", `[1,2]`, `[1,2,3]`, false, 0, []string{"$[2]"}},
		{"1 equals 1.0", `{"a":1}`, `{"a":1.0}`, false, 0, nil},
		{"numbers exact", `3.33`, `3.333`, false, 0, []string{"$"}},
		{"tolerance", `3.33`, `3.333`, false, 0.01, nil},
		{"over tolerance", `3.33`, `3.5`, false, 0.01, []string{"$"}},
		{"string exact", `"ab"`, `"abc"`, false, 0, []string{"$"}},
		{"type", `{"a":"1"}`, `{"a":1}`, false, 0, []string{"$.a"}},
		{"odd key", `{"a b":1}`, `{"a b":2}`, false, 0, []string{`$["a b"]`}},
		// Beyond jsonschema.ExactNumber's bounds a number matches as written: a
		// server's 1e999999 (or a million digits) is not built exactly.
		{"huge exponent as written", `1e999999`, `1e999999`, false, 0, nil},
		{"huge exponent not rewritten", `1e999999`, `10e999998`, false, 0, []string{"$"}},
		{"e400 exact", `1e400`, `10e399`, false, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := Compare(norm(t, c.want), norm(t, c.got), c.exact, c.tol)
			var paths []string
			for _, d := range ds {
				paths = append(paths, d.Path)
			}
			if strings.Join(paths, ",") != strings.Join(c.diffs, ",") {
				t.Errorf("diffs at %v, want %v (%v)", paths, c.diffs, ds)
			}
		})
	}
}

func TestParseExpectErrors(t *testing.T) {
	for src, want := range map[string]string{
		`{"match":"fuzzy"}`:                              "expect.match",
		`{"tolerance":-1}`:                               "expect.tolerance",
		`{"pattern":"("}`:                                "expect.pattern",
		`{"error":{"kind":"x"}}`:                         "expect.error.kind",
		`{"schema":{"type":"nope"}}`:                     "expect.schema",
		`{"colour":1}`:                                   "expect.colour",
		`{"isError":"yes"}`:                              "expect.isError",
		`{"content":{"type":"image"}}`:                   "expect.content",
		`{"content":[1]}`:                                "expect.content[0]",
		`{"content":[{"type":"picture"}]}`:               "expect.content[0].type",
		`{"content":[{"data":"sha256:zz"}]}`:             "expect.content[0].data",
		`{"content":[{"resource":{"blob":"sha256:1"}}]}`: "expect.content[0].resource.blob",
		`{"isError":true,"error":{}}`:                    "expect.isError",
	} {
		v, _ := spec.DecodeJSON([]byte(src))
		_, err := ParseExpect(v.(*spec.Map))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want an error about %s", src, err, want)
		}
	}
	v, _ := spec.DecodeJSON([]byte(`{"match":"exact","tolerance":0.5,"contains":"a","pattern":"^a","schema":{"type":"object"},"error":{"type":"ValidationError","message":"m"}}`))
	x, err := ParseExpect(v.(*spec.Map))
	if err != nil || !x.Exact || x.Tolerance != 0.5 || x.Error.Type != "ValidationError" || x.Schema == nil || x.Pattern == nil {
		t.Errorf("ParseExpect = %+v, %v", x, err)
	}
}

func TestCompareTypes(t *testing.T) {
	for _, c := range []struct{ want, got, diffs string }{
		{`{"t":"2026-01-01","n":1,"l":[1,2,3]}`, `{"t":"2027-05-05","n":7.5,"l":[4],"x":true}`, ""},
		{`{"t":"2026-01-01","n":1}`, `{"t":5,"n":"7"}`, "$.n,$.t"},
		{`{"t":"x"}`, `{}`, "$.t"},
		{`"48\ttools"`, `"92\ttools"`, ""},
	} {
		var paths []string
		for _, d := range CompareTypes(norm(t, c.want), norm(t, c.got)) {
			paths = append(paths, d.Path)
		}
		if strings.Join(paths, ",") != c.diffs {
			t.Errorf("CompareTypes(%s, %s) diffs at %v, want %s", c.want, c.got, paths, c.diffs)
		}
	}
}
