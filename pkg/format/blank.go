package format

import (
	"bytes"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// yaml.v3 drops blank lines. People use them to separate fields and list
// items, so they are kept: a field or item that had a blank line before
// it (before its comments) gets one in the output. The first of a block
// never does, and runs of blank lines become one.

// blankLines returns the entries (mapping keys, sequence items) of block
// collections that follow a blank line in the source.
func blankLines(doc *yaml.Node, lines []string) map[*yaml.Node]bool {
	flags := map[*yaml.Node]bool{}
	blank := func(line int) bool { // 1-based
		return line >= 1 && line <= len(lines) && strings.TrimSpace(lines[line-1]) == ""
	}
	walkEntries(doc, func(entry *yaml.Node, first bool) {
		if !first && blank(firstLine(entry)-1) {
			flags[entry] = true
		}
	})
	return flags
}

// walkEntries calls fn for each entry of every block collection.
func walkEntries(n *yaml.Node, fn func(entry *yaml.Node, first bool)) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			walkEntries(c, fn)
		}
	case yaml.MappingNode:
		block := n.Style&yaml.FlowStyle == 0
		for i := 0; i+1 < len(n.Content); i += 2 {
			if block {
				fn(n.Content[i], i == 0)
			}
			walkEntries(n.Content[i+1], fn)
		}
	case yaml.SequenceNode:
		block := n.Style&yaml.FlowStyle == 0
		for i, c := range n.Content {
			if block {
				fn(c, i == 0)
			}
			walkEntries(c, fn)
		}
	}
}

// firstLine is where an entry starts, its head comment included.
func firstLine(n *yaml.Node) int {
	line := n.Line
	head := n.HeadComment
	if n.Kind == yaml.MappingNode && len(n.Content) > 0 && head == "" {
		// an item's comment may sit on its first key
		head = n.Content[0].HeadComment
	}
	if head != "" {
		line -= strings.Count(head, "\n") + 1
	}
	return line
}

// restoreBlankLines inserts the blank lines flagged in formatted (the
// document that was encoded as text). The text is parsed again and walked
// beside formatted to find each entry's line; if the two shapes differ
// (they never should) the text is returned as it is.
func restoreBlankLines(formatted *yaml.Node, text []byte, flags map[*yaml.Node]bool) []byte {
	if len(flags) == 0 {
		return text
	}
	var again yaml.Node
	if err := yaml.Unmarshal(text, &again); err != nil {
		return text
	}
	var want []int
	var ok = true
	var walk func(a, b *yaml.Node)
	walk = func(a, b *yaml.Node) {
		if !ok || a.Kind != b.Kind || len(a.Content) != len(b.Content) {
			ok = false
			return
		}
		for i := range a.Content {
			entry := (a.Kind == yaml.MappingNode && i%2 == 0) || a.Kind == yaml.SequenceNode
			// The first entry of a block never gets a blank line, also when
			// a conversion or the field order made a flagged entry the first
			// (list parameters lose their name key under input_schema): the
			// next run would drop it, and fmt must be idempotent.
			if entry && i > 0 && flags[a.Content[i]] {
				want = append(want, firstLine(b.Content[i]))
			}
			walk(a.Content[i], b.Content[i])
		}
	}
	walk(formatted, &again)
	if !ok || len(want) == 0 {
		return text
	}
	lines := bytes.SplitAfter(text, []byte("\n"))
	sort.Sort(sort.Reverse(sort.IntSlice(want)))
	for i, line := range want {
		if i > 0 && line == want[i-1] {
			continue
		}
		if line < 2 || line > len(lines) || len(bytes.TrimSpace(lines[line-2])) == 0 {
			continue
		}
		lines = append(lines[:line-1], append([][]byte{[]byte("\n")}, lines[line-1:]...)...)
	}
	return bytes.Join(lines, nil)
}
