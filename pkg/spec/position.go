package spec

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// Span returns the source range of the value at a canonical JSON pointer
// such as /input_schema/properties/url/type or /examples/1/params/limit. The
// pointer is in the canonical model's terms whatever the dialect: for a
// Feagent list it lands on the parameter item, for SDK metadata on
// metadata.category. When the value does not exist in the source (a
// default, a converted form) the closest enclosing value is returned.
func (t *Tool) Span(ptr string) Span {
	v, _ := t.locate(ptr)
	return t.File.span(v)
}

// KeySpan is like Span but returns the range of the mapping key when the
// pointer ends at a key that exists, e.g. to point at an unknown field.
func (t *Tool) KeySpan(ptr string) Span {
	v, k := t.locate(ptr)
	if k != nil {
		return t.File.span(k)
	}
	return t.File.span(v)
}

// Pos returns the start of Span(ptr).
func (t *Tool) Pos(ptr string) Pos { return t.Span(ptr).Start }

// locate walks the source nodes along the translated pointer and returns the
// deepest value found, and its key when the last step found a mapping key for
// the full pointer.
func (t *Tool) locate(ptr string) (value, key *yaml.Node) {
	tokens := t.translate(SplitPointer(ptr))
	cur := t.node
	for i, tok := range tokens {
		n := resolve(cur)
		var next, k *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			k, next = lookup(n, tok, 0)
		case yaml.SequenceNode:
			if idx, err := strconv.Atoi(tok); err == nil && idx >= 0 && idx < len(n.Content) {
				next = n.Content[idx]
			}
		}
		if next == nil {
			return cur, nil
		}
		cur = next
		if i == len(tokens)-1 {
			key = k
		}
	}
	return cur, key
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

// translate maps canonical pointer tokens to source tokens.
func (t *Tool) translate(tokens []string) []string {
	if len(tokens) == 0 {
		return nil
	}
	rest := tokens[1:]
	switch tokens[0] {
	case "input_schema":
		key := t.layout.inputKey
		if key == "" {
			return nil
		}
		if !t.layout.inputList {
			return append([]string{key}, rest...)
		}
		return t.translateParamList(key, rest)
	case "output_schema":
		key := t.layout.outputKey
		if key == "" {
			return nil
		}
		if !t.layout.outputFields {
			return append([]string{key}, rest...)
		}
		if len(rest) >= 2 && rest[0] == "properties" {
			return append([]string{key}, rest[1:]...)
		}
		return []string{key}
	case "entry":
		if t.Entry == nil && t.SDKType != "" {
			return []string{"type"}
		}
	}
	if src, ok := t.layout.fromMetadata[tokens[0]]; ok {
		return append([]string{"metadata", src}, rest...)
	}
	return tokens
}

// translateParamList maps /input_schema/... onto the Feagent list:
// properties/NAME/KW → parameters/INDEX/KW, required/I → the item's
// required flag.
func (t *Tool) translateParamList(key string, rest []string) []string {
	out := []string{key}
	if len(rest) < 2 {
		return out
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
			return out
		}
		name, _ = list[i].(string)
		rest = []string{"", "", "required"}
	default:
		return out
	}
	_, listNode := lookup(resolve(t.node), key, 0)
	listNode = resolve(listNode)
	if listNode == nil || listNode.Kind != yaml.SequenceNode {
		return out
	}
	for i, item := range listNode.Content {
		if _, nv := lookup(resolve(item), "name", 0); nv != nil && resolve(nv).Value == name {
			return append(append(out, strconv.Itoa(i)), rest[2:]...)
		}
	}
	return out
}
