package run

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/tmpl"
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
	// Check, when set, vets a parameter's value before Expand places it:
	// the parameter's name, the value's text (escaped as it will appear),
	// whether the value is present (false for a declared optional
	// parameter left out) and the text this Expand call has produced
	// before it. An error stops the expansion.
	Check func(name, text string, present bool, before string) error
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
					if t.Check != nil {
						if err := t.Check(name, text, true, b.String()); err != nil {
							return "", err
						}
					}
					b.WriteString(text)
				} else if t.declared(name) {
					// an optional parameter left out: empty, as a runtime would
					t.Used[name] = true
					if t.Check != nil {
						if err := t.Check(name, "", false, b.String()); err != nil {
							return "", err
						}
					}
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

// placeholder reads "{name}" at the start of s (see tmpl.Placeholder).
func placeholder(s string) (string, int) { return tmpl.Placeholder(s) }

func isEnvName(s string) bool { return tmpl.IsEnvName(s) }

// isParam tells whether {name} takes a parameter's value: a declared
// parameter or a value in the input.
func (t *Template) isParam(name string) bool {
	_, ok := t.Call.Input[name]
	return ok || t.declared(name)
}

// bound tells whether a parameter is bound (bind: in the tool file): its
// value comes from the environment, config or the file, never from the
// caller, so it is trusted like ${ENV}.
func (t *Template) bound(name string) bool {
	return IsBound(t.Call.Tool, name)
}

// trusted tells whether a parameter's value is the tool file's choice
// rather than the caller's: bound, or restricted to an enum or const.
func (t *Template) trusted(name string) bool {
	return t.bound(name) || restricted(t.Call.Tool, name)
}

// restricted tells whether a parameter's schema lists its values (enum or
// const), so that only values the tool's author wrote can pass validation.
func restricted(tool *spec.Tool, name string) bool {
	p := Property(tool, name)
	return p.Has("enum") || p.Has("const")
}

// quoteValue quotes a value for a message, cut to 80 characters.
func quoteValue(s string) string {
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "..."
	}
	return strconv.Quote(s)
}

// IsBound tells whether tool binds parameter name (bind:), so that its
// value comes from the environment or config rather than the caller.
func IsBound(tool *spec.Tool, name string) bool {
	if tool == nil {
		return false
	}
	for _, b := range tool.Bind {
		if b.Param == name {
			return true
		}
	}
	return false
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
