package config

import (
	"sort"
	"strings"
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
		return plainYAML(v), true
	}
	return nil, false
}

// plainYAML turns yaml.v3's decoded maps into map[string]any with string
// keys and ints into the int64 the runner accepts.
func plainYAML(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out[k] = plainYAML(v[k])
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = plainYAML(x)
		}
		return out
	case int:
		return int64(v)
	}
	return v
}
