package lint

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleSchemaKeywordUnknown = &Rule{
	ID:          "schema-keyword-unknown",
	Severity:    Error,
	Description: "Every key in a schema (input and output, every subschema) is a keyword of the schema's JSON Schema draft, a common annotation (nullable, example, ...) or an x-* extension.",
	Explain: `A misspelt keyword is no keyword at all: JSON Schema ignores it, so
"proprties" declares no parameters and "requird" makes nothing required,
and every validator and provider says nothing. The draft is the one the
schema's $schema names (2020-12 without one); x-* keys are extensions, and
the annotations provider schemas define (OpenAPI's nullable, example,
discriminator, externalDocs, xml; Gemini's propertyOrdering) are allowed.
The names under properties, $defs, definitions, patternProperties and
dependentSchemas are names, not keywords; the schemas they hold are
checked. In the Feagent list form, the keys of a parameter item itself are
field-unknown's.

Bad:
  input_schema:
    type: object
    proprties:
      id: {type: string}
    requird: [id]

Good:
  input_schema:
    type: object
    properties:
      id: {type: string}
    required: [id]`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.InputSchema != nil {
			checkSchemaKeywords(r, t, "/input_schema", t.InputSchema, t.InputFromList())
		}
		if t.OutputSchema != nil {
			checkSchemaKeywords(r, t, "/output_schema", t.OutputSchema, t.OutputFromFields())
		}
	},
}

// maxKeywordDepth bounds the walk over pathological schemas; deeper
// subschemas are left unchecked.
const maxKeywordDepth = 64

// schemaMapKws hold a map of names to subschemas, schemaOneKws one
// subschema, schemaListKws a list of them (items: both forms).
var (
	schemaMapKws  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
	schemaOneKws  = []string{"items", "additionalProperties", "additionalItems", "unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else", "contentSchema"}
	schemaListKws = []string{"items", "prefixItems", "allOf", "anyOf", "oneOf"}
)

// checkSchemaKeywords reports the unknown keys of schema (at canonical
// pointer base) and of every subschema. converted marks a schema built
// from a Feagent form, whose root toolctl wrote: the input from the list
// form (its parameters' own keys are field-unknown's, spec records them;
// their subschemas are checked here) or the output from a returns map of
// fields (each field's schema is checked).
func checkSchemaKeywords(r *Reporter, t *spec.Tool, base string, schema *spec.Map, converted bool) {
	draft, keywords := spec.SchemaDraft(schema)
	known := make(map[string]bool, len(keywords)+len(spec.AnnotationKeywords))
	for _, k := range keywords {
		known[k] = true
	}
	for _, k := range spec.AnnotationKeywords {
		known[k] = true
	}
	w := keywordWalk{r: r, t: t, base: base, draft: draft, keywords: keywords, known: known}
	if !converted {
		w.schema(schema, "", 0)
		return
	}
	props, _ := schema.GetMap("properties")
	if base == "/output_schema" {
		w.fields(props)
		return
	}
	for i := range props.Len() {
		name, v := props.At(i)
		if m, ok := v.(*spec.Map); ok {
			w.children(m, "/properties/"+escape(name), 1)
		}
	}
}

// fields checks the fields of a returns map. A JSON Schema with a
// misspelt keyword is read as such a map, since not every key is a
// keyword: {type: object, proprties: {...}} has the fields "type" and
// "proprties". When there is a field named type, a field named like a
// keyword is that misspelling, and reported as such.
func (w *keywordWalk) fields(props *spec.Map) {
	schemaLike := props.Has("type")
	for i := range props.Len() {
		name, v := props.At(i)
		ptr := "/properties/" + escape(name)
		if s := suggestKeyword(name, w.keywords); schemaLike && s != "" && !w.known[name] {
			w.r.ReportKey(w.t, w.base+ptr, "returns is read as a map of returned fields, not as a JSON Schema, because %q is no keyword; did you mean %q?", name, s)
			continue
		}
		if m, ok := v.(*spec.Map); ok {
			w.schema(m, ptr, 1)
		}
	}
}

type keywordWalk struct {
	r        *Reporter
	t        *spec.Tool
	base     string
	draft    string
	keywords []string
	known    map[string]bool
}

// schema checks the keys of s (at ptr, relative to base) and walks on.
func (w *keywordWalk) schema(s *spec.Map, ptr string, depth int) {
	if depth > maxKeywordDepth {
		return
	}
	for i := range s.Len() {
		k, _ := s.At(i)
		if w.known[k] || spec.IsSchemaExtension(k) {
			continue
		}
		w.report(k, ptr)
	}
	w.children(s, ptr, depth)
}

// children walks the subschemas of s that the draft's keywords hold.
func (w *keywordWalk) children(s *spec.Map, ptr string, depth int) {
	eachSubschema(s, ptr, func(kw string, sub *spec.Map, subPtr string) {
		if w.known[kw] {
			w.schema(sub, subPtr, depth+1)
		}
	})
}

// eachSubschema calls f for every subschema s holds directly, with the
// keyword that holds it and its pointer (ptr is s's). The names under
// properties, $defs, ... are names; dependencies holds schemas and lists
// of names (the dependentRequired form), only the schemas are visited.
func eachSubschema(s *spec.Map, ptr string, f func(kw string, sub *spec.Map, subPtr string)) {
	for i := range s.Len() {
		k, v := s.At(i)
		kp := ptr + "/" + escape(k)
		switch x := v.(type) {
		case *spec.Map:
			switch {
			case slices.Contains(schemaMapKws, k):
				for j := range x.Len() {
					name, sv := x.At(j)
					if sm, ok := sv.(*spec.Map); ok {
						f(k, sm, kp+"/"+escape(name))
					}
				}
			case slices.Contains(schemaOneKws, k):
				f(k, x, kp)
			}
		case []any:
			if slices.Contains(schemaListKws, k) {
				for j, e := range x {
					if sm, ok := e.(*spec.Map); ok {
						f(k, sm, kp+"/"+strconv.Itoa(j))
					}
				}
			}
		}
	}
}

func (w *keywordWalk) report(key, ptr string) {
	where := "input schema"
	if w.base == "/output_schema" {
		where = "output schema"
	}
	msg := fmt.Sprintf("%s%s: %q is not a JSON Schema keyword", where, schemaLabel(ptr), key)
	if w.draft != "2020-12" {
		msg = fmt.Sprintf("%s%s: %q is not a keyword of JSON Schema %s (the draft its $schema names)", where, schemaLabel(ptr), key, w.draft)
	}
	switch s := suggestKeyword(key, w.keywords); {
	case s != "":
		msg += fmt.Sprintf("; did you mean %q?", s)
	case w.draft != "2020-12" && slices.Contains(spec.Draft202012, key):
		msg += fmt.Sprintf("; it is a keyword of later drafts: drop $schema or name a draft that has it, or remove %q", key)
	default:
		msg += "; JSON Schema ignores it: remove it, or prefix it with x- to keep it as an extension"
	}
	w.r.ReportKey(w.t, w.base+ptr+"/"+escape(key), "%s", msg)
}

// suggestKeyword is spec.Suggest held to near misses: a candidate whose
// length is within two of the key's ("proprties" → "properties", but not
// "constraints" → "contains"). field-unknown uses it too.
func suggestKeyword(key string, keywords []string) string {
	s := spec.Suggest(key, keywords)
	if s == "" {
		return ""
	}
	if d := len([]rune(s)) - len([]rune(key)); d > 2 || d < -2 {
		return ""
	}
	return s
}
