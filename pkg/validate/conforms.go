package validate

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Conforms tells whether v (plain Go values: map[string]any, []any,
// json.Number or Go numbers, string, bool, nil) surely satisfies schema,
// for the keywords simple schemas use: type, properties, required,
// additionalProperties, items, enum of scalars, length, size and numeric
// bounds, annotations. It is sound in one direction only: true means the
// compiled schema accepts v too (TestConformsAgreesWithLibrary); false
// means "ask the library" (Validate), which also words the problems.
// Inputs and results are almost always valid, and the library's
// validation was a tenth of a builtin call's CPU under toolctl serve.
func Conforms(schema *spec.Map, v any) bool {
	return conforms(schema, v, 0)
}

func conforms(schema any, v any, depth int) bool {
	s, ok := schema.(*spec.Map)
	if !ok {
		b, isBool := schema.(bool)
		return isBool && b
	}
	if depth > 32 {
		return false
	}
	for i := range s.Len() {
		k, kv := s.At(i)
		if !keywordHolds(s, k, kv, v, depth) {
			return false
		}
	}
	return true
}

func keywordHolds(s *spec.Map, k string, kv, v any, depth int) bool {
	switch k {
	case "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment", "format":
		return true // annotations (format too: validate.NewCompiler does not assert it)
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
		obj, ok := v.(map[string]any)
		if !ok {
			return true
		}
		props, ok := kv.(*spec.Map)
		if !ok {
			return false
		}
		for name, val := range obj {
			if sub, ok := props.Get(name); ok && !conforms(sub, val, depth+1) {
				return false
			}
		}
		return true
	case "additionalProperties":
		obj, ok := v.(map[string]any)
		if !ok {
			return true
		}
		if s.Has("patternProperties") {
			return false
		}
		props, _ := s.GetMap("properties")
		for name, val := range obj {
			if props != nil && props.Has(name) {
				continue
			}
			if !conforms(kv, val, depth+1) {
				return false
			}
		}
		return true
	case "required":
		obj, ok := v.(map[string]any)
		if !ok {
			return true
		}
		list, _ := kv.([]any)
		for _, x := range list {
			name, ok := x.(string)
			if !ok {
				return false
			}
			if _, ok := obj[name]; !ok {
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
			if sameScalar(x, v) {
				return true
			}
		}
		return false
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
	}
	return false // any other keyword: ask the library
}

func isNumber(v any) bool {
	switch v.(type) {
	case json.Number, float64, float32, int, int64, int32, uint, uint64, uint32:
		return true
	}
	return false
}

// exactFloat converts a number that float64 holds exactly (|x| < 2^53 and
// a short decimal), so that comparisons agree with exact arithmetic.
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
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) >= 1<<53 {
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
	case map[string]any:
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
		_, err := strconv.ParseInt(string(n), 10, 64)
		return err == nil
	case float64:
		return n == math.Trunc(n) && math.Abs(n) < 1<<53
	case float32:
		return false
	}
	return true // Go integers
}

// sameScalar compares enum members that are strings, booleans or null;
// numbers and structures are the library's.
func sameScalar(a, b any) bool {
	switch a := a.(type) {
	case string:
		s, ok := b.(string)
		return ok && a == s
	case bool:
		x, ok := b.(bool)
		return ok && a == x
	case nil:
		return b == nil
	}
	return false
}

func smallInt(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok || len(n) > 9 {
		return 0, false
	}
	i, err := strconv.Atoi(string(n))
	return i, err == nil && i >= 0
}
