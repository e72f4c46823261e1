package lsp

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// spot is what the cursor is on in a document: the path of keys and
// indexes from the document's root to the value, and whether it is on a
// key or a value.
type spot struct {
	path  []string
	onKey bool
	node  *yaml.Node // the scalar under the cursor (nil between tokens)
	// tool is the index of the tool in the file, and rel the path inside
	// the tool (OpenAI's function wrapper taken off).
	tool int
	rel  []string
}

// parseTree parses text as yaml.v3 does (JSON is YAML): nil when it does
// not parse. Use document.tree, which parses each version once.
func parseTree(text string) *yaml.Node {
	return spec.ParseTree([]byte(text))
}

// scalarEnd is the column (1-based, runes) just past scalar n on its line.
func scalarEnd(n *yaml.Node) int {
	w := utf8.RuneCountInString(n.Value)
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		w += 2
	}
	return n.Column + w
}

// before tells whether (line, col) is at or after n's start.
func startsBefore(n *yaml.Node, line, col int) bool {
	return n.Line < line || (n.Line == line && n.Column <= col)
}

// locate finds the spot at (line, col), both 1-based (col in runes).
func locate(root *yaml.Node, line, col int) spot {
	var sp spot
	n := root
	// the anchors an alias led to on the way down: an alias inside its
	// own anchor (a: &a [*a]) would lead there again, forever
	var followed map[*yaml.Node]bool
	for n != nil {
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			if followed[n.Alias] {
				return sp
			}
			if followed == nil {
				followed = map[*yaml.Node]bool{}
			}
			followed[n.Alias] = true
			n = n.Alias
		}
		switch n.Kind {
		case yaml.MappingNode:
			pick := -1
			for i := 0; i+1 < len(n.Content); i += 2 {
				if startsBefore(n.Content[i], line, col) {
					pick = i
				}
			}
			if pick < 0 {
				return sp
			}
			k, v := n.Content[pick], n.Content[pick+1]
			sp.path = append(sp.path, k.Value)
			if k.Line == line && col <= scalarEnd(k) && (v.Line != line || col < v.Column) {
				sp.onKey, sp.node = true, k
				return sp
			}
			if !startsBefore(v, line, col) && !(v.Kind == yaml.ScalarNode && v.Line == line) {
				// after "key:" with nothing under the cursor yet
				return sp
			}
			n = v
		case yaml.SequenceNode:
			pick := -1
			for i, c := range n.Content {
				if startsBefore(c, line, col) {
					pick = i
				}
			}
			if pick < 0 {
				return sp
			}
			sp.path = append(sp.path, strconv.Itoa(pick))
			n = n.Content[pick]
		case yaml.ScalarNode:
			if n.Line == line && col >= n.Column && col <= scalarEnd(n) {
				sp.node = n
			}
			return sp
		default:
			return sp
		}
	}
	return sp
}

// toolPath splits a document path into the tool's index in the file and
// the path inside the tool, as spec reads the layouts: one tool, a list
// of tools, {tools: [...]}, and OpenAI's {type: function, function: {...}}.
func toolPath(root *yaml.Node, path []string) (int, []string, *yaml.Node) {
	tool := root
	idx := 0
	rest := path
	if root.Kind == yaml.MappingNode && spec.ContainerTools(root) != nil && len(path) >= 1 && path[0] == "tools" {
		seq := spec.ContainerTools(root)
		if len(path) < 2 {
			return -1, nil, nil
		}
		idx, _ = strconv.Atoi(path[1])
		rest = path[2:]
		if idx < len(seq.Content) {
			tool = seq.Content[idx]
		}
	} else if root.Kind == yaml.SequenceNode {
		if len(path) < 1 {
			return -1, nil, nil
		}
		idx, _ = strconv.Atoi(path[0])
		rest = path[1:]
		if idx < len(root.Content) {
			tool = root.Content[idx]
		}
	}
	if tool.Kind == yaml.MappingNode && len(rest) >= 1 && rest[0] == "function" && mapValue(tool, "type") == "function" {
		rest = rest[1:]
		for i := 0; i+1 < len(tool.Content); i += 2 {
			if tool.Content[i].Value == "function" {
				tool = tool.Content[i+1]
			}
		}
	}
	return idx, rest, tool
}

// mapValue is the scalar value of key in mapping n, or "".
func mapValue(n *yaml.Node, key string) string {
	if n == nil || n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1].Value
		}
	}
	return ""
}

// --- the file-format schema ------------------------------------------------

// fileSchema is schema/tool.schema.json (spec.FileSchema), built on the
// first hover or completion that needs it.
var fileSchema = sync.OnceValue(func() map[string]any {
	data, err := spec.FileSchema()
	if err != nil {
		return nil
	}
	var s map[string]any
	if json.Unmarshal(data, &s) != nil {
		return nil
	}
	return s
})

// resolve follows a schema's $ref.
func resolve(s map[string]any) map[string]any {
	for i := 0; i < 8 && s != nil; i++ {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		name := strings.TrimPrefix(ref, "#/$defs/")
		defs, _ := fileSchema()["$defs"].(map[string]any)
		next, _ := defs[name].(map[string]any)
		// a $ref with a description of its own keeps it
		if d, ok := s["description"]; ok && next != nil {
			merged := map[string]any{}
			for k, v := range next {
				merged[k] = v
			}
			merged["description"] = d
			next = merged
		}
		s = next
	}
	return s
}

// branches is s and the branches of its anyOf/oneOf, resolved.
func branches(s map[string]any) []map[string]any {
	s = resolve(s)
	if s == nil {
		return nil
	}
	out := []map[string]any{s}
	for _, k := range []string{"anyOf", "oneOf"} {
		list, _ := s[k].([]any)
		for _, b := range list {
			if m, ok := b.(map[string]any); ok {
				out = append(out, branches(m)...)
			}
		}
	}
	return out
}

// toolSchema is the schema of one tool of the dialect: OpenAITool for a
// tool written {type: function, ...} without the wrapper taken off,
// Tool otherwise.
func toolSchema() map[string]any {
	defs, _ := fileSchema()["$defs"].(map[string]any)
	s, _ := defs["Tool"].(map[string]any)
	return s
}

// schemaAt walks the tool schema along path: the schema of the value
// there, or nil.
func schemaAt(path []string) map[string]any {
	cur := []map[string]any{toolSchema()}
	for _, seg := range path {
		var next []map[string]any
		_, isIndex := strconv.Atoi(seg)
		for _, c := range cur {
			for _, b := range branches(c) {
				if props, ok := b["properties"].(map[string]any); ok {
					if p, ok := props[seg].(map[string]any); ok {
						next = append(next, p)
						continue
					}
				}
				if isIndex == nil {
					if it, ok := b["items"].(map[string]any); ok {
						next = append(next, it)
						continue
					}
				}
				if ap, ok := b["additionalProperties"].(map[string]any); ok && isIndex != nil {
					next = append(next, ap)
				}
			}
		}
		if len(next) == 0 {
			return nil
		}
		cur = next
	}
	return cur[0]
}

// fieldsAt lists the field names the schema allows in the mapping at
// path, with their schemas.
func fieldsAt(path []string) map[string]map[string]any {
	var s map[string]any
	if len(path) == 0 {
		s = toolSchema()
	} else {
		s = schemaAt(path)
	}
	out := map[string]map[string]any{}
	for _, b := range branches(s) {
		props, _ := b["properties"].(map[string]any)
		for k, v := range props {
			if m, ok := v.(map[string]any); ok {
				if _, seen := out[k]; !seen {
					out[k] = m
				}
			}
		}
	}
	return out
}

// enumOf lists the enum values of schema s (through $ref and anyOf).
func enumOf(s map[string]any) []string {
	var out []string
	seen := map[string]bool{}
	for _, b := range branches(s) {
		list, _ := b["enum"].([]any)
		for _, v := range list {
			if str, ok := v.(string); ok && !seen[str] {
				seen[str] = true
				out = append(out, str)
			}
		}
	}
	return out
}

// describe is the description of schema s.
func describe(s map[string]any) string {
	for _, b := range branches(s) {
		if d, ok := b["description"].(string); ok && d != "" {
			return d
		}
	}
	return ""
}

// typeOf is the JSON type(s) schema s allows, "" when it does not say.
func typeOf(s map[string]any) string {
	var types []string
	for _, b := range branches(s) {
		switch t := b["type"].(type) {
		case string:
			types = append(types, t)
		case []any:
			for _, x := range t {
				if str, ok := x.(string); ok {
					types = append(types, str)
				}
			}
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range types {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return strings.Join(out, " | ")
}
