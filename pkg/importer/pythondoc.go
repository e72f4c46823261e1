package importer

import (
	"regexp"
	"strings"
	"sync"
)

// pyDoc is what a docstring says, in any of the three styles it reads:
//
//   - Google: "Args:" (Arguments, Parameters, Params, Keyword Args,
//     Attributes) entries "name (type, optional): text", "Returns:"
//     ("type: text" or text), "Raises:" ("Error: text");
//   - NumPy: a "Parameters" header underlined with dashes, entries
//     "name : type" and their indented text, "Returns", "Raises";
//   - reST (Sphinx): ":param [type] name: text", ":type name: type",
//     ":returns: text", ":rtype: type", ":raises Error: text".
//
// The summary is the first paragraph; the detail is the rest, without the
// sections read (other sections, like Examples or Notes, stay in it).
type pyDoc struct {
	Style   string // google, numpy, rest, or "" (no sections)
	Summary string
	Detail  string
	Params  map[string]*pyDocItem
	Returns *pyDocItem
	Raises  []*pyDocItem
}

// pyDocItem is a parameter (Name), a return value or an exception (Type).
type pyDocItem struct {
	Name, Type, Text string
}

// docRE are the docstring patterns, compiled on first use (package init
// stays cheap).
var docRE = sync.OnceValue(func() *docPatterns {
	return &docPatterns{
		restField:    regexp.MustCompile(`^:(param|parameter|arg|argument|key|keyword|type|returns?|rtype|raises?|except|exception)\b([^:]*):\s?(.*)$`),
		googleHeader: regexp.MustCompile(`^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Kwargs|Other Parameters|Attributes|Returns|Return|Yields|Yield|Raises|Raise|Exceptions|Example|Examples|Note|Notes|Warning|Warnings|See Also|Todo|References|Usage):\s*$`),
		numpyUnder:   regexp.MustCompile(`^-{3,}\s*$`),
		googleParam:  regexp.MustCompile(`^\*{0,2}([A-Za-z_]\w*)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$`),
		googleTyped:  regexp.MustCompile(`^([A-Za-z_][\w.]*(?:\[[^\]]*\])?(?:\s*\|\s*[A-Za-z_][\w.\[\], ]*)*)\s*:\s+(.*)$`),
		numpyParam:   regexp.MustCompile(`^\*{0,2}([A-Za-z_]\w*(?:\s*,\s*\*{0,2}[A-Za-z_]\w*)*)\s*(?::\s*(.*))?$`),
	}
})

type docPatterns struct {
	restField, googleHeader, numpyUnder, googleParam, googleTyped, numpyParam *regexp.Regexp
}

var (
	paramSections = map[string]bool{"Args": true, "Arguments": true, "Parameters": true, "Params": true, "Keyword Args": true, "Keyword Arguments": true, "Kwargs": true, "Other Parameters": true, "Attributes": true}
	returnSects   = map[string]bool{"Returns": true, "Return": true, "Yields": true, "Yield": true}
	raiseSects    = map[string]bool{"Raises": true, "Raise": true, "Exceptions": true}
)

// parseDoc reads a cleaned docstring (ast.get_docstring(clean=True)).
func parseDoc(doc string) *pyDoc {
	d := &pyDoc{Params: map[string]*pyDocItem{}}
	lines := strings.Split(strings.ReplaceAll(doc, "\r\n", "\n"), "\n")
	// The summary: the first paragraph, unless it is a section already.
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	var summary []string
	for ; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || sectionStart(lines, i) {
			break
		}
		summary = append(summary, l)
	}
	d.Summary = strings.Join(summary, " ")
	var rest []string
	for i < len(lines) {
		switch {
		case docRE().restField.MatchString(strings.TrimSpace(lines[i])) && indent(lines[i]) == 0:
			d.Style = "rest"
			i = d.restField(lines, i)
		case i+1 < len(lines) && docRE().numpyUnder.MatchString(strings.TrimSpace(lines[i+1])) && strings.TrimSpace(lines[i]) != "" && indent(lines[i]) == 0:
			name := strings.TrimSpace(lines[i])
			end := numpySectionEnd(lines, i+2)
			if d.numpySection(name, lines[i+2:end]) {
				d.Style = "numpy"
			} else {
				rest = append(rest, lines[i:end]...)
			}
			i = end
		case docRE().googleHeader.MatchString(strings.TrimSpace(lines[i])) && indent(lines[i]) == 0:
			name := strings.TrimSuffix(strings.TrimSpace(lines[i]), ":")
			end := i + 1
			for end < len(lines) && (strings.TrimSpace(lines[end]) == "" || indent(lines[end]) > 0) {
				end++
			}
			if d.googleSection(name, lines[i+1:end]) {
				d.Style = "google"
			} else {
				rest = append(rest, lines[i:end]...)
			}
			i = end
		default:
			rest = append(rest, lines[i])
			i++
		}
	}
	d.Detail = strings.TrimSpace(dedentLines(rest))
	return d
}

// sectionStart tells whether line i starts a section of any style.
func sectionStart(lines []string, i int) bool {
	l := strings.TrimSpace(lines[i])
	if docRE().restField.MatchString(l) || docRE().googleHeader.MatchString(l) {
		return true
	}
	return i+1 < len(lines) && docRE().numpyUnder.MatchString(strings.TrimSpace(lines[i+1]))
}

func indent(l string) int {
	return len(l) - len(strings.TrimLeft(l, " \t"))
}

func dedentLines(lines []string) string {
	// trailing blank lines go; so do blank runs of more than one
	var out []string
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// joinText joins a description's lines: a paragraph's lines with spaces,
// paragraphs with a blank line.
func joinText(lines []string) string {
	var paras []string
	var cur []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			if len(cur) > 0 {
				paras = append(paras, strings.Join(cur, " "))
				cur = nil
			}
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		paras = append(paras, strings.Join(cur, " "))
	}
	return strings.Join(paras, "\n\n")
}

// restField reads the reST field at lines[i] and its indented
// continuation; it returns the index after it.
func (d *pyDoc) restField(lines []string, i int) int {
	m := docRE().restField.FindStringSubmatch(strings.TrimSpace(lines[i]))
	text := []string{m[3]}
	j := i + 1
	for j < len(lines) && strings.TrimSpace(lines[j]) != "" && indent(lines[j]) > 0 {
		text = append(text, lines[j])
		j++
	}
	body := joinText(text)
	args := strings.Fields(m[2])
	switch m[1] {
	case "param", "parameter", "arg", "argument", "key", "keyword":
		if len(args) == 0 {
			break
		}
		name := strings.TrimLeft(args[len(args)-1], "*")
		p := d.param(name)
		p.Text = body
		if len(args) > 1 {
			p.Type = strings.Join(args[:len(args)-1], " ")
		}
	case "type":
		if len(args) == 1 {
			d.param(strings.TrimLeft(args[0], "*")).Type = body
		}
	case "returns", "return":
		d.returns().Text = body
	case "rtype":
		d.returns().Type = body
	default: // raises
		typ := strings.Join(args, " ")
		d.Raises = append(d.Raises, &pyDocItem{Type: typ, Text: body})
	}
	return j
}

func (d *pyDoc) param(name string) *pyDocItem {
	p := d.Params[name]
	if p == nil {
		p = &pyDocItem{Name: name}
		d.Params[name] = p
	}
	return p
}

func (d *pyDoc) returns() *pyDocItem {
	if d.Returns == nil {
		d.Returns = &pyDocItem{}
	}
	return d.Returns
}

// entries splits a section's lines into entries: a line at the section's
// first indentation starts one, deeper lines continue it.
func entries(lines []string) [][]string {
	base := -1
	var out [][]string
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			if len(out) > 0 {
				out[len(out)-1] = append(out[len(out)-1], "")
			}
			continue
		}
		if base < 0 {
			base = indent(l)
		}
		if indent(l) <= base || len(out) == 0 {
			out = append(out, []string{strings.TrimSpace(l)})
			continue
		}
		out[len(out)-1] = append(out[len(out)-1], l)
	}
	return out
}

// googleSection reads the body of a Google section; false: not one it
// reads (Examples, Notes, ...), which stays in the detail.
func (d *pyDoc) googleSection(name string, body []string) bool {
	switch {
	case paramSections[name]:
		for _, e := range entries(body) {
			m := docRE().googleParam.FindStringSubmatch(e[0])
			if m == nil {
				continue
			}
			p := d.param(m[1])
			p.Type = strings.TrimSpace(m[2])
			p.Text = joinText(append([]string{m[3]}, e[1:]...))
		}
	case returnSects[name]:
		text := joinText(body)
		r := d.returns()
		if m := docRE().googleTyped.FindStringSubmatch(text); m != nil {
			r.Type, r.Text = m[1], m[2]
		} else {
			r.Text = text
		}
	case raiseSects[name]:
		for _, e := range entries(body) {
			typ, text, _ := strings.Cut(e[0], ":")
			d.Raises = append(d.Raises, &pyDocItem{Type: strings.TrimSpace(typ), Text: joinText(append([]string{text}, e[1:]...))})
		}
	default:
		return false
	}
	return true
}

// numpySectionEnd is the index of the next NumPy header after start.
func numpySectionEnd(lines []string, start int) int {
	for j := start; j < len(lines); j++ {
		if j+1 < len(lines) && strings.TrimSpace(lines[j]) != "" && indent(lines[j]) == 0 && docRE().numpyUnder.MatchString(strings.TrimSpace(lines[j+1])) {
			return j
		}
	}
	return len(lines)
}

// numpySection reads the body of a NumPy section.
func (d *pyDoc) numpySection(name string, body []string) bool {
	switch {
	case paramSections[name]:
		for _, e := range entries(body) {
			m := docRE().numpyParam.FindStringSubmatch(e[0])
			if m == nil {
				continue
			}
			for _, n := range strings.Split(m[1], ",") { // "x, y : int"
				p := d.param(strings.TrimLeft(strings.TrimSpace(n), "*"))
				p.Type = strings.TrimSpace(m[2])
				p.Text = joinText(e[1:])
			}
		}
	case returnSects[name]:
		es := entries(body)
		if len(es) == 0 {
			return true
		}
		r := d.returns()
		e := es[0]
		if name, typ, ok := strings.Cut(e[0], " : "); ok && !strings.ContainsAny(name, "[ ") {
			r.Type = strings.TrimSpace(typ) // "name : type"
		} else {
			r.Type = strings.TrimSpace(e[0])
		}
		r.Text = joinText(e[1:])
	case raiseSects[name]:
		for _, e := range entries(body) {
			d.Raises = append(d.Raises, &pyDocItem{Type: e[0], Text: joinText(e[1:])})
		}
	default:
		return false
	}
	return true
}

// --- types written in docstrings --------------------------------------------

// parseDocType reads a type as docstrings write it into an annotation
// tree: Python expressions (list[int], Optional[str], int | None) and the
// prose forms "int, optional", "str or None", "list of str", "{'a', 'b'}"
// (NumPy's choices), "int, default 5". ok is false for anything else.
func parseDocType(s string, at pyPos) (n *pyNode, ok bool) {
	if len(s) > maxDocType {
		return nil, false // no type: and each level of "list of ..." would read it all again
	}
	s = strings.TrimSpace(s)
	// ", optional" and ", default: x" say whether it may be left out, not
	// what it is
	for _, part := range []string{", optional", ",optional", " optional"} {
		s = strings.TrimSuffix(s, part)
	}
	if i := strings.Index(s, ", default"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, false
	}
	if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
		var args []*pyNode
		for _, c := range splitTop(s[1:len(s)-1], ',') {
			lit, ok := parseDocType(c, at)
			if !ok || lit.K != "const" {
				return nil, false
			}
			args = append(args, lit)
		}
		return &pyNode{Text: s, Pos: at, K: "sub", Base: &pyNode{Text: "Literal", Pos: at, K: "name", ID: "Literal"}, Args: args}, true
	}
	if parts := splitWord(s, " or "); len(parts) > 1 {
		var args []*pyNode
		for _, p := range parts {
			a, ok := parseDocType(p, at)
			if !ok {
				return nil, false
			}
			args = append(args, a)
		}
		return &pyNode{Text: s, Pos: at, K: "or", Args: args}, true
	}
	for _, kw := range []string{"list of ", "sequence of ", "iterable of ", "tuple of ", "set of "} {
		if rest, ok := strings.CutPrefix(s, kw); ok {
			item, ok := parseDocType(rest, at)
			if !ok {
				return nil, false
			}
			base := strings.TrimSuffix(kw, " of ")
			if base != "set" && base != "tuple" {
				base = "list"
			}
			args := []*pyNode{item}
			if base == "tuple" {
				args = append(args, &pyNode{Text: "...", Pos: at, K: "ellipsis"})
			}
			return &pyNode{Text: s, Pos: at, K: "sub", Base: &pyNode{Text: base, Pos: at, K: "name", ID: base}, Args: args}, true
		}
	}
	p := &typeParser{s: s, at: at}
	n = p.union()
	if p.err || p.i != len(p.s) {
		return nil, false
	}
	return n, true
}

// splitTop splits s at sep outside brackets and quotes.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[' || c == '(' || c == '{':
			depth++
		case c == ']' || c == ')' || c == '}':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// splitWord splits s at word outside brackets.
func splitWord(s, word string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
		default:
			if depth == 0 && strings.HasPrefix(s[i:], word) {
				out = append(out, s[start:i])
				start = i + len(word)
				i += len(word) - 1
			}
		}
	}
	return append(out, s[start:])
}

// typeParser reads the subset of Python expressions types are written in:
// dotted names, subscripts, |, string and number literals, ..., None.
type typeParser struct {
	s     string
	i     int
	at    pyPos
	err   bool
	depth int // of brackets: bounded, as Python's own parser bounds it
}

// maxDocType bounds the text of a type written in a docstring.
const maxDocType = 1000

// maxTypeDepth bounds bracket nesting in a docstring's type: deeper text
// is no type anyone writes, and the recursion must not exhaust the stack.
const maxTypeDepth = 100

func (p *typeParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

// items reads what follows a "[": types separated by commas up to the
// closing bracket, which it consumes. A missing bracket sets p.err.
func (p *typeParser) items() []*pyNode {
	if p.depth++; p.depth > maxTypeDepth {
		p.err = true
		return nil
	}
	defer func() { p.depth-- }()
	var items []*pyNode
	for p.space(); p.i < len(p.s) && p.s[p.i] != ']'; p.space() {
		items = append(items, p.union())
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
		}
		if p.err {
			return nil
		}
	}
	if p.i >= len(p.s) {
		p.err = true
		return nil
	}
	p.i++
	return items
}

func (p *typeParser) union() *pyNode {
	start := p.i
	first := p.primary()
	args := []*pyNode{first}
	for p.space(); !p.err && p.i < len(p.s) && p.s[p.i] == '|'; p.space() {
		p.i++
		args = append(args, p.primary())
	}
	if len(args) == 1 {
		return first
	}
	return &pyNode{Text: strings.TrimSpace(p.s[start:p.i]), Pos: p.at, K: "or", Args: args}
}

func (p *typeParser) primary() *pyNode {
	p.space()
	if p.err || p.i >= len(p.s) {
		p.err = true
		return nil
	}
	start := p.i
	c := p.s[p.i]
	var n *pyNode
	switch {
	case c == '\'' || c == '"':
		end := strings.IndexByte(p.s[p.i+1:], c)
		if end < 0 {
			p.err = true
			return nil
		}
		val := p.s[p.i+1 : p.i+1+end]
		p.i += end + 2
		raw, _ := jsonString(val)
		n = &pyNode{K: "const", Value: raw}
	case strings.HasPrefix(p.s[p.i:], "..."):
		p.i += 3
		n = &pyNode{K: "ellipsis"}
	case c == '-' || c >= '0' && c <= '9':
		j := p.i + 1
		for j < len(p.s) && (p.s[j] >= '0' && p.s[j] <= '9' || p.s[j] == '.') {
			j++
		}
		n = &pyNode{K: "const", Value: []byte(p.s[p.i:j])}
		p.i = j
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		j := p.i
		for j < len(p.s) && (p.s[j] == '_' || p.s[j] == '.' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z' || p.s[j] >= '0' && p.s[j] <= '9') {
			j++
		}
		id := p.s[p.i:j]
		p.i = j
		switch id {
		case "None":
			n = &pyNode{K: "const", Value: []byte("null")}
		case "True", "False":
			n = &pyNode{K: "const", Value: []byte(strings.ToLower(id))}
		default:
			n = &pyNode{K: "name", ID: id}
		}
	case c == '[': // Callable[[int], str]
		p.i++
		items := p.items()
		if p.err {
			return nil
		}
		n = &pyNode{K: "list", Items: items}
	default:
		p.err = true
		return nil
	}
	n.Pos, n.Text = p.at, p.s[start:p.i]
	p.space()
	if n.K == "name" && p.i < len(p.s) && p.s[p.i] == '[' {
		p.i++
		sub := &pyNode{Pos: p.at, K: "sub", Base: n}
		sub.Args = p.items()
		if p.err {
			return nil
		}
		sub.Text = p.s[start:p.i]
		n = sub
	}
	return n
}
