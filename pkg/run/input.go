package run

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

var osGetenv = os.Getenv

// bind fills the bound parameters: from the environment (the value becomes
// a secret), from config, or a literal. The caller may not pass them: the
// agent never sees a bound parameter, and a local run behaves the same.
func (r *Runner) bind(c *Call, t *spec.Tool, in map[string]any) error {
	for _, b := range t.Bind {
		if _, given := in[b.Param]; given {
			return &Error{Kind: ValidationError, Param: b.Param, Message: fmt.Sprintf("parameter %q is bound (%s) and cannot be passed; %s", b.Param, BindSource(b), bindHint(b))}
		}
		var v any
		switch b.Kind {
		case spec.BindEnv:
			s := c.Env(b.Ref)
			if s == "" {
				return &Error{Kind: ValidationError, Param: b.Param, Message: fmt.Sprintf("parameter %q is bound to environment variable %s, which is not set; export %s=... before running the tool", b.Param, b.Ref, b.Ref)}
			}
			c.Secrets.Add(s)
			v = s
		case spec.BindConfig:
			var ok bool
			if r.Options.Config != nil {
				v, ok = r.Options.Config(b.Ref)
			}
			if !ok || v == nil {
				return &Error{Kind: ValidationError, Param: b.Param, Message: fmt.Sprintf("parameter %q is bound to config key %s, which is not set; add it to .toolctl.yaml", b.Param, b.Ref)}
			}
			v = spec.Plain(v)
		default:
			v = spec.Plain(spec.CloneValue(b.Value))
		}
		if s, ok := v.(string); ok {
			v = coerce(t, b.Param, s)
		}
		in[b.Param] = v
	}
	return nil
}

// BindSource says where a bound parameter's value comes from.
func BindSource(b spec.Binding) string {
	switch b.Kind {
	case spec.BindEnv:
		return "from environment variable " + b.Ref
	case spec.BindConfig:
		return "from config key " + b.Ref
	}
	return "to a fixed value"
}

func bindHint(b spec.Binding) string {
	switch b.Kind {
	case spec.BindEnv:
		return "set " + b.Ref + " instead"
	case spec.BindConfig:
		return "set " + b.Ref + " in .toolctl.yaml instead"
	}
	return "remove it from the input"
}

// coerce converts a bound string (environment values are text) to the
// parameter's declared type when it reads as one; otherwise validation
// reports the mismatch.
func coerce(t *spec.Tool, param, s string) any {
	switch propType(t, param) {
	case "integer", "number":
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return json.Number(s)
		}
	case "boolean":
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	case "object", "array":
		var v any
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		// Half a surrogate pair would be U+FFFD: leave the text for
		// validation to refuse.
		if dec.Decode(&v) == nil && spec.FindUnpairedSurrogate([]byte(s)) == nil {
			return v
		}
	}
	return s
}

// Property returns the schema of a top-level parameter, or nil.
func Property(t *spec.Tool, name string) *spec.Map {
	p, _ := inputProps(t).GetMap(name)
	return p
}

// inputProps is the properties of t's input schema, or nil (a *spec.Map
// without members) when there are none.
func inputProps(t *spec.Tool) *spec.Map {
	if t == nil {
		return nil
	}
	props, _ := t.InputSchema.GetMap("properties")
	return props
}

// propType is a parameter's single declared type (see SchemaType).
func propType(t *spec.Tool, name string) string {
	return SchemaType(Property(t, name))
}

// SchemaType is the single type a schema declares besides null ("" when
// none, several, or no schema).
func SchemaType(p *spec.Map) string {
	if p == nil {
		return ""
	}
	switch v, _ := p.Get("type"); v := v.(type) {
	case string:
		return v
	case []any:
		out := ""
		for _, x := range v {
			if s, _ := x.(string); s != "" && s != "null" {
				if out != "" {
					return ""
				}
				out = s
			}
		}
		return out
	}
	return ""
}

// applyDefaults gives every absent top-level parameter its schema default,
// as an agent runtime does before calling the tool.
func applyDefaults(t *spec.Tool, in map[string]any) {
	props := inputProps(t)
	for i := range props.Len() {
		name, v := props.At(i)
		p, ok := v.(*spec.Map)
		if !ok {
			continue
		}
		if _, given := in[name]; given {
			continue
		}
		if def, ok := p.Get("default"); ok {
			in[name] = spec.Plain(spec.CloneValue(def))
		}
	}
}

// validate checks the input against the tool's input schema, compiled once
// per tool.
func (r *Runner) validate(t *spec.Tool, in map[string]any) error {
	v, ok := r.schemas.Load(t)
	if !ok {
		s, err := validate.Compile(t.Input())
		v, _ = r.schemas.LoadOrStore(t, &compiled{s, err})
	}
	cs := v.(*compiled)
	if cs.err != nil {
		return &Error{Kind: ValidationError, Message: fmt.Sprintf("the tool's input schema does not compile: %v; run toolctl lint %s", cs.err, t.Path())}
	}
	// Most inputs are valid and most schemas simple: the fast check decides
	// those without the library (a tenth of a builtin call's CPU under
	// toolctl serve); anything else, and every problem, is the library's.
	if validate.Conforms(t.Input(), in) {
		return nil
	}
	ps := validate.Validate(cs.schema, any(in))
	if len(ps) == 0 {
		return nil
	}
	return inputError(t, in, ps)
}

var (
	missingRE = regexp.MustCompile(`^missing properties?: (.*)$`)
	extraRE   = regexp.MustCompile(`^additionalProperties (.*) not allowed$`)
	quotedRE  = regexp.MustCompile(`'([^']*)'`)
)

// inputError turns schema problems into one ValidationError that names
// each parameter, what was expected and what was given.
func inputError(t *spec.Tool, in map[string]any, ps []validate.Problem) *Error {
	var msgs []string
	param := ""
	for _, p := range ps {
		label := validate.PointerLabel(p.Pointer)
		var names []string
		switch {
		case p.Pointer == "" && missingRE.MatchString(p.Message):
			for _, m := range quotedRE.FindAllStringSubmatch(missingRE.FindStringSubmatch(p.Message)[1], -1) {
				names = append(names, m[1])
				msgs = append(msgs, fmt.Sprintf("missing required parameter %q%s", m[1], describe(t, m[1])))
			}
		case extraRE.MatchString(p.Message):
			for _, m := range quotedRE.FindAllStringSubmatch(extraRE.FindStringSubmatch(p.Message)[1], -1) {
				name := m[1]
				if label != "" {
					name = label + "." + name
				}
				names = append(names, name)
				hint := ""
				if p.Pointer == "" {
					hint = "; the tool takes " + strings.Join(paramNames(t), ", ")
				}
				msgs = append(msgs, fmt.Sprintf("unknown parameter %q%s", name, hint))
			}
		default:
			names = append(names, label)
			what := "parameter " + strconv.Quote(label)
			if label == "" {
				what = "the input"
			}
			got := ""
			if x, ok := lookup(in, p.Pointer); ok {
				got = " (got " + shortJSON(x) + ")"
			}
			msgs = append(msgs, what+": "+p.Message+got)
		}
		if param == "" && len(names) > 0 {
			param = names[0]
		}
	}
	return &Error{Kind: ValidationError, Param: param, Message: "invalid input: " + strings.Join(msgs, "; ")}
}

// describe is ", a string: Absolute URL" for a missing parameter.
func describe(t *spec.Tool, name string) string {
	var parts []string
	if ty := propType(t, name); ty != "" {
		parts = append(parts, ty)
	}
	if p := Property(t, name); p != nil {
		if d, ok := p.GetString("description"); ok && d != "" {
			parts = append(parts, d)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ": ") + ")"
}

func paramNames(t *spec.Tool) []string {
	bound := validate.BoundParams(t)
	var out []string
	for _, k := range inputProps(t).Keys() {
		if !bound[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// lookup follows a JSON pointer into a plain value.
func lookup(v any, ptr string) (any, bool) {
	for _, tok := range spec.SplitPointer(ptr) {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// shortJSON renders a value for a message, cut at 60 bytes.
func shortJSON(v any) string {
	raw, err := MarshalJSON(v)
	if err != nil {
		return JSONType(v)
	}
	if len(raw) > 60 {
		return string(raw[:57]) + "..."
	}
	return string(raw)
}

// redactWriter redacts a call's secrets from what a tool writes to stderr,
// a line at a time so that a secret is never split across writes.
type redactWriter struct {
	mu      sync.Mutex
	w       io.Writer
	secrets *Secrets
	buf     []byte
}

func (rw *redactWriter) Write(p []byte) (int, error) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.buf = append(rw.buf, p...)
	if i := bytes.LastIndexByte(rw.buf, '\n'); i >= 0 {
		out := rw.secrets.Redact(string(rw.buf[:i+1]))
		rw.buf = append(rw.buf[:0], rw.buf[i+1:]...)
		if _, err := io.WriteString(rw.w, out); err != nil {
			return len(p), err
		}
	}
	// A tool printing a huge line without newline: pass it through in
	// pieces rather than buffering without bound.
	if len(rw.buf) > 64<<10 {
		io.WriteString(rw.w, rw.secrets.Redact(string(rw.buf)))
		rw.buf = rw.buf[:0]
	}
	return len(p), nil
}

func (rw *redactWriter) flush() {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if len(rw.buf) > 0 {
		io.WriteString(rw.w, rw.secrets.Redact(string(rw.buf))+"\n")
		rw.buf = rw.buf[:0]
	}
}

func flushStderr(c *Call) {
	if rw, ok := c.Stderr.(*redactWriter); ok {
		rw.flush()
	}
}
