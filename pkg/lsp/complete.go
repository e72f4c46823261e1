package lsp

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/toolctl/toolctl/pkg/spec"
)

// The shapes of a YAML line up to the cursor, compiled on first use.
var (
	keyLineRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^( *)(- )?([A-Za-z0-9_$-]*)$`) })
	valueLineRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^( *)(- )?([A-Za-z0-9_$-]+): *(?:\[(?:[^\]]*, *)?)?["']?([^\s"',\[\]]*)$`)
	})
	itemLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^( *)- +["']?([^\s"':]*)$`) })
	lineKeyRe  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^( *)(- +)?(?:["']?([A-Za-z0-9_$-]+)["']?:(?:\s+(.*))?\s*$)?`)
	})
)

// yamlLine is one line as completion reads it.
type yamlLine struct {
	indent int    // spaces before the content
	dash   bool   // a list item
	keyCol int    // the column of the key (after "- "), 0-based
	key    string // "" when the line has no key
	value  bool   // something follows "key:"
}

func readLine(s string) (yamlLine, bool) {
	t := strings.TrimSpace(s)
	if t == "" || strings.HasPrefix(t, "#") {
		return yamlLine{}, false
	}
	m := lineKeyRe().FindStringSubmatch(s)
	l := yamlLine{indent: len(m[1]), dash: m[2] != ""}
	l.keyCol = l.indent + len(m[2])
	l.key = m[3]
	v := strings.TrimSpace(m[4])
	l.value = v != "" && !strings.HasPrefix(v, "#") && v != "|" && v != ">" && !strings.HasPrefix(v, "|") && !strings.HasPrefix(v, ">")
	return l, true
}

// parents is the path of keys (and "0" for a list item) to the mapping or
// list that holds an entity at column col on line n, read from the lines
// above it. item says the entity is a list item's scalar or first key.
func parents(lines []string, n, col int, item bool) []string {
	var path []string
	c := col
	if item {
		path = append(path, "0")
		c -= 2
	}
	inSeq := item
	for i := n - 1; i >= 0; i-- {
		l, ok := readLine(lines[i])
		if !ok {
			continue
		}
		if inSeq {
			if l.dash && l.indent == c {
				continue // an earlier item of the same list
			}
			if l.key != "" && l.keyCol <= c && !l.value {
				path = append(path, l.key)
				c = l.keyCol
				inSeq = false
				if l.dash {
					path = append(path, "0")
					c = l.indent
					inSeq = true
				}
				continue
			}
			if l.keyCol < c || l.indent < c {
				break
			}
			continue
		}
		if l.keyCol > c {
			continue
		}
		if l.keyCol == c {
			if l.dash {
				// the first key of the list item we are in
				path = append(path, "0")
				c = l.indent
				inSeq = true
			}
			continue
		}
		// l.keyCol < c
		if l.key != "" && !l.value {
			path = append(path, l.key)
			c = l.keyCol
			if l.dash {
				path = append(path, "0")
				c = l.indent
				inSeq = true
			}
			continue
		}
		break
	}
	slices.Reverse(path)
	return path
}

// relOf takes the file layout off a document path (a list of tools,
// {tools: [...]}, OpenAI's function wrapper).
func relOf(path []string) []string {
	switch {
	case len(path) >= 2 && path[0] == "tools" && isIndex(path[1]):
		path = path[2:]
	case len(path) >= 1 && isIndex(path[0]):
		path = path[1:]
	}
	if len(path) >= 1 && path[0] == "function" {
		path = path[1:]
	}
	return path
}

// toolIndexOf is the index of the tool that holds line n (0-based) of d,
// from the parsed file (0 for a one-tool file).
func toolIndexOf(f *spec.File, n int) int {
	idx := 0
	for i, t := range f.Tools {
		if p := t.Pos(""); p.IsValid() && p.Line-1 <= n {
			idx = i
		}
	}
	return idx
}

// alternatives are spellings of one field: with one of them written, the
// others are not offered.
var alternatives = [][]string{
	{"parameters", "input_schema", "inputSchema", "arguments"},
	{"returns", "output_schema", "outputSchema"},
	{"documentation_url", "metadata"},
}

func (s *Server) complete(d *document, p protocol.Position) []protocol.CompletionItem {
	starts := d.lines()
	off := d.index().offset(p)
	lineNo := int(p.Line)
	if lineNo >= len(starts) {
		return nil
	}
	before := d.text[starts[lineNo]:off]
	lines := make([]string, len(starts))
	for i := range starts {
		lines[i] = lineText(d.text, starts, i)
	}
	f := s.toolsOf(d)
	var tool *spec.Tool
	if len(f.Tools) > 0 {
		tool = f.Tools[toolIndexOf(f, lineNo)]
	}

	// a {placeholder}: the parameter names
	if i := strings.LastIndex(before, "{"); i > 0 && !strings.Contains(before[i:], "}") && !strings.ContainsAny(before[i:], " \"") && !strings.ContainsRune(" \t[,:", rune(before[i-1])) {
		return paramItems(tool, "")
	}
	if t := strings.TrimSpace(d.text); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		return s.completeJSON(d, tool, d.text[:off])
	}
	if m := itemLineRe().FindStringSubmatch(before); m != nil {
		path := parents(lines, lineNo, len(m[1])+2, true)
		return s.valueItems(d, tool, relOf(path), m[2])
	}
	if m := valueLineRe().FindStringSubmatch(before); m != nil {
		col := len(m[1]) + len(m[2])
		path := append(parents(lines, lineNo, col, m[2] != ""), m[3])
		rel := relOf(path)
		if strings.Contains(before, "[") {
			rel = append(rel, "0")
		}
		return s.valueItems(d, tool, rel, m[4])
	}
	if m := keyLineRe().FindStringSubmatch(before); m != nil && !strings.HasPrefix(d.text, "{") && !strings.HasPrefix(strings.TrimSpace(d.text), "{") && !strings.HasPrefix(strings.TrimSpace(d.text), "[") {
		col := len(m[1]) + len(m[2])
		path := parents(lines, lineNo, col, m[2] != "")
		return keyItems(relOf(path), siblings(lines, lineNo, col, m[2] != ""))
	}
	return nil
}

// siblings lists the keys already written in the mapping of line n.
func siblings(lines []string, n, col int, item bool) map[string]bool {
	out := map[string]bool{}
	if item {
		return out
	}
	for _, dir := range []int{-1, 1} {
		for i := n + dir; i >= 0 && i < len(lines); i += dir {
			l, ok := readLine(lines[i])
			if !ok {
				continue
			}
			if l.keyCol < col || (l.dash && l.indent < col) {
				if l.keyCol == col && l.dash && dir < 0 {
					out[l.key] = true // the item's first key
				}
				break
			}
			if l.keyCol == col {
				out[l.key] = true
			}
		}
	}
	return out
}

// keyItems are the field names the schema allows at rel, less those
// written and the other spellings of a written one.
func keyItems(rel []string, written map[string]bool) []protocol.CompletionItem {
	fields := fieldsAt(rel)
	if inSchema(rel) {
		fields = map[string]map[string]any{}
		for _, k := range schemaKeywords {
			fields[k] = map[string]any{"description": "JSON Schema keyword"}
		}
	}
	kind := protocol.CompletionItemKindField
	var out []protocol.CompletionItem
	for name, sch := range fields {
		if written[name] || strings.HasPrefix(name, "$") || strings.HasPrefix(name, "_") {
			continue
		}
		skip := false
		for _, alt := range alternatives {
			if slices.Contains(alt, name) {
				for _, a := range alt {
					if a != name && written[a] {
						skip = true
					}
				}
			}
		}
		if skip {
			continue
		}
		item := protocol.CompletionItem{Label: name, Kind: &kind, InsertText: ptr(name + ": ")}
		if t := typeOf(sch); t != "" {
			item.Detail = ptr(t)
		}
		if desc := describe(sch); desc != "" {
			item.Documentation = protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: desc}
		}
		out = append(out, item)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// valueItems completes the value at rel: tool names for references,
// parameter names in required, the schema's enum values elsewhere.
func (s *Server) valueItems(d *document, tool *spec.Tool, rel []string, prefix string) []protocol.CompletionItem {
	switch {
	case isReference(rel) || (len(rel) == 2 && rel[0] == "related_tools"):
		set, _ := s.projectSet(d)
		kind := protocol.CompletionItemKindReference
		seen := map[string]bool{}
		var out []protocol.CompletionItem
		for _, t := range set.Tools() {
			if t.Name == "" || seen[t.Name] || (tool != nil && t.Name == tool.Name) {
				continue
			}
			seen[t.Name] = true
			item := protocol.CompletionItem{Label: t.Name, Kind: &kind}
			if t.Description != "" {
				item.Detail = ptr(firstLine(t.Description))
			}
			out = append(out, item)
		}
		return out
	case len(rel) == 3 && (isSchemaField(rel[0]) || rel[0] == "parameters") && rel[1] == "required":
		return paramItems(tool, "")
	}
	if len(rel) > 0 && rel[len(rel)-1] == "type" && inSchema(rel[:len(rel)-1]) {
		kind := protocol.CompletionItemKindEnumMember
		var out []protocol.CompletionItem
		for _, t := range []string{"string", "number", "integer", "boolean", "array", "object", "null"} {
			out = append(out, protocol.CompletionItem{Label: t, Kind: &kind})
		}
		return out
	}
	sch := schemaAt(rel)
	kind := protocol.CompletionItemKindEnumMember
	var out []protocol.CompletionItem
	for _, v := range enumOf(sch) {
		out = append(out, protocol.CompletionItem{Label: v, Kind: &kind})
	}
	return out
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// paramItems are the parameter names of tool.
func paramItems(tool *spec.Tool, _ string) []protocol.CompletionItem {
	if tool == nil {
		return nil
	}
	props, _ := tool.Input().GetMap("properties")
	if props == nil {
		return nil
	}
	kind := protocol.CompletionItemKindVariable
	var out []protocol.CompletionItem
	for _, name := range props.Keys() {
		item := protocol.CompletionItem{Label: name, Kind: &kind}
		if p, ok := props.GetMap(name); ok {
			if t, ok := p.GetString("type"); ok {
				item.Detail = ptr(t)
			}
		}
		out = append(out, item)
	}
	return out
}

// jsonFrame is an open object or array while jsonContext reads.
type jsonFrame struct {
	object    bool
	key       string // the object's current key
	expectKey bool
	index     int
	keys      map[string]bool
}

// jsonSpot is where the cursor is in a JSON document: the path of the
// container, and whether a key (inKey) or the value of key is being
// written, inside a string or not.
type jsonSpot struct {
	path     []string
	inKey    bool
	key      string // the key whose value is written; "" in an array
	inString bool
	keys     map[string]bool
}

// jsonContext reads text up to the cursor, tolerating what is not
// written yet (a document being typed rarely parses).
func jsonContext(text string) (jsonSpot, bool) {
	var stack []*jsonFrame
	inString, stringIsKey := false, false
	var cur strings.Builder
	for i := 0; i < len(text); i++ {
		ch := text[i]
		if inString {
			switch ch {
			case '\\':
				i++
			case '"':
				inString = false
				if stringIsKey && len(stack) > 0 {
					top := stack[len(stack)-1]
					top.key = cur.String()
					top.keys[top.key] = true
				}
			default:
				cur.WriteByte(ch)
			}
			continue
		}
		var top *jsonFrame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch ch {
		case '"':
			inString = true
			stringIsKey = top != nil && top.object && top.expectKey
			cur.Reset()
		case ':':
			if top != nil && top.object {
				top.expectKey = false
			}
		case ',':
			if top != nil {
				if top.object {
					top.expectKey, top.key = true, ""
				} else {
					top.index++
				}
			}
		case '{':
			stack = append(stack, &jsonFrame{object: true, expectKey: true, keys: map[string]bool{}})
		case '[':
			stack = append(stack, &jsonFrame{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return jsonSpot{}, false
	}
	var path []string
	for _, f := range stack[:len(stack)-1] {
		if f.object {
			path = append(path, f.key)
		} else {
			path = append(path, strconv.Itoa(f.index))
		}
	}
	top := stack[len(stack)-1]
	sp := jsonSpot{path: path, inString: inString, keys: top.keys}
	switch {
	case top.object && top.expectKey:
		sp.inKey = true
	case top.object:
		sp.key = top.key
	default:
		sp.path = append(sp.path, strconv.Itoa(top.index))
	}
	return sp, true
}

// completeJSON completes in a JSON document: keys with their quotes and
// colon, values quoted unless the cursor is in a string already.
func (s *Server) completeJSON(d *document, tool *spec.Tool, before string) []protocol.CompletionItem {
	sp, ok := jsonContext(before)
	if !ok {
		return nil
	}
	if sp.inKey {
		items := keyItems(relOf(sp.path), sp.keys)
		for i := range items {
			name := items[i].Label
			if sp.inString {
				items[i].InsertText = ptr(name)
			} else {
				items[i].InsertText = ptr(strconv.Quote(name) + ": ")
			}
		}
		return items
	}
	rel := relOf(sp.path)
	if sp.key != "" {
		rel = append(rel, sp.key)
	}
	items := s.valueItems(d, tool, rel, "")
	if !sp.inString {
		for i := range items {
			items[i].InsertText = ptr(strconv.Quote(items[i].Label))
		}
	}
	return items
}

// schemaKeywords are the JSON Schema keywords completion offers in a
// parameter's or the output's schema.
var schemaKeywords = []string{"type", "description", "title", "enum", "const", "default", "examples", "format", "pattern",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
	"items", "minItems", "maxItems", "uniqueItems", "properties", "required", "additionalProperties",
	"anyOf", "oneOf", "allOf", "not", "$ref", "$defs"}

// inSchema tells whether rel is a JSON Schema object of the tool: the
// input or output schema, or one nested in it (a property, items, a
// branch); not a map of properties itself.
func inSchema(rel []string) bool {
	if len(rel) == 0 {
		return false
	}
	switch rel[0] {
	case "input_schema", "inputSchema", "output_schema", "outputSchema":
	default:
		return false
	}
	for i := 1; i < len(rel); i++ {
		switch rel[i] {
		case "properties", "$defs", "definitions", "patternProperties":
			if i+1 >= len(rel) {
				return false // the map of names
			}
			i++
		case "items", "not", "additionalProperties":
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if i+1 >= len(rel) {
				return false
			}
			i++
		default:
			return false
		}
	}
	return true
}
