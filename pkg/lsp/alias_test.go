package lsp

import (
	"path/filepath"
	"testing"
	"time"
)

// An alias inside its own anchor (a: &a [*a]) is a cycle in the YAML
// tree: every request that finds the cursor's place answers, instead of
// following the alias down forever (a hang that grew without bound).
func TestSelfAliasAnswers(t *testing.T) {
	root := t.TempDir()
	c := startServer(t, root)
	c.timeout = 10 * time.Second // answers take milliseconds; a hang never ends
	const text = "a: &a [*a]\nb: &b {c: *b}\nname: x\nparameters: &p\n  type: object\n  properties:\n    q: *p\n"
	uri := c.open(filepath.Join(root, "tools", "x.yaml"), text)
	c.diagnostics(uri)
	for _, marker := range []string{"*a", "*b", "*p"} {
		for _, delta := range []int{0, 1, 2} {
			at := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos(t, text, marker, delta)}
			for _, method := range []string{"textDocument/hover", "textDocument/definition", "textDocument/prepareRename"} {
				rawCall(c, method, at)
			}
			refs := map[string]any{"textDocument": at["textDocument"], "position": at["position"], "context": map[string]any{"includeDeclaration": true}}
			rawCall(c, "textDocument/references", refs)
		}
	}
	c.shutdown()
}
