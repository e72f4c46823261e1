package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/tmpl"
)

var ruleURLPlaceholderOrigin = &Rule{
	ID:          "url-placeholder-origin",
	Severity:    Error,
	Description: "No {param} in an http entry url's scheme, user info or port, nor as its whole origin; ${ENV} and bound parameters are fine.",
	Explain: `The request carries the tool's headers and ${ENV} credentials. A {param} in
the URL's scheme, user info or port, or one that is the whole origin
({base_url}/v1/items), lets a caller send them to any server, so toolctl
run refuses such a tool. Write the origin in the tool file, take it from the
environment with ${ENV}, or bind the parameter (bind: base_url: {env: ...});
a parameter limited to an enum is the file's own choice too.

Bad:
  entry:
    type: http
    url: "{base_url}/v1/items"
    method: GET

Good:
  entry:
    type: http
    url: "${EXAMPLE_BASE_URL}/v1/items"
    method: GET`,
	Tool: func(r *Reporter, t *spec.Tool) {
		e := t.Entry
		if e == nil || e.Kind() != spec.EntryHTTP || e.URL == "" {
			return
		}
		u := tmpl.SplitURL(e.URL)
		check := func(p tmpl.Part, what string) {
			for _, ref := range tmpl.Params(p.Text) {
				if fixedParam(t, ref.Name) {
					continue
				}
				r.ReportSpan(t, textSpan(t, "/entry/url", e.URL, p.Off+ref.Off, p.Off+ref.End),
					"parameter %q is in the url's %s: a caller could send the request, with its headers and credentials, to any server (toolctl run refuses it); write it in the tool file, use ${ENV}, or bind the parameter", ref.Name, what)
			}
		}
		if !u.Authority {
			check(u.Origin, "scheme and host")
			return
		}
		check(u.Scheme, "scheme")
		check(u.Userinfo, "user info")
		check(u.Port, "port")
	},
}
