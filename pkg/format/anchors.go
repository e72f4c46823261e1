package format

import "gopkg.in/yaml.v3"

// Reordering fields can put an alias (*base) before the anchor (&base) it
// names, which YAML does not allow. An alias is the very node it names, so
// the two can trade places: the anchored node goes to the first use, an
// alias to the others. The document means the same.
func fixAnchors(doc *yaml.Node) bool {
	for range 1000 { // each pass moves one anchor forward
		type place struct {
			parent *yaml.Node
			i      int
		}
		where := map[*yaml.Node]place{}
		var index func(n *yaml.Node)
		index = func(n *yaml.Node) {
			for i, c := range n.Content {
				where[c] = place{n, i}
				index(c)
			}
		}
		index(doc)
		seen := map[*yaml.Node]bool{}
		var early *yaml.Node // first alias before its anchor
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			if early != nil {
				return
			}
			if n.Kind == yaml.AliasNode {
				if n.Alias != nil && !seen[n.Alias] {
					early = n
				}
				return
			}
			seen[n] = true
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(doc)
		if early == nil {
			return true
		}
		target := early.Alias
		a, okA := where[early]
		t, okT := where[target]
		if !okA || !okT || contains(target, early) {
			return false
		}
		a.parent.Content[a.i], t.parent.Content[t.i] = target, early
	}
	return false
}

func contains(n, x *yaml.Node) bool {
	if n == x {
		return true
	}
	for _, c := range n.Content {
		if contains(c, x) {
			return true
		}
	}
	return false
}
