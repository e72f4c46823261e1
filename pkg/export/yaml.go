package export

// The yaml format is the canonical tool file (spec.Tool.ToMap, what
// toolctl show prints): exporting a tool written in any dialect as yaml
// converts it to the canonical one. It is the one format that keeps bound
// parameters and bind: it is a tool file for toolctl, which fills them at
// run time, not a definition for a model.

import "github.com/toolctl/toolctl/pkg/spec"

func yamlTool(t *spec.Tool, _ string, _ Options) (any, []Warning, []Problem) {
	return t.ToMap(), nil, nil
}

// yamlDocument is the tool file itself for one tool, else a YAML list of
// tools.
func yamlDocument(r *Result) ([]byte, error) {
	if len(r.Items) == 1 {
		return spec.MarshalYAMLDoc(r.Items[0].Value)
	}
	return spec.MarshalYAMLDoc(r.values())
}
