package lint

import (
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleEntryFieldMissing = &Rule{
	ID:          "entry-field-missing",
	Severity:    Error,
	Description: "The entry has the fields its type needs (http: url, method; javascript: code or file; python: module, function; builtin: handler; command: command; mcp: server, tool).",
	Explain: `An entry without its fields fails at the first call, far from the file.
(The feagent profile skips this check, as Feagent's loader does.)

Bad:
  entry:
    type: http

Good:
  entry:
    type: http
    url: https://api.example.org/search?q={query}
    method: GET`,
	Tool: func(r *Reporter, t *spec.Tool) {
		e := t.Entry
		if e == nil {
			return
		}
		var missing []string
		need := func(ok bool, field string) {
			if !ok {
				missing = append(missing, field)
			}
		}
		switch e.Kind() {
		case spec.EntryHTTP:
			need(e.URL != "", "url")
			need(e.Method != "", "method")
		case spec.EntryJavaScript:
			need(e.Code != "" || e.File != "", "code (or file)")
		case spec.EntryPython:
			need(e.Module != "", "module")
			need(e.Function != "", "function")
		case spec.EntryBuiltin:
			need(e.Handler != "", "handler")
		case spec.EntryCommand:
			need(len(e.Command) > 0, "command")
		case spec.EntryMCP:
			need(e.Server != "" || len(e.ServerArgs) > 0, "server")
			need(e.Tool != "", "tool")
		default:
			return // entry-type-unknown
		}
		if len(missing) > 0 {
			r.Report(t, "/entry", "%s entry is missing %s", e.Kind(), strings.Join(missing, " and "))
		}
	},
}
