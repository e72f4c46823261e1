package format

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
	"github.com/toolctl/toolctl/pkg/spec"
)

// verify checks a result before anyone sees it: the same tools with the
// same meaning (every field, schemas with their key order; the input
// schema up to its form when converting), and for YAML every comment of
// the source. A failure is a bug in fmt; the file is left untouched.
func (f *file) verify(before *spec.File, src, out []byte) error {
	bug := func(format string, args ...any) error {
		return Errors{{File: f.path, Message: "fmt would change this file's meaning (" + fmt.Sprintf(format, args...) + "), so it was left untouched; please report this with the file"}}
	}
	after := spec.ParseFile(f.path, out)
	if len(after.Tools) != len(before.Tools) {
		return bug("%d tools instead of %d", len(after.Tools), len(before.Tools))
	}
	if len(after.Errors) != len(before.Errors) {
		return bug("%d parse errors instead of %d", len(after.Errors), len(before.Errors))
	}
	for i, bt := range before.Tools {
		at := after.Tools[i]
		bm, am := bt.ToMap(), at.ToMap()
		if f.opts.To != Keep {
			normalizeInput(bm)
			normalizeInput(am)
		}
		if bm.Len() != am.Len() {
			return bug("tool %q: fields %v became %v", bt.Name, bm.Keys(), am.Keys())
		}
		for j := 0; j < bm.Len(); j++ {
			k, bv := bm.At(j)
			av, ok := am.Get(k)
			if !ok || !sameJSON(bv, av) {
				return bug("tool %q: %s differs", bt.Name, k)
			}
		}
	}
	if !IsJSON(f.path) {
		if b, a := comments(src), comments(out); !subset(b, a) {
			return bug("comments %d before, %d after", len(b), len(a))
		}
	}
	return nil
}

func sameJSON(a, b any) bool {
	ja, err1 := spec.MarshalJSONIndent(a)
	jb, err2 := spec.MarshalJSONIndent(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// normalizeInput makes the two spellings of an empty or plain object
// schema equal: {type: object} and {type: object, properties: {}}.
func normalizeInput(m *spec.Map) {
	s, ok := m.GetMap("input_schema")
	if !ok {
		return
	}
	for _, k := range s.Keys() {
		if k != "type" && k != "properties" && k != "required" {
			return
		}
	}
	n := spec.NewMap(3)
	n.Set("type", "object")
	props, ok := s.GetMap("properties")
	if !ok {
		props = spec.NewMap(0)
	}
	n.Set("properties", props)
	if r, ok := s.Get("required"); ok {
		if list, _ := r.([]any); len(list) > 0 {
			n.Set("required", r)
		}
	}
	m.Set("input_schema", n)
}

// subset reports whether every comment of before is in after, as many
// times. After may have more: text yaml.v3 reads as a comment where the
// lexer that counts them does not ("key: |#c", no space before #) is
// written as a proper comment; nothing is lost.
func subset(before, after []string) bool {
	i := 0
	for _, c := range before {
		for i < len(after) && after[i] < c {
			i++
		}
		if i == len(after) || after[i] != c {
			return false
		}
		i++
	}
	return true
}

// comments lists the text of every comment of a YAML source, sorted: the
// set fmt must keep, wherever yaml.v3 attaches them.
func comments(src []byte) []string {
	var out []string
	for _, t := range lexer.Tokenize(string(src)) {
		if t.Type == token.CommentType {
			out = append(out, strings.TrimSpace(t.Value))
		}
	}
	sort.Strings(out)
	return out
}
