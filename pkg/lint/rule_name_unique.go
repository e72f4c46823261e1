package lint

import (
	"fmt"
	"github.com/toolctl/toolctl/pkg/diag"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleNameUnique = &Rule{
	ID:          "name-unique",
	Severity:    Error,
	Description: "No two tools in the linted set share a name.",
	Explain: `An agent calls tools by name: two tools with one name make one of them
unreachable, and every provider rejects duplicate names in a request.

Bad:
  # tools/search.yaml and tools/legacy/search.yaml both say
  name: search

Good:
  name: search
  name: search_legacy`,
	SetPins: pinName,
	Set: func(r *Reporter, tools []*spec.Tool) {
		first := map[string]*spec.Tool{}
		for _, t := range tools {
			if t.Name == "" {
				continue
			}
			if f, dup := first[t.Name]; dup {
				p := f.Pos("/name")
				where := fmt.Sprintf("line %d", p.Line)
				if f.Path() != t.Path() {
					where = diag.Where(f.Path(), p)
				}
				r.Report(t, "/name", "name %q is already used at %s; rename one of the tools", t.Name, where)
				continue
			}
			first[t.Name] = t
		}
	},
}
