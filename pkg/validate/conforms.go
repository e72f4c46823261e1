package validate

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Conforms tells whether v surely satisfies schema, for the keywords
// simple schemas use: type, properties, required, additionalProperties,
// items, enum, const, length, size and numeric bounds, pattern,
// uniqueItems, annotations. v is a plain value (map[string]any, []any,
// json.Number or Go numbers, string, bool, nil: run and serve) or a spec
// value (*spec.Map objects: lint's examples). It is sound in one direction
// only: true means the compiled schema accepts v too
// (TestConformsAgreesWithLibrary, lint's TestFastSchemaAgreesWithLibrary);
// false means "ask the library" (Validate), which also words the problems.
// Inputs, results and examples are almost always valid, and the library
// is slow: its validation was a tenth of a builtin call's CPU under
// toolctl serve.
func Conforms(schema *spec.Map, v any) bool {
	return conforms(schema, v, 0)
}

// IsDraft2020 tells whether a $schema value names draft 2020-12, the
// compiler's default and the only draft the fast checks model.
func IsDraft2020(v any) bool {
	s, _ := v.(string)
	return strings.TrimSuffix(s, "#") == "https://json-schema.org/draft/2020-12/schema"
}

func conforms(schema, v any, depth int) bool {
	if depth > 64 {
		return false
	}
	switch s := schema.(type) {
	case bool:
		return s
	case *spec.Map:
		for i := range s.Len() {
			k, kv := s.At(i)
			if !keywordHolds(s, k, kv, v, depth) {
				return false
			}
		}
		return true
	}
	return false
}

// vocabulary is every keyword the library gives a meaning to: those of
// draft 2020-12, whose meta-schema keeps older drafts' (definitions,
// dependencies, additionalItems, $recursiveRef...), and the library's own
// regexProperties (property names must be regexps); others (x-*,
// nullable, ...) it ignores.
var vocabulary = spec.KeywordSet(spec.Draft202012, []string{"regexProperties"})

// IsKeyword tells whether the library gives k a meaning in a schema.
func IsKeyword(k string) bool { return vocabulary[k] }

func keywordHolds(s *spec.Map, k string, kv, v any, depth int) bool {
	switch k {
	case "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
		"$comment", "format", "$id", "$defs", "definitions":
		return true // annotations (format too: NewCompiler does not assert it in 2020-12)
	case "$schema":
		return IsDraft2020(kv) // older drafts assert format, among others
	case "type":
		switch t := kv.(type) {
		case string:
			return hasType(t, v)
		case []any:
			for _, x := range t {
				if name, ok := x.(string); ok && hasType(name, v) {
					return true
				}
			}
		}
		return false
	case "properties":
		obj, ok := asObject(v)
		if !ok {
			return true
		}
		props, ok := kv.(*spec.Map)
		return ok && obj.every(func(name string, val any) bool {
			sub, ok := props.Get(name)
			return !ok || conforms(sub, val, depth+1)
		})
	case "additionalProperties":
		obj, ok := asObject(v)
		if !ok {
			return true
		}
		if s.Has("patternProperties") {
			return false
		}
		props, _ := s.GetMap("properties")
		return obj.every(func(name string, val any) bool {
			return props != nil && props.Has(name) || conforms(kv, val, depth+1)
		})
	case "required":
		obj, ok := asObject(v)
		if !ok {
			return true
		}
		list, _ := kv.([]any)
		for _, x := range list {
			if name, ok := x.(string); !ok || !obj.has(name) {
				return false
			}
		}
		return true
	case "items":
		arr, ok := v.([]any)
		if !ok {
			return true
		}
		for _, x := range arr {
			if !conforms(kv, x, depth+1) {
				return false
			}
		}
		return true
	case "enum":
		list, _ := kv.([]any)
		for _, x := range list {
			if equal(x, v) {
				return true
			}
		}
		return false
	case "const":
		return equal(kv, v)
	case "minLength", "maxLength":
		str, ok := v.(string)
		if !ok {
			return true
		}
		n, ok := smallInt(kv)
		l := utf8.RuneCountInString(str)
		return ok && (k == "minLength" && l >= n || k == "maxLength" && l <= n)
	case "minItems", "maxItems":
		arr, ok := v.([]any)
		if !ok {
			return true
		}
		n, ok := smallInt(kv)
		return ok && (k == "minItems" && len(arr) >= n || k == "maxItems" && len(arr) <= n)
	case "minProperties", "maxProperties":
		obj, ok := asObject(v)
		if !ok {
			return true
		}
		n, ok := smallInt(kv)
		return ok && (k == "minProperties" && obj.len() >= n || k == "maxProperties" && obj.len() <= n)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		if !isNumber(v) {
			return true
		}
		x, ok1 := exactFloat(v)
		b, ok2 := exactFloat(kv)
		if !ok1 || !ok2 {
			return false // the library compares exactly
		}
		switch k {
		case "minimum":
			return x >= b
		case "maximum":
			return x <= b
		case "exclusiveMinimum":
			return x > b
		}
		return x < b
	case "pattern":
		str, ok := v.(string)
		if !ok {
			return true
		}
		p, _ := kv.(string)
		re, ok := Pattern(p)
		return ok && re.MatchString(str)
	case "uniqueItems":
		arr, ok := v.([]any)
		if b, _ := kv.(bool); !ok || !b {
			return true
		}
		return distinctScalars(arr)
	}
	return !vocabulary[k] // any other keyword of the library: ask it
}

// object is an instance object in either form: plain or spec.
type object struct {
	plain map[string]any
	m     *spec.Map
}

func asObject(v any) (object, bool) {
	switch o := v.(type) {
	case map[string]any:
		return object{plain: o}, true
	case *spec.Map:
		return object{m: o}, true
	}
	return object{}, false
}

func (o object) len() int {
	if o.m != nil {
		return o.m.Len()
	}
	return len(o.plain)
}

func (o object) has(name string) bool {
	if o.m != nil {
		return o.m.Has(name)
	}
	_, ok := o.plain[name]
	return ok
}

// every tells whether f holds for every member.
func (o object) every(f func(name string, v any) bool) bool {
	if o.m != nil {
		for i := range o.m.Len() {
			if !f(o.m.At(i)) {
				return false
			}
		}
		return true
	}
	for k, v := range o.plain {
		if !f(k, v) {
			return false
		}
	}
	return true
}

var patterns sync.Map // string -> *regexp.Regexp, nil when it does not compile

// Pattern compiles a "pattern" as the library does (Go's regexp), once per
// pattern; lookarounds and other ECMA-only syntax do not compile.
func Pattern(p string) (*regexp.Regexp, bool) {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp), re.(*regexp.Regexp) != nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil
	}
	patterns.Store(p, re)
	return re, re != nil
}

func isNumber(v any) bool {
	switch v.(type) {
	case json.Number, float64, float32, int, int64, int32, uint, uint64, uint32:
		return true
	}
	return false
}

// exactFloat converts a number that float64 holds exactly (a normal
// |x| < 2^53, and a short decimal), so that comparisons agree with the
// library's exact arithmetic.
func exactFloat(v any) (float64, bool) {
	var f float64
	switch n := v.(type) {
	case json.Number:
		if len(n) > 15 {
			return 0, false
		}
		x, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return 0, false
		}
		f = x
	case float64:
		f = n
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	default:
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) >= 1<<53 || f != 0 && math.Abs(f) < 0x1p-1022 {
		return 0, false
	}
	return f, true
}

func hasType(t string, v any) bool {
	switch v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case map[string]any, *spec.Map:
		return t == "object"
	case []any:
		return t == "array"
	}
	if !isNumber(v) {
		return false
	}
	if t == "number" {
		return true
	}
	if t != "integer" {
		return false
	}
	switch n := v.(type) {
	case json.Number:
		return digits(strings.TrimPrefix(string(n), "-"))
	case float64:
		return n == math.Trunc(n) && math.Abs(n) < 1<<53
	case float32:
		return false
	}
	return true // Go integers
}

// equal compares strings, booleans, null and short numbers; anything else
// is the library's.
func equal(a, b any) bool {
	switch a := a.(type) {
	case string:
		s, ok := b.(string)
		return ok && a == s
	case bool:
		x, ok := b.(bool)
		return ok && a == x
	case nil:
		return b == nil
	case json.Number:
		if n, ok := b.(json.Number); ok && a == n {
			return true
		}
	}
	x, ok1 := exactFloat(a)
	y, ok2 := exactFloat(b)
	return ok1 && ok2 && x == y
}

// distinctScalars tells whether arr holds distinct strings, booleans,
// nulls and short numbers only.
func distinctScalars(arr []any) bool {
	seen := make(map[any]bool, len(arr))
	for _, x := range arr {
		key := x
		switch x.(type) {
		case string, bool, nil:
		default:
			f, ok := exactFloat(x)
			if !ok {
				return false
			}
			key = f
		}
		if seen[key] {
			return false
		}
		seen[key] = true
	}
	return true
}

// digits tells whether s is a non-empty run of decimal digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// smallInt reads a length bound: a non-negative integer of at most nine
// digits.
func smallInt(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok || !digits(string(n)) || len(n) > 9 {
		return 0, false
	}
	i, err := strconv.Atoi(string(n))
	return i, err == nil
}

// NonNegativeInteger tells whether v is a JSON integer >= 0 as written
// (no sign, fraction or exponent).
func NonNegativeInteger(v any) bool {
	n, ok := v.(json.Number)
	return ok && digits(string(n))
}
