// Package validate compiles JSON Schemas without touching the network and
// turns validation errors into a flat list of positioned problems. lint
// (example params) and run (the input of a call) share it, so a call and an
// example fail the same way.
package validate

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/toolctl/toolctl/internal/jsonschema"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Problem is one leaf of a JSON Schema validation error: where in the
// instance and what is wrong.
type Problem struct {
	Pointer string // instance location, a JSON pointer
	Message string
}

// NewCompiler never touches the network: a remote $ref is an error the
// rules report, not a download.
func NewCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	// format stays an annotation (the 2020-12 default), as in the fast
	// checks: "format: email" documents, it does not fail an example.
	c.LoadURL = func(url string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("%s is not loaded: toolctl does not fetch remote references; inline the schema or use a local $ref (#/$defs/...)", url)
	}
	return c
}

// CallSchema is the input schema a caller must satisfy: bound parameters
// are filled at run time, so they are not required of a call (or example).
func CallSchema(t *spec.Tool) *spec.Map {
	if len(t.Bind) == 0 {
		return t.InputSchema
	}
	v, _ := t.InputSchema.Get("required")
	list, _ := v.([]any)
	if len(list) == 0 {
		return t.InputSchema
	}
	bound := BoundParams(t)
	kept := make([]any, 0, len(list))
	for _, x := range list {
		if name, ok := x.(string); !ok || !bound[name] {
			kept = append(kept, x)
		}
	}
	s := t.InputSchema.Clone()
	s.Set("required", kept)
	return s
}

const inputURL = "toolctl:///input_schema.json"

func Compile(doc *spec.Map) (*jsonschema.Schema, error) {
	raw, err := doc.MarshalJSON()
	if err != nil {
		return nil, err
	}
	// A schema the fast check vouches for skips the library's meta-schema
	// check (and the compile of the meta-schema itself). The library
	// panics on some invalid schemas it compiles unchecked, so should the
	// fast check ever be wrong, the schema is compiled again, checked.
	if MetaValid(doc) {
		if s, panicked, err := compile(raw, true); !panicked {
			return s, err
		}
	}
	s, _, err := compile(raw, false)
	return s, err
}

// compile compiles raw, checked against its meta-schema unless checked is
// true; panicked tells that the library panicked (err says why).
func compile(raw []byte, checked bool) (s *jsonschema.Schema, panicked bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, panicked, err = nil, true, fmt.Errorf("the schema does not compile: %v", p)
		}
	}()
	c := NewCompiler()
	add := c.AddResource
	if checked {
		add = c.AddCheckedResource
	}
	if err := add(inputURL, strings.NewReader(string(raw))); err != nil {
		return nil, false, err
	}
	s, err = c.Compile(inputURL)
	if err != nil {
		return nil, false, errors.New(CompileMessage(err))
	}
	return s, false, nil
}

// CompileMessage strips the library's prefixes and our resource URL.
func CompileMessage(err error) string {
	var se *jsonschema.SchemaError
	if errors.As(err, &se) && se.Err != nil {
		err = se.Err
	}
	msg := strings.TrimPrefix(err.Error(), "jsonschema: ")
	return strings.ReplaceAll(msg, inputURL, "")
}

// validate checks a plain value against a compiled schema.
func Validate(s *jsonschema.Schema, v any) (ps []Problem) {
	defer func() {
		if e := recover(); e != nil { // a value type the library does not know
			ps = []Problem{{Message: fmt.Sprint(e)}}
		}
	}()
	return Problems(s.Validate(v))
}

// problems flattens a validation error into its leaves. Alternatives
// (anyOf/oneOf) that all fail at one place become one problem, so a bad
// "type" says "expected string or number" once, not once per branch.
func Problems(err error) []Problem {
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Message: strings.TrimPrefix(err.Error(), "jsonschema: ")}}
	}
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, Problem{e.InstanceLocation, e.Message})
			return
		}
		if isAlternatives(e.KeywordLocation) {
			var leaves []*jsonschema.ValidationError
			collectLeaves(e, &leaves)
			if sameInstance(leaves) {
				out = append(out, Problem{leaves[0].InstanceLocation, mergeMessages(leaves)})
				return
			}
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	// Dedupe, keeping the first of each (pointer, message).
	seen := map[Problem]bool{}
	uniq := out[:0]
	for _, p := range out {
		if !seen[p] {
			seen[p] = true
			uniq = append(uniq, p)
		}
	}
	return uniq
}

func isAlternatives(kw string) bool {
	return strings.HasSuffix(kw, "/anyOf") || strings.HasSuffix(kw, "/oneOf")
}

func collectLeaves(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	if len(e.Causes) == 0 {
		*out = append(*out, e)
		return
	}
	for _, c := range e.Causes {
		collectLeaves(c, out)
	}
}

func sameInstance(ls []*jsonschema.ValidationError) bool {
	for _, l := range ls {
		if l.InstanceLocation != ls[0].InstanceLocation {
			return false
		}
	}
	return len(ls) > 0
}

// mergeMessages turns "expected string, but got bool" + "expected number,
// but got bool" into "expected number or string, but got bool"; other
// mixes keep the first message.
func mergeMessages(ls []*jsonschema.ValidationError) string {
	var expected []string
	got := ""
	for _, l := range ls {
		var e, g string
		if n, _ := fmt.Sscanf(l.Message, "expected %s but got %s", &e, &g); n != 2 {
			return ls[0].Message
		}
		e = strings.TrimSuffix(e, ",")
		if got != "" && g != got {
			return ls[0].Message
		}
		got = g
		if !slices.Contains(expected, e) {
			expected = append(expected, e)
		}
	}
	sort.Strings(expected)
	return "expected " + strings.Join(expected, " or ") + ", but got " + got
}

// PointerLabel renders an instance pointer for a message: "/a/0/b" → "a[0].b".
func PointerLabel(ptr string) string {
	var b strings.Builder
	for _, tok := range spec.SplitPointer(ptr) {
		if tok != "" && tok[0] >= '0' && tok[0] <= '9' {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// BoundParams are the parameters bind fills at run time: callers (and
// examples) need not give them, and exports leave them out. Nil when none.
func BoundParams(t *spec.Tool) map[string]bool {
	if len(t.Bind) == 0 {
		return nil
	}
	out := make(map[string]bool, len(t.Bind))
	for _, b := range t.Bind {
		out[b.Param] = true
	}
	return out
}
