package config

import (
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Lookup is the value of a dotted key for bind's {config: key} and
// llm_call's settings: under values: first, then from the top (llm.model).
// The llm and values sections are free-form (a tool file names the keys it
// binds), so they are looked up by key when a call needs one, and a value
// of the wrong type is that call's error, not every command's.
func (f *File) Lookup(key string) (any, bool) {
	if f == nil {
		return nil, false
	}
	for _, full := range []string{"values." + key, key} {
		n := f.root
		for _, part := range strings.Split(full, ".") {
			n = child(n, part)
			if n == nil {
				break
			}
		}
		if n == nil {
			continue
		}
		var v any
		if err := n.Decode(&v); err != nil {
			continue
		}
		// numbers as json.Number, as in every input the runner gets
		return spec.Plain(spec.FromPlain(v)), true
	}
	return nil, false
}
