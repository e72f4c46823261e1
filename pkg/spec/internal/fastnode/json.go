package fastnode

import (
	"bytes"
	"fmt"
	"strconv"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// ParseJSONAsYAML builds, for a JSON document, the tree yaml.v3 would build:
// the same kinds, styles, tags, values and positions. yaml.v3's flow
// scanner is a large share of linting time. It returns ok=false for
// anything it cannot vouch for (invalid JSON, or JSON yaml.v3 reads
// differently or rejects), and the caller then takes the yaml.v3 path, so
// errors stay exactly the same. It reads a .yaml file that holds JSON:
// such a file is read by YAML's rules.
func ParseJSONAsYAML(data []byte) (*yaml.Node, bool) {
	doc, _, ok := parseJSONMode(data, false)
	return doc, ok
}

// ParseJSON reads a .json file by JSON's rules (RFC 8259), where they
// differ from YAML's: surrogate pairs (\uD83D\uDE00) are one character,
// \/ is an escape, any character but " and \ and the C0 controls may stand
// unescaped in a string (DEL, C1 controls, U+2028, U+FEFF...), a key's ':'
// may be on another line, and a tab is blank anywhere. On the rest it
// builds the tree yaml.v3 would build. It takes every valid JSON document
// nested at most yamlMaxDepth deep (deeper is past spec.MaxDepth, which
// spec.TooDeep refuses without building a tree), but for one with an
// unpaired surrogate escape, which is a *SurrogateError; ok=false
// otherwise.
//
// Lines are counted as spec's File.PosAt counts them: a NEL, LS or PS in a
// string starts a new line, so that positions after it agree with the
// file's line table.
func ParseJSON(data []byte) (*yaml.Node, *SurrogateError, bool) {
	return parseJSONMode(data, true)
}

func parseJSONMode(data []byte, strict bool) (*yaml.Node, *SurrogateError, bool) {
	if len(data) > MaxInput {
		return nil, nil, false // positions are int32
	}
	p := jsonParsers.Get().(*jsonParser)
	defer p.release()
	p.data, p.pos, p.line, p.lineStart, p.wide, p.depth = data, 0, 1, 0, 0, 0
	p.strict, p.bad, p.maxDepth = strict, nil, yamlMaxFlowDepth
	if strict {
		p.maxDepth = yamlMaxDepth
	}
	if strict && bytes.HasPrefix(data, bom) {
		// yaml.v3 does not count a byte order mark in the columns.
		p.pos, p.lineStart = len(bom), len(bom)
	}
	if !p.skipSpace() || p.pos >= len(data) {
		return nil, nil, false
	}
	// yaml.v3 places the document at its first token.
	doc := p.node(yaml.DocumentNode, 0, "")
	if !p.value() || !p.skipSpace() || p.pos != len(data) {
		return nil, p.bad, false
	}
	p.close(doc, 1)
	return p.build(), nil, true
}

// ListAt says where the list of tools that ParseJSONList and ParseYAMLList
// hand over one element at a time is.
type ListAt int

const (
	// NoList: no list to hand over (the root is no list and no
	// container, the list is empty or a flow list in YAML, or the text
	// is refused); each was not called, and the caller reads the file
	// otherwise.
	NoList ListAt = iota
	// RootList: the document is the list.
	RootList
	// ToolsList: the document is a container, a mapping with one "tools"
	// key and no "name" key (spec.ContainerTools), and the list is its
	// "tools"; its other values are not handed over.
	ToolsList
)

// ParseJSONList reads data as ParseJSON does when its top-level value is a
// non-empty list, or a container whose "tools" is one (at; else each is
// not called and the caller reads the file otherwise), one element at a
// time: it calls each with at and every element's subtree, in order,
// built and positioned exactly as ParseJSON builds it, and keeps no
// reference to it once each returns, so that a large list is never in memory as a whole
// tree. The document is checked whole first (without building any tree):
// each is called only when ParseJSON would take the document (ok), never
// for one it refuses (bad, or ok=false) however far into the text the
// problem is.
func ParseJSONList(data []byte, each func(at ListAt, i int, item *yaml.Node)) (at ListAt, bad *SurrogateError, ok bool) {
	at, n, bad, ok := parseJSONList(data, nil)
	if n == 0 || at == NoList {
		return NoList, nil, false
	}
	if !ok || each == nil {
		return at, bad, ok
	}
	_, _, bad, ok = parseJSONList(data, func(i int, item *yaml.Node) { each(at, i, item) })
	return at, bad, ok
}

// parseJSONList parses a strict JSON document whose top level is a list
// or a mapping, handing each element of the list, or of the mapping's
// "tools" list, to each (nil: checking only) as soon as it is parsed,
// then forgetting it. n is the number of elements handed over; at is
// NoList when a mapping is no container (see ListAt).
func parseJSONList(data []byte, each func(i int, item *yaml.Node)) (at ListAt, n int, bad *SurrogateError, ok bool) {
	if len(data) > MaxInput {
		return NoList, 0, nil, false
	}
	p := jsonParsers.Get().(*jsonParser)
	defer p.release()
	p.data, p.pos, p.line, p.lineStart, p.wide, p.depth = data, 0, 1, 0, 0, 0
	p.strict, p.bad, p.maxDepth = true, nil, yamlMaxDepth
	if bytes.HasPrefix(data, bom) {
		p.pos, p.lineStart = len(bom), len(bom)
	}
	if !p.skipSpace() || p.pos >= len(data) || data[p.pos] != '[' && data[p.pos] != '{' {
		return NoList, 0, nil, false
	}
	// The root is node 0, as in ParseJSON node 1 (after the document).
	at = RootList
	p.emitAt, p.tool = 0, false
	if data[p.pos] == '{' {
		at, p.emitAt = ToolsList, -1 // object sets it at the "tools" key
	}
	p.emit = p.emitter(each, &n)
	defer func() { p.emit = nil }()
	if !p.value() || !p.skipSpace() || p.pos != len(data) {
		if p.tool {
			return NoList, 0, nil, false
		}
		return at, n, p.bad, false
	}
	if at == ToolsList && !p.container(0) {
		at = NoList
	}
	return at, n, nil, true
}

// emitter returns the emit of a parse that hands each element of the list
// p.emitAt to each (nil: checking only), counting them in *n: the element
// is nodes p.emitAt+1.., built, then dropped with what it added to kids
// and stack.
func (p *jsonParser) emitter(each func(i int, item *yaml.Node), n *int) func() {
	return func() {
		base := p.emitAt + 1
		if each != nil {
			each(*n, p.buildFrom(base, p.emitKids))
		}
		*n++
		clear(p.nodes[base:]) // drop the strings
		p.nodes, p.kids, p.stack = p.nodes[:base], p.kids[:p.emitKids], p.stack[:p.emitStack]
		if len(p.strs) > 4096 {
			clear(p.strs)
		}
	}
}

// streamed reports whether the list that is node n is the one whose
// elements are handed over, and marks where its elements start.
func (p *jsonParser) streamed(n int32) bool {
	if p.emit == nil || n != p.emitAt {
		return false
	}
	p.emitKids, p.emitStack = len(p.kids), len(p.stack)
	return true
}

// container reports whether the mapping that is node m, parsed whole but
// for its streamed list, is a container of tools as spec.ContainerTools
// reads one: no "name" key, and the streamed list the value of its only
// "tools" key.
func (p *jsonParser) container(m int32) bool {
	root := &p.nodes[m]
	tools := 0
	for i := int32(0); i+1 < root.nkids; i += 2 {
		switch p.nodes[p.kids[root.kids+i]].value {
		case "name":
			return false
		case "tools":
			tools++
			if p.kids[root.kids+i+1] != p.emitAt {
				return false
			}
		}
	}
	return tools == 1
}

// SurrogateError is a \u escape of half a UTF-16 surrogate pair without
// its other half: JSON's grammar lets it through, but it is no character
// (encoding/json would read it as U+FFFD, yaml.v3 refuses it).
type SurrogateError struct {
	Offset int    // of the escape's backslash
	Escape string // as written, e.g. \uD83D
	High   bool   // a high (first) half; else a low (second) half alone
}

// Len is the length in bytes (and characters) of the escape.
func (e *SurrogateError) Len() int { return len(e.Escape) }

func (e *SurrogateError) Error() string {
	if e.High {
		return fmt.Sprintf(`unpaired surrogate escape %s: a high surrogate (\uD800-\uDBFF) must be followed at once by a low one (\uDC00-\uDFFF), the two making one character (\uD83D\uDE00 is 😀); add the missing half, or write the character itself`, e.Escape)
	}
	return fmt.Sprintf(`unpaired surrogate escape %s: a low surrogate (\uDC00-\uDFFF) must come right after a high one (\uD800-\uDBFF), the two making one character (\uD83D\uDE00 is 😀); add the missing half, or write the character itself`, e.Escape)
}

// SurrogatePair decodes the \u escape at data[i] (its backslash), whose
// value r is a surrogate, with the escape that must follow it. It returns
// the character and the length of both escapes.
func SurrogatePair(data []byte, i int, r rune) (rune, int, *SurrogateError) {
	bad := &SurrogateError{Offset: i, Escape: string(data[i : i+6]), High: r < 0xDC00}
	if !bad.High || i+12 > len(data) || data[i+6] != '\\' || data[i+7] != 'u' {
		return 0, 0, bad
	}
	lo, ok := Hex4(data, i+8)
	if !ok || lo < 0xDC00 || lo > 0xDFFF {
		return 0, 0, bad
	}
	return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), 12, nil
}

// FindUnpairedSurrogate returns the first \u escape of half a surrogate
// pair without its other half in data, valid JSON text (or JSON Lines),
// or nil. Readers built on encoding/json, which would read such an escape
// as U+FFFD without a word, call it on what they decoded.
func FindUnpairedSurrogate(data []byte) *SurrogateError {
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\\')
		if j < 0 || i+j+1 >= len(data) {
			return nil
		}
		i += j
		if data[i+1] != 'u' {
			i += 2 // in valid JSON a backslash starts an escape, in a string
			continue
		}
		r, ok := Hex4(data, i+2)
		if !ok {
			return nil // not valid JSON: the caller's decoder says so
		}
		if r < 0xD800 || r > 0xDFFF {
			i += 6
			continue
		}
		_, w, bad := SurrogatePair(data, i, r)
		if bad != nil {
			return bad
		}
		i += w
	}
}

// yamlMaxFlowDepth is yaml.v3's max_flow_level: deeper input is an error.
const yamlMaxFlowDepth = 10000

// The parser's buffers are reused: a parse then makes two allocations for
// the tree (the nodes and their Content slices) and one per string, but
// for the short strings (keys, mostly) it has seen lately.
var jsonParsers = sync.Pool{New: func() any {
	return &jsonParser{strs: make(map[string]string)}
}}

type jsonParser struct {
	data []byte
	pos  int
	// yaml.v3 counts lines at \n, \r\n and a lone \r, and columns in
	// characters: wide is the count of UTF-8 continuation bytes on the
	// current line before pos.
	line, lineStart, wide int
	depth                 int
	// strict: JSON's rules (ParseJSON), not yaml.v3's; bad is the
	// unpaired surrogate escape that stopped a strict parse.
	strict   bool
	bad      *SurrogateError
	maxDepth int // deeper: ok=false

	nodes []jnode           // the tree, built into yaml.Nodes at the end
	stack []int32           // finished children of the open containers
	kids  []int32           // each container's children, contiguous
	buf   []byte            // unescaping scratch
	strs  map[string]string // short strings already allocated
	// emit, when set, takes each element of the list that is node emitAt
	// as soon as it is parsed (ParseJSONList, ParseYAMLList); emitKids and
	// emitStack are the lengths of kids and stack when that list started.
	emit                func()
	emitAt              int32
	emitKids, emitStack int
	// tool: the root mapping has a "name" key, so it is a tool, and no
	// container (ParseJSONList, ParseYAMLList stop at that key).
	tool bool
}

// jnode is a node before it is built: the number of nodes is known only
// at the end, and the tree is then allocated at its exact size.
type jnode struct {
	value, tag   string
	line, column int32
	kind         yaml.Kind
	style        yaml.Style
	kids, nkids  int32 // range of p.kids
}

func (p *jsonParser) release() {
	if cap(p.nodes) > 1<<16 || cap(p.kids) > 1<<16 || cap(p.buf) > 1<<16 || len(p.strs) > 4096 {
		// Don't keep a huge file's buffers (or strings) alive.
		*p = jsonParser{strs: make(map[string]string)}
	} else {
		clear(p.nodes) // drop the strings
		p.nodes, p.stack, p.kids, p.data = p.nodes[:0], p.stack[:0], p.kids[:0], nil
	}
	jsonParsers.Put(p)
}

// node appends a node positioned at p.pos and returns its index.
func (p *jsonParser) node(kind yaml.Kind, style yaml.Style, tag string) int32 {
	p.nodes = append(p.nodes, jnode{
		kind:   kind,
		style:  style,
		tag:    tag,
		line:   int32(p.line),
		column: int32(p.pos - p.lineStart - p.wide + 1),
	})
	return int32(len(p.nodes) - 1)
}

// push records a finished node as a child of the open container.
func (p *jsonParser) push(i int32) { p.stack = append(p.stack, i) }

// close makes the last k finished nodes the children of node i.
func (p *jsonParser) close(i int32, k int) {
	if k == 0 {
		return
	}
	n := &p.nodes[i]
	n.kids, n.nkids = int32(len(p.kids)), int32(k)
	p.kids = append(p.kids, p.stack[len(p.stack)-k:]...)
	p.stack = p.stack[:len(p.stack)-k]
}

// build allocates the yaml.Nodes; node 0 is the document.
func (p *jsonParser) build() *yaml.Node { return p.buildFrom(0, 0) }

// buildFrom allocates the yaml.Nodes of nodes base.. (a subtree whose root
// is node base, whose children are p.kids[kbase:], all of them in it) and
// returns its root.
func (p *jsonParser) buildFrom(base int32, kbase int) *yaml.Node {
	out := make([]yaml.Node, int32(len(p.nodes))-base)
	ptrs := make([]*yaml.Node, len(p.kids)-kbase)
	for i, k := range p.kids[kbase:] {
		ptrs[i] = &out[k-base]
	}
	for i := range out {
		j := &p.nodes[base+int32(i)]
		n := &out[i]
		n.Kind, n.Style, n.Tag, n.Value = j.kind, j.style, j.tag, j.value
		n.Line, n.Column = int(j.line), int(j.column)
		if j.nkids > 0 {
			// Capped, so that an append by a user reallocates instead
			// of overwriting the next node's children.
			start := j.kids - int32(kbase)
			end := start + j.nkids
			n.Content = ptrs[start:end:end]
		}
	}
	return &out[0]
}

// string interns short strings: keys and the likes of "string" repeat.
func (p *jsonParser) string(b []byte) string {
	if len(b) > 32 {
		return string(b)
	}
	if s, ok := p.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	p.strs[s] = s
	return s
}

// skipSpace skips JSON whitespace, counting lines as yaml.v3 does.
func (p *jsonParser) skipSpace() bool {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ':
			p.pos++
		case '\t':
			// yaml.v3 rejects a tab outside flow collections in some
			// places (at the start of a line); don't work out which.
			if p.depth == 0 && !p.strict {
				return false
			}
			p.pos++
		case '\n':
			p.pos++
			p.newline()
		case '\r':
			p.pos++
			if p.pos < len(p.data) && p.data[p.pos] == '\n' {
				p.pos++
			}
			p.newline()
		default:
			return true
		}
	}
	return true
}

func (p *jsonParser) newline() {
	p.line++
	p.lineStart = p.pos
	p.wide = 0
}

// value parses one JSON value and pushes its node.
func (p *jsonParser) value() bool {
	if p.pos >= len(p.data) {
		return false
	}
	var i int32
	switch c := p.data[p.pos]; {
	case c == '{':
		i = p.node(yaml.MappingNode, yaml.FlowStyle, "!!map")
		if !p.object(i) {
			return false
		}
	case c == '[':
		i = p.node(yaml.SequenceNode, yaml.FlowStyle, "!!seq")
		if !p.array(i) {
			return false
		}
	case c == '"':
		i = p.node(yaml.ScalarNode, yaml.DoubleQuotedStyle, "!!str")
		v, ok := p.str()
		if !ok {
			return false
		}
		p.nodes[i].value = v
	case c == '-' || c >= '0' && c <= '9':
		i = p.node(yaml.ScalarNode, 0, "")
		if !p.number(i) {
			return false
		}
	case c == 't':
		i = p.node(yaml.ScalarNode, 0, "!!bool")
		if !p.literal(i, "true") {
			return false
		}
	case c == 'f':
		i = p.node(yaml.ScalarNode, 0, "!!bool")
		if !p.literal(i, "false") {
			return false
		}
	case c == 'n':
		i = p.node(yaml.ScalarNode, 0, "!!null")
		if !p.literal(i, "null") {
			return false
		}
	default:
		return false
	}
	p.push(i)
	return true
}

func (p *jsonParser) object(n int32) bool {
	if p.depth++; p.depth > p.maxDepth {
		return false
	}
	p.pos++
	if !p.skipSpace() {
		return false
	}
	k := 0
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.depth--
		return true
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return false
		}
		key := p.node(yaml.ScalarNode, yaml.DoubleQuotedStyle, "!!str")
		keyLine, keyPos, keyWide := p.line, p.pos, p.wide
		v, ok := p.str()
		if !ok {
			return false
		}
		p.nodes[key].value = v
		p.push(key)
		if !p.skipSpace() || p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return false
		}
		// yaml.v3 takes a key only when its ':' is on the same line and
		// at most 1024 characters after the key's start.
		if !p.strict && (keyLine != p.line || (p.pos-keyPos)-(p.wide-keyWide) > 1024) {
			return false
		}
		p.pos++
		if !p.skipSpace() {
			return false
		}
		if p.emit != nil && p.depth == 1 {
			switch v {
			case "tools":
				p.emitAt = int32(len(p.nodes)) // a container's list: streamed
			case "name":
				p.tool = true // not a container: stop here
				return false
			}
		}
		if !p.value() {
			return false
		}
		k += 2
		if !p.skipSpace() || p.pos >= len(p.data) {
			return false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			if !p.skipSpace() {
				return false
			}
		case '}':
			p.pos++
			p.depth--
			p.close(n, k)
			return true
		default:
			return false
		}
	}
}

func (p *jsonParser) array(n int32) bool {
	if p.depth++; p.depth > p.maxDepth {
		return false
	}
	p.pos++
	if !p.skipSpace() {
		return false
	}
	k := 0
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.depth--
		return true
	}
	stream := p.streamed(n)
	for {
		if !p.value() {
			return false
		}
		k++
		if stream {
			p.emit() // an element of the streamed list: forgotten
			k = 0
		}
		if !p.skipSpace() || p.pos >= len(p.data) {
			return false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			if !p.skipSpace() {
				return false
			}
		case ']':
			p.pos++
			p.depth--
			p.close(n, k)
			return true
		default:
			return false
		}
	}
}

// strSpecial marks the bytes the string scanner must look at: the closing
// quote, escapes, control characters (invalid JSON), DEL (yaml.v3 rejects
// it) and the start of a multi-byte character.
var strSpecial = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c < 0x20 || c == '"' || c == '\\' || c >= 0x7F
	}
	return t
}()

// str parses the string at p.pos (its opening quote) and returns its value.
func (p *jsonParser) str() (string, bool) {
	data := p.data
	i := p.pos + 1
	start := i
	for {
		for i < len(data) && !strSpecial[data[i]] {
			i++
		}
		if i >= len(data) {
			return "", false
		}
		c := data[i]
		if c == '"' {
			p.pos = i + 1
			return p.string(data[start:i]), true
		}
		if c == '\\' {
			break
		}
		w, ok := p.multibyte(i)
		if !ok {
			return "", false
		}
		i += w
	}
	// With escapes: copy what came before, then decode the rest.
	b := append(p.buf[:0], data[start:i]...)
	for {
		if i >= len(data) {
			return "", false
		}
		c := data[i]
		switch {
		case c == '"':
			p.pos = i + 1
			p.buf = b
			return p.string(b), true
		case c == '\\':
			if i+1 >= len(data) {
				return "", false
			}
			switch data[i+1] {
			case '"':
				b = append(b, '"')
			case '\\':
				b = append(b, '\\')
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := Hex4(data, i+2)
				if !ok {
					return "", false
				}
				w := 6
				switch {
				case r >= 0xD800 && r <= 0xDFFF:
					// yaml.v3 rejects surrogate escapes, so JSON's pairs
					// too.
					if !p.strict {
						return "", false
					}
					var bad *SurrogateError
					if r, w, bad = SurrogatePair(data, i, r); bad != nil {
						p.bad = bad
						return "", false
					}
				case r == 0 && !p.strict:
					return "", false // left to yaml.v3
				}
				b = utf8.AppendRune(b, r)
				i += w - 2
			case '/':
				// JSON's; yaml.v3 does not know it.
				if !p.strict {
					return "", false
				}
				b = append(b, '/')
			default:
				return "", false
			}
			i += 2
		case strSpecial[c]:
			w, ok := p.multibyte(i)
			if !ok {
				return "", false
			}
			b = append(b, data[i:i+w]...)
			i += w
		default:
			b = append(b, c)
			i++
		}
	}
}

// multibyte checks the non-ASCII character at i and returns its width. It
// refuses what yaml.v3 treats specially inside a quoted scalar: C1
// controls (rejected, or NEL, a line break) and the line and paragraph
// separators; and anything that is not UTF-8.
//
// In strict mode (JSON's rules) it takes every character but the C0
// controls, which JSON does not allow unescaped; a NEL, LS or PS starts a
// new line, as spec's File.lines counts them.
func (p *jsonParser) multibyte(i int) (int, bool) {
	c := p.data[i]
	if c < 0x80 {
		if c == 0x7F && p.strict {
			return 1, true
		}
		return 0, false // control character or DEL
	}
	r, w := utf8.DecodeRune(p.data[i:])
	if r == utf8.RuneError && w == 1 {
		return 0, false
	}
	if p.strict {
		if r == 0x85 || r == 0x2028 || r == 0x2029 {
			p.line++
			p.lineStart = i + w
			p.wide = 0
			return w, true
		}
	} else if r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFFFE || r == 0xFFFF {
		return 0, false
	}
	p.wide += w - 1
	return w, true
}

// Hex4 is the value of the 4 hex digits at data[i], as of a \u escape.
func Hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	r, ok := HexDigits(data[i : i+4])
	return rune(r), ok
}

// HexDigits is the value of up to 8 hex digits (JSON's \uXXXX, YAML's
// \xXX, \uXXXX and \UXXXXXXXX; \UFFFFFFFF overflows a rune).
func HexDigits(digits []byte) (int64, bool) {
	var r int64
	for _, c := range digits {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | int64(c)
	}
	return r, true
}

// endsPlain reports whether a plain scalar (number or literal) may end
// before data[i]: JSON and yaml.v3 agree on where it ends only when what
// follows is whitespace, a separator or the end.
func endsPlain(data []byte, i int) bool {
	if i >= len(data) {
		return true
	}
	switch data[i] {
	case ' ', '\t', '\n', '\r', ',', ']', '}':
		return true
	}
	return false
}

func (p *jsonParser) literal(n int32, word string) bool {
	end := p.pos + len(word)
	if end > len(p.data) || string(p.data[p.pos:end]) != word || !endsPlain(p.data, end) {
		return false
	}
	p.nodes[n].value = word
	p.pos = end
	return true
}

// number parses a JSON number and tags it as yaml.v3's resolve does.
func (p *jsonParser) number(at int32) bool {
	data := p.data
	i := p.pos
	if data[i] == '-' {
		i++
	}
	digits := i
	switch {
	case i >= len(data):
		return false
	case data[i] == '0':
		i++
	case data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		return false
	}
	intDigits := i - digits
	isInt := true
	if i < len(data) && data[i] == '.' {
		isInt = false
		i++
		j := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == j {
			return false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		isInt = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == j {
			return false
		}
	}
	if !endsPlain(data, i) {
		return false
	}
	s := p.string(data[p.pos:i])
	n := &p.nodes[at]
	n.value = s
	// yaml.v3: an int if it fits int64 or uint64, else a float if
	// ParseFloat takes it (not when it overflows), else a string.
	switch {
	case isInt && intDigits <= 18:
		n.tag = "!!int"
	case isInt && intOK(s):
		n.tag = "!!int"
	default:
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			n.tag = "!!float"
		} else {
			n.tag = "!!str"
		}
	}
	p.pos = i
	return true
}

func intOK(s string) bool {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return true
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}
