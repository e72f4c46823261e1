package spec

import (
	"github.com/toolctl/toolctl/pkg/diag"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Span returns the source range of the value at a canonical JSON pointer
// such as /input_schema/properties/url/type or /examples/1/params/limit. The
// pointer is in the canonical model's terms whatever the dialect: for a
// Feagent list it lands on the parameter item, for SDK metadata on
// metadata.category. When the value does not exist in the source (a
// default, a converted form) the closest enclosing value is returned.
func (t *Tool) Span(ptr string) Span {
	for _, p := range t.pins {
		if p.ptr == ptr {
			return p.span
		}
	}
	v, _, _ := t.locate(ptr)
	if v == nil {
		return Span{}
	}
	return t.File.span(v)
}

type pinnedSpan struct {
	ptr  string
	span Span
}

// Pin keeps Span(ptr) for each pointer, so that it is known without the
// syntax tree: after File.Release, a position that is not pinned costs a
// parse of the file (and a read, if its text was dropped). Lint pins what
// its cross-file rules may report at before it releases each file.
func (t *Tool) Pin(ptrs ...string) {
next:
	for _, ptr := range ptrs {
		for _, p := range t.pins {
			if p.ptr == ptr {
				continue next
			}
		}
		t.pins = append(t.pins, pinnedSpan{ptr, t.Span(ptr)})
	}
}

// Has reports whether the value at a canonical pointer is written in the
// source (not a default or a converted form).
func (t *Tool) Has(ptr string) bool {
	_, _, found := t.locate(ptr)
	return found
}

// KeySpan is like Span but returns the range of the mapping key when the
// pointer ends at a key that exists, e.g. to point at an unknown field.
func (t *Tool) KeySpan(ptr string) Span {
	v, k, _ := t.locate(ptr)
	if v == nil {
		return Span{}
	}
	if k != nil {
		return t.File.span(k)
	}
	return t.File.span(v)
}

// Pos returns the start of Span(ptr).
func (t *Tool) Pos(ptr string) Pos { return t.Span(ptr).Start }

// Where is the tool's file:line:col for messages, its file when the
// position is unknown, "?" without a file.
func (t *Tool) Where() string {
	if t.File == nil {
		return "?"
	}
	return diag.Where(t.Path(), t.Pos(""))
}

// locate walks the source nodes along the translated pointer and returns the
// deepest value found, and its key when the last step found a mapping key for
// the full pointer; found tells whether every token was found.
func (t *Tool) locate(ptr string) (value, key *yaml.Node, found bool) {
	tokens, exact := t.translate(SplitPointer(ptr))
	if !exact {
		// The value has no source of its own (say, a list parameter's
		// implied type: object); point at what encloses it.
		defer func() { found = false }()
	}
	cur := t.root()
	if cur == nil {
		return nil, nil, false
	}
	for i, tok := range tokens {
		n := resolve(cur)
		var next, k *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			k, next = t.File.lookupIn(n, tok)
		case yaml.SequenceNode:
			if idx, err := strconv.Atoi(tok); err == nil && idx >= 0 && idx < len(n.Content) {
				next = n.Content[idx]
			}
		}
		if next == nil {
			return cur, nil, false
		}
		cur = next
		if i == len(tokens)-1 {
			key = k
		}
	}
	return cur, key, true
}

// lookup finds key in a mapping, following merge keys.
func lookup(n *yaml.Node, key string, depth int) (k, v *yaml.Node) {
	if depth > 16 {
		return nil, nil
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn := n.Content[i]
		if kn.Value == key && kn.ShortTag() != "!!merge" {
			return kn, n.Content[i+1]
		}
		if kn.ShortTag() == "!!merge" {
			merges = append(merges, n.Content[i+1])
		}
	}
	for _, m := range merges {
		m = resolve(m)
		srcs := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, s := range srcs {
			if s = resolve(s); s.Kind == yaml.MappingNode {
				if k, v := lookup(s, key, depth+1); v != nil {
					return k, v
				}
			}
		}
	}
	return nil, nil
}

// translate maps canonical pointer tokens to source tokens; exact is false
// when only an enclosing value exists in the source.
func (t *Tool) translate(tokens []string) (_ []string, exact bool) {
	if len(tokens) == 0 {
		return nil, true
	}
	rest := tokens[1:]
	switch tokens[0] {
	case "input_schema":
		key := t.layout.inputKey
		if key == "" {
			return nil, false
		}
		if !t.layout.inputList {
			return append([]string{key}, rest...), true
		}
		return t.translateParamList(key, rest)
	case "output_schema":
		key := t.layout.outputKey
		if key == "" {
			return nil, false
		}
		if !t.layout.outputFields {
			return append([]string{key}, rest...), true
		}
		if len(rest) >= 2 && rest[0] == "properties" {
			return append([]string{key}, rest[1:]...), true
		}
		return []string{key}, len(rest) == 0
	case "entry":
		if t.Entry == nil && t.SDKType != "" {
			return []string{"type"}, false
		}
	}
	if src, ok := t.layout.fromMetadata[tokens[0]]; ok {
		return append([]string{"metadata", src}, rest...), true
	}
	return tokens, true
}

// translateParamList maps /input_schema/... onto the Feagent list (or
// Docker's arguments, where description is desc): properties/NAME/KW →
// parameters/INDEX/KW, required/I → the item's required flag.
func (t *Tool) translateParamList(key string, rest []string) ([]string, bool) {
	out := []string{key}
	if len(rest) < 2 {
		return out, len(rest) == 0
	}
	var name string
	switch rest[0] {
	case "properties":
		name = rest[1]
	case "required":
		i, err := strconv.Atoi(rest[1])
		req, _ := t.InputSchema.Get("required")
		list, _ := req.([]any)
		if err != nil || i < 0 || i >= len(list) {
			return out, false
		}
		name, _ = list[i].(string)
		rest = []string{"", "", "required"}
	default:
		return out, false
	}
	root := resolve(t.root())
	if root == nil {
		return out, false
	}
	_, listNode := t.File.lookupIn(root, key)
	listNode = resolve(listNode)
	if listNode == nil || listNode.Kind != yaml.SequenceNode {
		return out, false
	}
	kw := rest[2:]
	if key == "arguments" && len(kw) > 0 && kw[0] == "description" {
		// Docker's arguments write the description as desc.
		kw = append([]string{"desc"}, kw[1:]...)
	}
	if i := t.File.itemNamed(listNode, name); i >= 0 {
		return append(append(out, strconv.Itoa(i)), kw...), true
	}
	return out, false
}

// TextPos returns the source position of a character inside the string
// value at a canonical pointer, given by its 1-based line and column in the
// value's text (columns in characters). It is exact for every scalar
// style (see StringSpan: escapes, folded lines, blocks); when the source
// cannot be matched with the text, block scalars map line by line and
// other scalars give the value's start.
func (t *Tool) TextPos(ptr string, line, col int) Pos {
	v, _, found := t.locate(ptr)
	if v == nil {
		return Pos{}
	}
	start := Pos{Line: v.Line, Col: v.Column}
	if !found || v.Kind != yaml.ScalarNode || line < 1 || col < 1 {
		return start
	}
	if v.Style&yaml.LiteralStyle == 0 {
		// Escapes, folded lines: read the source alongside the text.
		if p, ok := t.exactTextPos(v, line, col); ok {
			return p
		}
	}
	if v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		// Content starts on the line after the indicator, at the block's
		// indentation (that of its first non-empty line).
		first := v.Line + 1
		indent := -1
		for n, last := first, len(t.File.lines()); n <= last && indent < 0; n++ {
			if text := t.File.Line(n); strings.TrimSpace(text) != "" {
				indent = len(text) - len(strings.TrimLeft(text, " "))
			}
		}
		if indent < 0 {
			return start
		}
		return Pos{Line: first + line - 1, Col: indent + col}
	}
	if line != 1 || strings.Contains(v.Value, "\n") {
		return start
	}
	if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		if strings.ContainsAny(v.Value, `\'"`) {
			return start // escapes shift columns
		}
		return Pos{Line: v.Line, Col: v.Column + col}
	}
	return Pos{Line: v.Line, Col: v.Column + col - 1}
}
