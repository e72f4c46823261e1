package spec

import (
	"sync"

	"gopkg.in/yaml.v3"
)

// spanIndex makes the position lookups of a file's large mappings and
// parameter lists (Span, KeySpan, Has on each of 60000 parameters) a map
// lookup each instead of a scan of the mapping or the list, which made
// them quadratic. It is built on the first lookup in a node and kept with
// the file (Release drops it); the answers are the scans' own.
type spanIndex struct {
	mu    sync.Mutex
	keys  map[*yaml.Node]*keyIndex
	names map[*yaml.Node]*nameIndex
}

// keyIndex indexes a mapping's keys: the Content index of the first key
// of each value that is not a merge key (<<).
type keyIndex struct {
	first  map[string]int
	merges bool // the mapping has merge keys: a key not found may come from them
	size   int  // len(Content) when built
}

// nameIndex indexes a parameter list by the name of its items: the index
// of the first item of each name.
type nameIndex struct {
	first map[string]int
	size  int
}

// useSpanIndex is false in tests that compare the index's answers with
// the scans'.
var useSpanIndex = true

// indexPairsMin is the number of key-value pairs from which lookups in a
// mapping go through its index.
const indexPairsMin = 32

// lookupIn is lookup(n, key, 0) with the index of f when n is large.
func (f *File) lookupIn(n *yaml.Node, key string) (k, v *yaml.Node) {
	if f == nil || !useSpanIndex || len(n.Content) < 2*indexPairsMin {
		return lookup(n, key, 0)
	}
	f.idx.mu.Lock()
	ki := f.idx.keys[n]
	if ki == nil || ki.size != len(n.Content) {
		ki = &keyIndex{first: make(map[string]int, len(n.Content)/2), size: len(n.Content)}
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn := n.Content[i]
			if kn.ShortTag() == "!!merge" {
				ki.merges = true
				continue
			}
			if _, dup := ki.first[kn.Value]; !dup {
				ki.first[kn.Value] = i
			}
		}
		if f.idx.keys == nil {
			f.idx.keys = map[*yaml.Node]*keyIndex{}
		}
		f.idx.keys[n] = ki
	}
	i, ok := ki.first[key]
	merges := ki.merges
	f.idx.mu.Unlock()
	switch {
	case ok && i+1 < len(n.Content) && n.Content[i].Value == key:
		return n.Content[i], n.Content[i+1]
	case ok || merges:
		return lookup(n, key, 0) // changed since, or the merge keys decide
	}
	return nil, nil
}

// itemNamed is the index of the first item of list whose name is name, as
// a scan of the items with lookup(item, "name") finds it; -1 when none.
func (f *File) itemNamed(list *yaml.Node, name string) int {
	nameOf := func(item *yaml.Node) (string, bool) {
		if _, nv := lookup(resolve(item), "name", 0); nv != nil {
			return resolve(nv).Value, true
		}
		return "", false
	}
	if f == nil || !useSpanIndex || len(list.Content) < indexPairsMin {
		for i, item := range list.Content {
			if s, ok := nameOf(item); ok && s == name {
				return i
			}
		}
		return -1
	}
	f.idx.mu.Lock()
	ni := f.idx.names[list]
	if ni == nil || ni.size != len(list.Content) {
		ni = &nameIndex{first: make(map[string]int, len(list.Content)), size: len(list.Content)}
		for i, item := range list.Content {
			if s, ok := nameOf(item); ok {
				if _, dup := ni.first[s]; !dup {
					ni.first[s] = i
				}
			}
		}
		if f.idx.names == nil {
			f.idx.names = map[*yaml.Node]*nameIndex{}
		}
		f.idx.names[list] = ni
	}
	i, ok := ni.first[name]
	f.idx.mu.Unlock()
	if !ok {
		return -1
	}
	if s, named := nameOf(list.Content[i]); !named || s != name {
		// the list changed since: scan it
		f.idx.mu.Lock()
		delete(f.idx.names, list)
		f.idx.mu.Unlock()
		for j, item := range list.Content {
			if s, ok := nameOf(item); ok && s == name {
				return j
			}
		}
		return -1
	}
	return i
}

// dropIndex forgets the indexes (the trees they point into go).
func (f *File) dropIndex() {
	f.idx.mu.Lock()
	f.idx.keys, f.idx.names = nil, nil
	f.idx.mu.Unlock()
}
