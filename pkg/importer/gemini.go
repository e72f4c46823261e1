package importer

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// readGemini reads Gemini function declarations. Accepted shapes:
//
//   - a Tool {functionDeclarations: [...]} (or function_declarations);
//   - a generateContent request body {contents, tools: [Tool, ...]}, or
//     the SDKs' {config: {tools: [...]}}; tools without
//     functionDeclarations (googleSearch, codeExecution, ...) are built in
//     and skipped with a warning;
//   - a list of Tools or of declarations, or one declaration.
//
// A declaration is {name, description, parameters | parametersJsonSchema,
// response | responseJsonSchema}. parametersJsonSchema and
// responseJsonSchema are JSON Schema and kept as written. parameters and
// response are Gemini's OpenAPI 3.0 subset (Schema), converted to JSON
// Schema (openAPIToJSONSchema). behavior is not kept.
// https://ai.google.dev/api/caching#FunctionDeclaration
// https://ai.google.dev/api/caching#Schema
func readGemini(r *reader, v any, at loc) {
	switch v := v.(type) {
	case []any:
		r.each(v, at, "function declaration", func(r *reader, m *spec.Map, at loc) { geminiItem(r, m, at, true) })
	case *spec.Map:
		geminiItem(r, v, at, false)
	default:
		r.errorf(at, "expected a Gemini function declaration, {functionDeclarations: [...]} or a request body with \"tools\", got %s", kindOf(v))
	}
}

// geminiItem reads a container (Tool, request body) or a declaration.
// inTools: m is an item of a list, where a Tool without declarations is a
// built-in tool to skip.
func geminiItem(r *reader, m *spec.Map, at loc, inTools bool) {
	if m.Has("name") {
		geminiDeclaration(r, m, at)
		return
	}
	for _, key := range []string{"functionDeclarations", "function_declarations"} {
		if v, ok := m.Get(key); ok {
			if list, ok := r.list(v, at.key(key), key); ok {
				r.each(list, at.key(key), "function declaration", geminiDeclaration)
			}
			return
		}
	}
	tools, tat := m, at
	if c, ok := m.GetMap("config"); ok && !m.Has("tools") {
		tools, tat = c, at.key("config") // the SDKs' GenerateContentConfig
	}
	if v, ok := tools.Get("tools"); ok {
		if _, ok := r.list(v, tat.key("tools"), "tools"); ok {
			readGemini(r, v, tat.key("tools"))
		}
		return
	}
	if inTools && m.Len() > 0 {
		kind := m.Keys()[0]
		r.warnf(RuleBuiltinSkipped, at, kind, "skipped the %q tool: it is built into Gemini and has no function declaration to import", kind)
		return
	}
	r.errorf(at, "not a Gemini function declaration: there is no \"name\" nor \"functionDeclarations\" (keys here: %s)", keyList(m))
}

var geminiKeys = map[string]bool{
	"name": true, "description": true, "parameters": true, "parametersJsonSchema": true,
	"response": true, "responseJsonSchema": true,
}

func geminiDeclaration(r *reader, m *spec.Map, at loc) {
	name, ok := r.toolName(m, at)
	if !ok {
		return
	}
	t := &spec.Tool{Name: name, Description: r.str(m, "description", at)}
	t.InputSchema = geminiSchema(r, m, at, "parameters", "parametersJsonSchema")
	t.OutputSchema = geminiSchema(r, m, at, "response", "responseJsonSchema")
	r.ignored(m, at, name, geminiKeys, "")
	r.description(t, at)
	r.add(t, at)
}

// geminiSchema reads the OpenAPI form (key) or the JSON Schema form
// (jsonKey); Gemini takes one or the other.
func geminiSchema(r *reader, m *spec.Map, at loc, key, jsonKey string) *spec.Map {
	api, js := r.schema(m, key, at), r.schema(m, jsonKey, at)
	if api != nil && js != nil {
		r.errorf(at.key(jsonKey), "both %q and %q are set; Gemini takes one of them: keep %q", key, jsonKey, jsonKey)
		return nil
	}
	if js != nil {
		return js
	}
	if api != nil {
		return openAPIToJSONSchema(api)
	}
	return nil
}

// openAPIToJSONSchema converts Gemini's OpenAPI 3.0 Schema subset to JSON
// Schema, recursively through properties, items and anyOf:
//
//   - type: the enum names STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT
//     and NULL become string, number, ... (lowercase is accepted too);
//     TYPE_UNSPECIFIED is dropped (no type constraint);
//   - nullable: true becomes type: [T, "null"] (or an anyOf member
//     {type: null} when there is an anyOf and no type); nullable: false is
//     dropped (an enum is kept as written: OpenAPI 3.0.3 allows null in
//     an enum only when it is listed);
//   - example (one value) becomes examples: [value];
//   - the int64 keywords the API writes as strings (minItems, maxItems,
//     minLength, maxLength, minProperties, maxProperties) become numbers;
//   - propertyOrdering that names every property once becomes the order
//     of the properties (toolctl keeps the order there) and is dropped;
//     any other propertyOrdering is kept as written;
//   - every other keyword (description, format, enum, required, default,
//     pattern, minimum, maximum, title, ...) is kept as written.
func openAPIToJSONSchema(s *spec.Map) *spec.Map {
	out := spec.NewMap(s.Len())
	nullable := false
	for i := 0; i < s.Len(); i++ {
		k, v := s.At(i)
		switch k {
		case "type":
			if t, ok := v.(string); ok {
				lt := strings.ToLower(t)
				if lt == "type_unspecified" || lt == "" {
					continue
				}
				v = lt
			}
		case "nullable":
			if b, ok := v.(bool); ok {
				nullable = b
				continue
			}
		case "example":
			k, v = "examples", []any{v}
		case "minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties":
			if str, ok := v.(string); ok {
				if _, err := json.Number(str).Int64(); err == nil {
					v = json.Number(str)
				}
			}
		case "properties":
			v = convertProperties(v, func(_ string, m *spec.Map) *spec.Map { return openAPIToJSONSchema(m) })
		case "items":
			if im, ok := v.(*spec.Map); ok {
				v = openAPIToJSONSchema(im)
			}
		case "anyOf":
			v = convertList(v, func(_ int, m *spec.Map) *spec.Map { return openAPIToJSONSchema(m) })
		}
		out.Set(k, v)
	}
	if nullable {
		nullableJSONSchema(out)
	}
	orderProperties(out)
	return out
}

// nullableJSONSchema lets null through a converted schema that was
// nullable: true: "null" is added to its type (one name or a list), or
// to its anyOf as {type: null} (toolctl export --format gemini --legacy
// writes a nullable union so). A schema with neither accepts null already.
func nullableJSONSchema(out *spec.Map) {
	switch t := spec.CloneValue(mapValue(out, "type")).(type) {
	case string:
		if t != "null" {
			out.Set("type", []any{t, "null"})
		}
		return
	case []any:
		for _, x := range t {
			if x == "null" {
				return
			}
		}
		out.Set("type", append(t, "null"))
		return
	}
	if alts, ok := out.Get("anyOf"); ok {
		if list, ok := alts.([]any); ok {
			null := spec.NewMap(1)
			null.Set("type", "null")
			out.Set("anyOf", append(slices.Clone(list), null))
		}
	}
}

// orderProperties applies propertyOrdering, the OpenAPI form's order of
// the properties, as the order of the properties' keys (which is how
// toolctl keeps it: export writes propertyOrdering from it), and drops it.
// It is kept as written when it does not name each property exactly once.
func orderProperties(out *spec.Map) {
	order, ok := out.Get("propertyOrdering")
	props, isMap := out.GetMap("properties")
	list, isList := order.([]any)
	if !ok || !isMap || !isList || len(list) != props.Len() {
		return
	}
	sorted := spec.NewMap(props.Len())
	for _, x := range list {
		k, ok := x.(string)
		if !ok || sorted.Has(k) || !props.Has(k) {
			return
		}
		v, _ := props.Get(k)
		sorted.Set(k, v)
	}
	out.Set("properties", sorted)
	out.Delete("propertyOrdering")
}

func mapValue(m *spec.Map, k string) any {
	v, _ := m.Get(k)
	return v
}
