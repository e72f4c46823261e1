package run

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Template expands the placeholders of http and command entries:
// {param} takes an input value, ${NAME} an environment variable (recorded as
// a secret). A brace not followed by a name and a closing brace is literal,
// so JSON text passes through.
type Template struct {
	Call *Call
	// Used collects the parameters a placeholder consumed, so that the http
	// executor sends only the others as query or body.
	Used map[string]bool
	// Where names the entry field being expanded, for error messages
	// ("entry.url").
	Where string
}

// NewTemplate returns a Template for c.
func NewTemplate(c *Call) *Template {
	return &Template{Call: c, Used: map[string]bool{}}
}

// Expand substitutes every placeholder in s. escape (nil for none) is
// applied to parameter values, not to environment values or literal text.
func (t *Template) Expand(s string, escape func(string) string) (string, error) {
	if !strings.ContainsRune(s, '{') {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c == '$' && i+1 < len(s) && s[i+1] == '{' {
			if name, n := placeholder(s[i+1:]); n > 0 && isEnvName(name) {
				v, err := t.env(name)
				if err != nil {
					return "", err
				}
				b.WriteString(v)
				i += 1 + n
				continue
			}
		}
		if c == '{' {
			if name, n := placeholder(s[i:]); n > 0 {
				if v, ok := t.Call.Input[name]; ok {
					t.Used[name] = true
					text := ValueText(v)
					if escape != nil {
						text = escape(text)
					}
					b.WriteString(text)
				} else if t.declared(name) {
					// an optional parameter left out: empty, as a runtime would
					t.Used[name] = true
				} else {
					b.WriteString(s[i : i+n]) // not a parameter: literal text
				}
				i += n
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String(), nil
}

// ExpandValue expands placeholders inside a structured value (an http body
// written as a mapping). A string that is exactly one {param} becomes the
// parameter's value with its JSON type, not its text.
func (t *Template) ExpandValue(v any) (any, error) {
	switch v := v.(type) {
	case string:
		if name, n := placeholder(v); n == len(v) && n > 0 {
			if x, ok := t.Call.Input[name]; ok {
				t.Used[name] = true
				return x, nil
			}
			if t.declared(name) {
				t.Used[name] = true
				return nil, nil
			}
		}
		return t.Expand(v, nil)
	case *spec.Map:
		out := spec.NewMap(v.Len())
		for i := range v.Len() {
			k, x := v.At(i)
			k2, err := t.Expand(k, nil)
			if err != nil {
				return nil, err
			}
			x2, err := t.ExpandValue(x)
			if err != nil {
				return nil, err
			}
			out.Set(k2, x2)
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			x2, err := t.ExpandValue(x)
			if err != nil {
				return nil, err
			}
			out[i] = x2
		}
		return out, nil
	}
	return v, nil
}

func (t *Template) env(name string) (string, error) {
	v := t.Call.Env(name)
	if v == "" {
		where := ""
		if t.Where != "" {
			where = " (used in " + t.Where + ")"
		}
		return "", &Error{Kind: ValidationError, Message: fmt.Sprintf("environment variable %s is not set%s; export it before running the tool", name, where)}
	}
	t.Call.Secrets.Add(v)
	return v, nil
}

// declared tells whether name is a property of the tool's input schema.
func (t *Template) declared(name string) bool {
	return inputProps(t.Call.Tool).Has(name)
}

// placeholder reads "{name}" at the start of s and returns the name and the
// length of the placeholder, or 0 when s does not start with one.
func placeholder(s string) (string, int) {
	if len(s) < 3 || s[0] != '{' {
		return "", 0
	}
	end := strings.IndexByte(s, '}')
	if end < 2 {
		return "", 0
	}
	name := s[1:end]
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.')
		if !ok {
			return "", 0
		}
	}
	return name, end + 1
}

func isEnvName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// ValueText is a value as it appears in a URL, header or argv: strings as
// they are, numbers and booleans as written, null as "", objects and lists
// as compact JSON.
func ValueText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		if v {
			return "true"
		}
		return "false"
	case float64, int, int64:
		return fmt.Sprint(v)
	}
	raw, err := MarshalJSON(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(raw)
}

// MarshalJSON encodes a JSON-like value compactly, keeping *spec.Map key
// order and without HTML escaping.
func MarshalJSON(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}
