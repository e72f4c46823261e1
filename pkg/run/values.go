package run

import (
	"encoding/json"
	"fmt"
	"github.com/toolctl/toolctl/pkg/spec"
	"math"
)

// Arg accessors for executors and builtin handlers. The input has been
// validated against the tool's schema, so a wrong type is a bug in the
// tool file (its schema allows what the handler cannot take): it is
// reported as a ValidationError naming the parameter.

// String returns a string parameter, or def when it is absent or null.
func (c *Call) String(name, def string) (string, error) {
	v, ok := c.Input[name]
	if !ok || v == nil {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", ArgTypeError(name, "a string", v)
	}
	return s, nil
}

// Number returns a numeric parameter, or def when it is absent or null.
func (c *Call) Number(name string, def float64) (float64, error) {
	v, ok := c.Input[name]
	if !ok || v == nil {
		return def, nil
	}
	f, ok := ToFloat(v)
	if !ok {
		return 0, ArgTypeError(name, "a number", v)
	}
	return f, nil
}

// Int returns an integer parameter, or def when it is absent or null.
func (c *Call) Int(name string, def int) (int, error) {
	v, ok := c.Input[name]
	if !ok || v == nil {
		return def, nil
	}
	f, ok := ToFloat(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, ArgTypeError(name, "an integer", v)
	}
	return int(f), nil
}

// Bool returns a boolean parameter, or def when it is absent or null.
func (c *Call) Bool(name string, def bool) (bool, error) {
	v, ok := c.Input[name]
	if !ok || v == nil {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, ArgTypeError(name, "a boolean", v)
	}
	return b, nil
}

// ToFloat converts a JSON number (json.Number, float64, int, int64) to
// float64.
func ToFloat(v any) (float64, bool) {
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
	}
	return 0, false
}

// ArgTypeError is the ValidationError of a parameter whose value is not
// of the type a handler takes.
func ArgTypeError(name, want string, got any) error {
	return &Error{Kind: ValidationError, Param: name, Message: fmt.Sprintf("parameter %q: expected %s, got %s", name, want, JSONType(got))}
}

// JSONType names a value's JSON type for messages.
func JSONType(v any) string {
	if t := spec.JSONType(v, spec.AnyNumber); t != "" {
		return t
	}
	return "object"
}
