package fastnode

import (
	"bytes"
	"encoding/binary"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// ParseYAML builds, for the YAML that tool files are made of, the tree
// yaml.v3 builds: the same kinds, styles, tags, values and positions, but
// no comments (nothing reads them from the tree). yaml.v3's scanner is
// most of linting time. It returns ok=false for anything it cannot vouch
// for (anchors, tags, directives, several documents, complex keys, tabs,
// lone CRs, flow collections over several lines, invalid YAML...),
// and the caller then takes the yaml.v3 path, so errors stay the same.
//
// What it takes: block mappings and sequences (indentless ones too),
// plain, single- and double-quoted scalars over any number of lines,
// literal and folded block scalars with their indicators, flow
// collections on one line, comments, and a leading "---".
func ParseYAML(data []byte) (*yaml.Node, bool) {
	doc, _ := parseYAMLWhy(data)
	return doc, doc != nil
}

// parseYAMLWhy is ParseYAML that says why it refused (for tests).
func parseYAMLWhy(data []byte) (*yaml.Node, string) {
	p, why := startYAML(data)
	if p == nil {
		return nil, why
	}
	defer p.release()
	doc := p.node(yaml.DocumentNode, 0, "", p.docLine, p.docCol)
	if !p.block(-1) {
		return nil, p.why
	}
	if p.col >= 0 {
		return nil, "content after the document"
	}
	p.close(doc, 1)
	return p.build(), ""
}

// ParseYAMLDocs reads data, a stream of several documents ("---" lines
// between them), as ParseYAML reads one: it calls each with every
// document's tree, in order, built and positioned as yaml.v3's Decoder
// builds it, and keeps no reference to it once each returns. The stream
// is checked whole first (without building any tree): each is called only
// when every document is one ParseYAML would take in a file of its own,
// never for a stream with anything it does not vouch for (an empty
// document, a "..." marker, text on a marker's line...), however late in
// the text; ok=false then, and the caller reads data otherwise.
func ParseYAMLDocs(data []byte, each func(doc *yaml.Node)) (ok bool) {
	if !parseYAMLDocs(data, nil) {
		return false
	}
	return each == nil || parseYAMLDocs(data, each)
}

// parseYAMLDocs parses the documents of data, handing each one's tree to
// each (nil: checking only), then forgetting it.
func parseYAMLDocs(data []byte, each func(doc *yaml.Node)) bool {
	p, _ := startYAML(data)
	if p == nil {
		return false
	}
	defer p.release()
	p.multi = true // next stops at a "---", where docAt says the next one starts
	docs := 0
	for {
		p.docAt = -1
		doc := p.node(yaml.DocumentNode, 0, "", p.docLine, p.docCol)
		if !p.block(-1) || p.col >= 0 {
			return false
		}
		p.close(doc, 1)
		if each != nil {
			each(p.build())
		}
		docs++
		clear(p.nodes) // drop the strings
		p.nodes, p.kids, p.stack = p.nodes[:0], p.kids[:0], p.stack[:0]
		if p.docAt < 0 {
			return docs > 1 // the end of the text
		}
		// The next document, at its "---" as startYAML places one.
		i := p.docAt
		p.docLine, p.docCol = p.line, p.column(i)
		p.pos = i
		if !p.eol(i+3) || !p.next(false) || p.col < 0 {
			return false // an empty document is yaml.v3's to read
		}
	}
}

// startYAML checks the text of data and takes a parser from the pool, at
// the root node of the document (past a leading "---"), or says why it
// refuses data. The caller releases the parser.
func startYAML(data []byte) (*yamlParser, string) {
	if len(data) > MaxInput {
		return nil, "too large" // positions are int32
	}
	ascii, why := yamlText(data)
	if why == "CR line break" {
		// yaml.v3 reads CR LF as LF, in values too, and a CR is never
		// inside a line's text: without the CRs, the tree is the same.
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
		if bytes.IndexByte(data, '\r') >= 0 {
			return nil, "CR line break"
		}
		ascii, why = yamlText(data)
	}
	if why != "" {
		return nil, why
	}
	p := yamlParsers.Get().(*yamlParser)
	p.data, p.pos, p.line, p.lineStart, p.depth, p.ascii = data, 0, 1, 0, 0, ascii
	p.why, p.multi = "", false
	p.colLine, p.colAt, p.colRunes = -1, 0, 0
	refuse := func(why string) (*yamlParser, string) {
		p.release()
		return nil, why
	}
	if !p.next(true) {
		return refuse(p.why)
	}
	if p.col < 0 {
		return refuse("no document")
	}
	i := p.pos
	p.docLine, p.docCol = p.line, p.column(i)
	if p.col == 0 && isDocMarker(data, i) {
		if data[i] != '-' {
			return refuse("document end marker")
		}
		if !p.eol(i+3) || !p.next(false) {
			return refuse(p.why)
		}
		if p.col < 0 {
			return refuse("no document")
		}
	}
	return p, ""
}

// ParseYAMLList reads data as ParseYAML does when its root is a block
// sequence, or a container (a block mapping, see ListAt) whose "tools" is
// a block sequence (at; else each is not called and the caller reads the
// file otherwise), one element at a time: it calls each with at and every
// element's subtree, in order, built and positioned exactly as ParseYAML
// builds it, and keeps no reference to it once each returns, so that a
// large list is never in memory as a whole tree. The document is checked
// whole first (without building any tree): each is called only when
// ParseYAML would take the document (ok), never for one it refuses,
// however far into the text the reason is.
func ParseYAMLList(data []byte, each func(at ListAt, i int, item *yaml.Node)) (at ListAt, ok bool) {
	at, n, ok := parseYAMLList(data, nil)
	if n == 0 || at == NoList {
		return NoList, false
	}
	if !ok || each == nil {
		return at, ok
	}
	_, _, ok = parseYAMLList(data, func(i int, item *yaml.Node) { each(at, i, item) })
	return at, ok
}

// parseYAMLList parses a document whose root is a block sequence or a
// block mapping, handing each element of the sequence, or of the
// mapping's "tools" sequence, to each (nil: checking only) as soon as it
// is parsed, then forgetting it. n is the number of elements handed over;
// at is NoList when the root is neither, or a mapping no container.
func parseYAMLList(data []byte, each func(i int, item *yaml.Node)) (at ListAt, n int, ok bool) {
	p, _ := startYAML(data)
	if p == nil {
		return NoList, 0, false
	}
	defer p.release()
	// The document is node 0 and the root node 1.
	p.tool = false
	switch i := p.pos; {
	case p.data[i] == '-' && blankz(p.data, i+1):
		at, p.emitAt = RootList, 1
	default:
		if _, colon := p.keyAt(i); colon < 0 {
			return NoList, 0, false
		}
		at, p.emitAt = ToolsList, -1 // mapping sets it at the "tools" key
	}
	p.node(yaml.DocumentNode, 0, "", p.docLine, p.docCol)
	p.emit = p.emitter(each, &n)
	defer func() { p.emit = nil }()
	if !p.block(-1) || p.col >= 0 {
		if p.tool {
			return NoList, 0, false
		}
		return at, n, false
	}
	if at == ToolsList && !p.container(1) {
		at = NoList
	}
	return at, n, true
}

// yamlMaxDepth bounds nesting (yaml.v3 allows 10000 levels); deeper input
// takes the yaml.v3 path.
const yamlMaxDepth = 1000

var yamlParsers = sync.Pool{New: func() any {
	return new(yamlParser)
}}

// yamlParser reuses jsonParser's tree building (nodes, stack, kids,
// build); data, pos, line, lineStart and depth have the same meaning.
type yamlParser struct {
	jsonParser
	ascii bool // columns are byte offsets
	// Where the document node goes: its first content line.
	docLine int
	docCol  int32
	col     int    // column (0-based) of the content line at pos, -1 at the end
	why     string // why the parser refused the input
	// multi: a "---" at a line's start ends the document (col -1) and
	// docAt is where it is (ParseYAMLDocs); else it is refused.
	multi bool
	docAt int
	// column's count of a line that is not ASCII: the runes from
	// colLine (the line's start) to colAt
	colLine, colAt, colRunes int

	// Short strings seen lately, by a hash: keys and the likes of
	// "string" repeat, and a map costs more than allocating them.
	cache [1 << 12]string
}

func (p *yamlParser) release() {
	if cap(p.nodes) > 1<<16 || cap(p.kids) > 1<<16 || cap(p.buf) > 1<<16 {
		// Don't keep a huge file's buffers alive.
		*p = yamlParser{}
	} else {
		clear(p.nodes)
		p.nodes, p.stack, p.kids, p.data = p.nodes[:0], p.stack[:0], p.kids[:0], nil
	}
	yamlParsers.Put(p)
}

// str returns b as a string, from the cache when it is short.
func (p *yamlParser) str(b []byte) string {
	n := len(b)
	if n > 32 {
		return string(b)
	}
	var h uint64
	if n >= 8 {
		h = binary.LittleEndian.Uint64(b) ^ binary.LittleEndian.Uint64(b[n-8:])<<1
	} else {
		for _, c := range b {
			h = h<<8 | uint64(c)
		}
	}
	h = (h ^ uint64(n)) * 0x9E3779B97F4A7C15 >> 52
	if s := p.cache[h]; s == string(b) {
		return s
	}
	s := string(b)
	p.cache[h] = s
	return s
}

func (p *yamlParser) fail(why string) bool {
	if p.why == "" {
		p.why = why
	}
	return false
}

// yamlText checks that data has only characters the parser reads as
// yaml.v3 does: no tab (yaml.v3's rules for them are intricate) or CR
// (the caller drops those of CR LF), no other control character, no BOM,
// NEL or line/paragraph separator. It reports whether data is ASCII.
func yamlText(data []byte) (ascii bool, why string) {
	ascii = true
	for i := 0; i < len(data); {
		// Eight bytes at a time while they are ASCII, none a control
		// character but '\n', none DEL.
		if i+8 <= len(data) {
			x := binary.LittleEndian.Uint64(data[i:])
			below := ^((x&^highs + (0x80-0x20)*ones) | x) & highs
			if (x&highs | below&^zeroBytes(x^'\n'*ones) | zeroBytes(x^0x7F*ones)) == 0 {
				i += 8
				continue
			}
		}
		c := data[i]
		if c < utf8.RuneSelf {
			if textBad[c] {
				switch c {
				case '\t':
					return false, "tab"
				case '\r':
					return false, "CR line break"
				}
				return false, "control character"
			}
			i++
			continue
		}
		ascii = false
		r, w := utf8.DecodeRune(data[i:])
		if r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF || r == utf8.RuneError && w == 1 {
			return false, "special character"
		}
		i += w
	}
	return ascii, ""
}

const ones, highs = 0x0101010101010101, 0x8080808080808080

// zeroBytes sets the high bit of exactly the bytes of x that are 0.
func zeroBytes(x uint64) uint64 {
	return ^((x&^highs + ^uint64(highs)) | x | ^uint64(highs))
}

// anyZero reports whether a byte of x is 0.
func anyZero(x uint64) bool {
	return (x-ones)&^x&highs != 0
}

var textBad = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = c < ' ' && c != '\n' || c == 0x7F
	}
	return t
}()

// node appends a node and returns its index.
func (p *yamlParser) node(kind yaml.Kind, style yaml.Style, tag string, line int, col int32) int32 {
	p.nodes = append(p.nodes, jnode{kind: kind, style: style, tag: tag, line: int32(line), column: col})
	return int32(len(p.nodes) - 1)
}

// column returns the 1-based column, in characters, of i on the current line.
func (p *yamlParser) column(i int) int32 {
	if p.ascii {
		return int32(i - p.lineStart + 1)
	}
	// counted on from the column asked last on the line: a long line (a
	// JSON document on one line) costs its length once, not once for each
	// node on it
	if p.colLine != p.lineStart || i < p.colAt {
		p.colLine, p.colAt, p.colRunes = p.lineStart, p.lineStart, 0
	}
	p.colRunes += utf8.RuneCount(p.data[p.colAt:i])
	p.colAt = i
	return int32(p.colRunes + 1)
}

// nl moves past the line break at i.
func (p *yamlParser) nl(i int) {
	p.line++
	p.lineStart = i + 1
	p.pos = i + 1
}

// blankz reports whether i is a space, a line break or the end (no tabs
// get here).
func blankz(data []byte, i int) bool {
	return i >= len(data) || data[i] == ' ' || data[i] == '\n'
}

// isDocMarker reports whether a "---" or "..." marker is at i.
func isDocMarker(data []byte, i int) bool {
	if i+3 > len(data) || !blankz(data, i+3) {
		return false
	}
	s := data[i : i+3]
	return string(s) == "---" || string(s) == "..."
}

// next moves from pos (at most spaces before it on its line) past empty
// lines and comments to the first character of the next content line,
// and sets col to its column (-1 at the end). first allows a document
// marker (checked by the caller).
func (p *yamlParser) next(first bool) bool {
	data := p.data
	i := p.pos
	for {
		for i < len(data) && data[i] == ' ' {
			i++
		}
		if i == len(data) {
			p.pos, p.col = i, -1
			return true
		}
		switch data[i] {
		case '\n':
			p.nl(i)
			i++
			continue
		case '#':
			j := bytes.IndexByte(data[i:], '\n')
			if j < 0 {
				p.pos, p.col = len(data), -1
				return true
			}
			p.nl(i + j)
			i += j + 1
			continue
		}
		p.pos, p.col = i, i-p.lineStart
		if p.col == 0 && !first && (data[i] == '-' || data[i] == '.') && isDocMarker(data, i) {
			if p.multi && data[i] == '-' {
				// The end of this document: parseYAMLDocs reads on.
				p.docAt, p.col = i, -1
				return true
			}
			return p.fail("several documents")
		}
		return true
	}
}

// eol checks that only spaces and a comment follow i on its line, and
// moves to the next line.
func (p *yamlParser) eol(i int) bool {
	data := p.data
	j := i
	for j < len(data) && data[j] == ' ' {
		j++
	}
	if j == len(data) {
		p.pos = j
		return true
	}
	switch data[j] {
	case '\n':
		p.nl(j)
		return true
	case '#':
		if j == i {
			return p.fail("comment right after a token")
		}
		k := bytes.IndexByte(data[j:], '\n')
		if k < 0 {
			p.pos = len(data)
		} else {
			p.nl(j + k)
		}
		return true
	}
	return p.fail("text after a value")
}

// block parses the block node whose first character is at pos, in a
// collection whose indentation is parent (-1 for the document). It
// returns at the next content line.
func (p *yamlParser) block(parent int) bool {
	data, i := p.data, p.pos
	if data[i] == '-' && blankz(data, i+1) {
		return p.sequence(p.col, false)
	}
	if end, colon := p.keyAt(i); colon >= 0 {
		return p.mapping(p.col, end, colon)
	}
	if parent < 0 && data[i] != '[' && data[i] != '{' {
		return p.fail("scalar document")
	}
	return p.scalar(parent)
}

// value parses what follows a ':' or '-' indicator (pos is just after it)
// of a collection indented by parent. (line, col) is where yaml.v3 puts an
// empty value: just after the indicator.
func (p *yamlParser) value(parent, line int, col int32, seq bool) bool {
	data := p.data
	i := p.pos
	for i < len(data) && data[i] == ' ' {
		i++
	}
	if i == len(data) || data[i] == '\n' || data[i] == '#' {
		if !p.eol(p.pos) || !p.next(false) {
			return false
		}
		switch {
		case p.col > parent:
			return p.block(parent)
		case p.col == parent && !seq && data[p.pos] == '-' && blankz(data, p.pos+1):
			// key:
			// - item
			return p.sequence(p.col, true)
		}
		p.push(p.node(yaml.ScalarNode, 0, "!!null", line, col))
		return true
	}
	p.pos = i
	if seq {
		// A compact collection: "- - a" or "- key: value".
		if data[i] == '-' && blankz(data, i+1) {
			p.col = i - p.lineStart // only spaces and dashes before it
			return p.sequence(p.col, false)
		}
		if end, colon := p.keyAt(i); colon >= 0 {
			p.col = i - p.lineStart
			return p.mapping(p.col, end, colon)
		}
	}
	return p.scalar(parent)
}

// mapping parses a block mapping whose first key, at pos and column col,
// ends at end with its ':' at colon.
func (p *yamlParser) mapping(col, end, colon int) bool {
	if p.depth++; p.depth > yamlMaxDepth {
		return p.fail("too deep")
	}
	m := p.node(yaml.MappingNode, 0, "!!map", p.line, p.column(p.pos))
	k := 0
	for {
		if !p.key(end) {
			return false
		}
		line, c := p.line, p.column(colon)+1
		p.pos = colon + 1
		if p.emit != nil && p.depth == 1 {
			switch p.nodes[len(p.nodes)-1].value {
			case "tools":
				p.emitAt = int32(len(p.nodes)) // a container's list: streamed
			case "name":
				p.tool = true // not a container: stop here
				return p.fail("a tool")
			}
		}
		if !p.value(col, line, c, false) {
			return false
		}
		k += 2
		if p.col < col {
			break
		}
		if p.col > col {
			return p.fail("bad indentation")
		}
		if end, colon = p.keyAt(p.pos); colon < 0 {
			return p.fail("not a key")
		}
	}
	p.close(m, k)
	p.push(m)
	p.depth--
	return true
}

// sequence parses a block sequence whose first '-' is at pos and column
// col. An indentless one (the value of a key at the same column) ends at
// the next key.
func (p *yamlParser) sequence(col int, indentless bool) bool {
	if p.depth++; p.depth > yamlMaxDepth {
		return p.fail("too deep")
	}
	data := p.data
	s := p.node(yaml.SequenceNode, 0, "!!seq", p.line, p.column(p.pos))
	stream := p.streamed(s)
	k := 0
	for {
		line, c := p.line, p.column(p.pos)+1
		p.pos++
		if !p.value(col, line, c, true) {
			return false
		}
		k++
		if stream {
			p.emit() // an element of the streamed list: forgotten
			k = 0
		}
		if p.col < col {
			break
		}
		if p.col > col {
			return p.fail("bad indentation")
		}
		if data[p.pos] == '-' && blankz(data, p.pos+1) {
			continue
		}
		if indentless {
			break
		}
		return p.fail("not a sequence entry")
	}
	p.close(s, k)
	p.push(s)
	p.depth--
	return true
}

// keyAt reports whether a simple key starts at i: a plain or quoted scalar
// on one line followed by ':' and a blank. It returns the end of the key
// and the position of the ':', or colon = -1.
func (p *yamlParser) keyAt(i int) (end, colon int) {
	data := p.data
	switch data[i] {
	case '"', '\'':
		q := data[i]
		j := i + 1
		for {
			if j >= len(data) || data[j] == '\n' {
				return 0, -1
			}
			if data[j] == q {
				if q == '\'' && j+1 < len(data) && data[j+1] == '\'' {
					j += 2
					continue
				}
				break
			}
			if q == '"' && data[j] == '\\' {
				j++
				if j < len(data) && data[j] == '\n' {
					return 0, -1
				}
			}
			j++
		}
		end = j + 1
		colon = end
		for colon < len(data) && data[colon] == ' ' {
			colon++
		}
		if colon >= len(data) || data[colon] != ':' || !blankz(data, colon+1) {
			return 0, -1
		}
	default:
		if !plainStart(data, i) {
			return 0, -1
		}
		var why byte
		end, colon, why = plainLine(data, i)
		if why != ':' {
			return 0, -1
		}
	}
	// yaml.v3 looks for the ':' at most 1024 characters after the key's
	// start.
	if colon-i > 1024 {
		return 0, -1
	}
	return end, colon
}

// key pushes the key at pos, which keyAt found to end at end.
func (p *yamlParser) key(end int) bool {
	data, i := p.data, p.pos
	switch data[i] {
	case '"', '\'':
		style := yaml.DoubleQuotedStyle
		if data[i] == '\'' {
			style = yaml.SingleQuotedStyle
		}
		n := p.node(yaml.ScalarNode, style, "!!str", p.line, p.column(i))
		v, ok := p.quoted(i, true)
		if !ok {
			return false
		}
		p.nodes[n].value = v
		p.push(n)
	default:
		v := p.str(data[i:end])
		p.push(p.node(yaml.ScalarNode, 0, plainTag(v), p.line, p.column(i)))
		p.nodes[len(p.nodes)-1].value = v
	}
	return true
}

// scalar parses the scalar or flow collection at pos, the value of a
// collection indented by parent, and moves to the next content line.
func (p *yamlParser) scalar(parent int) bool {
	data, i := p.data, p.pos
	line, col := p.line, p.column(i)
	switch c := data[i]; c {
	case '"', '\'':
		style := yaml.DoubleQuotedStyle
		if c == '\'' {
			style = yaml.SingleQuotedStyle
		}
		n := p.node(yaml.ScalarNode, style, "!!str", line, col)
		v, ok := p.quoted(i, false)
		if !ok {
			return false
		}
		p.nodes[n].value = v
		p.push(n)
		return p.eol(p.pos) && p.next(false)
	case '|', '>':
		style := yaml.LiteralStyle
		if c == '>' {
			style = yaml.FoldedStyle
		}
		n := p.node(yaml.ScalarNode, style, "!!str", line, col)
		v, ok := p.blockScalar(i, parent)
		if !ok {
			return false
		}
		p.nodes[n].value = v
		p.push(n)
		return p.next(false)
	case '[', '{':
		end, ok := p.flow(i)
		if !ok {
			return false
		}
		return p.eol(end) && p.next(false)
	}
	if !plainStart(data, i) {
		return p.fail("indicator " + string(data[i]))
	}
	n := p.node(yaml.ScalarNode, 0, "", line, col)
	v, ok := p.plain(i, parent)
	if !ok {
		return false
	}
	p.nodes[n].value, p.nodes[n].tag = v, plainTag(v)
	p.push(n)
	return p.next(false)
}

// plainStart reports whether a plain scalar may start at i (in the block
// context; the flow context adds its own stops).
func plainStart(data []byte, i int) bool {
	switch data[i] {
	case '-':
		return !blankz(data, i+1)
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\n':
		return false
	}
	return true
}

// plainLine scans the plain scalar text from i to the end of its line, as
// yaml.v3 does in the block context. It returns the end of the text
// (without trailing spaces), where it stopped and why: '\n' at a line
// break or the end, ':' at a ':' followed by a blank, '#' at a comment.
func plainLine(data []byte, i int) (end, stop int, why byte) {
	start := i
	for i < len(data) {
		if i+8 <= len(data) {
			x := binary.LittleEndian.Uint64(data[i:])
			if !anyZero(x^'\n'*ones) && !anyZero(x^':'*ones) && !anyZero(x^'#'*ones) {
				i += 8
				continue
			}
		}
		switch data[i] {
		case '\n':
			return trimSpaces(data, start, i), i, '\n'
		case ':':
			if blankz(data, i+1) {
				return trimSpaces(data, start, i), i, ':'
			}
		case '#':
			if data[i-1] == ' ' {
				return trimSpaces(data, start, i), i, '#'
			}
		}
		i++
	}
	return trimSpaces(data, start, i), i, '\n'
}

// trimSpaces returns where the text in data[start:end] ends without its
// trailing spaces.
func trimSpaces(data []byte, start, end int) int {
	for end > start && data[end-1] == ' ' {
		end--
	}
	return end
}

// plain parses a plain scalar at i whose continuation lines must be
// indented more than parent. It leaves pos at the start of the line after
// it.
func (p *yamlParser) plain(i, parent int) (string, bool) {
	data := p.data
	end, stop, why := plainLine(data, i)
	first := data[i:end]
	switch {
	case why == ':':
		return "", p.fail("':' in a plain value")
	case why == '#':
		p.skipLine(stop)
		return p.str(first), true
	case stop == len(data):
		p.pos = stop
		return p.str(first), true
	}
	var b []byte
	for {
		// data[stop] is a line break: look for a continuation line.
		breaks := 0
		k := stop
		for {
			p.nl(k)
			k++
			for k < len(data) && data[k] == ' ' {
				k++
			}
			if k == len(data) || data[k] != '\n' {
				break
			}
			breaks++
		}
		if k == len(data) || k-p.lineStart <= parent || data[k] == '#' {
			break
		}
		e, s, w := plainLine(data, k)
		if w == ':' {
			return "", p.fail("':' in a plain value")
		}
		if b == nil {
			b = append(p.buf[:0], first...)
		}
		if breaks == 0 {
			b = append(b, ' ')
		}
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
		b = append(b, data[k:e]...)
		if w == '#' {
			p.skipLine(s)
			break
		}
		if stop = s; stop == len(data) {
			p.pos = stop
			break
		}
	}
	if b == nil {
		return p.str(first), true
	}
	p.buf = b
	return string(b), true
}

// skipLine moves to the start of the line after i.
func (p *yamlParser) skipLine(i int) {
	j := bytes.IndexByte(p.data[i:], '\n')
	if j < 0 {
		p.pos = len(p.data)
		return
	}
	p.nl(i + j)
}

// quoted parses the quoted scalar at i, as yaml.v3 does. oneLine refuses
// line breaks. pos is left just after the closing quote.
func (p *yamlParser) quoted(i int, oneLine bool) (string, bool) {
	data := p.data
	q := data[i]
	start := i + 1
	// Most have no escape and no line break.
	for j := start; j < len(data); j++ {
		c := data[j]
		if c == q {
			if q == '\'' && j+1 < len(data) && data[j+1] == '\'' {
				break
			}
			p.pos = j + 1
			return p.str(data[start:j]), true
		}
		if c == '\n' || c == '\\' && q == '"' {
			break
		}
	}
	b := p.buf[:0]
	i = start
	for {
		// Non-blank characters.
		escapedBreak := false
	chars:
		for i < len(data) && data[i] != ' ' && data[i] != '\n' {
			c := data[i]
			switch {
			case c == q && q == '\'':
				if i+1 < len(data) && data[i+1] == '\'' {
					b = append(b, '\'')
					i += 2
					continue
				}
				break chars
			case c == q:
				break chars
			case c == '\\' && q == '"':
				if i+1 >= len(data) {
					return "", p.fail("unclosed quoted scalar")
				}
				if data[i+1] == '\n' {
					if oneLine {
						return "", p.fail("line break in a key")
					}
					p.nl(i + 1)
					i += 2
					escapedBreak = true
					break chars
				}
				var ok bool
				if b, i, ok = escape(data, i, b); !ok {
					return "", p.fail("bad escape")
				}
				continue
			}
			b = append(b, c)
			i++
		}
		if i >= len(data) {
			return "", p.fail("unclosed quoted scalar")
		}
		if data[i] == q {
			break
		}
		// Blanks and line breaks.
		leadingBlanks, leadingBreak := escapedBreak, false
		spaces, breaks := 0, 0
		for i < len(data) && (data[i] == ' ' || data[i] == '\n') {
			if data[i] == ' ' {
				if !leadingBlanks {
					spaces++
				}
			} else {
				if oneLine {
					return "", p.fail("line break in a key")
				}
				if !leadingBlanks {
					spaces = 0
					leadingBreak, leadingBlanks = true, true
				} else {
					breaks++
				}
				p.nl(i)
			}
			i++
		}
		if i >= len(data) {
			return "", p.fail("unclosed quoted scalar")
		}
		if leadingBlanks && i == p.lineStart && isDocMarker(data, i) {
			// yaml.v3 does not check the indentation of quoted scalars,
			// only this.
			return "", p.fail("document marker in a quoted scalar")
		}
		switch {
		case leadingBreak && breaks == 0:
			b = append(b, ' ')
		case leadingBlanks:
			for ; breaks > 0; breaks-- {
				b = append(b, '\n')
			}
		default:
			for ; spaces > 0; spaces-- {
				b = append(b, ' ')
			}
		}
	}
	p.pos = i + 1
	p.buf = b
	return p.str(b), true
}

// escape decodes the escape sequence at data[i] ('\\') onto b, as yaml.v3
// does, and returns the position after it.
func escape(data []byte, i int, b []byte) ([]byte, int, bool) {
	n := 0
	switch data[i+1] {
	case '0':
		b = append(b, 0)
	case 'a':
		b = append(b, '\a')
	case 'b':
		b = append(b, '\b')
	case 't', '\t':
		b = append(b, '\t')
	case 'n':
		b = append(b, '\n')
	case 'v':
		b = append(b, '\v')
	case 'f':
		b = append(b, '\f')
	case 'r':
		b = append(b, '\r')
	case 'e':
		b = append(b, 0x1B)
	case ' ':
		b = append(b, ' ')
	case '"':
		b = append(b, '"')
	case '\'':
		b = append(b, '\'')
	case '\\':
		b = append(b, '\\')
	case 'N':
		b = append(b, "\u0085"...)
	case '_':
		b = append(b, "\u00a0"...)
	case 'L':
		b = append(b, "\u2028"...)
	case 'P':
		b = append(b, "\u2029"...)
	case 'x':
		n = 2
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		return b, i, false
	}
	i += 2
	if n == 0 {
		return b, i, true
	}
	if i+n > len(data) {
		return b, i, false
	}
	r, ok := HexDigits(data[i : i+n])
	if !ok || r >= 0xD800 && r <= 0xDFFF || r > 0x10FFFF {
		return b, i, false
	}
	return utf8.AppendRune(b, rune(r)), i + n, true
}

// blockScalar parses the literal or folded scalar whose indicator is at i,
// in a collection indented by parent, as yaml.v3 does. pos is left on the
// line after it (after some of that line's indentation).
func (p *yamlParser) blockScalar(i, parent int) (string, bool) {
	data := p.data
	literal := data[i] == '|'
	i++
	chomp, incr := 0, 0
	digit := func() bool {
		if i < len(data) && data[i] >= '1' && data[i] <= '9' {
			incr = int(data[i] - '0')
			i++
		}
		return i >= len(data) || data[i] != '0'
	}
	sign := func() {
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			chomp = 1
			if data[i] == '-' {
				chomp = -1
			}
			i++
		}
	}
	if i < len(data) && (data[i] == '+' || data[i] == '-') {
		sign()
		if !digit() {
			return "", p.fail("indentation indicator 0")
		}
	} else {
		if !digit() {
			return "", p.fail("indentation indicator 0")
		}
		sign()
	}
	j := i
	for j < len(data) && data[j] == ' ' {
		j++
	}
	if j < len(data) && data[j] == '#' {
		if j == i {
			return "", p.fail("comment right after a token")
		}
		k := bytes.IndexByte(data[j:], '\n')
		if k < 0 {
			j = len(data)
		} else {
			j += k
		}
	}
	if j < len(data) && data[j] != '\n' {
		return "", p.fail("text after a block scalar indicator")
	}
	i = j
	if i < len(data) {
		p.nl(i)
		i++
	}
	indent := 0
	if incr > 0 {
		if parent >= 0 {
			indent = parent + incr
		} else {
			indent = incr
		}
	}
	breaks := 0
	i, col, maxIndent := p.blockBreaks(i, indent, &breaks)
	if indent == 0 {
		indent = max(maxIndent, parent+1, 1)
	}
	b := p.buf[:0]
	leadingBreak, leadingBlank := false, false
	for col == indent && i < len(data) {
		trailingBlank := data[i] == ' '
		if !literal && !leadingBlank && !trailingBlank && leadingBreak {
			if breaks == 0 {
				b = append(b, ' ')
			}
		} else if leadingBreak {
			b = append(b, '\n')
		}
		leadingBreak = false
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
		leadingBlank = data[i] == ' '
		k := bytes.IndexByte(data[i:], '\n')
		if k < 0 {
			b = append(b, data[i:]...)
			i = len(data)
		} else {
			b = append(b, data[i:i+k]...)
			p.nl(i + k)
			i += k + 1
			leadingBreak = true
		}
		i, col, _ = p.blockBreaks(i, indent, &breaks)
	}
	if chomp != -1 && leadingBreak {
		b = append(b, '\n')
	}
	if chomp == 1 {
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
	}
	p.pos = i
	p.buf = b
	return p.str(b), true
}

// blockBreaks eats indentation (up to indent, or all of it when indent is
// 0) and empty lines, counting them in breaks, as yaml.v3 does. It returns
// where the next non-empty line's text starts (or the end), its column and
// the largest indentation seen.
func (p *yamlParser) blockBreaks(i, indent int, breaks *int) (int, int, int) {
	data := p.data
	maxIndent := 0
	for {
		for (indent == 0 || i-p.lineStart < indent) && i < len(data) && data[i] == ' ' {
			i++
		}
		col := i - p.lineStart
		maxIndent = max(maxIndent, col)
		if i < len(data) && data[i] == '\n' {
			*breaks++
			p.nl(i)
			i++
			continue
		}
		return i, col, maxIndent
	}
}

// flow parses the flow collection at i, which must end on its line, and
// returns the position after it.
func (p *yamlParser) flow(i int) (int, bool) {
	if p.depth++; p.depth > yamlMaxDepth {
		return 0, p.fail("too deep")
	}
	data := p.data
	open, closer := data[i], byte(']')
	var n int32
	if open == '[' {
		n = p.node(yaml.SequenceNode, yaml.FlowStyle, "!!seq", p.line, p.column(i))
	} else {
		closer = '}'
		n = p.node(yaml.MappingNode, yaml.FlowStyle, "!!map", p.line, p.column(i))
	}
	i++
	k := 0
	for {
		i = skipSpaces(data, i)
		if i >= len(data) {
			return 0, p.fail("unclosed flow collection")
		}
		if data[i] == closer {
			// Empty, or after a trailing ','.
			break
		}
		var ok bool
		start := i
		if i, ok = p.flowNode(i); !ok {
			return 0, false
		}
		i = skipSpaces(data, i)
		if i < len(data) && data[i] == ':' {
			if i-start > 1024 {
				return 0, p.fail("long key")
			}
			if open == '[' {
				return 0, p.fail("mapping in a flow sequence")
			}
			if p.nodes[p.stack[len(p.stack)-1]].kind != yaml.ScalarNode {
				return 0, p.fail("collection as a key")
			}
			if i = skipSpaces(data, i+1); i >= len(data) || data[i] == ',' || data[i] == '}' {
				return 0, p.fail("empty value in a flow mapping")
			}
			if i, ok = p.flowNode(i); !ok {
				return 0, false
			}
			i = skipSpaces(data, i)
			k += 2
		} else if open == '{' {
			return 0, p.fail("flow mapping key without value")
		} else {
			k++
		}
		if i < len(data) && data[i] == ',' {
			i++
			continue
		}
		if i < len(data) && data[i] == closer {
			break
		}
		return 0, p.fail("unexpected character in a flow collection")
	}
	p.close(n, k)
	p.push(n)
	p.depth--
	return i + 1, true
}

func skipSpaces(data []byte, i int) int {
	for i < len(data) && data[i] == ' ' {
		i++
	}
	return i
}

// flowNode parses a flow collection or a one-line scalar at i, in the flow
// context, and returns the position after it.
func (p *yamlParser) flowNode(i int) (int, bool) {
	data := p.data
	switch c := data[i]; c {
	case '[', '{':
		return p.flow(i)
	case '"', '\'':
		style := yaml.DoubleQuotedStyle
		if c == '\'' {
			style = yaml.SingleQuotedStyle
		}
		n := p.node(yaml.ScalarNode, style, "!!str", p.line, p.column(i))
		v, ok := p.quoted(i, true)
		if !ok {
			return 0, false
		}
		p.nodes[n].value = v
		p.push(n)
		return p.pos, true
	}
	if !plainStart(data, i) {
		return 0, p.fail("indicator " + string(data[i]) + " in a flow collection")
	}
	// yaml.v3 ends a plain scalar in the flow context at ",?[]{}" and at
	// ": " or " #"; take only what ends at ",]}" or ": ".
	j, end := i, i
scan:
	for j < len(data) {
		switch data[j] {
		case ',', ']', '}':
			break scan
		case ':':
			if blankz(data, j+1) {
				break scan
			}
			switch data[j+1] {
			case ',', '[', ']', '{', '}':
				return 0, p.fail("':' in a flow scalar")
			}
		case '[', '{', '?':
			return 0, p.fail("flow indicator in a flow scalar")
		case '\n':
			return 0, p.fail("flow collection over several lines")
		case ' ':
			j++
			continue
		case '#':
			if data[j-1] == ' ' {
				return 0, p.fail("comment in a flow collection")
			}
		}
		j++
		end = j
	}
	v := p.str(data[i:end])
	p.push(p.node(yaml.ScalarNode, 0, plainTag(v), p.line, p.column(i)))
	p.nodes[len(p.nodes)-1].value = v
	return j, true
}

// --- tags -------------------------------------------------------------------

// plainTag is the tag yaml.v3 gives a plain scalar (resolve in its
// resolve.go, and "<<" by its parser), kept to the same steps so that it
// agrees on every string.
func plainTag(s string) string {
	if s == "" {
		return "!!null"
	}
	hint := resolveHint[s[0]]
	if hint == 0 {
		if s == "<<" {
			return "!!merge"
		}
		return "!!str"
	}
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	case "~", "null", "Null", "NULL":
		return "!!null"
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return "!!float"
	}
	switch hint {
	case '.':
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return "!!float"
		}
	case 'D', 'S':
		if isTimestamp(s) {
			return "!!timestamp"
		}
		plain := strings.ReplaceAll(s, "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return "!!int"
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return "!!int"
		}
		if yamlStyleFloat.MatchString(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return "!!float"
			}
		}
		if rest, ok := strings.CutPrefix(plain, "0b"); ok {
			if parseIntOrUint(rest, 2) {
				return "!!int"
			}
		} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
			if _, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
				return "!!int"
			}
		}
		if rest, ok := strings.CutPrefix(plain, "0o"); ok {
			if parseIntOrUint(rest, 8) {
				return "!!int"
			}
		} else if rest, ok := strings.CutPrefix(plain, "-0o"); ok {
			if _, err := strconv.ParseInt("-"+rest, 8, 64); err == nil {
				return "!!int"
			}
		}
	}
	return "!!str"
}

func parseIntOrUint(s string, base int) bool {
	if _, err := strconv.ParseInt(s, base, 64); err == nil {
		return true
	}
	_, err := strconv.ParseUint(s, base, 64)
	return err == nil
}

// resolveHint is yaml.v3's resolveTable: which first characters may start
// something other than a string.
var resolveHint = func() (t [256]byte) {
	t['+'], t['-'] = 'S', 'S'
	for c := '0'; c <= '9'; c++ {
		t[c] = 'D'
	}
	for _, c := range "yYnNtTfFoO~" {
		t[c] = 'M'
	}
	t['.'] = '.'
	return t
}()

var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// isTimestamp is yaml.v3's parseTimestamp.
func isTimestamp(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, format := range []string{
		"2006-1-2T15:4:5.999999999Z07:00",
		"2006-1-2t15:4:5.999999999Z07:00",
		"2006-1-2 15:4:5.999999999",
		"2006-1-2",
	} {
		if _, err := time.Parse(format, s); err == nil {
			return true
		}
	}
	return false
}
