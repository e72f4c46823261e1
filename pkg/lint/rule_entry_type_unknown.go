package lint

import (
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleEntryTypeUnknown = &Rule{
	ID:          "entry-type-unknown",
	Severity:    Error,
	Profiles:    []string{ProfileDefault, ProfileFeagent},
	Description: "entry.type is a known entry type (builtin, http/rest, javascript, python, command/native, mcp; the feagent profile: Feagent's four).",
	Explain: `The entry type picks the executor; an unknown one cannot run.

Bad:
  entry:
    type: webhook
    url: https://example.org/hook

Good:
  entry:
    type: http
    url: https://example.org/hook
    method: POST`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.Entry == nil {
			return
		}
		known := spec.EntryTypes
		if r.Profile() == ProfileFeagent {
			known = feagentEntryTypes
		}
		if strings.TrimSpace(t.Entry.Type) == "" {
			r.Report(t, "/entry", "entry has no type; add type: %s", strings.Join(known, ", "))
			return
		}
		if slices.Contains(known, t.Entry.Kind()) {
			return
		}
		msg := "entry type %q is unknown; use %s"
		args := []any{t.Entry.Type, strings.Join(known, ", ")}
		if s := spec.Suggest(strings.ToLower(t.Entry.Type), known); s != "" {
			msg = "entry type %q is unknown; did you mean %q?"
			args = []any{t.Entry.Type, s}
		}
		r.Report(t, "/entry/type", msg, args...)
	},
}
