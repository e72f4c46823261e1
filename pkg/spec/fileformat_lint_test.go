package spec_test

import (
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

// The categories the schema offers are lint's default set.
func TestSchemaCategoriesAreLintDefaults(t *testing.T) {
	raw, err := spec.FileSchema()
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(raw)), "")
	want := `"Category":{"anyOf":[{"type":"string","enum":["` + strings.Join(lint.DefaultCategories, `","`) + `"]}`
	if !strings.Contains(flat, want) {
		t.Errorf("the schema's categories differ from lint.DefaultCategories %v", lint.DefaultCategories)
	}
}
