package importer

import (
	"fmt"

	"github.com/toolctl/toolctl/pkg/spec"
)

// readBFCL reads Berkeley Function Calling Leaderboard function docs
// {name, description, parameters, response?}: one per line (JSON Lines, as
// BFCL ships them), a JSON array of them, or a BFCL question record
// {id, question, function: [...]}.
//
// parameters and response are BFCL's dialect of JSON Schema, converted by
// bfclSchema. Names with dots (math.factorial) are mapped like every name
// toolctl does not accept (ToolName).
// https://github.com/ShishirPatil/gorilla/tree/main/berkeley-function-call-leaderboard
func readBFCL(r *reader, v any, at loc) {
	switch v := v.(type) {
	case []any:
		r.each(v, at, "function doc", bfclFunction)
	case *spec.Map:
		if !v.Has("name") {
			if fn, ok := v.Get("function"); ok {
				if m, ok := fn.(*spec.Map); ok {
					bfclFunction(r, m, at.key("function"))
				} else {
					readBFCL(r, fn, at.key("function"))
				}
				return
			}
		}
		bfclFunction(r, v, at)
	default:
		r.errorf(at, "expected a BFCL function doc {name, description, parameters}, a list of them or a question with \"function\", got %s", kindOf(v))
	}
}

var bfclKeys = map[string]bool{"name": true, "description": true, "parameters": true, "response": true}

func bfclFunction(r *reader, m *spec.Map, at loc) {
	name, ok := r.toolName(m, at)
	if !ok {
		return
	}
	t := &spec.Tool{Name: name, Description: r.str(m, "description", at)}
	if s := r.schema(m, "parameters", at); s != nil {
		t.InputSchema = bfclSchema(r, s, at.key("parameters"), name)
	}
	if s := r.schema(m, "response", at); s != nil {
		t.OutputSchema = bfclSchema(r, s, at.key("response"), name)
	}
	r.ignored(m, at, name, bfclKeys, "")
	r.description(t, at)
	r.add(t, at)
}

// bfclTypes maps BFCL's type names to JSON Schema types; "" means no type
// constraint. The Python names come from BFCL's docs, the Java and
// JavaScript ones from its java/javascript categories; the mapping follows
// BFCL's own GORILLA_TO_OPENAPI (bfcl_eval/constants/type_mappings.py)
// except for any, which BFCL turns into string and toolctl into "no type"
// (any value is valid, which is what any says).
var bfclTypes = map[string]string{
	"dict": "object", "object": "object", "HashMap": "object", "Hashtable": "object", "Map": "object",
	"float": "number", "double": "number", "number": "number",
	"integer": "integer", "int": "integer", "long": "integer", "short": "integer", "byte": "integer", "Bigint": "integer",
	"string": "string", "String": "string", "char": "string",
	"boolean": "boolean", "Boolean": "boolean", "bool": "boolean",
	"array": "array", "Array": "array", "ArrayList": "array", "list": "array", "tuple": "array", "Queue": "array", "Stack": "array",
	"any": "", "Any": "", "": "",
	"null": "null",
}

// bfclSchema converts BFCL's schema dialect to JSON Schema, recursively
// through properties, items, additionalProperties, anyOf, oneOf and allOf:
//
//   - type: dict → object, float and double → number, tuple → array, any
//     and "" → no type; the Java/JavaScript names String, Boolean, char,
//     long, Array, ArrayList, HashMap, ... → their JSON types (bfclTypes);
//     an unknown type is dropped with a warning;
//   - optional: true on a property (BFCL's marker) removes it from the
//     parent's required list; the top-level optional: [names] list does the
//     same for each name; both markers are dropped;
//   - every other keyword (description, enum, default, items, required,
//     properties, ...) is kept as written.
func bfclSchema(r *reader, s *spec.Map, at loc, tool string) *spec.Map {
	out := spec.NewMap(s.Len())
	optional := map[string]bool{}
	for i := 0; i < s.Len(); i++ {
		k, v := s.At(i)
		switch k {
		case "type":
			v = bfclType(r, v, at.key(k), tool)
			if v == nil {
				continue
			}
		case "optional":
			switch o := v.(type) {
			case bool:
				continue // handled by the parent
			case []any:
				for _, n := range o {
					if name, ok := n.(string); ok {
						optional[name] = true
					}
				}
				continue
			}
		case "properties":
			v = convertProperties(v, func(pk string, pm *spec.Map) *spec.Map {
				if b, ok := pm.Get("optional"); ok && b == true {
					optional[pk] = true
				}
				return bfclSchema(r, pm, at.key(k).key(pk), tool)
			})
		case "items", "additionalProperties":
			if m, ok := v.(*spec.Map); ok {
				v = bfclSchema(r, m, at.key(k), tool)
			}
		case "anyOf", "oneOf", "allOf":
			v = convertList(v, func(j int, m *spec.Map) *spec.Map {
				return bfclSchema(r, m, at.key(k).index(j), tool)
			})
		}
		out.Set(k, v)
	}
	if len(optional) > 0 {
		if req, ok := out.Get("required"); ok {
			if list, ok := req.([]any); ok {
				kept := make([]any, 0, len(list))
				for _, n := range list {
					if name, ok := n.(string); !ok || !optional[name] {
						kept = append(kept, n)
					}
				}
				out.Set("required", kept)
			}
		}
	}
	return out
}

// bfclType converts a type (or a list of types); nil means no type.
func bfclType(r *reader, v any, at loc, tool string) any {
	switch t := v.(type) {
	case string:
		jt, ok := bfclTypes[t]
		if !ok {
			r.warnf(RuleTypeDropped, at, tool, "tool %q: type %q is not a BFCL type toolctl knows; it is dropped (no type constraint)", tool, t)
			return nil
		}
		if jt == "" {
			return nil
		}
		return jt
	case []any:
		var out []any
		for _, e := range t {
			if c := bfclType(r, e, at, tool); c != nil {
				out = append(out, c)
			}
		}
		if len(out) < len(t) {
			return nil // one of them is "any": the union is any
		}
		return out
	}
	r.warnf(RuleTypeDropped, at, tool, "tool %q: type is %s, not a type name; it is dropped", tool, fmt.Sprint(kindOf(v)))
	return nil
}
