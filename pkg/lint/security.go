package lint

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

// The security pack: rules that read every text a model sees for what is
// addressed to the model rather than to the person reading the file
// (hidden characters, look-alike names, instructions, requests for
// secrets, links). They are on by default; toolctl scan runs them alone.

// PackSecurity names the security rules (Rule.Pack).
const PackSecurity = "security"

// modelText is one text of a tool that goes into the model's context.
type modelText struct {
	// The canonical JSON pointer is that of the container (an index in
	// walk.paths) and tok: built only for a finding.
	walk      *textWalk
	container int32
	tok       string
	// key: the text is the mapping key tok (a parameter or property
	// name), not a value.
	key  bool
	text string
	// name: a tool or parameter name.
	name bool
	// prose: a title, description, detail or scenario (not a value).
	prose bool
	// plain: all ASCII, no control characters but tab and line breaks
	// (nothing for the character rules to look at; most texts), once
	// plainDone.
	plain, plainDone bool
	lower            string
	// fold is the text folded to ASCII (foldText, security_fold.go) when
	// it is not plain and something in it folds; foldAt maps fold's byte
	// offsets to text's. The pattern rules read scanText: hitList
	// positions are in it, orig maps them back.
	fold, foldLower string
	foldAt          []int32
	// scanned: hitList holds the text's pattern triggers (hits).
	scanned bool
	hitList []hit
}

// pathNode is one step of a JSON pointer: its parent's index (-1 for the
// tool) and its token, unescaped.
type pathNode struct {
	parent int32
	tok    string
}

// label is how a message names where the text is: "description",
// "input_schema.properties.path.description", "property name path".
func (m modelText) label() string {
	toks := m.tokens()
	if m.key {
		return "property name " + strconv.Quote(toks[len(toks)-1])
	}
	return strings.Join(toks, ".")
}

// tokens are the pointer's tokens, unescaped.
func (m modelText) tokens() []string {
	toks := []string{m.tok}
	for i := m.container; i >= 0 && m.walk != nil; i = m.walk.paths[i].parent {
		toks = append(toks, m.walk.paths[i].tok)
	}
	slices.Reverse(toks)
	return toks
}

// pointer is the text's canonical JSON pointer.
func (m modelText) pointer() string { return spec.Pointer(m.tokens()...) }

// lowered is the text ASCII-lower-cased (lowerASCII), made once per text
// for the pattern rules.
func (m *modelText) lowered() string {
	if m.lower == "" {
		m.lower = lowerASCII(m.text)
	}
	return m.lower
}

// scanText is the text the pattern rules read (after hits): the folded
// text when there is one, else the text.
func (m *modelText) scanText() string {
	if m.foldAt != nil {
		return m.fold
	}
	return m.text
}

// scanLower is scanText ASCII-lower-cased.
func (m *modelText) scanLower() string {
	if m.foldAt == nil {
		return m.lowered()
	}
	if m.foldLower == "" {
		m.foldLower = lowerASCII(m.fold)
	}
	return m.foldLower
}

// orig maps a byte offset in scanText to the text's (-1 stays -1).
func (m *modelText) orig(i int) int {
	if m.foldAt == nil || i < 0 {
		return i
	}
	return int(m.foldAt[i])
}

// hits returns the pattern triggers of the text (scanTriggers), found
// once for every pattern rule.
func (m *modelText) hits() []hit {
	if !m.scanned {
		if m.scannable() {
			// The hits go into the walk's arena: one slice for all
			// the texts of the tool (and, pooled, of the next tools).
			all, plain := scanTriggers(m.walk.hits, m.text)
			if !plain {
				if f, at, ok := foldText(m.text); ok {
					m.fold, m.foldAt = f, at
					all, _ = scanTriggers(all[:len(m.walk.hits)], f)
				}
			}
			m.hitList, m.plain = slices.Clip(all[len(m.walk.hits):]), plain
			m.walk.hits = all
			m.plainDone = true
		}
		m.scanned = true
	}
	return m.hitList
}

// scannable: the pattern rules read the text. A name matches no pattern,
// nor does a one-word value (an enum value, a default) but a file name.
func (m *modelText) scannable() bool {
	if m.name || m.key {
		return false
	}
	if m.prose {
		return true
	}
	if len(m.text) < 6 {
		return false
	}
	for i := 0; i < len(m.text); i++ {
		if c := m.text[i]; c == ' ' || c == '/' || c == '.' || c == '_' {
			return true
		}
	}
	return false
}

// isPlain is plainASCII(m.text), found in the same pass as the triggers
// for the texts the pattern rules read.
func (m *modelText) isPlain() bool {
	if !m.plainDone {
		if m.scannable() {
			m.hits()
		} else {
			m.plain, m.plainDone = plainASCII(m.text), true
		}
	}
	return m.plain
}

// texts returns the model texts of t, listed once per tool for every
// security rule (Reporter.tool is per tool; rules of a tool run in turn).
func (r *Reporter) texts(t *spec.Tool) []modelText {
	if r.tool != nil && r.tool.textsDone {
		return r.tool.texts
	}
	if r.tool == nil {
		return modelTexts(t, &textWalk{})
	}
	w := walkPool.Get().(*textWalk)
	r.tool.walk = w
	r.tool.texts, r.tool.textsDone = modelTexts(t, w), true
	return r.tool.texts
}

// walkPool recycles the texts of tools whose rules ran (run.tool): a
// tool has tens of texts, and 10,000 tools would make as many slices.
var walkPool = sync.Pool{New: func() any { return &textWalk{out: make([]modelText, 0, 32)} }}

// release returns the walk's slices to walkPool; nothing may hold its
// texts any more.
func (w *textWalk) release() {
	clear(w.out)
	w.out = w.out[:0]
	clear(w.paths)
	w.paths = w.paths[:0]
	w.hits = w.hits[:0]
	walkPool.Put(w)
}

// textWalk lists a tool's model texts.
type textWalk struct {
	paths []pathNode
	out   []modelText
	// hits is the arena of the texts' hitList (modelText.hits).
	hits []hit
}

func (w *textWalk) node(parent int32, tok string) int32 {
	w.paths = append(w.paths, pathNode{parent, tok})
	return int32(len(w.paths) - 1)
}

func (w *textWalk) add(container int32, tok, text string, key, name, prose bool) {
	w.out = append(w.out, modelText{walk: w, container: container, tok: tok, text: text, key: key, name: name, prose: prose})
}

// modelTexts lists every text of t a model sees: name, title,
// description, detail, annotations.title, example scenarios and
// parameters, and in the input and output schemas every property name,
// title, description, enum value, const, default and example.
func modelTexts(t *spec.Tool, w *textWalk) []modelText {
	str := func(tok, s string) {
		if s != "" {
			w.add(-1, tok, s, false, false, true)
		}
	}
	if t.Name != "" {
		w.add(-1, "name", t.Name, false, true, false)
	}
	str("title", t.Title)
	str("description", t.Description)
	str("detail", t.Detail)
	if t.Annotations != nil && t.Annotations.Title != "" {
		w.add(w.node(-1, "annotations"), "title", t.Annotations.Title, false, false, true)
	}
	if t.InputSchema != nil {
		w.schema(t.InputSchema, w.node(-1, "input_schema"), 0, true)
	}
	if t.OutputSchema != nil {
		w.schema(t.OutputSchema, w.node(-1, "output_schema"), 0, false)
	}
	if len(t.Examples) > 0 {
		examples := w.node(-1, "examples")
		for i, ex := range t.Examples {
			if ex.Scenario == "" && ex.Params == nil {
				continue
			}
			n := w.node(examples, strconv.Itoa(i))
			if ex.Scenario != "" {
				w.add(n, "scenario", ex.Scenario, false, false, true)
			}
			if ex.Params != nil {
				w.value(ex.Params, n, "params", 0)
			}
		}
	}
	return w.out
}

// schema walks a JSON Schema's texts (see modelTexts); names tells that
// its property names are parameter names.
func (w *textWalk) schema(m *spec.Map, at int32, depth int, names bool) {
	if depth > 32 {
		return
	}
	for i := range m.Len() {
		k, v := m.At(i)
		switch k {
		case "title", "description":
			if s, ok := v.(string); ok && s != "" {
				w.add(at, k, s, false, false, true)
			}
		case "enum", "examples", "default", "const":
			w.value(v, at, k, depth)
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			props, ok := v.(*spec.Map)
			if !ok || props.Len() == 0 {
				continue
			}
			p := w.node(at, k)
			for j := range props.Len() {
				name, sub := props.At(j)
				if k == "properties" {
					w.add(p, name, name, true, names && depth == 0, false)
				}
				if sm, ok := sub.(*spec.Map); ok {
					w.schema(sm, w.node(p, name), depth+1, names)
				}
			}
		case "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames":
			if sm, ok := v.(*spec.Map); ok {
				w.schema(sm, w.node(at, k), depth+1, names)
			}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if list, ok := v.([]any); ok {
				p := w.node(at, k)
				for j, sub := range list {
					if sm, ok := sub.(*spec.Map); ok {
						w.schema(sm, w.node(p, strconv.Itoa(j)), depth+1, names)
					}
				}
			}
		}
	}
}

// value lists every string inside the JSON value at container/tok.
func (w *textWalk) value(v any, container int32, tok string, depth int) {
	if depth > 32 {
		return
	}
	switch v := v.(type) {
	case string:
		if v != "" {
			w.add(container, tok, v, false, false, false)
		}
	case []any:
		if len(v) == 0 {
			return
		}
		p := w.node(container, tok)
		for i, x := range v {
			if s, ok := x.(string); ok {
				if s != "" {
					w.add(p, strconv.Itoa(i), s, false, false, false)
				}
				continue
			}
			w.value(x, p, strconv.Itoa(i), depth+1)
		}
	case *spec.Map:
		if v.Len() == 0 {
			return
		}
		p := w.node(container, tok)
		for i := range v.Len() {
			k, x := v.At(i)
			w.value(x, p, k, depth+1)
		}
	}
}

// reportText adds a finding at bytes [from, to) of a model text (to ==
// from: the character at from). When the source cannot be matched with
// the text (a value toolctl derived), it is at the value, and the message
// says where in it.
func (r *Reporter) reportText(t *spec.Tool, m *modelText, from, to int, format string, args ...any) {
	ptr := m.pointer()
	span, exact := t.StringSpan(ptr, m.key, from, to)
	msg := fmt.Sprintf(format, args...)
	if !exact && from > 0 {
		msg += fmt.Sprintf(" (at character %d of the %s)", utf8.RuneCountInString(m.text[:from])+1, m.label())
	}
	r.add(t.Path(), span, "%s", msg)
	f := &r.findings[len(r.findings)-1]
	f.Pointer, f.Tool = ptr, t.Name
}

// quoteText is a short excerpt for a message: at most n characters,
// control and invisible characters escaped.
func quoteText(s string, n int) string {
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n]) + "…"
	}
	return strconv.QuoteToGraphic(s)
}

// plainASCII tells whether s is all ASCII without control characters
// other than tab and line breaks.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7F {
			return false
		}
	}
	return true
}

// isASCII tells whether s is all ASCII: most texts are, and then the
// character rules have nothing to look at.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
