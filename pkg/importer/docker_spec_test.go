package importer_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/spec"
)

// toolctl reads a registry tools.json directly (the docker dialect) and
// imports it with the same conversion: every tool's input schema is the
// same both ways.
func TestDockerArgumentsSameAsSpec(t *testing.T) {
	skipWithoutCorpora(t)
	files, _ := filepath.Glob(filepath.Join(corpusDir, "docker-mcp-registry", "servers", "*", "tools.json"))
	compared, withArgs := 0, 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := importer.Import(data, importer.Options{From: importer.MCP, Name: path})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		f := spec.ParseFile(path, data)
		if len(f.Errors) > 0 || len(f.Tools) != len(res.Tools) {
			t.Fatalf("%s: spec read %d tools (errors %v), import %d", path, len(f.Tools), f.Errors, len(res.Tools))
		}
		for i, tool := range f.Tools {
			got, _ := json.Marshal(tool.InputSchema)
			want, _ := json.Marshal(res.Tools[i].Tool.InputSchema)
			if string(got) != string(want) {
				t.Errorf("%s: %s: spec %s\nimport %s", path, tool.Name, got, want)
			}
			compared++
			if tool.Dialect == spec.DialectDocker {
				withArgs++
			}
		}
	}
	t.Logf("%d files, %d tools compared, %d with arguments", len(files), compared, withArgs)
	if compared != 755 || withArgs != 293 {
		t.Errorf("compared %d tools, %d with arguments; want 755 and 293", compared, withArgs)
	}
}
