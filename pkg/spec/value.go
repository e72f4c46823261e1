package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Map is a JSON object that keeps its keys in source order, so that schemas
// and exports come out exactly as written (OpenAI emits arguments in schema
// key order). Values held in a Map are nil, bool, json.Number, string, []any
// or *Map.
//
// Tool schemas are small, so a slice with linear lookup is both faster and
// lighter than a Go map plus a key list.
type Map struct {
	members []member
	// byKey indexes the first member of each key once the map is larger
	// than indexMin (a list of 60000 parameters read into properties would
	// cost a scan of them per lookup otherwise); indexed is how many
	// members it covers. Only writes maintain it: reads never write, so
	// concurrent reads stay safe.
	byKey   map[string]int
	indexed int
}

// indexMin is the size from which a Map indexes its keys.
const indexMin = 32

type member struct {
	key   string
	value any
}

// NewMap returns an empty Map with room for n members.
func NewMap(n int) *Map { return &Map{members: make([]member, 0, n)} }

// Len reports the number of members; a nil Map has none.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.members)
}

// Keys returns the keys in order.
func (m *Map) Keys() []string {
	if m == nil {
		return nil
	}
	keys := make([]string, len(m.members))
	for i, mb := range m.members {
		keys[i] = mb.key
	}
	return keys
}

// At returns the i-th member.
func (m *Map) At(i int) (string, any) { return m.members[i].key, m.members[i].value }

func (m *Map) index(key string) int {
	if m == nil {
		return -1
	}
	from := 0
	if m.byKey != nil {
		i, ok := m.byKey[key]
		if ok && i < len(m.members) && m.members[i].key == key {
			return i
		}
		if !ok {
			// not among the indexed members: only a later one may hold it
			from = min(m.indexed, len(m.members))
		}
	}
	for i := from; i < len(m.members); i++ {
		if m.members[i].key == key {
			return i
		}
	}
	return -1
}

// add appends a member without looking for its key (the caller knows it
// is new), keeping the index.
func (m *Map) add(key string, value any) {
	m.members = append(m.members, member{key, value})
	switch {
	case m.byKey != nil && m.indexed == len(m.members)-1:
		if _, dup := m.byKey[key]; !dup {
			m.byKey[key] = len(m.members) - 1
		}
		m.indexed = len(m.members)
	case len(m.members) > indexMin:
		m.reindex()
	}
}

// reindex rebuilds the index after the members moved (or drops it for a
// small map).
func (m *Map) reindex() {
	if len(m.members) <= indexMin {
		m.byKey, m.indexed = nil, 0
		return
	}
	m.byKey = make(map[string]int, len(m.members))
	for i, mb := range m.members {
		if _, dup := m.byKey[mb.key]; !dup {
			m.byKey[mb.key] = i
		}
	}
	m.indexed = len(m.members)
}

// Get returns the value for key.
func (m *Map) Get(key string) (any, bool) {
	if i := m.index(key); i >= 0 {
		return m.members[i].value, true
	}
	return nil, false
}

// Has reports whether key is present.
func (m *Map) Has(key string) bool { return m.index(key) >= 0 }

// GetString returns the value for key when it is a string.
func (m *Map) GetString(key string) (string, bool) {
	v, _ := m.Get(key)
	s, ok := v.(string)
	return s, ok
}

// GetMap returns the value for key when it is an object.
func (m *Map) GetMap(key string) (*Map, bool) {
	v, _ := m.Get(key)
	mm, ok := v.(*Map)
	return mm, ok
}

// Set replaces the value of key in place, or appends key at the end.
func (m *Map) Set(key string, value any) {
	if i := m.index(key); i >= 0 {
		m.members[i].value = value
		return
	}
	m.add(key, value)
}

// SetFirst puts key first (moving it there if present).
func (m *Map) SetFirst(key string, value any) {
	m.Delete(key)
	m.members = append(m.members, member{})
	copy(m.members[1:], m.members)
	m.members[0] = member{key, value}
	if m.byKey != nil || len(m.members) > indexMin {
		m.reindex()
	}
}

// Delete removes key, keeping the order of the others.
func (m *Map) Delete(key string) {
	if i := m.index(key); i >= 0 {
		m.members = append(m.members[:i], m.members[i+1:]...)
		if m.byKey != nil {
			m.reindex()
		}
	}
}

// Clone returns a deep copy.
func (m *Map) Clone() *Map {
	if m == nil {
		return nil
	}
	c := &Map{members: make([]member, len(m.members))}
	for i, mb := range m.members {
		c.members[i] = member{mb.key, CloneValue(mb.value)}
	}
	if len(c.members) > indexMin {
		c.reindex()
	}
	return c
}

// CloneValue deep-copies a value made of Maps, slices and scalars.
func CloneValue(v any) any {
	switch v := v.(type) {
	case *Map:
		return v.Clone()
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = CloneValue(e)
		}
		return c
	default:
		return v
	}
}

// FromPlain converts a plain Go value (encoding/json's or yaml.v3's
// map[string]any, []any, float64, int, int64, json.Number, ...) to the
// model's: maps become *Map with their keys sorted, numbers json.Number.
// It is Plain's inverse, up to key order.
func FromPlain(v any) any {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		m := NewMap(len(keys))
		for _, k := range keys {
			m.Set(k, FromPlain(v[k]))
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = FromPlain(x)
		}
		return out
	case float64:
		if n, err := json.Marshal(v); err == nil {
			return json.Number(n)
		}
	case int:
		return json.Number(strconv.Itoa(v))
	case int64:
		return json.Number(strconv.FormatInt(v, 10))
	case uint64:
		return json.Number(strconv.FormatUint(v, 10))
	}
	return v
}

// Plain converts a value to the plain Go form of encoding/json
// (map[string]any, []any, json.Number, ...), which JSON Schema validators take.
func Plain(v any) any {
	switch v := v.(type) {
	case *Map:
		if v == nil {
			return nil
		}
		out := make(map[string]any, len(v.members))
		for _, mb := range v.members {
			out[mb.key] = Plain(mb.value)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = Plain(e)
		}
		return out
	default:
		return v
	}
}

// MarshalJSON writes the members in order, without HTML escaping.
func (m *Map) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := encodeJSON(&buf, m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// UnmarshalJSON reads an object keeping its key order; numbers stay
// json.Number so that 1.0 and 1 survive a round trip unchanged.
func (m *Map) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeJSONValue(dec)
	if err != nil {
		return err
	}
	mm, ok := v.(*Map)
	if !ok {
		return fmt.Errorf("expected a JSON object, got %s", kindOfValue(v))
	}
	*m = *mm
	return nil
}

// DecodeJSON parses one JSON value into the ordered form (objects as *Map).
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeJSONValue(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("unexpected data after the JSON value at offset %d", dec.InputOffset())
	}
	return v, nil
}

func decodeJSONValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := NewMap(4)
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key := kt.(string)
				v, err := decodeJSONValue(dec)
				if err != nil {
					return nil, err
				}
				m.Set(key, v)
			}
			_, err := dec.Token() // '}'
			return m, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeJSONValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token() // ']'
			return list, err
		}
		return nil, fmt.Errorf("unexpected %q", t)
	default:
		return t, nil
	}
}

// MarshalJSONIndent encodes v (any value this package produces) as indented
// JSON with a trailing newline: the byte-stable form every command prints.
func MarshalJSONIndent(v any) ([]byte, error) {
	var compact bytes.Buffer
	if err := encodeJSON(&compact, v); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func encodeJSON(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case *Map:
		if v == nil {
			buf.WriteString("null")
			return nil
		}
		buf.WriteByte('{')
		for i, mb := range v.members {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeJSONString(buf, mb.key)
			buf.WriteByte(':')
			if err := encodeJSON(buf, mb.value); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := encodeJSON(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case []string:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeJSONString(buf, e)
		}
		buf.WriteByte(']')
	case string:
		encodeJSONString(buf, v)
	case json.Number:
		buf.WriteString(string(v))
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	default:
		var tmp bytes.Buffer
		enc := json.NewEncoder(&tmp)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		buf.Write(bytes.TrimRight(tmp.Bytes(), "\n"))
	}
	return nil
}

func encodeJSONString(buf *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	buf.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				buf.WriteByte('\\')
				buf.WriteByte(c)
			case '\n':
				buf.WriteString(`\n`)
			case '\r':
				buf.WriteString(`\r`)
			case '\t':
				buf.WriteString(`\t`)
			default:
				buf.WriteString(`\u00`)
				buf.WriteByte(hex[c>>4])
				buf.WriteByte(hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf.WriteString(s[start:i])
			buf.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		// U+2028 and U+2029 break JavaScript string literals.
		if r == '\u2028' || r == '\u2029' {
			buf.WriteString(s[start:i])
			buf.WriteString(`\u202`)
			buf.WriteByte(hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf.WriteString(s[start:])
	buf.WriteByte('"')
}

// MarshalYAML renders the Map as a mapping node in key order.
func (m *Map) MarshalYAML() (any, error) { return ValueNode(m), nil }

// NodeValue is the inverse of ValueNode for plain JSON-like trees: mappings
// become *Map (key order kept), numbers json.Number, and every other scalar
// its resolved value. Aliases and merge keys are not followed.
func NodeValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return NodeValue(n.Content[0])
		}
		return nil
	case yaml.MappingNode:
		m := NewMap(len(n.Content) / 2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m.Set(n.Content[i].Value, NodeValue(n.Content[i+1]))
		}
		return m
	case yaml.SequenceNode:
		list := make([]any, len(n.Content))
		for i, c := range n.Content {
			list[i] = NodeValue(c)
		}
		return list
	}
	switch n.Tag {
	case "!!int", "!!float":
		return json.Number(n.Value)
	case "!!bool":
		return n.Value == "true"
	case "!!null":
		return nil
	}
	return n.Value
}

// ValueNode converts a value to a yaml.Node: multi-line strings become
// literal block scalars, key order is kept.
func ValueNode(v any) *yaml.Node {
	switch v := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case *Map:
		if v == nil {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
		}
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, mb := range v.members {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: mb.key}, ValueNode(mb.value))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range v {
			n.Content = append(n.Content, ValueNode(e))
		}
		return n
	case []string:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range v {
			n.Content = append(n.Content, ValueNode(e))
		}
		return n
	case string:
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
		if strings.Contains(strings.TrimRight(v, "\n"), "\n") && !hasTrailingSpace(v) {
			n.Style = yaml.LiteralStyle
		}
		return n
	case json.Number:
		tag := "!!float"
		if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			tag = "!!int"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(v)}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
	default:
		n := &yaml.Node{}
		if err := n.Encode(v); err != nil {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fmt.Sprint(v)}
		}
		return n
	}
}

// Literal block scalars cannot carry trailing spaces on a line faithfully.
func hasTrailingSpace(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
			return true
		}
	}
	return false
}

// MarshalYAMLDoc encodes v as a YAML document with 2-space indentation.
func MarshalYAMLDoc(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(ValueNode(v)); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func kindOfValue(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case *Map:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}

// numberFromFloat formats a float the way JSON would, or reports that it has
// no JSON form (NaN, ±Inf).
func numberFromFloat(f float64) (json.Number, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
}
