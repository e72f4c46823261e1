package export_test

import (
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/spec"
)

// A description with line breaks and "*/" stays inside its JSDoc comment,
// every line of it prefixed with " * ".
func TestTypeScriptDocLines(t *testing.T) {
	src := "name: multi\ndescription: \"First line.\\r\\nsecond */ line\\nthird\"\ncategory: custom\nentry: {type: javascript, code: \"function execute(i){return 1}\"}\n"
	f := spec.ParseFile("multi.yaml", []byte(src))
	if len(f.Errors) > 0 {
		t.Fatal(f.Errors)
	}
	doc, _, err := export.Export(f.Tools, export.Options{Format: export.TypeScript})
	if err != nil {
		t.Fatal(err)
	}
	out := string(doc)
	for _, want := range []string{"\n * Input of multi: First line.\n", "\n * second *\\/ line\n", "\n * third\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "\r") {
		t.Errorf("a carriage return in\n%s", out)
	}
}
