package format

import (
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// A list-form parameter only gets its name first: the other keys are its
// schema, whose order is kept. The sections' orders are spec's
// (spec.EntryFields, ...). Keys not listed keep their relative order
// after the listed ones; schemas, example params, bindings and other
// user-keyed maps are never reordered.
var paramOrder = []string{"name"}

// toolOrder is the file format's field order (spec.ToolFields; README,
// "The tool file"), with the
// merge key and $schema first. In OpenAI's flat form type: function
// leads, as OpenAI writes it.
func toolOrder(openai bool) []string {
	order := []string{"<<", "$schema"}
	if openai {
		order = append(order, "type")
	}
	return append(order, spec.ToolFields...)
}

// orderTool sorts a tool mapping's fields and its sections' fields.
func orderTool(n *yaml.Node, openai bool) {
	orderKeys(n, toolOrder(openai), isExtension)
	for i := 0; i+1 < len(n.Content); i += 2 {
		v := n.Content[i+1]
		switch n.Content[i].Value {
		case "entry":
			orderKeys(v, spec.EntryFields, nil)
		case "parameters":
			eachMapping(v, func(m *yaml.Node) { orderKeys(m, paramOrder, nil) })
		case "examples":
			eachMapping(v, func(m *yaml.Node) { orderKeys(m, spec.ExampleFields, nil) })
		case "prerequisites":
			eachMapping(v, func(m *yaml.Node) { orderKeys(m, spec.PrerequisiteFields, nil) })
		case "related_tools":
			eachMapping(v, func(m *yaml.Node) { orderKeys(m, spec.RelatedToolFields, nil) })
		case "workflow":
			orderKeys(v, spec.WorkflowFields, nil)
			eachMapping(get(v, "steps"), func(m *yaml.Node) { orderKeys(m, spec.WorkflowStepFields, nil) })
		case "annotations":
			orderKeys(v, spec.AnnotationFields, nil)
		case "runtime":
			orderKeys(v, spec.RuntimeFields, nil)
		case "metadata":
			orderKeys(v, spec.MetadataFields, nil)
		}
	}
}

// isExtension: x-* and _meta go after the known fields, before unknown
// ones, in their order (as spec.Tool.ToMap writes them).
func isExtension(k string) bool { return strings.HasPrefix(k, "x-") || k == "_meta" }

func eachMapping(n *yaml.Node, fn func(*yaml.Node)) {
	if n == nil || n.Kind != yaml.SequenceNode {
		return
	}
	for _, item := range n.Content {
		if item.Kind == yaml.MappingNode {
			fn(item)
		}
	}
}

// orderKeys reorders a mapping's pairs stably: the keys of order first, in
// that order, then those second() accepts, then the rest, each group in its
// original order. Comments travel with their pairs, except the mapping's
// leading comment (the file header, e.g. the yaml-language-server
// modeline, when it is the document's first mapping) and trailing one,
// which stay at the top and the bottom.
func orderKeys(n *yaml.Node, order []string, second func(string) bool) {
	if n == nil || n.Kind != yaml.MappingNode || len(n.Content) < 4 {
		return
	}
	rank := make(map[string]int, len(order))
	for i, k := range order {
		if _, dup := rank[k]; !dup {
			rank[k] = i
		}
	}
	type pair struct{ k, v *yaml.Node }
	var known, ext, rest []pair
	for i := 0; i+1 < len(n.Content); i += 2 {
		p := pair{n.Content[i], n.Content[i+1]}
		_, ok := rank[p.k.Value]
		switch {
		case ok && p.k.Kind == yaml.ScalarNode:
			known = append(known, p)
		case second != nil && second(p.k.Value):
			ext = append(ext, p)
		default:
			rest = append(rest, p)
		}
	}
	// insertion sort by rank: stable and the lists are short
	for i := 1; i < len(known); i++ {
		for j := i; j > 0 && rank[known[j].k.Value] < rank[known[j-1].k.Value]; j-- {
			known[j], known[j-1] = known[j-1], known[j]
		}
	}
	all := append(append(known, ext...), rest...)
	oldFirst, oldLast := n.Content[0], n.Content[len(n.Content)-2]
	oldLastV := n.Content[len(n.Content)-1]
	content := make([]*yaml.Node, 0, len(n.Content))
	for _, p := range all {
		content = append(content, p.k, p.v)
	}
	n.Content = content
	newFirst, newLast := n.Content[0], n.Content[len(n.Content)-2]
	if newFirst != oldFirst && oldFirst.HeadComment != "" {
		newFirst.HeadComment = joinComments(oldFirst.HeadComment, newFirst.HeadComment)
		oldFirst.HeadComment = ""
	}
	if newLast != oldLast {
		// A comment after the last field ends the mapping, wherever the
		// field goes; yaml.v3 hangs it on the key or on the value.
		// After a key whose value prints as nothing ("x-a:"), yaml.v3
		// reads a comment that follows as the mapping's end, not the
		// key's, and writes it after a blank line: hang it there at once,
		// or a second fmt would add that line.
		to := newLast
		if v := n.Content[len(n.Content)-1]; v.Kind == yaml.ScalarNode && v.Tag == "!!null" && v.Value == "" {
			to = n
		}
		for _, c := range []*yaml.Node{oldLast, oldLastV} {
			if c.FootComment != "" && c.Kind == yaml.ScalarNode {
				to.FootComment = joinComments(to.FootComment, c.FootComment)
				c.FootComment = ""
			}
		}
	}
}

func joinComments(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
