package lint

import "github.com/toolctl/toolctl/pkg/spec"

var ruleShareableScopeKnown = &Rule{
	ID:          "shareable-scope-known",
	Severity:    Error,
	Description: "shareable_scope is private, team or public.",
	Explain: `Registries decide who may use a tool from shareable_scope; any other value is
treated as private or rejected.

Bad:
  shareable_scope: everyone

Good:
  shareable_scope: public`,
	Tool: func(r *Reporter, t *spec.Tool) {
		switch t.ShareableScope {
		case "", "private", "team", "public":
			return
		}
		r.Report(t, "/shareable_scope", "shareable_scope %q is not private, team or public", t.ShareableScope)
	},
}
