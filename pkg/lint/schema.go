package lint

import (
	"errors"
	"strings"

	"github.com/toolctl/toolctl/internal/jsonschema"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// toolState is what one tool's rules share during a run; rules of one tool
// run in sequence, so it needs no lock.
type toolState struct {
	compiled  bool
	input     *jsonschema.Schema
	inputErr  error
	inputMeta []validate.Problem
	metaDone  bool
	props     []property
	propsDone bool
	// texts are the model texts the security rules read.
	texts     []modelText
	textsDone bool
	walk      *textWalk
}

// draftURLs are the meta-schemas a $schema may name, as the library
// knows them; it compiles each on first use and keeps it.
var draftURLs = map[string]bool{
	"https://json-schema.org/draft/2020-12/schema": true,
	"https://json-schema.org/draft/2019-09/schema": true,
	"http://json-schema.org/draft-07/schema":       true,
	"http://json-schema.org/draft-06/schema":       true,
	"http://json-schema.org/draft-04/schema":       true,
}

// metaSchemaFor picks the meta-schema named by $schema (draft 2020-12 when
// absent or unknown; schema-$schema-unknown is not a rule of ours).
func metaSchemaFor(doc *spec.Map) *jsonschema.Schema {
	url := "https://json-schema.org/draft/2020-12/schema"
	if v, ok := doc.Get("$schema"); ok {
		if s, ok := v.(string); ok {
			s = strings.TrimSuffix(strings.TrimSuffix(s, "#"), ".json")
			s = strings.Replace(s, "https://json-schema.org/draft-0", "http://json-schema.org/draft-0", 1)
			if draftURLs[s] {
				url = s
			}
		}
	}
	meta, err := validate.NewCompiler().Compile(url)
	if err != nil {
		panic("lint: built-in meta-schema " + url + ": " + err.Error())
	}
	return meta
}

// checkMeta validates a schema document against its meta-schema: the fast
// check when it is sure, the library otherwise.
func checkMeta(doc *spec.Map) []validate.Problem {
	if fastMeta(doc) == valid {
		return nil
	}
	return validate.Problems(metaSchemaFor(doc).Validate(spec.Plain(doc)))
}

// hasKeyword tells whether a keyword appears anywhere in a schema.
func hasKeyword(v any, kw string, depth int) bool {
	if depth > 64 {
		return true // let the library look
	}
	switch v := v.(type) {
	case *spec.Map:
		for i := range v.Len() {
			k, x := v.At(i)
			if k == kw || hasKeyword(x, kw, depth+1) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasKeyword(x, kw, depth+1) {
				return true
			}
		}
	}
	return false
}

// InputMeta returns the meta-schema problems of t's input schema, computed
// once per tool.
func (r *Reporter) InputMeta(t *spec.Tool) []validate.Problem {
	st := r.tool
	if !st.metaDone {
		st.metaDone = true
		if in := t.InputSchema; in != nil {
			st.inputMeta = checkMeta(in)
		}
	}
	return st.inputMeta
}

// InputSchema returns t's input schema compiled, once per tool; nil with a
// nil error when the tool has none. A schema that fails its meta-schema is
// not compiled (input-schema-invalid reports it).
func (r *Reporter) InputSchema(t *spec.Tool) (*jsonschema.Schema, error) {
	st := r.tool
	if st.compiled {
		return st.input, st.inputErr
	}
	st.compiled = true
	if t.InputSchema == nil {
		return nil, nil
	}
	if len(r.InputMeta(t)) > 0 {
		st.inputErr = errors.New("the input schema is not valid JSON Schema")
		return nil, st.inputErr
	}
	st.input, st.inputErr = validate.Compile(validate.CallSchema(t))
	return st.input, st.inputErr
}
