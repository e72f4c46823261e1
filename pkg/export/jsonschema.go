package export

// The jsonschema format is the input schema alone, bound parameters
// removed (InputSchema): one schema for one tool, or an object of schemas
// keyed by tool name (Result.Document), or one file per tool (Result.Files).
// Names are not mapped: no provider reads them.

import "github.com/toolctl/toolctl/pkg/spec"

func jsonSchemaTool(t *spec.Tool, _ string, _ Options) (any, []Warning, []Problem) {
	return InputSchema(t), nil, nil
}

func jsonSchemaDocument(r *Result) ([]byte, error) {
	if len(r.Items) == 1 {
		return spec.MarshalJSONIndent(r.Items[0].Value)
	}
	m := spec.NewMap(len(r.Items))
	for _, it := range r.Items {
		m.Set(it.Name, it.Value)
	}
	return spec.MarshalJSONIndent(m)
}
