package spec

import "bytes"

// TooDeep returns the byte offset of the first collection of data (YAML or
// JSON) that is nested more than MaxDepth levels deep, or -1. It is one
// pass over the bytes with no allocation beyond its stack of block
// indentations, so that no parser (yaml.v3, goccy/go-yaml, encoding/json,
// whose work and memory grow faster than the nesting) ever sees such input.
//
// It follows YAML's structure as far as nesting goes: flow collections
// ([ ] { }) outside quoted scalars and comments, and block collections by
// their indentation (a "- " entry or a "key:" at a greater column opens
// one, several on a line in compact notation). Block scalars, quoted
// scalars and comments are skipped, and brackets inside plain scalars of
// block context are text. The count is the number of collections that
// enclose a value, as the decoder counts: the root is at depth 0, and
// the collection at depth MaxDepth+1 is the one reported.
func TooDeep(data []byte) int {
	s := depthScan{data: data, limit: MaxDepth + 1, at: -1}
	s.run()
	return s.at
}

type depthScan struct {
	data      []byte
	i         int // next byte
	lineStart int // offset of the current line
	block     []blockLevel
	flow      int // open flow collections
	limit     int // most collections open at once
	at        int // offset of the collection past the limit, -1 while none
	max       int // most collections open at once so far
	// plain is set while a plain scalar may go on over the next lines:
	// those indented more than plainIndent.
	plain       bool
	plainIndent int
}

// blockLevel is an open block collection: its column and kind.
type blockLevel struct {
	col int
	seq bool
}

func (s *depthScan) done() bool { return s.at >= 0 || s.i >= len(s.data) }

// open counts a collection that starts at offset off.
func (s *depthScan) open(off int) {
	n := len(s.block) + s.flow
	s.max = max(s.max, n)
	if n > s.limit && s.at < 0 {
		s.at = off
	}
}

func (s *depthScan) run() {
	for !s.done() {
		s.lineStart = s.i
		for s.i < len(s.data) && s.data[s.i] == ' ' {
			s.i++
		}
		col := s.i - s.lineStart
		s.skipBlanks()
		if s.i >= len(s.data) || isEOL(s.data[s.i]) || s.data[s.i] == '#' {
			// Blank and comment lines end no collection; a comment ends
			// a plain scalar.
			s.plain = s.plain && (s.i >= len(s.data) || s.data[s.i] != '#')
			s.nextLine()
			continue
		}
		if s.plain && col > s.plainIndent && !(col == 0 && s.docMarker()) {
			// A plain scalar goes on: its words are text.
			for s.i < len(s.data) && !isEOL(s.data[s.i]) {
				if s.data[s.i] == '#' && isBlank(s.data[s.i-1]) {
					s.plain = false
					break
				}
				s.i++
			}
			s.nextLine()
			continue
		}
		s.plain = false
		if col == 0 && s.docMarker() {
			s.block = s.block[:0]
			s.i += 3
			s.skipBlanks()
			s.node(s.i-s.lineStart, false)
		} else {
			for len(s.block) > 0 && s.block[len(s.block)-1].col > col {
				s.block = s.block[:len(s.block)-1]
			}
			s.node(s.i-s.lineStart, false)
		}
		s.nextLine()
	}
}

// node reads the node that starts at s.i, column col, in block context, to
// the end of its line (or further for a flow collection or a quoted
// scalar). value says it is a mapping value: a plain scalar is then not
// a key.
func (s *depthScan) node(col int, value bool) {
	for !s.done() {
		d := s.data
		c := d[s.i]
		switch {
		case isEOL(c) || c == '#':
			return
		case (c == '-' || c == '?' || c == ':') && s.indicator(s.i):
			switch c {
			case '-':
				s.openBlock(col, true)
			case '?':
				s.openBlock(col, false)
			}
			s.i++
			s.skipBlanks()
			col = s.i - s.lineStart
			value = c == ':'
			continue
		case c == '&' || c == '!':
			// An anchor or a tag before the node. With nothing after
			// it but ": ", it is an empty mapping key.
			s.i = propertyEnd(d, s.i)
			s.skipBlanks()
			if !value && s.i < len(d) && d[s.i] == ':' && s.indicator(s.i) {
				s.openBlock(col, false)
				s.i++
				s.skipBlanks()
				col, value = s.i-s.lineStart, true
			}
			continue
		case c == '[' || c == '{':
			start := s.i
			inner := s.flowCollection()
			s.afterValue(col, value, inner, start)
			return
		case c == '"' || c == '\'':
			s.quoted()
			s.afterValue(col, value, 0, s.i)
			return
		case c == '|' || c == '>':
			s.blockScalar()
			return
		}
		// A plain scalar (or an alias): a key when ": " follows on the line.
		key := false
		for s.i < len(d) && !isEOL(d[s.i]) && !key {
			switch {
			case d[s.i] == ':' && !value && s.indicator(s.i):
				s.openBlock(col, false)
				s.i++
				s.skipBlanks()
				col, value, key = s.i-s.lineStart, true, true
			case d[s.i] == '#' && isBlank(d[s.i-1]):
				return
			default:
				s.i++
			}
		}
		if !key {
			// It may go on over the next lines.
			s.plain, s.plainIndent = true, -1
			if n := len(s.block); n > 0 {
				s.plainIndent = s.block[n-1].col
			}
			return
		}
	}
}

// afterValue reads what follows a flow collection or a quoted scalar on its
// line: ": " makes it a key, and the levels inside it (inner, from the
// collection at start) one deeper, in the mapping it opens.
func (s *depthScan) afterValue(col int, value bool, inner, start int) {
	s.skipBlanks()
	if !value && s.i < len(s.data) && s.data[s.i] == ':' && s.indicator(s.i) {
		s.openBlock(col, false)
		if n := len(s.block) + inner; inner > 0 {
			s.max = max(s.max, n)
			if n > s.limit && s.at < 0 {
				s.at = start
			}
		}
		s.i++
		s.skipBlanks()
		s.node(s.i-s.lineStart, true)
	}
}

// openBlock enters the block sequence (seq) or mapping whose entry starts
// at col.
func (s *depthScan) openBlock(col int, seq bool) {
	if n := len(s.block); n > 0 && s.block[n-1].col == col {
		top := s.block[n-1]
		if top.seq == seq {
			return // the next entry of the same collection
		}
		if !seq {
			// A key after an indentless sequence: the sequence ended.
			s.block = s.block[:n-1]
			if n > 1 && s.block[n-2].col == col {
				return
			}
		}
		// else a sequence at a key's column: a mapping value
	}
	s.block = append(s.block, blockLevel{col, seq})
	s.open(s.lineStart + col)
}

// flowFrame is an open flow collection while flowCollection reads it.
type flowFrame struct {
	seq  bool // a sequence, whose entries may be single-pair mappings
	pair bool // the current entry is a single pair ("[a: b]"), one level more
	// own is the frame's depth; entry the deepest level reached in the
	// current entry, max in the whole collection (relative to the block
	// collections around it).
	own, entry, max int
}

// flowCollection skips a flow collection, over lines, counting its depth.
// It returns the deepest level reached inside it, counted from the block
// collections around it (1 for "[a]"), for the case where it turns out to
// be a mapping key (afterValue).
//
// An entry of a flow sequence with a value indicator is a single-pair
// mapping (yaml_parser_parse_flow_sequence_entry): one level more for the
// whole entry, its key included, which the scan only learns at the ':'.
func (s *depthScan) flowCollection() int {
	d := s.data
	base := len(s.block)
	var frames []flowFrame
	// deeper records that level lvl (relative) is reached, at offset off.
	deeper := func(lvl, off int) {
		top := &frames[len(frames)-1]
		top.entry = max(top.entry, lvl)
		if n := base + lvl; n > s.max {
			s.max = n
		}
		if base+lvl > s.limit && s.at < 0 {
			s.at = off
		}
	}
	// endEntry closes the current entry of the innermost collection.
	endEntry := func() {
		top := &frames[len(frames)-1]
		top.max = max(top.max, top.entry)
		top.entry = top.own
		if top.pair {
			top.pair = false
			s.flow--
		}
	}
	// pair makes the current entry of a sequence a single-pair mapping.
	pair := func(off int) {
		top := &frames[len(frames)-1]
		if !top.seq || top.pair {
			return
		}
		top.pair = true
		s.flow++
		deeper(top.entry+1, off)
	}
	// plain: inside a plain scalar, as yaml.v3 scans a flow collection
	// (yaml_parser_scan_plain_scalar). Elsewhere a token starts at the
	// next non-blank: a quote starts a quoted scalar, & ! * a property or
	// an alias, ':' is a value indicator and '#' a comment, with no blank
	// needed before it. A plain scalar goes on over blanks and lines up to
	// one of , ? [ ] { }, a ':' before a blank, or a '#' after a blank.
	plain := false
	for s.i < len(d) && s.at < 0 {
		c := d[s.i]
		switch c {
		case '[', '{':
			s.flow++
			lvl := 1
			if len(frames) > 0 {
				lvl = frames[len(frames)-1].own + 1
				if frames[len(frames)-1].pair {
					lvl++
				}
			}
			frames = append(frames, flowFrame{seq: c == '[', own: lvl, entry: lvl, max: lvl})
			deeper(lvl, s.i)
			plain = false
		case ']', '}':
			if len(frames) == 0 { // not reached: flow > 0 has a frame
				s.i++
				return 0
			}
			endEntry()
			done := frames[len(frames)-1]
			frames = frames[:len(frames)-1]
			s.flow--
			plain = false
			if len(frames) == 0 {
				s.i++
				return done.max
			}
			top := &frames[len(frames)-1]
			top.entry = max(top.entry, done.max)
		case ',':
			if len(frames) > 0 {
				endEntry()
			}
			plain = false
		case '?':
			if !plain {
				pair(s.i)
			}
			plain = false
		case ':':
			if !plain || s.indicator(s.i) {
				plain = false
				pair(s.i)
			}
		case '"', '\'':
			if !plain {
				s.quoted()
				continue
			}
		case '#':
			if !plain || s.i == 0 || isBlank(d[s.i-1]) || isEOL(d[s.i-1]) {
				for s.i < len(d) && !isEOL(d[s.i]) {
					s.i++
				}
				plain = false
				continue
			}
		case ' ', '\t', '\r', '\n':
		case '&', '!', '*':
			if !plain {
				s.i = propertyEnd(d, s.i)
				continue
			}
		case '-':
			plain = plain || !s.indicator(s.i)
		default:
			plain = true
		}
		s.i++
	}
	// Unterminated (or stopped at the limit): what was reached.
	m := 0
	for _, f := range frames {
		m = max(m, f.max, f.entry)
		if f.pair {
			s.flow--
		}
	}
	s.flow -= len(frames)
	return m
}

// propertyEnd returns the offset just past the anchor (&name), alias
// (*name) or tag (!x, !!x, !h!x, !<x>) that starts at i, read as yaml.v3
// reads it
// (yaml_parser_scan_anchor, yaml_parser_scan_tag): an anchor's name is
// letters, digits, '_' and '-'; a tag goes on over every URI character,
// which include '[', ']' and ',', so "![[" is one tag in a flow collection
// too. (yaml.v3 then wants a blank after a tag; anything else is its
// error, and the scan goes on from there.)
func propertyEnd(d []byte, i int) int {
	if d[i] == '&' || d[i] == '*' {
		for i++; i < len(d) && isAnchorChar(d[i]); i++ {
		}
		return i
	}
	i++
	if i < len(d) && d[i] == '<' {
		// The verbatim form !<uri>.
		for i++; i < len(d) && isTagChar(d[i]); i++ {
		}
		if i < len(d) && d[i] == '>' {
			i++
		}
		return i
	}
	// A handle (! letters !) and a suffix: both are URI characters.
	for ; i < len(d) && isTagChar(d[i]); i++ {
	}
	return i
}

// isAnchorChar is yaml.v3's is_alpha: the bytes of an anchor or alias name
// and of a tag handle.
func isAnchorChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '-'
}

// isTagChar reports whether yaml.v3 reads c as part of a tag URI
// (yaml_parser_scan_tag_uri; '%' starts an escape of two hex digits, which
// are tag characters too).
func isTagChar(c byte) bool {
	if isAnchorChar(c) {
		return true
	}
	switch c {
	case ';', '/', '?', ':', '@', '&', '=', '+', '$', ',', '.', '!', '~', '*', '\'', '(', ')', '[', ']', '%':
		return true
	}
	return false
}

// quoted skips a quoted scalar, over lines; an unterminated one runs to
// the end.
func (s *depthScan) quoted() {
	d := s.data
	q := d[s.i]
	for s.i++; s.i < len(d); s.i++ {
		switch d[s.i] {
		case '\\':
			if q == '"' {
				s.i++ // an escape: the next byte is taken as it is
			}
		case q:
			if q == '\'' && s.i+1 < len(d) && d[s.i+1] == '\'' {
				s.i++ // '' is a quote
				continue
			}
			s.i++
			return
		}
	}
	s.i = len(d)
}

// blockScalar skips a literal or folded scalar: its header line, then the
// lines that are blank or indented more than the collection it is in. It
// stops at the end of its last line.
func (s *depthScan) blockScalar() {
	indent := -1
	if n := len(s.block); n > 0 {
		indent = s.block[n-1].col
	}
	d := s.data
	for {
		s.toEOL()
		next := s.i
		if next < len(d) && d[next] == '\r' {
			next++
		}
		if next < len(d) && d[next] == '\n' {
			next++
		}
		j := next
		for j < len(d) && d[j] == ' ' {
			j++
		}
		if j >= len(d) {
			s.i = len(d)
			return
		}
		if !isEOL(d[j]) && (j-next <= indent || j == next && docMarkerAt(d, next)) {
			return // the next line is not part of the scalar
		}
		s.i = next
	}
}

// indicator reports whether the byte at i (- ? :) is followed by a blank or
// a line end, as an indicator is.
func (s *depthScan) indicator(i int) bool {
	return i+1 == len(s.data) || isBlank(s.data[i+1]) || isEOL(s.data[i+1])
}

// docMarker reports whether the line at s.i starts with --- or ... .
func (s *depthScan) docMarker() bool { return docMarkerAt(s.data, s.i) }

func docMarkerAt(data []byte, i int) bool {
	d := data[i:]
	return len(d) >= 3 && (string(d[:3]) == "---" || string(d[:3]) == "...") && (len(d) == 3 || isBlank(d[3]) || isEOL(d[3]))
}

func (s *depthScan) skipBlanks() {
	for s.i < len(s.data) && isBlank(s.data[s.i]) {
		s.i++
	}
}

func (s *depthScan) toEOL() {
	if j := bytes.IndexAny(s.data[s.i:], "\r\n"); j >= 0 {
		s.i += j
	} else {
		s.i = len(s.data)
	}
}

// skipEOL passes one line break at s.i.
func (s *depthScan) skipEOL() {
	if s.i < len(s.data) && s.data[s.i] == '\r' {
		s.i++
	}
	if s.i < len(s.data) && s.data[s.i] == '\n' {
		s.i++
	}
}

// nextLine moves to the start of the next line.
func (s *depthScan) nextLine() {
	if s.i < len(s.data) && !isEOL(s.data[s.i]) {
		s.toEOL()
	}
	s.skipEOL()
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }
func isEOL(c byte) bool   { return c == '\n' || c == '\r' }
