package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	goccy "github.com/goccy/go-yaml"
	goccyparser "github.com/goccy/go-yaml/parser"
	"github.com/toolctl/toolctl/internal/testhook"
	"github.com/toolctl/toolctl/pkg/spec/internal/fastnode"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
	"gopkg.in/yaml.v3"
)

// bom is the UTF-8 byte order mark.
var bom = []byte("\xef\xbb\xbf")

// MaxFileSize bounds what toolctl reads as one tool file. Real tool files are
// kilobytes; the largest real catalogue we know (LiveMCPBench) is 1.1 MB.
const MaxFileSize = 16 << 20

// File is one parsed source file: the tools it defines and every problem
// found while reading it.
//
// The syntax trees (the yaml.Nodes behind the tools) are not to be read
// for comments: the fast YAML and JSON parsers leave HeadComment,
// LineComment and FootComment empty, and only the files they refuse get
// yaml.v3's. A command that needs comments parses the source itself.
type File struct {
	Path   string
	Data   []byte
	Tools  []*Tool
	Errors []*Error
	// NotTool says what the file is when it is one of toolctl's own, not
	// a tool file (NotToolFile): it has no tools and no errors, and Load
	// leaves it out of the set.
	NotTool string

	linesOnce sync.Once
	lineStart []int // byte offset of each line

	cpMu        sync.Mutex
	checkpoints map[int][]int // long lines: see runeCheckpoints

	// After Release, positions come from a parse made on demand.
	mu       sync.Mutex
	reparsed *File
	dropped  bool // Release dropped Data

	idx spanIndex // see lookupIn
}

// Release drops the syntax trees of the file's tools, which take about 20
// times the file's size; the model stays. With dropData it drops the
// file's bytes too (Data becomes nil; Source reads the file again when
// asked). A position asked for afterwards re-parses the file once. Linting
// thousands of files releases each one after its per-tool checks, so memory
// does not grow with the set. The index of the lines goes with the bytes
// (it is made again from the text read again). Release must not run
// concurrently with other methods of f.
func (f *File) Release(dropData bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, t := range f.Tools {
		t.node = nil
	}
	f.dropIndex()
	if dropData && f.Data != nil {
		f.Data = nil
		f.dropped = true
		f.linesOnce, f.lineStart, f.checkpoints = sync.Once{}, nil, nil
	}
}

// Source returns the file's text (UTF-8), reading the file again if
// Release dropped it.
func (f *File) Source() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.source()
}

// source is Source with f.mu held. It reads the text only (ReadToolFile),
// as parse decodes it (lint reads the text of every file it reports on,
// and keeps their trees released); when that fails, ReadFile says why in
// the file's terms, and its text, if any, is used.
func (f *File) source() []byte {
	if f.dropped {
		data, err := ReadToolFile(f.Path)
		if err == nil && isUTF16(data) {
			data, err = fromUTF16(data)
		}
		if err != nil {
			data = ReadFile(f.Path).Data
		}
		f.Data = data
		f.dropped = false
	}
	return f.Data
}

func isUTF16(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF})
}

func fromUTF16(data []byte) ([]byte, error) {
	utf8Data, _, err := transform.Bytes(unicode.BOMOverride(unicode.UTF8.NewDecoder()), data)
	return utf8Data, err
}

// root returns the tool's syntax tree, re-parsing a released file.
func (t *Tool) root() *yaml.Node {
	if t.node != nil || t.File == nil {
		return t.node
	}
	f := t.File
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.reparsed == nil {
		if f.dropped {
			f.reparsed = ReadFile(f.Path)
			f.Data = f.reparsed.Data
			f.dropped = false
		} else {
			f.reparsed = ParseFile(f.Path, f.Data)
		}
	}
	for i, ft := range f.Tools {
		if ft == t && i < len(f.reparsed.Tools) {
			return f.reparsed.Tools[i].node
		}
	}
	return nil
}

// ParseFile parses the tools in data. It never fails as a whole: problems
// are collected in File.Errors with their positions, and every tool that
// could be read is in File.Tools.
//
// A panic while parsing (a bug in toolctl or a library) does not escape:
// it becomes an internal error of the file, which then defines no tools.
func ParseFile(path string, data []byte) *File { return parseFile(path, data, nil) }

// parseFile is ParseFile handing the tools of a large list to stream
// (when not nil) one at a time: LoadFilesStream.
func parseFile(path string, data []byte, stream *streamer) (f *File) {
	f = &File{Path: path, Data: data}
	if f.NotTool = NotToolFile(data); f.NotTool != "" {
		return f
	}
	d := &decoder{file: f, stream: stream}
	defer func() {
		if p := recover(); p != nil {
			f.Tools = nil
			f.Errors = append(append(f.Errors, d.errs...), f.internalError(p))
		}
	}()
	testhook.Check("parse", path)
	f.parse(d)
	f.Errors = append(f.Errors, d.errs...)
	return f
}

func (f *File) fail(p Pos, format string, args ...any) {
	f.Errors = append(f.Errors, &Error{File: f.Path, Span: Span{Start: p, End: Pos{Line: p.Line, Col: p.Col + 1}}, Message: fmt.Sprintf(format, args...)})
}

func (f *File) tooLarge(size int) { f.fail(Pos{Line: 1, Col: 1}, "%s", TooLargeMsg(size)) }

// TooLargeMsg says that input of size bytes is over MaxFileSize.
func TooLargeMsg(size int) string {
	return fmt.Sprintf("file is %s, more than the %s a tool file may have; is it really a tool definition?", humanSize(size), humanSize(MaxFileSize))
}

func (f *File) parse(d *decoder) {
	data := f.Data
	if len(data) > MaxFileSize {
		f.tooLarge(len(data))
		return
	}
	// UTF-16 (with a byte order mark) is valid YAML; read it as UTF-8 so
	// positions and source lines work the same.
	if isUTF16(data) {
		utf8Data, err := fromUTF16(data)
		if err != nil {
			f.fail(Pos{Line: 1, Col: 1}, "invalid UTF-16: %v; save the file as UTF-8", err)
			return
		}
		data = utf8Data
		f.Data = data
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		f.fail(f.PosAt(i), "binary data (a NUL byte); a tool file is YAML or JSON text")
		return
	}
	if !utf8.Valid(data) {
		f.fail(f.PosAt(FirstInvalidUTF8(data)), "invalid UTF-8; save the file as UTF-8")
		return
	}
	// yaml.v3's scanner is most of lint's time; fastnode.ParseYAML builds the
	// same tree (without comments) for the YAML it is sure of, always with
	// a mapping or a sequence at the root, and the rest takes the path
	// below, which gives the errors. JSON is YAML: a .yaml file that holds
	// a JSON object or array gets the JSON parser's tree.
	big := d.stream != nil && len(data) >= d.stream.min
	if !f.isJSON() && fastnode.UseYAML {
		// A "---" line: maybe a stream of documents (ParseYAMLDocs).
		multi := bytes.Contains(data, []byte("\n---"))
		if big && (f.streamYAMLList(d, data) || multi && f.yamlDocs(d, data)) {
			return
		}
		d.stream.wholeParse(data)
		doc, ok := fastnode.ParseYAML(data)
		if !ok {
			if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
				doc, ok = fastnode.ParseJSONAsYAML(data)
			}
		}
		if ok {
			f.document(d, resolve(doc.Content[0]), 0)
			return
		}
		if multi && !big && f.yamlDocs(d, data) {
			return
		}
	}
	// A .json file is read by JSON's rules, which yaml.v3 does not follow
	// in everything (surrogate pairs, \/, DEL in a string...): ParseJSON
	// takes every valid JSON document and builds the tree yaml.v3 would
	// build where the two agree. Invalid JSON takes the path below, for
	// its errors.
	if f.isJSON() && fastnode.UseJSON {
		if big && f.streamList(d, data) {
			return
		}
		d.stream.wholeParse(data)
		doc, bad, ok := fastnode.ParseJSON(data)
		if bad != nil {
			f.surrogateError(bad)
			return
		}
		if ok {
			if isNull(doc.Content[0]) {
				f.fail(Pos{Line: 1, Col: 1}, "no tool in this file: it is empty or holds only comments; add a tool definition (toolctl schema describes the format)")
				return
			}
			f.document(d, resolve(doc.Content[0]), 0)
			return
		}
	}
	// What follows (yaml.v3, encoding/json and goccy/go-yaml for errors)
	// takes time and memory that grow faster than the nesting: refuse
	// nesting past the limit before any of them runs.
	if off := TooDeep(bytes.TrimPrefix(data, bom)); off >= 0 {
		f.fail(f.PosAt(off+len(data)-len(bytes.TrimPrefix(data, bom))), "%s", TooDeepMsg)
		return
	}
	// YAML accepts things JSON does not (trailing commas, comments), and
	// providers read these files as JSON: hold .json files to JSON.
	if f.isJSON() {
		if !json.Valid(bytes.TrimPrefix(data, bom)) {
			if e := f.jsonSyntaxError(); e != nil {
				f.Errors = append(f.Errors, e)
				return
			}
		} else if bad := FindUnpairedSurrogate(data); bad != nil {
			f.surrogateError(bad)
			return
		}
	}
	d.stream.wholeParse(data)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	index := 0
	sawDoc := false
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err == io.EOF {
			break
		}
		if err != nil {
			// A file that is not valid YAML/JSON defines nothing, even
			// when earlier documents in it could be read.
			f.Errors = append(f.Errors, f.syntaxError(err))
			f.Tools = nil
			return
		}
		// So does a file with a YAML tag toolctl cannot take at its word.
		if f.checkTags(&doc) > 0 {
			f.Tools = nil
			return
		}
		if len(doc.Content) == 0 || isNull(doc.Content[0]) {
			continue
		}
		sawDoc = true
		index = f.document(d, resolve(doc.Content[0]), index)
	}
	if !sawDoc && len(f.Errors) == 0 {
		f.fail(Pos{Line: 1, Col: 1}, "no tool in this file: it is empty or holds only comments; add a tool definition (toolctl schema describes the format)")
	}
}

// document reads one YAML document: a tool, a list of tools or {tools: [...]}.
func (f *File) document(d *decoder, root *yaml.Node, index int) int {
	switch root.Kind {
	case yaml.MappingNode:
		if tools := ContainerTools(root); tools != nil {
			list := resolve(tools)
			if list.Kind != yaml.SequenceNode {
				d.errorf(tools, "/tools", "tools: expected a list of tools, got %s", KindName(tools))
				return index
			}
			if len(list.Content) == 0 {
				d.errorf(tools, "/tools", "no tool in this file: the tools list is empty")
			}
			for i, item := range list.Content {
				index = f.listItem(d, item, "/tools/"+strconv.Itoa(i), index)
			}
			return index
		}
		f.addTool(d.tool(root, "", index))
		return index + 1
	case yaml.SequenceNode:
		if len(root.Content) == 0 {
			d.errorf(root, "", "no tool in this file: the list is empty")
		}
		for i, item := range root.Content {
			index = f.listItem(d, item, "/"+strconv.Itoa(i), index)
		}
		return index
	default:
		d.errorf(root, "", "expected a tool definition (a mapping with name, description, ...) or a list of them, got %s", KindName(root))
		return index
	}
}

func (f *File) listItem(d *decoder, item *yaml.Node, ptr string, index int) int {
	n := resolve(item)
	if n == nil || n.Kind != yaml.MappingNode {
		d.errorf(item, ptr, "expected a tool (a mapping with name, description, ...), got %s", KindName(item))
		return index
	}
	f.addTool(d.tool(n, ptr, index))
	return index + 1
}

func (f *File) addTool(t *Tool) {
	if t != nil {
		f.Tools = append(f.Tools, t)
	}
}

// ContainerTools returns the value of "tools" when the mapping is a
// container ({tools: [...]}) rather than a tool: it has no name.
func ContainerTools(n *yaml.Node) *yaml.Node {
	var tools *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case "name":
			return nil
		case "tools":
			tools = n.Content[i+1]
		}
	}
	return tools
}

// --- positions ----------------------------------------------------------

// lines breaks the text where yaml.v3 counts a new line, so that the line
// of every node it (or the JSON parser) reports exists here: at LF, CR LF,
// a lone CR (old Mac line ends), and NEL, LS and PS (U+0085, U+2028,
// U+2029), which YAML 1.1 counts as line breaks too.
func (f *File) lines() []int {
	f.linesOnce.Do(func() {
		data := f.Source()
		f.lineStart = append(f.lineStart, 0)
		for i, b := range data {
			switch b {
			case '\n':
				f.lineStart = append(f.lineStart, i+1)
			case '\r':
				if i+1 == len(data) || data[i+1] != '\n' {
					f.lineStart = append(f.lineStart, i+1)
				}
			case 0xC2, 0xE2:
				if n := unusualBreak(data[i:]); n > 0 {
					f.lineStart = append(f.lineStart, i+n)
				}
			}
		}
	})
	return f.lineStart
}

// unusualBreak is the length of the NEL, LS or PS that b starts with, or 0.
func unusualBreak(b []byte) int {
	switch {
	case len(b) >= 2 && b[0] == 0xC2 && b[1] == 0x85:
		return 2
	case len(b) >= 3 && b[0] == 0xE2 && b[1] == 0x80 && (b[2] == 0xA8 || b[2] == 0xA9):
		return 3
	}
	return 0
}

// Line returns the text of 1-based line n without its line break.
func (f *File) Line(n int) string { return string(f.lineBytes(n)) }

// LineCount is the number of lines (a last line without a line break
// counts).
func (f *File) LineCount() int { return len(f.lines()) }

// PosAt converts a byte offset into a position.
func (f *File) PosAt(offset int) Pos {
	ls := f.lines()
	line := 0
	lo, hi := 0, len(ls)-1
	for lo <= hi {
		mid := (lo + hi) / 2
		if ls[mid] <= offset {
			line = mid
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	data := f.Source()
	offset = max(0, min(offset, len(data)))
	start, col := ls[line], 0
	if cp := f.runeCheckpoints(line + 1); cp != nil {
		k, _ := slices.BinarySearch(cp, offset-start+1)
		k--
		start, col = start+cp[k], k*checkpointRunes
	}
	return Pos{Line: line + 1, Col: col + utf8.RuneCount(data[start:offset]) + 1}
}

// checkpointRunes: a line longer than this many bytes gets the byte offset
// of every checkpointRunes-th rune, so that converting between columns and
// offsets on it is not linear in the line. A minified JSON file is one
// line of hundreds of kilobytes, with a position for every token.
const checkpointRunes = 1024

// runeCheckpoints returns, for a long line n (1-based), the byte offsets
// from the line's start of runes 0, checkpointRunes, 2*checkpointRunes,
// ...; nil for a short line.
func (f *File) runeCheckpoints(n int) []int {
	ls := f.lines()
	if n < 1 || n > len(ls) {
		return nil // a line a parser counts and this text does not
	}
	data := f.Source()
	end := len(data)
	if n < len(ls) {
		end = ls[n]
	}
	if end-ls[n-1] <= checkpointRunes {
		return nil
	}
	f.cpMu.Lock()
	defer f.cpMu.Unlock()
	if cp, ok := f.checkpoints[n]; ok {
		return cp
	}
	line := data[ls[n-1]:end]
	cp := []int{0}
	for i, runes := 0, 0; i < len(line); runes++ {
		if runes > 0 && runes%checkpointRunes == 0 {
			cp = append(cp, i)
		}
		_, size := utf8.DecodeRune(line[i:])
		i += size
	}
	if f.checkpoints == nil {
		f.checkpoints = map[int][]int{}
	}
	f.checkpoints[n] = cp
	return cp
}

// colOffset is the byte offset in line n (1-based) of 1-based column col,
// counted in runes; past the end it is the line's length.
func (f *File) colOffset(n, col int, line []byte) int {
	i, runes := 0, 0
	if cp := f.runeCheckpoints(n); cp != nil {
		k := min((col-1)/checkpointRunes, len(cp)-1)
		i, runes = cp[k], k*checkpointRunes
	}
	for ; runes < col-1 && i < len(line); runes++ {
		_, size := utf8.DecodeRune(line[i:])
		i += size
	}
	return min(i, len(line))
}

// lineBytes is line n (1-based) without its line break, not copied.
func (f *File) lineBytes(n int) []byte {
	ls := f.lines()
	if n < 1 || n > len(ls) {
		return nil
	}
	data := f.Source()
	end := len(data)
	if n < len(ls) {
		end = ls[n]
		switch {
		case data[end-1] == '\n':
			end--
			if end > ls[n-1] && data[end-1] == '\r' {
				end--
			}
		case data[end-1] == '\r':
			end--
		case data[end-1] == 0x85:
			end -= 2
		default: // LS, PS
			end -= 3
		}
	}
	return data[ls[n-1]:end]
}

// span computes the source range of a node. The end is exact for one-line
// scalars (plain, quoted, aliases) and one character past the start otherwise.
func (f *File) span(n *yaml.Node) Span {
	start := Pos{Line: n.Line, Col: n.Column}
	end := Pos{Line: n.Line, Col: n.Column + 1}
	switch {
	case n.Kind == yaml.AliasNode:
		end.Col = n.Column + 1 + utf8.RuneCountInString(n.Value)
	case n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0:
		if n.Column < 1 {
			break
		}
		line := f.lineBytes(n.Line)
		i := f.colOffset(n.Line, n.Column, line)
		if i >= len(line) {
			break
		}
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			end.Col = n.Column + quotedLen(line[i:])
		} else if !strings.Contains(n.Value, "\n") {
			end.Col = n.Column + utf8.RuneCountInString(n.Value)
		}
	}
	if end.Col <= start.Col {
		end.Col = start.Col + 1
	}
	return Span{Start: start, End: end}
}

// quotedLen is the length in runes of the quoted scalar at the start of s,
// quotes included, or of the rest of the line when it continues further.
func quotedLen(s []byte) int {
	q := s[0] // ' or ", one byte
	runes := 1
	for i := 1; i < len(s); runes++ {
		switch {
		case q == '"' && s[i] == '\\' && i+1 < len(s):
			_, size := utf8.DecodeRune(s[i+1:])
			i += 1 + size
			runes++
			continue
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i += 2
			runes++
			continue
		case s[i] == q:
			return runes + 1
		}
		_, size := utf8.DecodeRune(s[i:])
		i += size
	}
	return runes
}

// FirstInvalidUTF8 is the offset of the first byte that is not valid
// UTF-8, or len(b).
func FirstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}

func humanSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// --- syntax errors ---------------------------------------------------------

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// syntaxError turns a yaml.v3 error into a positioned Error. yaml.v3 gives
// only a line, and for parser (not scanner) errors a 0-based one, so the exact
// position comes from goccy/go-yaml, and for JSON files from encoding/json.
func (f *File) syntaxError(err error) *Error {
	msg := err.Error()
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	if f.isJSON() {
		if e := f.jsonSyntaxError(); e != nil {
			return e
		}
	}
	if msg == "found invalid Unicode character escape code" {
		if e := f.yamlSurrogateError(max(line, 1)); e != nil { // 0: none given, line 1
			return e
		}
	}
	if msg == "control characters are not allowed" {
		if e := f.controlCharError(); e != nil {
			return e
		}
	}
	scanner := isScannerProblem(msg)
	if line == 0 || !scanner {
		line++
	}
	var p Pos
	var gmsg string
	ok := false
	// yaml.v3 stops at 10,000 levels; goccy would take gigabytes there.
	if !strings.Contains(msg, "exceeded max depth") {
		p, gmsg, ok = f.goccyPosition(line)
	}
	// A scanner error's line from yaml.v3 is exact; goccy sometimes points
	// at the start of the token the problem ends (a multi-line plain
	// scalar). Trust yaml.v3's line then.
	if !ok || (scanner && p.Line != line) {
		p, gmsg = f.columnIn(line, msg), msg
	}
	// yaml.v3 reports a tab in indentation at the line before it (where
	// the open key started); point at the tab itself.
	if strings.Contains(msg, "found a tab character") {
		if tp, ok := f.tabInIndent(line); ok {
			p, gmsg = tp, msg
		}
	}
	// yaml.v3 can count a line past the end ("#\r\n:" is an error at
	// line 3 of 2): point at the end of the file instead.
	if n := f.LineCount(); p.Line > n {
		p = f.PosAt(len(f.Data))
	}
	return &Error{File: f.Path, Span: Span{Start: p, End: Pos{Line: p.Line, Col: p.Col + 1}}, Message: "YAML syntax error: " + f.hint(p, gmsg)}
}

func (f *File) isJSON() bool { return strings.EqualFold(filepath.Ext(f.Path), ".json") }

// tabInIndent finds the first tab in the indentation of a line from
// line on.
func (f *File) tabInIndent(line int) (Pos, bool) {
	for l := max(line, 1); l <= line+3; l++ {
		for i, b := range f.lineBytes(l) {
			if b == '\t' {
				return Pos{Line: l, Col: i + 1}, true // the indentation is ASCII
			}
			if b != ' ' {
				break
			}
		}
	}
	return Pos{}, false
}

// columnIn finds the column of a problem yaml.v3 located only by line: the
// colon of a misplaced mapping value, else the line's first token.
func (f *File) columnIn(line int, msg string) Pos {
	text := f.lineBytes(line)
	indent := 0
	for indent < len(text) && (text[indent] == ' ' || text[indent] == '\t') {
		indent++
	}
	if strings.HasPrefix(msg, "mapping values are not allowed") {
		for i := indent; i < len(text); i++ {
			if text[i] == ':' && (i+1 == len(text) || text[i+1] == ' ') {
				return Pos{Line: line, Col: utf8.RuneCount(text[:i]) + 1}
			}
		}
	}
	return Pos{Line: line, Col: indent + 1}
}

func (f *File) hint(p Pos, msg string) string {
	line := f.lineBytes(p.Line)
	if p.Col >= 1 {
		if i := f.colOffset(p.Line, p.Col, line); i < len(line) && line[i] == '\t' {
			return msg + " (YAML indentation must use spaces, not tabs)"
		}
	}
	if strings.Contains(msg, "tab character") {
		return msg + " (YAML indentation must use spaces, not tabs)"
	}
	return msg
}

// Parser (not scanner) problems in yaml.v3 report a 0-based line.
func isScannerProblem(msg string) bool {
	for _, p := range []string{
		"did not find expected ',' or ']'", "did not find expected ',' or '}'",
		"did not find expected '-' indicator", "did not find expected <document start>",
		"did not find expected key", "did not find expected node content",
		"found duplicate %", "found incompatible YAML document", "found undefined tag handle",
	} {
		if strings.HasPrefix(msg, p) {
			return false
		}
	}
	return true
}

// goccyMaxBytes bounds the text goccy/go-yaml parses to place a syntax
// error: it takes some 400 bytes of memory per byte of input.
const goccyMaxBytes = 64 << 10

// goccyPosition is where goccy/go-yaml places the syntax error that yaml.v3
// reported at line. A larger file than goccyMaxBytes is not parsed whole:
// goccy reads the lines from the last one at column 0 (a top-level key or
// item) through line+1, if they are few enough, and its answer counts only
// when it is about line.
func (f *File) goccyPosition(line int) (Pos, string, bool) {
	src, first := f.Data, 1
	if len(src) > goccyMaxBytes {
		ls := f.lines()
		if line < 1 || line > len(ls) {
			return Pos{}, "", false
		}
		end := len(src)
		if line+1 < len(ls) {
			end = ls[line+1]
		}
		first = line
		for first > 1 && end-ls[first-1] <= goccyMaxBytes && (ls[first-1] == len(src) || !topLevelLine(src[ls[first-1]])) {
			first--
		}
		if end-ls[first-1] > goccyMaxBytes {
			return Pos{}, "", false
		}
		src = src[ls[first-1]:end]
	}
	_, err := goccyparser.ParseBytes(src, 0)
	var se *goccy.SyntaxError
	if err == nil || !errors.As(err, &se) || se.Token == nil || se.Token.Position == nil {
		return Pos{}, "", false
	}
	p := Pos{Line: se.Token.Position.Line + first - 1, Col: se.Token.Position.Column}
	if p.Line < first || first > 1 && (p.Line < line-1 || p.Line > line+1) {
		return Pos{}, "", false
	}
	if p.Col < 1 {
		p.Col = 1
	}
	return p, se.Message, true
}

// topLevelLine reports whether a line that starts with c starts at column
// 0 with content: a key, an item, a document marker.
func topLevelLine(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '#':
		return false
	}
	return true
}

// jsonSyntaxError explains a JSON file yaml.v3 could not read, at the exact
// offset encoding/json reports.
func (f *File) jsonSyntaxError() *Error {
	data := f.Data
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		data = data[3:]
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var first json.RawMessage
	err := dec.Decode(&first)
	offset := len(f.Data) - len(data)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		p := f.PosAt(offset + int(se.Offset) - 1)
		return &Error{File: f.Path, Span: Span{Start: p, End: Pos{Line: p.Line, Col: p.Col + 1}}, Message: "JSON syntax error: " + se.Error()}
	case errors.Is(err, io.ErrUnexpectedEOF):
		p := f.PosAt(len(f.Data))
		return &Error{File: f.Path, Span: Span{Start: p, End: Pos{Line: p.Line, Col: p.Col + 1}}, Message: "JSON syntax error: unexpected end of file; a bracket or brace is not closed"}
	case err == nil:
		rest := int(dec.InputOffset())
		for rest < len(data) && (data[rest] == ' ' || data[rest] == '\n' || data[rest] == '\r' || data[rest] == '\t') {
			rest++
		}
		if rest >= len(data) {
			return nil
		}
		p := f.PosAt(offset + rest)
		if dec.More() {
			return &Error{File: f.Path, Span: Span{Start: p, End: Pos{Line: p.Line, Col: p.Col + 1}},
				Message: "a second JSON value starts here: a tool file holds one JSON document (this looks like JSON Lines); put the tools in one JSON array"}
		}
		// A closing bracket or brace too many.
		return &Error{File: f.Path, Span: Span{Start: p, End: Pos{Line: p.Line, Col: p.Col + 1}},
			Message: fmt.Sprintf("JSON syntax error: %q after the end of the JSON value; remove it (a bracket or brace too many?)", data[rest])}
	}
	return nil
}
