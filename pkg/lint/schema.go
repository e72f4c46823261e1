package lint

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/toolctl/toolctl/pkg/spec"
)

// toolState is what one tool's rules share during a run; rules of one tool
// run in sequence, so it needs no lock.
type toolState struct {
	compiled  bool
	input     *jsonschema.Schema
	inputErr  error
	inputMeta []schemaProblem
	metaDone  bool
	props     []property
	propsDone bool
}

// schemaProblem is one leaf of a JSON Schema validation error: where in the
// instance and what is wrong.
type schemaProblem struct {
	Pointer string // instance location, a JSON pointer
	Message string
}

// metaSchemas are compiled once, by the draft URL a schema's $schema names.
var (
	metaOnce    sync.Once
	metaSchemas map[string]*jsonschema.Schema
	metaDefault *jsonschema.Schema
)

var draftURLs = map[string]string{
	"https://json-schema.org/draft/2020-12/schema": "https://json-schema.org/draft/2020-12/schema",
	"https://json-schema.org/draft/2019-09/schema": "https://json-schema.org/draft/2019-09/schema",
	"http://json-schema.org/draft-07/schema":       "http://json-schema.org/draft-07/schema",
	"http://json-schema.org/draft-06/schema":       "http://json-schema.org/draft-06/schema",
	"http://json-schema.org/draft-04/schema":       "http://json-schema.org/draft-04/schema",
}

func loadMetaSchemas() {
	metaSchemas = map[string]*jsonschema.Schema{}
	c := newCompiler()
	for url := range draftURLs {
		s, err := c.Compile(url)
		if err != nil {
			panic("lint: built-in meta-schema " + url + ": " + err.Error())
		}
		metaSchemas[url] = s
	}
	metaDefault = metaSchemas["https://json-schema.org/draft/2020-12/schema"]
}

// metaSchemaFor picks the meta-schema named by $schema (draft 2020-12 when
// absent or unknown; schema-$schema-unknown is not a rule of ours).
func metaSchemaFor(doc *spec.Map) *jsonschema.Schema {
	metaOnce.Do(loadMetaSchemas)
	if v, ok := doc.Get("$schema"); ok {
		if s, ok := v.(string); ok {
			s = strings.TrimSuffix(strings.TrimSuffix(s, "#"), ".json")
			s = strings.Replace(s, "https://json-schema.org/draft-0", "http://json-schema.org/draft-0", 1)
			if m, ok := metaSchemas[s]; ok {
				return m
			}
		}
	}
	return metaDefault
}

// newCompiler never touches the network: a remote $ref is an error the
// rules report, not a download.
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	// format stays an annotation (the 2020-12 default), as in the fast
	// checks: "format: email" documents, it does not fail an example.
	c.LoadURL = func(url string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("%s is not loaded: toolctl does not fetch remote references; inline the schema or use a local $ref (#/$defs/...)", url)
	}
	return c
}

// checkMeta validates a schema document against its meta-schema: the fast
// check when it is sure, the library otherwise.
func checkMeta(doc *spec.Map) []schemaProblem {
	if fastMeta(doc) == valid {
		return nil
	}
	return problems(metaSchemaFor(doc).Validate(spec.Plain(doc)))
}

// hasKeyword tells whether a keyword appears anywhere in a schema.
func hasKeyword(v any, kw string, depth int) bool {
	if depth > 64 {
		return true // let the library look
	}
	switch v := v.(type) {
	case *spec.Map:
		for i := range v.Len() {
			k, x := v.At(i)
			if k == kw || hasKeyword(x, kw, depth+1) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasKeyword(x, kw, depth+1) {
				return true
			}
		}
	}
	return false
}

// InputMeta returns the meta-schema problems of t's input schema, computed
// once per tool.
func (r *Reporter) InputMeta(t *spec.Tool) []schemaProblem {
	st := r.tool
	if !st.metaDone {
		st.metaDone = true
		if in := t.InputSchema; in != nil {
			st.inputMeta = checkMeta(in)
		}
	}
	return st.inputMeta
}

// InputSchema returns t's input schema compiled, once per tool; nil with a
// nil error when the tool has none. A schema that fails its meta-schema is
// not compiled (input-schema-invalid reports it).
func (r *Reporter) InputSchema(t *spec.Tool) (*jsonschema.Schema, error) {
	st := r.tool
	if st.compiled {
		return st.input, st.inputErr
	}
	st.compiled = true
	if t.InputSchema == nil {
		return nil, nil
	}
	if len(r.InputMeta(t)) > 0 {
		st.inputErr = errors.New("the input schema is not valid JSON Schema")
		return nil, st.inputErr
	}
	st.input, st.inputErr = compileSchema(callSchema(t))
	return st.input, st.inputErr
}

// callSchema is the input schema a caller must satisfy: bound parameters
// are filled at run time, so they are not required of a call (or example).
func callSchema(t *spec.Tool) *spec.Map {
	if len(t.Bind) == 0 {
		return t.InputSchema
	}
	v, _ := t.InputSchema.Get("required")
	list, _ := v.([]any)
	if len(list) == 0 {
		return t.InputSchema
	}
	bound := boundParams(t)
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

func compileSchema(doc *spec.Map) (*jsonschema.Schema, error) {
	raw, err := doc.MarshalJSON()
	if err != nil {
		return nil, err
	}
	c := newCompiler()
	if err := c.AddResource(inputURL, strings.NewReader(string(raw))); err != nil {
		return nil, err
	}
	s, err := c.Compile(inputURL)
	if err != nil {
		return nil, errors.New(compileMessage(err))
	}
	return s, nil
}

// compileMessage strips the library's prefixes and our resource URL.
func compileMessage(err error) string {
	var se *jsonschema.SchemaError
	if errors.As(err, &se) && se.Err != nil {
		err = se.Err
	}
	msg := strings.TrimPrefix(err.Error(), "jsonschema: ")
	return strings.ReplaceAll(msg, inputURL, "")
}

// validate checks a plain value against a compiled schema.
func validate(s *jsonschema.Schema, v any) (ps []schemaProblem) {
	defer func() {
		if e := recover(); e != nil { // a value type the library does not know
			ps = []schemaProblem{{Message: fmt.Sprint(e)}}
		}
	}()
	return problems(s.Validate(v))
}

// problems flattens a validation error into its leaves. Alternatives
// (anyOf/oneOf) that all fail at one place become one problem, so a bad
// "type" says "expected string or number" once, not once per branch.
func problems(err error) []schemaProblem {
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []schemaProblem{{Message: strings.TrimPrefix(err.Error(), "jsonschema: ")}}
	}
	var out []schemaProblem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, schemaProblem{e.InstanceLocation, e.Message})
			return
		}
		if isAlternatives(e.KeywordLocation) {
			var leaves []*jsonschema.ValidationError
			collectLeaves(e, &leaves)
			if sameInstance(leaves) {
				out = append(out, schemaProblem{leaves[0].InstanceLocation, mergeMessages(leaves)})
				return
			}
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	// Dedupe, keeping the first of each (pointer, message).
	seen := map[schemaProblem]bool{}
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

// pointerLabel renders an instance pointer for a message: "/a/0/b" → "a[0].b".
func pointerLabel(ptr string) string {
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
