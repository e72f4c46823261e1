package lint

import "github.com/toolctl/toolctl/pkg/spec"

// feagentEntryTypes are the entry types Feagent's loader knows.
var feagentEntryTypes = []string{spec.EntryBuiltin, spec.EntryHTTP, spec.EntryJavaScript, spec.EntryPython}

// feagentRules tells whether Feagent's required-field rules apply to t: in
// the feagent profile to every tool, otherwise to Feagent-dialect tools.
func feagentRules(r *Reporter, t *spec.Tool) bool {
	return r.Profile() == ProfileFeagent || t.Dialect == spec.DialectFeagent
}
