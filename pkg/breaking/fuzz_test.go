package breaking

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// FuzzCompare: any two tool files compare without a panic, and a file
// compared with itself has no finding.
func FuzzCompare(f *testing.F) {
	paths, _ := filepath.Glob("testdata/golden/*/*/*.yaml")
	for i, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		other, _ := os.ReadFile(paths[(i+1)%len(paths)])
		f.Add(data, other)
	}
	f.Add([]byte("name: t\ndescription: d\ninput_schema: {type: object, properties: {a: {multipleOf: 0}}}\n"),
		[]byte("name: t\ndescription: d\ninput_schema: {type: object, properties: {a: {multipleOf: 2}}}\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		fa, fb := spec.ParseFile("a.yaml", a), spec.ParseFile("b.yaml", b)
		var ta, tb []*Tool
		for _, x := range fa.Tools {
			ta = append(ta, FromSpec(x))
		}
		for _, x := range fb.Tools {
			tb = append(tb, FromSpec(x))
		}
		_ = Compare(ta, tb, Options{Additions: true, Targets: []string{"openai", "anthropic", "gemini", "mcp"}})
		for _, x := range ta {
			_ = x.JSON()
		}
		if len(fa.Errors) == 0 {
			for _, d := range Compare(ta, ta, Options{Additions: true}) {
				t.Errorf("a tool compared with itself: %s", d.String())
			}
		}
	})
}
