package contract

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/internal/jsonschema"
	"github.com/toolctl/toolctl/pkg/run"
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
	// Content, when set, are the result's MCP content items, each an
	// object matched as a subset of the item at its index (the result has
	// as many items); a data or resource blob "sha256:HEX" matches the
	// SHA-256 of the item's decoded bytes. Normalized JSON values.
	Content []any
	// IsError, when set, is whether the result must be an isError one (a
	// failure the model sees, not a crash).
	IsError *bool
	// Client, when set, answers the tool's requests to the client
	// (sampling, elicitation) in order; the tool must make as many.
	Client *ClientAnswers
}

// ClientAnswers are an example's answers of the MCP client to the tool's
// requests (expect.client), as JSON, in order.
type ClientAnswers struct {
	Sampling    []json.RawMessage
	Elicitation []json.RawMessage
}

// contentTypes are the MCP content item types expect.content may name.
var contentTypes = []string{"text", "image", "audio", "resource", "resource_link"}

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
		case "isError":
			b, ok := v.(bool)
			if !ok {
				return nil, bad(key, "%s is not a boolean; give true (the tool must answer with an isError result) or false", show(v))
			}
			x.IsError = &b
		case "content":
			items, err := parseContent(v)
			if err != nil {
				return nil, err
			}
			x.Content = items
		case "client":
			c, err := parseClient(v)
			if err != nil {
				return nil, err
			}
			x.Client = c
		default:
			return nil, bad(key, "unknown field; expect has match, tolerance, contains, pattern, schema, error, content, isError and client")
		}
	}
	if x.Error != nil && x.IsError != nil {
		return nil, bad("isError", "expect.error and expect.isError exclude each other: expect.error says the call fails (an isError result is a ToolExecutionError), expect.isError checks the isError result's content; keep one")
	}
	return x, nil
}

// parseClient reads expect.client: {sampling: [...], elicitation: [...]}.
func parseClient(v any) (*ClientAnswers, error) {
	bad := func(at, format string, a ...any) error {
		// /sampling/0/action is expect.client.sampling[0].action
		name := "expect.client"
		for _, part := range strings.Split(strings.TrimPrefix(at, "/"), "/") {
			if part == "" {
				continue
			}
			if _, err := strconv.Atoi(part); err == nil {
				name += "[" + part + "]"
			} else {
				name += "." + part
			}
		}
		return &FieldError{Pointer: "/expect/client" + at, Message: name + ": " + fmt.Sprintf(format, a...)}
	}
	m, ok := v.(*spec.Map)
	if !ok {
		return nil, bad("", "%s is not an object; give {sampling: [answers], elicitation: [answers]}", show(v))
	}
	c := &ClientAnswers{}
	for _, key := range m.Keys() {
		lv, _ := m.Get(key)
		if key != "sampling" && key != "elicitation" {
			return nil, bad("/"+key, "unknown field; expect.client has sampling and elicitation")
		}
		list, ok := lv.([]any)
		if !ok {
			return nil, bad("/"+key, "%s is not a list; give the client's answers in order", show(lv))
		}
		for i, it := range list {
			at := fmt.Sprintf("/%s/%d", key, i)
			im, ok := it.(*spec.Map)
			if !ok {
				return nil, bad(at, "%s is not an object", show(it))
			}
			raw, err := json.Marshal(spec.Plain(im))
			if err != nil {
				return nil, bad(at, "cannot be written as JSON: %v", err)
			}
			// The rules a live client's answer is held to (run.CheckAnswer).
			method := run.MethodSample
			if key == "elicitation" {
				method = run.MethodElicit
			}
			if err := run.CheckAnswer(method, raw); err != nil {
				return nil, bad(at, "%v", err)
			}
			if key == "sampling" {
				c.Sampling = append(c.Sampling, raw)
			} else {
				c.Elicitation = append(c.Elicitation, raw)
			}
		}
	}
	return c, nil
}

// parseContent reads expect.content: a list of content item objects.
func parseContent(v any) ([]any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, &FieldError{Pointer: "/expect/content", Message: fmt.Sprintf("expect.content: %s is not a list; give the content items, e.g. [{type: image, mimeType: image/png}]", show(v))}
	}
	items := make([]any, len(list))
	for i, it := range list {
		at := fmt.Sprintf("/expect/content/%d", i)
		bad := func(sub, format string, a ...any) error {
			name := "expect.content[" + strconv.Itoa(i) + "]"
			if sub != "" {
				name += "." + strings.ReplaceAll(sub, "/", ".")
				at += "/" + sub
			}
			return &FieldError{Pointer: at, Message: name + ": " + fmt.Sprintf(format, a...)}
		}
		m, ok := it.(*spec.Map)
		if !ok {
			return nil, bad("", "%s is not an object; give the fields the item must have, e.g. {type: image, mimeType: image/png}", show(it))
		}
		if t, has := m.Get("type"); has {
			s, _ := t.(string)
			if !slices.Contains(contentTypes, s) {
				return nil, bad("type", "%s is not a content type; use %s", show(t), strings.Join(contentTypes, ", "))
			}
		}
		if d, has := m.Get("data"); has {
			if err := checkDigest(d); err != "" {
				return nil, bad("data", "%s", err)
			}
		}
		if r, has := m.Get("resource"); has {
			if rm, ok := r.(*spec.Map); ok {
				if b, has := rm.Get("blob"); has {
					if err := checkDigest(b); err != "" {
						return nil, bad("resource/blob", "%s", err)
					}
				}
			}
		}
		n, err := Normalize(m)
		if err != nil {
			return nil, bad("", "not JSON: %v", err)
		}
		items[i] = lowerDigests(n)
	}
	return items, nil
}

// checkDigest says what is wrong with a data or blob value that starts
// with sha256: ("" when nothing is).
func checkDigest(v any) string {
	s, ok := v.(string)
	if !ok || !strings.HasPrefix(s, digestPrefix) {
		return ""
	}
	hex := s[len(digestPrefix):]
	if len(hex) != 64 || strings.Trim(strings.ToLower(hex), "0123456789abcdef") != "" {
		return fmt.Sprintf("%q is not a digest; give sha256: and the 64 hex digits of the decoded bytes' SHA-256 (sha256sum FILE)", s)
	}
	return ""
}

// lowerDigests writes the hex digits of an item's digests in lower case,
// as the result's are computed.
func lowerDigests(item any) any {
	m, _ := item.(map[string]any)
	if m == nil {
		return item
	}
	if s, ok := m["data"].(string); ok && strings.HasPrefix(s, digestPrefix) {
		m["data"] = strings.ToLower(s)
	}
	if r, ok := m["resource"].(map[string]any); ok {
		if s, ok := r["blob"].(string); ok && strings.HasPrefix(s, digestPrefix) {
			r["blob"] = strings.ToLower(s)
		}
	}
	return m
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
