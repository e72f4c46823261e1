package lint

import (
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleFieldUnknown = &Rule{
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
			if len(tokens) == 3 && (tokens[0] == "parameters" || tokens[0] == "arguments") {
				// a list parameter item (Feagent's, Docker's): name the item
				where = " in " + tokens[0] + "[" + tokens[1] + "]"
			}
			msg := "unknown field %q%s"
			args := []any{field, where}
			if s := suggestKeyword(field, knownFields(tokens)); s != "" {
				msg += "; did you mean %q?"
				args = append(args, s)
			} else if len(tokens) == 1 {
				msg += "; remove it, or prefix it with x- to keep it as an extension"
			}
			r.ReportKey(t, ptr, msg, args...)
		}
	},
}

// knownFields are the fields a section takes, for did-you-mean: the
// section is the pointer's tokens but the last, indexes aside.
func knownFields(tokens []string) []string {
	section := strings.Join(nonIndex(tokens[:len(tokens)-1]), ".")
	switch section {
	case "":
		return spec.ToolFields
	case "entry":
		return spec.EntryFields
	case "runtime":
		return spec.RuntimeFields
	case "examples":
		return spec.ExampleFields
	case "prerequisites":
		return spec.PrerequisiteFields
	case "related_tools":
		return spec.RelatedToolFields
	case "workflow":
		return spec.WorkflowFields
	case "workflow.steps":
		return spec.WorkflowStepFields
	case "annotations":
		return spec.AnnotationFields
	case "metadata":
		return spec.MetadataFields
	case "parameters":
		return slices.Concat(spec.ParamItemKeys, spec.Draft202012, spec.AnnotationKeywords)
	case "arguments":
		return slices.Concat(spec.DockerArgumentKeys, spec.Draft202012, spec.AnnotationKeywords)
	}
	return nil
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
