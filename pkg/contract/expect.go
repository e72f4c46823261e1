package contract

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// Expect is an example's expect: object, read: how the result is compared
// with expected (README "Testing tools").
type Expect struct {
	// Exact compares the whole value; the default is a subset match.
	Exact bool
	// Types compares values by their JSON type only (match: types).
	Types bool
	// Tolerance is the largest difference at which two numbers match.
	Tolerance float64
	// Contains is a substring of the result as text.
	Contains string
	// Pattern matches the result as text.
	Pattern *regexp.Regexp
	// Schema is a schema the result must conform to.
	Schema *jsonschema.Schema
	// Error, when set, makes the example a negative one: the call must fail.
	Error *ExpectError
}

// ExpectError is what a negative example's failure must be.
type ExpectError struct {
	// Type is the error kind (ValidationError, ...); "" is any kind.
	Type string
	// Message is a substring of the error's message; "" is any message.
	Message string
}

// FieldError is a problem in an expect: object, at its JSON pointer
// relative to the example.
type FieldError struct {
	Pointer string
	Message string
}

func (e *FieldError) Error() string { return e.Message }

// ParseExpect reads an example's expect: object; nil is the default (a
// subset match). The error names the field and says how to fix it.
func ParseExpect(m *spec.Map) (*Expect, error) {
	x := &Expect{}
	if m == nil {
		return x, nil
	}
	bad := func(key, format string, a ...any) error {
		return &FieldError{Pointer: "/expect/" + key, Message: "expect." + strings.ReplaceAll(key, "/", ".") + ": " + fmt.Sprintf(format, a...)}
	}
	for _, key := range m.Keys() {
		v, _ := m.Get(key)
		switch key {
		case "match":
			s, _ := v.(string)
			switch s {
			case "exact":
				x.Exact = true
			case "types":
				x.Types = true
			case "subset":
			default:
				return nil, bad(key, "%s is not a match mode; use subset, exact or types", show(v))
			}
		case "tolerance":
			f, ok := number(v)
			if !ok || f < 0 {
				return nil, bad(key, "%s is not a tolerance; give a number >= 0, e.g. 0.01", show(v))
			}
			x.Tolerance = f
		case "contains":
			s, ok := v.(string)
			if !ok {
				return nil, bad(key, "%s is not a string; give the substring the result must contain", show(v))
			}
			x.Contains = s
		case "pattern":
			s, ok := v.(string)
			if !ok {
				return nil, bad(key, "%s is not a string; give a regular expression (RE2)", show(v))
			}
			re, err := regexp.Compile(s)
			if err != nil {
				return nil, bad(key, "%q does not compile: %v", s, err)
			}
			x.Pattern = re
		case "schema":
			sm, ok := v.(*spec.Map)
			if !ok {
				return nil, bad(key, "%s is not a JSON Schema object", show(v))
			}
			s, err := validate.Compile(sm)
			if err != nil {
				return nil, bad(key, "not a valid JSON Schema: %s", validate.CompileMessage(err))
			}
			x.Schema = s
		case "error":
			em, ok := v.(*spec.Map)
			if !ok {
				return nil, bad(key, "%s is not an object; give {type: ValidationError, message: substring}", show(v))
			}
			x.Error = &ExpectError{}
			for _, k := range em.Keys() {
				ev, _ := em.Get(k)
				s, ok := ev.(string)
				switch {
				case k != "type" && k != "message":
					return nil, bad("error/"+k, "unknown field; expect.error has type and message")
				case !ok:
					return nil, bad("error/"+k, "%s is not a string", show(ev))
				case k == "type":
					x.Error.Type = s
				default:
					x.Error.Message = s
				}
			}
		default:
			return nil, bad(key, "unknown field; expect has match, tolerance, contains, pattern, schema and error")
		}
	}
	return x, nil
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case string:
		return 0, false
	}
	f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
	return f, err == nil
}
