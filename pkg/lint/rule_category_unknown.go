package lint

import (
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleCategoryUnknown = &Rule{
	ID:          "category-unknown",
	Severity:    Error,
	Profiles:    []string{ProfileDefault, ProfileFeagent},
	Description: "The category is one of the allowed set (lint.categories; http, database, file, ai, notification, custom by default).",
	Explain: `Categories group tools in registries and docs; Feagent rejects unknown ones.
The check applies to Feagent-dialect tools, and to every tool once
lint.categories is set in .toolctl.yaml. The feagent profile compares case-
insensitively, as Feagent does.

Bad:
  category: web

Good:
  category: http`,
	Tool: func(r *Reporter, t *spec.Tool) {
		cats, explicit := r.Categories()
		if t.Category == "" || !(explicit || feagentRules(r, t)) {
			return
		}
		if slices.Contains(cats, t.Category) {
			return
		}
		for _, c := range cats {
			if strings.EqualFold(c, t.Category) {
				if r.Profile() == ProfileFeagent {
					return
				}
				r.Report(t, "/category", "category %q is not in the allowed set; write it as %q", t.Category, c)
				return
			}
		}
		msg := "category %q is not in the allowed set (%s)"
		args := []any{t.Category, strings.Join(cats, ", ")}
		if s := spec.Suggest(strings.ToLower(t.Category), cats); s != "" {
			msg += "; did you mean %q?"
			args = append(args, s)
		} else {
			msg += "; pick one, or add it to lint.categories in .toolctl.yaml"
		}
		r.Report(t, "/category", msg, args...)
	},
}
