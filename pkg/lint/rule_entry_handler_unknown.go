package lint

import (
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleEntryHandlerUnknown = &Rule{
	ID:          "entry-handler-unknown",
	Severity:    Error,
	Description: "A builtin entry names a handler compiled into toolctl.",
	Explain: `Builtin handlers are a fixed list: http_request, llm_call, file_reader,
json_transformer, text_analyzer, calculator, datetime, string, array, object.

Bad:
  entry:
    type: builtin
    handler: web_fetch

Good:
  entry:
    type: builtin
    handler: http_request`,
	Tool: func(r *Reporter, t *spec.Tool) {
		e := t.Entry
		if e == nil || e.Kind() != spec.EntryBuiltin || e.Handler == "" || slices.Contains(spec.BuiltinHandlers, e.Handler) {
			return
		}
		if s := spec.Suggest(e.Handler, spec.BuiltinHandlers); s != "" {
			r.Report(t, "/entry/handler", "builtin handler %q does not exist; did you mean %q?", e.Handler, s)
			return
		}
		r.Report(t, "/entry/handler", "builtin handler %q does not exist; use one of %s, or another entry type", e.Handler, strings.Join(spec.BuiltinHandlers, ", "))
	},
}
