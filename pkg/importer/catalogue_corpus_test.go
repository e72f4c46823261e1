package importer_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/spec"
)

// TestCatalogueCorpus imports LiveMCPBench's catalogue of 70 servers as
// toolctl import does (format detected): its 527 tools, not 70 server
// stubs, each under a name of its own and with an mcp entry that calls the
// name its server publishes.
func TestCatalogueCorpus(t *testing.T) {
	skipWithoutCorpora(t)
	path := filepath.Join(corpusDir, "livemcpbench", "tools.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("read 1 file: %s (%d bytes)", path, len(data))
	res, err := importer.Import(data, importer.Options{Name: path})
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != importer.MCP {
		t.Errorf("detected %q (%s), want mcp", res.Format, res.Detected)
	}
	if len(res.Tools) != 527 {
		t.Fatalf("imported %d tools, want the corpus's 527", len(res.Tools))
	}
	// The source names, server by server, as the file lists them.
	doc, _ := spec.DecodeJSON(data)
	var want []string
	for _, rec := range doc.([]any) {
		servers, _ := rec.(*spec.Map).GetMap("tools")
		for i := range servers.Len() {
			_, inner := servers.At(i)
			list, _ := inner.(*spec.Map).Get("tools")
			for _, tool := range list.([]any) {
				n, _ := tool.(*spec.Map).GetString("name")
				want = append(want, n)
			}
		}
	}
	names := map[string]bool{}
	for i, tool := range res.Tools {
		if tool.SourceName != want[i] {
			t.Errorf("tool %d: source name %q, want %q", i, tool.SourceName, want[i])
		}
		if names[tool.Tool.Name] {
			t.Errorf("name %q twice", tool.Tool.Name)
		}
		names[tool.Tool.Name] = true
		if !spec.IsSnakeCase(tool.Tool.Name) || len(tool.Tool.Name) > 64 {
			t.Errorf("name %q is no valid toolctl name", tool.Tool.Name)
		}
		if e := tool.Tool.Entry; e == nil || e.Tool != tool.SourceName || len(e.ServerArgs) == 0 {
			t.Errorf("tool %q: entry %+v, want an mcp entry calling %q", tool.Tool.Name, e, tool.SourceName)
		}
		if tool.Tool.InputSchema == nil {
			t.Errorf("tool %q has no input schema", tool.Tool.Name)
		}
	}
	slices.Sort(want)
	t.Logf("%d tools of 70 servers, %d distinct source names, %d distinct imported names", len(res.Tools), len(slices.Compact(want)), len(names))
}
