package importer

import (
	"strings"
	"testing"
)

// A pathological type in a docstring is no type, refused without
// exhausting the stack or reading the text once per level.
func TestParseDocTypeDeep(t *testing.T) {
	for name, s := range map[string]string{
		"brackets": strings.Repeat("[", 5_000_000) + "int" + strings.Repeat("]", 5_000_000),
		"list of":  strings.Repeat("list of ", 2_000_000) + "int",
		"braces":   strings.Repeat("{", 1_000_000) + "'a'" + strings.Repeat("}", 1_000_000),
		"nested":   strings.Repeat("list[", 200) + "int" + strings.Repeat("]", 200),
	} {
		if _, ok := parseDocType(s, pyPos{}); ok {
			t.Errorf("%s: read as a type", name)
		}
	}
	if n, ok := parseDocType(strings.Repeat("list[", 50)+"int"+strings.Repeat("]", 50), pyPos{}); !ok || n == nil {
		t.Error("a type nested 50 deep is not read")
	}
}
