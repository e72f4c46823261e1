package lint

import (
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var _ = register(&Rule{
	ID:          "field-unknown",
	Severity:    Error,
	Description: "Every field is one toolctl knows; x-* fields are extensions and allowed.",
	Explain: `A misspelt field is silently ignored by agents and exporters: the tool then
runs without the description or timeout you think it has.

Bad:
  descripton: Sends an HTTP request.
  runtime:
    timout: 10s

Good:
  description: Sends an HTTP request.
  runtime:
    timeout: 10s
  x-owner: platform-team   # extensions start with x-`,
	Tool: func(r *Reporter, t *spec.Tool) {
		for _, ptr := range t.UnknownFields {
			tokens := spec.SplitPointer(ptr)
			field := tokens[len(tokens)-1]
			where := ""
			if len(tokens) > 1 {
				where = " in " + strings.Join(nonIndex(tokens[:len(tokens)-1]), ".")
			}
			msg := "unknown field %q%s"
			args := []any{field, where}
			if fields := sectionFields[strings.Join(nonIndex(tokens[:len(tokens)-1]), ".")]; len(tokens) > 1 && fields != nil {
				if s := spec.Suggest(field, fields); s != "" {
					msg += "; did you mean %q?"
					args = append(args, s)
				}
			}
			if len(tokens) == 1 {
				if s := spec.Suggest(field, spec.ToolFields); s != "" {
					msg += "; did you mean %q?"
					args = append(args, s)
				} else {
					msg += "; remove it, or prefix it with x- to keep it as an extension"
				}
			}
			r.ReportKey(t, ptr, msg, args...)
		}
	},
})

// sectionFields are the fields of the sections a misspelt field may be
// in, by the section's path without list indexes.
var sectionFields = map[string][]string{
	"runtime":        spec.RuntimeFields,
	"entry":          spec.EntryFields,
	"annotations":    spec.AnnotationFields,
	"metadata":       spec.MetadataFields,
	"examples":       spec.ExampleFields,
	"prerequisites":  spec.PrerequisiteFields,
	"related_tools":  spec.RelatedToolFields,
	"workflow":       spec.WorkflowFields,
	"workflow.steps": spec.WorkflowStepFields,
}

func nonIndex(tokens []string) []string {
	var out []string
	for _, tk := range tokens {
		if tk != "" && (tk[0] < '0' || tk[0] > '9') {
			out = append(out, tk)
		}
	}
	return out
}
