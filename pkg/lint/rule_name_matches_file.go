package lint

import (
	"path/filepath"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleNameMatchesFile = &Rule{
	ID:          "name-matches-file",
	Severity:    Warning,
	Description: "A file holding one tool is named after it (http_request.yaml holds http_request).",
	Explain: `Finding a tool's file from its name (and back) should never need a search.
Files holding several tools are exempt.

Bad:
  # tools/http.yaml
  name: http_request

Good:
  # tools/http_request.yaml
  name: http_request`,
	Tool: func(r *Reporter, t *spec.Tool) {
		// An invalid name is name-snake-case's finding; do not suggest a file name from it.
		if !spec.IsSnakeCase(t.Name) || t.File == nil || len(t.File.Tools) != 1 {
			return
		}
		base := filepath.Base(t.Path())
		if stem := strings.TrimSuffix(base, filepath.Ext(base)); stem != t.Name {
			r.Report(t, "/name", "the tool is named %q but its file is %s; rename the file to %s%s", t.Name, base, t.Name, filepath.Ext(base))
		}
	},
}
