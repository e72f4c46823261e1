package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/tmpl"
)

var ruleURLPlaceholderHost = &Rule{
	ID:          "url-placeholder-host",
	Severity:    Warning,
	Description: "A {param} in an http entry url's host lets the caller pick the server; bind it or list its values in an enum.",
	Explain: `With url: https://{region}.api.example.org/..., whoever calls the tool picks
part of the host the request (with its headers and credentials) goes to.
toolctl run accepts only one DNS label there (letters, digits and -), so a
value cannot add a host, a port or a path, but a label may still name a
host you did not mean. List the allowed values in an enum, or bind the
parameter when it is configuration rather than the caller's choice.

Bad:
  entry:
    type: http
    url: https://{region}.api.example.org/v1/status
    method: GET

Good:
  entry:
    type: http
    url: https://{region}.api.example.org/v1/status
    method: GET
  parameters:
    - name: region
      type: string
      description: Region to query.
      enum: [eu, us]`,
	Tool: func(r *Reporter, t *spec.Tool) {
		e := t.Entry
		if e == nil || e.Kind() != spec.EntryHTTP || e.URL == "" {
			return
		}
		u := tmpl.SplitURL(e.URL)
		if !u.Authority {
			return
		}
		for _, ref := range tmpl.Params(u.Host.Text) {
			if fixedParam(t, ref.Name) {
				continue
			}
			r.ReportSpan(t, textSpan(t, "/entry/url", e.URL, u.Host.Off+ref.Off, u.Host.Off+ref.End),
				"parameter %q is part of the url's host, so a caller picks the server that gets the request and its credentials (toolctl run accepts one DNS label); list the allowed values in an enum, or bind the parameter", ref.Name)
		}
	},
}
