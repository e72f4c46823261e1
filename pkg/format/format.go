// Package format rewrites tool files into the canonical layout: fields in
// the order of the file format (README, "The tool file"), 2-space indentation,
// block scalars for multi-line text, comments and blank lines between
// fields kept, key order inside schemas kept. It can also convert the
// parameter form (Feagent list ⇄ JSON Schema) where that loses nothing.
//
// YAML is rewritten through yaml.v3's node API, which keeps comments.
// JSON files stay JSON (comments do not exist there): canonical field
// order, 2-space indentation, numbers exactly as written.
//
// Every result is checked before it is returned: it must parse to the same
// tools (spec.ParseFile) and, for YAML, carry every comment of the source.
// A file that fails any step is reported and never half-formatted.
package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/toolctl/toolctl/internal/testhook"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// Target is a parameter form --to converts to.
type Target string

const (
	// Keep leaves the parameter form as written.
	Keep Target = ""
	// Feagent is the list form: parameters: [{name, type, description,
	// required, default, enum, ...}].
	Feagent Target = "feagent"
	// Schema is a JSON Schema object under input_schema.
	Schema Target = "schema"
)

// Targets lists the forms --to accepts.
var Targets = []Target{Feagent, Schema}

// ParseTarget reads a --to value.
func ParseTarget(s string) (Target, error) {
	for _, t := range Targets {
		if s == string(t) {
			return t, nil
		}
	}
	return Keep, fmt.Errorf("%q is not a parameter form; use feagent (the list form) or schema (a JSON Schema under input_schema)", s)
}

// Options tune Source.
type Options struct {
	// To converts the parameter form of every tool.
	To Target
}

// Error is a problem that stops a file from being formatted; the file is
// left as it was.
type Error = diag.Diagnostic

// Errors are several problems of one file.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// IsJSON reports whether path is formatted as JSON.
func IsJSON(path string) bool { return strings.EqualFold(filepath.Ext(path), ".json") }

// Source formats the contents of the tool file path. The extension picks
// JSON (.json) or YAML (anything else, "-" included). The error is an
// Errors value naming the file and positions. A panic (a bug) is such an
// error too, and the file is left as it was.
func Source(path string, data []byte, opts Options) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, Errors{{File: path, Span: diag.At(spec.Pos{Line: 1, Col: 1}), Message: spec.InternalErrorMsg(path, p)}}
		}
	}()
	f := &file{path: path, opts: opts}
	return f.format(data)
}

type file struct {
	path string
	opts Options
	crlf bool // write \r\n line ends, as the source does
	// carried holds the comments of schema keywords a conversion drops
	// (type: object, required), to be placed above the new list.
	carried []string
}

func (f *file) errAt(n *yaml.Node, format string, args ...any) *Error {
	e := &Error{File: f.path, Message: fmt.Sprintf(format, args...)}
	if n != nil && n.Line > 0 {
		e.Span = diag.At(spec.Pos{Line: n.Line, Col: n.Column})
	}
	return e
}

func (f *file) format(data []byte) ([]byte, error) {
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		return nil, Errors{{File: f.path, Span: diag.At(spec.Pos{Line: 1, Col: 1}), Message: "the file is UTF-16; fmt writes UTF-8 only, so it was left untouched (save it as UTF-8 first)"}}
	}
	src := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	// The spec parser is the judge of what a tool file is: any error it
	// records (what toolctl lint reports as parse-error: bad syntax, a
	// duplicate key, a list item that is not a tool, a field of the wrong
	// type, ...) leaves the file untouched, as it is the one toolctl reads.
	// Its result is also the reference verify compares the output with.
	before := spec.ParseFile(f.path, data)
	if len(before.Errors) > 0 || len(before.Tools) == 0 {
		return nil, f.parseErrors(before, nil)
	}
	testhook.Check("format", f.path)
	if !utf8.Valid(src) { // spec reports it; this is a safety net
		return nil, f.parseErrors(before, errors.New("invalid UTF-8; save the file as UTF-8"))
	}
	f.crlf = bytes.Contains(src, []byte("\r\n"))
	var out []byte
	var err error
	if IsJSON(f.path) {
		out, err = f.formatJSON(src, before)
	} else {
		out, err = f.formatYAML(src, before)
	}
	if err != nil {
		return nil, err
	}
	if err := f.verify(before, data, out); err != nil {
		return nil, err
	}
	return out, nil
}

// parseErrors reports a file that cannot be read: the parser's positioned
// errors (pf is the file as spec.ParseFile read it; a syntax error alone
// when there is one), or err when the parser saw nothing wrong.
func (f *file) parseErrors(pf *spec.File, err error) error {
	var out Errors
	for _, e := range pf.Errors {
		if strings.Contains(e.Message, "syntax error") {
			out = append(out, &Error{File: f.path, Span: e.Span, Message: e.Message})
		}
	}
	if len(out) == 0 {
		for _, e := range pf.Errors {
			out = append(out, &Error{File: f.path, Span: e.Span, Message: e.Message})
		}
	}
	// in the order lint shows them
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Span.Start, out[j].Span.Start
		return a.Line < b.Line || (a.Line == b.Line && a.Col < b.Col)
	})
	if len(out) == 0 && err != nil {
		out = append(out, &Error{File: f.path, Message: err.Error()})
	}
	if len(out) == 0 {
		out = append(out, &Error{File: f.path, Message: "no tool in this file"})
	}
	return out
}

// withFinalNewline ends src with a line break, as every output does, when
// that changes no value: yaml.v3 places a last comment that has no line
// break after it elsewhere than the same comment with one ("y:\n#c" puts
// it inside y's mapping), so the output of a file without it would not be
// formatted the same again (FuzzSource). A block scalar that ends the file
// is the case where the break is part of a value; then src stays as it is.
func withFinalNewline(src []byte) []byte {
	if len(src) == 0 || src[len(src)-1] == '\n' {
		return src
	}
	with := append(bytes.Clone(src), '\n')
	a, errA := decodeAll(src)
	b, errB := decodeAll(with)
	if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
		return src
	}
	return with
}

// decodeAll is the value of each document of a YAML stream.
func decodeAll(src []byte) ([]any, error) {
	var docs []any
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		docs = append(docs, v)
	}
}

// formatYAML formats each document of a YAML stream.
func (f *file) formatYAML(src []byte, parsed *spec.File) ([]byte, error) {
	src = withFinalNewline(src)
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var docs []*yaml.Node
	for {
		doc := new(yaml.Node)
		err := dec.Decode(doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, f.parseErrors(parsed, err)
		}
		docs = append(docs, doc)
	}
	docs = dropEmptyDocuments(docs)
	lines := strings.Split(string(src), "\n")
	var buf bytes.Buffer
	for i, doc := range docs {
		blanks := blankLines(doc, lines)
		if err := f.tools(doc, true); err != nil {
			return nil, err
		}
		if !fixAnchors(doc) {
			return nil, Errors{f.errAt(doc, "the canonical field order would put a YAML alias before its anchor, and they cannot trade places; write the aliased value out in full")}
		}
		text, err := encodeYAML(doc)
		if err != nil {
			return nil, Errors{f.errAt(nil, "cannot write the formatted YAML: %v", err)}
		}
		text = restoreBlankLines(doc, text, blanks)
		if i > 0 {
			buf.WriteString("---\n")
		}
		buf.Write(text)
	}
	out := buf.Bytes()
	if f.crlf {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	return out, nil
}

// dropEmptyDocuments leaves out the documents with no content (a trailing
// "---"), which spec skips too; their comments join a neighbour.
func dropEmptyDocuments(docs []*yaml.Node) []*yaml.Node {
	var kept []*yaml.Node
	pending := ""
	for _, d := range docs {
		root := (*yaml.Node)(nil)
		if len(d.Content) > 0 {
			root = d.Content[0]
		}
		if root != nil && !(root.Kind == yaml.ScalarNode && root.Tag == "!!null") {
			d.HeadComment = joinComments(pending, d.HeadComment)
			pending = ""
			kept = append(kept, d)
			continue
		}
		c := joinComments(d.HeadComment, d.FootComment)
		if root != nil {
			c = joinComments(joinComments(c, root.HeadComment), joinComments(root.LineComment, root.FootComment))
		}
		if len(kept) > 0 {
			last := kept[len(kept)-1]
			last.FootComment = joinComments(last.FootComment, c)
		} else {
			pending = joinComments(pending, c)
		}
	}
	if pending != "" && len(kept) > 0 {
		kept[0].HeadComment = joinComments(pending, kept[0].HeadComment)
	}
	return kept
}

// encodeYAML writes a document with 2-space indentation.
//
// yaml.v3 escapes every character outside the Basic Multilingual Plane
// (icon: "\U0001F517" for 🔗) and then cannot use plain or block style
// for the whole text. So those characters are swapped for private-use
// characters the document does not contain, which it writes as they are,
// and swapped back in the text.
func encodeYAML(doc *yaml.Node) ([]byte, error) {
	swap := astralSwap(doc)
	defer swap.restore()
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return swap.back(buf.Bytes()), nil
}

type swapper struct {
	nodes map[*yaml.Node]string // original values
	back  func([]byte) []byte
}

func (s *swapper) restore() {
	for n, v := range s.nodes {
		n.Value = v
	}
}

func astralSwap(doc *yaml.Node) *swapper {
	s := &swapper{nodes: map[*yaml.Node]string{}, back: func(b []byte) []byte { return b }}
	used := map[rune]bool{}
	astral := map[rune]rune{}
	var scan func(n *yaml.Node)
	scan = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			for _, r := range n.Value {
				switch {
				case r > 0xFFFF:
					astral[r] = 0
				case r >= 0xE000 && r <= 0xF8FF:
					used[r] = true
				}
			}
		}
		for _, c := range n.Content {
			scan(c)
		}
	}
	scan(doc)
	if len(astral) == 0 {
		return s
	}
	next := rune(0xE000)
	var pairs []string
	for r := range astral {
		for used[next] && next <= 0xF8FF {
			next++
		}
		if next > 0xF8FF {
			return s // thousands of distinct emoji: leave them escaped
		}
		astral[r] = next
		used[next] = true
		pairs = append(pairs, string(next), string(r))
	}
	var swapAll func(n *yaml.Node)
	swapAll = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && strings.ContainsFunc(n.Value, func(r rune) bool { return r > 0xFFFF }) {
			s.nodes[n] = n.Value
			n.Value = strings.Map(func(r rune) rune {
				if p, ok := astral[r]; ok {
					return p
				}
				return r
			}, n.Value)
		}
		for _, c := range n.Content {
			swapAll(c)
		}
	}
	swapAll(doc)
	repl := strings.NewReplacer(pairs...)
	s.back = func(b []byte) []byte { return []byte(repl.Replace(string(b))) }
	return s
}

// tools finds the tools of a document (one tool, a list, {tools: [...]},
// OpenAI's wrapper) and puts each in canonical form; layout applies the
// style rules to everything.
func (f *file) tools(doc *yaml.Node, yamlOut bool) error {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	var errs Errors
	each := func(n *yaml.Node) {
		if n.Kind != yaml.MappingNode {
			return
		}
		if err := f.tool(n); err != nil {
			errs = append(errs, err)
		}
	}
	switch root.Kind {
	case yaml.MappingNode:
		if tools := spec.ContainerTools(root); tools != nil {
			if tools.Kind == yaml.SequenceNode {
				toBlock(tools)
				for _, item := range tools.Content {
					each(item)
				}
			}
			orderKeys(root, []string{"tools"}, nil)
		} else {
			each(root)
		}
	case yaml.SequenceNode:
		toBlock(root)
		for _, item := range root.Content {
			each(item)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if yamlOut {
		layout(root, false)
	}
	return nil
}

// tool puts one tool mapping (or OpenAI wrapper) in canonical form.
func (f *file) tool(n *yaml.Node) *Error {
	toBlock(n)
	if fn := openAIFunction(n); fn != nil {
		orderKeys(n, []string{"type", "function"}, nil)
		toBlock(fn)
		if f.opts.To == Feagent && inputKey(fn) != nil {
			return f.errAt(n, "cannot convert tool %q to the feagent list form: OpenAI's {type: function, function: {...}} format requires a JSON Schema; run toolctl import to turn it into a toolctl file first", nameOf(fn))
		}
		return f.toolFields(fn, true)
	}
	return f.toolFields(n, isOpenAIFlat(n))
}

func (f *file) toolFields(n *yaml.Node, openai bool) *Error {
	if f.opts.To != Keep {
		if openai && f.opts.To == Feagent && inputKey(n) != nil {
			return f.errAt(n, "cannot convert tool %q to the feagent list form: OpenAI's format requires a JSON Schema; run toolctl import to turn it into a toolctl file first", nameOf(n))
		}
		if err := f.convert(n); err != nil {
			return err
		}
	}
	orderTool(n, openai)
	return nil
}

// openAIFunction returns the tool inside OpenAI's Chat Completions
// wrapper {type: function, function: {...}}, or nil.
func openAIFunction(n *yaml.Node) *yaml.Node {
	if !isOpenAIFlat(n) {
		return nil
	}
	if fn := get(n, "function"); fn != nil && fn.Kind == yaml.MappingNode {
		return fn
	}
	return nil
}

// isOpenAIFlat: a mapping with type: function (Responses form or wrapper).
func isOpenAIFlat(n *yaml.Node) bool {
	t := get(n, "type")
	return t != nil && t.Kind == yaml.ScalarNode && t.Value == "function"
}

func nameOf(n *yaml.Node) string {
	if v := get(n, "name"); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// get returns the value of key in a mapping.
func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
