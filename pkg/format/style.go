package format

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// flowMaxWidth bounds a flow collection ([a, b], {x: 1}) kept on one
// line. The decision depends on the content only, never on the position,
// so that formatting twice gives the same bytes.
const flowMaxWidth = 60

// layout applies the style rules below n: keys plain (quoted only where
// YAML needs it), multi-line text as literal block scalars, flow
// collections kept only when short and simple. inFlow tells that n is
// inside a flow collection, where block scalars cannot appear.
func layout(n *yaml.Node, inFlow bool) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			layout(c, false)
		}
	case yaml.MappingNode, yaml.SequenceNode:
		if n.Style&yaml.FlowStyle != 0 && !keepFlow(n) {
			toBlock(n)
		}
		flow := n.Style&yaml.FlowStyle != 0
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				plainKey(c)
				continue
			}
			layout(c, flow)
		}
	case yaml.ScalarNode:
		if !inFlow {
			blockScalar(n)
		} else if n.Tag == "!!null" && n.Value == "" && n.Style == 0 {
			// An empty value in a flow collection ("{a}", "[a, ]"):
			// yaml.v3 would write it as '', a string; null keeps it
			// null.
			n.Value = "null"
		}
	}
}

// keepFlow: a flow collection stays on one line when it holds only short
// single-line scalars without comments.
func keepFlow(n *yaml.Node) bool {
	width := 2
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode || c.HeadComment != "" || c.LineComment != "" || c.FootComment != "" ||
			strings.ContainsAny(c.Value, "\n\r") || c.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			return false
		}
		if c.Tag == "!!null" && c.Value == "" && c.Style == 0 {
			width += len("null") // layout writes it so in a flow collection
		}
		width += len(c.Value) + 2
		if c.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			width += 2
		}
	}
	return width <= flowMaxWidth
}

// plainKey drops quotes from a string key; the encoder quotes it again
// when YAML needs it ("true", "1", "a: b").
func plainKey(k *yaml.Node) {
	if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" && k.Value == "<<" {
		// yaml.v3 writes the tag out ("!!merge <<:") unless it is implicit
		k.Tag = ""
		return
	}
	if k.Kind == yaml.ScalarNode && k.Tag == "!!str" && k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 &&
		!strings.ContainsAny(k.Value, "\n\r\t") && k.Value != "" {
		k.Style &^= yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle
	}
}

// blockScalar writes multi-line text as a literal block (|), which is how
// people read and diff it. Folded blocks (>) become literal too: yaml.v3
// cannot write them back faithfully (it adds blank lines). Text a literal
// block cannot carry (trailing spaces) stays double-quoted.
func blockScalar(n *yaml.Node) {
	if n.Tag != "!!str" {
		return
	}
	if strings.HasPrefix(n.Value, "\n") {
		// yaml.v3 drops the first line break of a block scalar that
		// starts with one ("|\n \n 0" came back as "0").
		n.Style = yaml.DoubleQuotedStyle
		return
	}
	if n.Style&yaml.LiteralStyle != 0 {
		return
	}
	multi := strings.Contains(n.Value, "\n")
	if !multi && n.Style&yaml.FoldedStyle == 0 {
		return
	}
	if hasTrailingSpace(n.Value) || strings.ContainsRune(n.Value, '\r') {
		if n.Style&yaml.FoldedStyle != 0 || n.Style == 0 {
			n.Style = yaml.DoubleQuotedStyle
		}
		return
	}
	if !multi {
		// a folded one-liner: plain (or quoted when YAML needs it)
		n.Style = 0
		return
	}
	n.Style = yaml.LiteralStyle
}

func hasTrailingSpace(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
			return true
		}
	}
	return false
}

// toBlock writes n, a collection, in block style. A comment on the line of
// a flow collection ("- {name: a} # why") has no place on a block
// collection, whose first line is its first entry's: yaml.v3 would drop
// it, so it moves to the first entry's line (or above it when that line
// has a comment already).
func toBlock(n *yaml.Node) {
	if n.Style&yaml.FlowStyle == 0 {
		return
	}
	n.Style &^= yaml.FlowStyle
	if n.LineComment == "" || len(n.Content) == 0 {
		return
	}
	first := n.Content[0]
	if n.Kind == yaml.MappingNode && len(n.Content) > 1 && n.Content[1].Kind == yaml.ScalarNode {
		first = n.Content[1]
	}
	if first.Kind == yaml.ScalarNode && first.LineComment == "" {
		first.LineComment = n.LineComment
	} else {
		head := n.Content[0]
		head.HeadComment = joinComments(head.HeadComment, n.LineComment)
	}
	n.LineComment = ""
}
