package lint

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

var ruleInputSchemaInvalid = &Rule{
	ID:          "input-schema-invalid",
	Severity:    Error,
	Description: "The input schema is valid JSON Schema (checked against its meta-schema) and compiles.",
	Explain: `Providers reject a tool whose parameters are not valid JSON Schema, and
validation of calls cannot work. The finding points at the offending value.

Bad:
  input_schema:
    type: object
    properties:
      limit: {type: int}
    required: limit

Good:
  input_schema:
    type: object
    properties:
      limit: {type: integer}
    required: [limit]`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.InputSchema == nil {
			return
		}
		if ps := r.InputMeta(t); len(ps) > 0 {
			for _, p := range ps {
				r.Report(t, "/input_schema"+p.Pointer, "input schema%s: %s", schemaLabel(p.Pointer), p.Message)
			}
			return
		}
		// Only references can fail to compile once the meta-schema
		// passes; compiling is slow, so only schemas with $ref pay for it.
		if !hasKeyword(t.InputSchema, "$ref", 0) {
			return
		}
		// A reference that cannot resolve is reported at its $ref; the
		// compiler names only the first and no place.
		if ps := refProblems(t.InputSchema); len(ps) > 0 {
			for _, p := range ps {
				r.Report(t, "/input_schema"+p.Pointer, "input schema%s: %s", schemaLabel(strings.TrimSuffix(p.Pointer, "/$ref")), p.Message)
			}
			return
		}
		if _, err := r.InputSchema(t); err != nil {
			r.Report(t, "/input_schema", "input schema does not compile: %v", err)
		}
	},
}

// refProblems lists the $refs of a schema that cannot resolve, at the
// pointer of each $ref: a reference outside the schema (toolctl loads
// none) and a local one that points at nothing. A schema with an $id
// anywhere (a base for relative references) and anchors (#name) are left
// to the compiler.
func refProblems(schema *spec.Map) []validate.Problem {
	draft, _ := spec.SchemaDraft(schema)
	var out []validate.Problem
	base := false
	var visit func(s *spec.Map, ptr string, depth int)
	visit = func(s *spec.Map, ptr string, depth int) {
		if depth > maxKeywordDepth {
			return
		}
		if _, ok := s.GetString("$id"); ok {
			base = true
		}
		if _, ok := s.GetString("id"); ok && draft == "draft-04" {
			base = true
		}
		if ref, ok := s.GetString("$ref"); ok {
			if msg := refProblem(schema, ref); msg != "" {
				out = append(out, validate.Problem{Pointer: ptr + "/$ref", Message: msg})
			}
		}
		eachSubschema(s, ptr, func(_ string, sub *spec.Map, subPtr string) { visit(sub, subPtr, depth+1) })
	}
	visit(schema, "", 0)
	if base {
		return nil
	}
	return out
}

// refProblem says why ref cannot resolve in root, or returns "".
func refProblem(root *spec.Map, ref string) string {
	frag, local := strings.CutPrefix(ref, "#")
	if !local {
		return fmt.Sprintf("$ref %q is not loaded: toolctl does not fetch remote references; inline the schema or use a local $ref (#/$defs/...)", ref)
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		return "" // an anchor: the compiler knows
	}
	if p, err := url.PathUnescape(frag); err == nil {
		frag = p
	}
	var cur any = root
	for _, tok := range spec.SplitPointer(frag) {
		switch c := cur.(type) {
		case *spec.Map:
			v, ok := c.Get(tok)
			if !ok {
				cur = nil
				break
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				cur = nil
				break
			}
			cur = c[i]
		default:
			cur = nil
		}
		if cur == nil {
			msg := fmt.Sprintf("$ref %q points at nothing in the input schema", ref)
			if s := spec.Suggest(ref, definitionRefs(root)); s != "" {
				return msg + fmt.Sprintf("; did you mean %q?", s)
			}
			return msg + "; define it under $defs, or fix the reference"
		}
	}
	return ""
}

// definitionRefs lists the references to a schema's definitions
// (#/$defs/NAME, #/definitions/NAME), for did-you-mean.
func definitionRefs(root *spec.Map) []string {
	var out []string
	for _, kw := range []string{"$defs", "definitions"} {
		defs, _ := root.GetMap(kw)
		for _, name := range defs.Keys() {
			out = append(out, "#/"+kw+"/"+escape(name))
		}
	}
	return out
}

// schemaLabel names a place in a schema for a message: " at parameter
// \"q\" (type)" style when under properties, else the pointer as a path.
func schemaLabel(ptr string) string {
	if ptr == "" {
		return ""
	}
	return " at " + validate.PointerLabel(ptr)
}
