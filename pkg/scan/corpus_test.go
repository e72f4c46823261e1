package scan

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/lint"
)

const corpusDir = "../../../shared/corpora"

// TestCorpora scans every corpus as toolctl scan does (tool files with
// lint, BFCL's JSON Lines and LiveMCPBench's catalogue with the importer)
// and pins the security findings per rule and the tools scanned: the
// pack runs by default, so at most 1% of a corpus's tools may get one.
// Each pinned finding is read and explained here.
func TestCorpora(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	tests := []struct {
		dir   string
		tools int
		want  map[string]int
	}{
		{"feagent", 12, nil},
		// browser_navigate's detail: "百度图片 https://image.baidu.com/
		// search/index?tn=baiduimage&word=关键词" among its search URL
		// templates: the model is told to send the user's query to a third
		// party (benign, and what a reviewer should see).
		{"openakita", 159, map[string]int{"security-exfiltration-url": 1}},
		{"graph-agent", 8, nil},
		{"docker-mcp-registry", 755, nil},
		// biomcp's alphagenome_predictor: "An API key from
		// https://deepmind.google.com/science/alphagenome": a link that is
		// no documentation_url of the tool (benign; a reviewer may allow
		// the host).
		{"livemcpbench", 527, map[string]int{"security-exfiltration-url": 1}},
		{"bfcl", 866, nil},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			files, err := Collect([]string{filepath.Join(corpusDir, tc.dir)})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Files(files, lint.Config{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			flagged := map[string]bool{}
			for _, f := range res.Findings {
				if f.Rule == lint.ParseErrorID {
					continue // the corpus tests of spec and lint pin those
				}
				got[f.Rule]++
				flagged[f.File+"\x00"+f.Tool] = true
			}
			if res.Tools != tc.tools {
				t.Errorf("scanned %d tools, want %d", res.Tools, tc.tools)
			}
			if len(flagged)*100 > res.Tools {
				t.Errorf("%d of %d tools have security findings: more than 1%%", len(flagged), res.Tools)
			}
			if counts(got) != counts(tc.want) {
				t.Errorf("findings per rule changed:\n got: %s\nwant: %s", counts(got), counts(tc.want))
			}
		})
	}
}

func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%q: %d, ", k, m[k])
	}
	return b.String()
}
