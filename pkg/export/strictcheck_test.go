package export

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

// This file is a second, independent reading of the documented strict
// rules, written without the transform (strict.go) or pkg/compat: it walks
// an exported schema and lists every rule it breaks. Every --strict golden
// and every strict corpus export must pass it.
//
// OpenAI (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
// and the API's own error messages):
//   - the root is an object, not an anyOf;
//   - every object sets additionalProperties: false and lists every
//     property in required;
//   - every schema has a type, an anyOf or a $ref (alone); types are JSON
//     Schema types; an array has items;
//   - no allOf, oneOf, not, if, then, else, dependentRequired,
//     dependentSchemas; no default: null;
//   - formats: date-time, time, date, duration, email, hostname, ipv4, ipv6,
//     uuid;
//   - $refs are local and resolve;
//   - at most 5000 properties, 10 levels of nesting, 1000 enum values and
//     120,000 characters of property names, definition names, enum values
//     and consts.
//
// Anthropic (https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations):
//   - the root is an object;
//   - every object sets additionalProperties: false;
//   - every schema has a type, an enum, an anyOf or a $ref;
//   - no minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf,
//     minLength, maxLength, maxItems, uniqueItems; minItems only 0 or 1;
//   - enum values are strings, numbers, booleans or null;
//   - formats: date-time, time, date, duration, email, hostname, uri, ipv4,
//     ipv6, uuid;
//   - patterns without lookaround, backreferences or \b / \B;
//   - $refs are local, resolve, are not recursive and not inside allOf;
//     no oneOf (anyOf and allOf are what is supported).

type checker struct {
	openai bool
	root   *spec.Map
	errs   []string

	props, enums, chars int
}

func (c *checker) fail(path, format string, args ...any) {
	c.errs = append(c.errs, path+": "+fmt.Sprintf(format, args...))
}

// checkStrict returns every broken rule of schema for "openai" or
// "anthropic".
func checkStrict(provider string, schema *spec.Map) []string {
	c := &checker{openai: provider == "openai", root: schema}
	if ty, _ := schema.Get("type"); ty != "object" {
		c.fail("#", "root type is %v, want object", ty)
	}
	if schema.Has("anyOf") {
		c.fail("#", "root is an anyOf")
	}
	c.visit(schema, "#", 0, nil)
	if c.openai {
		if c.props > 5000 {
			c.fail("#", "%d properties", c.props)
		}
		if c.enums > 1000 {
			c.fail("#", "%d enum values", c.enums)
		}
		if c.chars > 120000 {
			c.fail("#", "%d characters of names and values", c.chars)
		}
	}
	return c.errs
}

var jsonTypes = []string{"string", "number", "integer", "boolean", "object", "array", "null"}

func typesOf(s *spec.Map) ([]string, bool) {
	v, ok := s.Get("type")
	if !ok {
		return nil, false
	}
	switch t := v.(type) {
	case string:
		return []string{t}, true
	case []any:
		var out []string
		for _, x := range t {
			str, _ := x.(string)
			out = append(out, str)
		}
		return out, true
	}
	return nil, true
}

func (c *checker) visit(s *spec.Map, path string, depth int, refStack []string) {
	if depth > 10 && c.openai {
		c.fail(path, "nested %d levels deep", depth)
	}
	if len(refStack) > 40 {
		return
	}
	ref, hasRef := s.Get("$ref")
	types, hasType := typesOf(s)
	if !hasType && !s.Has("anyOf") && !hasRef && (c.openai || !s.Has("enum")) {
		c.fail(path, "no type")
	}
	for _, t := range types {
		if !slices.Contains(jsonTypes, t) {
			c.fail(path, "type %q is not a JSON Schema type", t)
		}
	}
	if hasRef {
		r, _ := ref.(string)
		if c.openai && s.Len() > 1 {
			c.fail(path, "$ref has sibling keys %v", s.Keys())
		}
		if !strings.HasPrefix(r, "#") {
			c.fail(path, "$ref %q is not local", r)
		} else if slices.Contains(refStack, r) {
			if !c.openai {
				c.fail(path, "$ref %q is recursive", r)
			}
		} else if target, ok := c.resolve(r); !ok {
			c.fail(path, "$ref %q does not resolve", r)
		} else {
			c.visit(target, path+"->"+r, depth, append(refStack, r))
		}
	}
	for _, kw := range []string{"oneOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas"} {
		if s.Has(kw) {
			c.fail(path, "uses %s", kw)
		}
	}
	if c.openai && s.Has("allOf") {
		c.fail(path, "uses allOf")
	}
	if d, ok := s.Get("default"); ok && d == nil && c.openai {
		c.fail(path, "default: null")
	}
	if f, ok := s.Get("format"); ok {
		allowed := []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
		if !c.openai {
			allowed = append(allowed, "uri")
		}
		if str, _ := f.(string); !slices.Contains(allowed, str) {
			c.fail(path, "format %v", f)
		}
	}
	if !c.openai {
		for _, kw := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "maxItems", "uniqueItems"} {
			if s.Has(kw) {
				c.fail(path, "uses %s", kw)
			}
		}
		if n, ok := s.Get("minItems"); ok && fmt.Sprint(n) != "0" && fmt.Sprint(n) != "1" {
			c.fail(path, "minItems %v", n)
		}
		if p, ok := s.Get("pattern"); ok {
			if str, _ := p.(string); hasAdvancedRegex(str) {
				c.fail(path, "pattern %q uses lookaround, a backreference or \\b", str)
			}
		}
		if v, ok := s.Get("allOf"); ok {
			for _, x := range v.([]any) {
				if m, ok := x.(*spec.Map); ok && m.Has("$ref") {
					c.fail(path, "$ref inside allOf")
				}
			}
		}
	}
	if e, ok := s.Get("enum"); ok {
		for _, x := range e.([]any) {
			c.enums++
			switch x := x.(type) {
			case *spec.Map, []any:
				if !c.openai {
					c.fail(path, "enum value %v is not a primitive", x)
				}
			case string:
				c.chars += utf8.RuneCountInString(x)
			}
		}
	}
	if cv, ok := s.Get("const"); ok {
		if str, ok := cv.(string); ok {
			c.chars += utf8.RuneCountInString(str)
		}
	}
	isObj := slices.Contains(types, "object")
	if isObj || s.Has("properties") {
		if ap, _ := s.Get("additionalProperties"); ap != false {
			c.fail(path, "additionalProperties is %v, want false", ap)
		}
		props, _ := s.Get("properties")
		pm, _ := props.(*spec.Map)
		if c.openai {
			req, _ := s.Get("required")
			var reqNames []string
			for _, x := range asAnyList(req) {
				str, _ := x.(string)
				reqNames = append(reqNames, str)
			}
			for _, k := range pm.Keys() {
				if !slices.Contains(reqNames, k) {
					c.fail(path, "property %q is not required", k)
				}
			}
		}
		for i := range pm.Len() {
			k, v := pm.At(i)
			c.props++
			c.chars += utf8.RuneCountInString(k)
			if m, ok := v.(*spec.Map); ok {
				c.visit(m, path+"/properties/"+k, depth+1, refStack)
			}
		}
	}
	if slices.Contains(types, "array") && c.openai && !s.Has("items") {
		c.fail(path, "array without items")
	}
	if it, ok := s.Get("items"); ok {
		if m, ok := it.(*spec.Map); ok {
			c.visit(m, path+"/items", depth+1, refStack)
		}
	}
	for _, kw := range []string{"anyOf", "allOf"} {
		v, _ := s.Get(kw)
		for i, x := range asAnyList(v) {
			if m, ok := x.(*spec.Map); ok {
				c.visit(m, fmt.Sprintf("%s/%s/%d", path, kw, i), depth, refStack)
			}
		}
	}
	for _, kw := range []string{"$defs", "definitions"} {
		if defs, ok := s.Get(kw); ok && depth == 0 && len(refStack) == 0 {
			dm, _ := defs.(*spec.Map)
			for i := range dm.Len() {
				k, v := dm.At(i)
				c.chars += utf8.RuneCountInString(k)
				if m, ok := v.(*spec.Map); ok {
					c.visit(m, path+"/"+kw+"/"+k, 0, []string{"#/" + kw + "/" + k})
				}
			}
		}
	}
}

func asAnyList(v any) []any {
	l, _ := v.([]any)
	return l
}

func (c *checker) resolve(ref string) (*spec.Map, bool) {
	var cur any = c.root
	for _, tok := range strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:] {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case *spec.Map:
			var ok bool
			if cur, ok = c.Get(tok); !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	m, ok := cur.(*spec.Map)
	return m, ok
}

// hasAdvancedRegex spots lookaround, backreferences and word boundaries,
// skipping escaped characters and character classes.
func hasAdvancedRegex(p string) bool {
	inClass := false
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p):
			n := p[i+1]
			if !inClass && (n == 'b' || n == 'B' || n == 'k' || (n >= '1' && n <= '9')) {
				return true
			}
			i++
		case inClass:
			inClass = p[i] != ']'
		case p[i] == '[':
			inClass = true
			if strings.HasPrefix(p[i:], "[]") || strings.HasPrefix(p[i:], "[^]") {
				i += strings.Index(p[i:], "]")
			}
		case strings.HasPrefix(p[i:], "(?=") || strings.HasPrefix(p[i:], "(?!") || strings.HasPrefix(p[i:], "(?<=") || strings.HasPrefix(p[i:], "(?<!"):
			return true
		}
	}
	return false
}

func TestCheckerCatchesBrokenSchemas(t *testing.T) {
	bad := map[string]string{
		"openai":    `{"type": "object", "properties": {"a": {"type": "string", "format": "uri"}, "b": {"type": "array"}, "c": {}}, "required": ["a"]}`,
		"anthropic": `{"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}, "p": {"type": "string", "pattern": "(?=x)"}, "t": {"$ref": "#/$defs/T"}}, "$defs": {"T": {"type": "object", "properties": {"t": {"$ref": "#/$defs/T"}}, "additionalProperties": false}}}`,
	}
	for provider, src := range bad {
		var s spec.Map
		if err := json.Unmarshal([]byte(src), &s); err != nil {
			t.Fatal(err)
		}
		errs := checkStrict(provider, &s)
		if len(errs) < 3 {
			t.Errorf("%s: checker found only %v", provider, errs)
		}
	}
}

// TestStrictGoldensPassChecker runs the checker over every --strict golden
// that was exported (refused tools have no document).
func TestStrictGoldensPassChecker(t *testing.T) {
	for provider, dir := range map[string]string{"openai": "openai-strict", "anthropic": "anthropic-strict"} {
		files, _ := filepath.Glob(filepath.Join(goldenDir, dir, "*.json"))
		if len(files) == 0 {
			t.Fatalf("no goldens in %s", dir)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, errMsg := range checkDocument(provider, data) {
				t.Errorf("%s: %s", f, errMsg)
			}
		}
	}
}

// checkDocument checks every strict tool of an exported JSON document.
func checkDocument(provider string, data []byte) []string {
	v, err := spec.DecodeJSON(data)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for _, x := range asAnyList(v) {
		tool, _ := x.(*spec.Map)
		if fn, ok := tool.GetMap("function"); ok {
			tool = fn
		}
		if s, _ := tool.Get("strict"); s != true {
			continue
		}
		key := "parameters"
		if provider == "anthropic" {
			key = "input_schema"
		}
		schema, ok := tool.GetMap(key)
		if !ok {
			out = append(out, "no "+key)
			continue
		}
		name, _ := tool.GetString("name")
		for _, e := range checkStrict(provider, schema) {
			out = append(out, name+": "+e)
		}
	}
	return out
}
