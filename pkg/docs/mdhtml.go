package docs

import (
	"html"
	"strconv"
	"strings"
)

// A small Markdown to HTML renderer for the HTML pages: tool files carry
// Markdown (detail, and `code` in descriptions), and go.mod has no Markdown
// library. It covers what tool docs use — paragraphs, headings, lists
// (nested), block quotes, fenced and indented code, GFM tables, rules, code
// spans, emphasis, links and autolinks — and escapes everything else: raw
// HTML in a tool file is shown as text, never interpreted, and links keep
// only http, https, mailto and relative targets.

// esc escapes text for HTML element content and attribute values.
func esc(s string) string { return html.EscapeString(s) }

// inlineHTML renders one piece of inline Markdown.
func inlineHTML(s string) string {
	var b strings.Builder
	writeInline(&b, s)
	return b.String()
}

func writeInline(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isPunct(s[i+1]):
			b.WriteString(esc(s[i+1 : i+2]))
			i += 2
			continue
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			b.WriteString("<br>\n")
			i += 2
			continue
		case c == '`':
			n := runOf(s, i, '`')
			if end := closingRun(s, i+n, n); end >= 0 {
				b.WriteString("<code>" + esc(codeContent(s[i+n:end])) + "</code>")
				i = end + n
			} else {
				b.WriteString(s[i : i+n])
				i += n
			}
			continue
		case c == '*' || c == '_':
			if n := emphasis(b, s, i); n > 0 {
				i += n
				continue
			}
		case c == '[':
			if n := linkAt(b, s, i); n > 0 {
				i += n
				continue
			}
		case c == '<':
			if m := autolinkRe().FindStringSubmatch(s[i:]); m != nil {
				b.WriteString(`<a href="` + esc(m[1]) + `">` + esc(m[1]) + "</a>")
				i += len(m[0])
				continue
			}
		}
		b.WriteString(esc(s[i : i+1]))
		i++
	}
}

var autolinkRe = lazyRegexp(`^<((?:https?://|mailto:)[^\s<>]+)>`)

func isPunct(c byte) bool {
	return c < 0x80 && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// codeContent is a code span's text: line ends become spaces, and one
// space is stripped from each side when both have one (CommonMark).
func codeContent(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) >= 2 && s[0] == ' ' && s[len(s)-1] == ' ' && strings.TrimSpace(s) != "" {
		s = s[1 : len(s)-1]
	}
	return s
}

// emphasis writes **strong** or *em* (_em_ only between words' edges, so
// snake_case names stay as they are) starting at i, and returns the bytes
// used; 0 when there is none.
func emphasis(b *strings.Builder, s string, i int) int {
	c := s[i]
	if c == '_' && i > 0 && isWordByte(s[i-1]) {
		return 0
	}
	for _, n := range []int{3, 2, 1} {
		delim := strings.Repeat(string(c), n)
		if !strings.HasPrefix(s[i:], delim) || i+n >= len(s) || s[i+n] == ' ' || s[i+n] == c {
			continue
		}
		end := findDelim(s, i+n, delim)
		if end < 0 || s[end-1] == ' ' {
			continue
		}
		if c == '_' && end+n < len(s) && isWordByte(s[end+n]) {
			continue
		}
		tags := emphasisTags[n]
		b.WriteString(tags[0])
		writeInline(b, s[i+n:end])
		b.WriteString(tags[1])
		return end + n - i
	}
	return 0
}

// emphasisTags by delimiter length: *em*, **strong**, ***both***.
var emphasisTags = [...][2]string{1: {"<em>", "</em>"}, 2: {"<strong>", "</strong>"}, 3: {"<strong><em>", "</em></strong>"}}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// findDelim finds delim from i, skipping escapes and code spans.
func findDelim(s string, i int, delim string) int {
	for i < len(s) {
		switch {
		case s[i] == '\\':
			i += 2
		case s[i] == '`':
			i = skipCode(s, i)
		case strings.HasPrefix(s[i:], delim):
			// A longer run (*** for *) is not this delimiter.
			if len(delim) == 1 && i+1 < len(s) && s[i+1] == delim[0] {
				i += runOf(s, i, delim[0])
				continue
			}
			return i
		default:
			i++
		}
	}
	return -1
}

// linkAt writes [text](url) at i and returns the bytes used; 0 when s[i:]
// is not a link. An unsafe target keeps the text and drops the link.
func linkAt(b *strings.Builder, s string, i int) int {
	text, target, n := parseLink(s, i)
	if n == 0 {
		return 0
	}
	if safeURL(target) {
		b.WriteString(`<a href="` + esc(target) + `">`)
		writeInline(b, text)
		b.WriteString("</a>")
	} else {
		writeInline(b, text)
	}
	return n
}

// parseLink reads an inline link [text](target "title") at s[i] (a '['),
// and returns its text, its target and its length; n is 0 when there is
// none. Brackets and parentheses nest, code spans and escapes are skipped,
// as in CommonMark.
func parseLink(s string, i int) (text, target string, n int) {
	depth := 0
	j := i
	for ; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
			continue
		case '`':
			j = skipCode(s, j) - 1
			continue
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if j+1 >= len(s) || s[j+1] != '(' {
		return "", "", 0
	}
	end, parens := -1, 0
	for k := j + 2; k < len(s) && end < 0; k++ {
		switch s[k] {
		case '\\':
			k++
		case '(':
			parens++
		case ')':
			if parens == 0 {
				end = k
			}
			parens--
		}
	}
	if end < 0 {
		return "", "", 0
	}
	target = strings.TrimSpace(s[j+2 : end])
	// An optional "title" after the target is dropped.
	if k := strings.IndexAny(target, " \t"); k >= 0 {
		target = target[:k]
	}
	target = strings.TrimSuffix(strings.TrimPrefix(target, "<"), ">")
	return s[i+1 : j], target, end + 1 - i
}

// safeURL allows http, https, mailto and scheme-less (relative) targets:
// no javascript:, data: or vbscript: from a tool file.
func safeURL(u string) bool {
	if u == "" || strings.ContainsAny(u, "\x00\r\n\t <>`") {
		return false
	}
	colon := strings.IndexByte(u, ':')
	if colon < 0 || strings.ContainsAny(u[:colon], "/?#") {
		return true
	}
	switch strings.ToLower(u[:colon]) {
	case "http", "https", "mailto":
		return true
	}
	return false
}

var (
	mdFenceRe   = lazyRegexp("^( {0,3})(`{3,}|~{3,})\\s*([^`\\s]*)")
	mdHeadingRe = lazyRegexp(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	mdRuleRe    = lazyRegexp(`^ {0,3}((\*[ \t]*){3,}|(-[ \t]*){3,}|(_[ \t]*){3,})$`)
	mdQuoteRe   = lazyRegexp(`^ {0,3}> ?`)
	mdListRe    = lazyRegexp(`^( {0,3})([-+*]|(\d{1,9})[.)])( +|$)`)
	mdDelimRe   = lazyRegexp(`^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$`)
)

// blocksHTML renders block Markdown.
func blocksHTML(src string) string {
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		lines[i] = expandTabs(l)
	}
	var b strings.Builder
	writeBlocks(&b, lines, false)
	return b.String()
}

func expandTabs(l string) string {
	if !strings.Contains(l, "\t") {
		return l
	}
	var b strings.Builder
	col := 0
	for _, r := range l {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

func isBlank(l string) bool { return strings.TrimSpace(l) == "" }

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// startsBlock reports whether a line interrupts a paragraph.
func startsBlock(l string) bool {
	return mdFenceRe().MatchString(l) || mdHeadingRe().MatchString(l) || mdRuleRe().MatchString(l) || mdQuoteRe().MatchString(l) || mdListRe().MatchString(l)
}

// writeBlocks renders lines; tight drops the <p> of paragraphs (the items
// of a tight list).
func writeBlocks(b *strings.Builder, lines []string, tight bool) {
	for i := 0; i < len(lines); {
		l := lines[i]
		switch {
		case isBlank(l):
			i++
		case mdFenceRe().MatchString(l):
			i = writeFence(b, lines, i)
		case mdHeadingRe().MatchString(l):
			m := mdHeadingRe().FindStringSubmatch(l)
			tag := "h" + strconv.Itoa(len(m[1]))
			b.WriteString("<" + tag + ">" + inlineHTML(strings.TrimSpace(m[2])) + "</" + tag + ">\n")
			i++
		case mdRuleRe().MatchString(l):
			b.WriteString("<hr>\n")
			i++
		case mdQuoteRe().MatchString(l):
			var inner []string
			for ; i < len(lines) && mdQuoteRe().MatchString(lines[i]); i++ {
				inner = append(inner, mdQuoteRe().ReplaceAllString(lines[i], ""))
			}
			b.WriteString("<blockquote>\n")
			writeBlocks(b, inner, false)
			b.WriteString("</blockquote>\n")
		case mdListRe().MatchString(l):
			i = writeList(b, lines, i)
		case i+1 < len(lines) && strings.Contains(l, "|") && mdDelimRe().MatchString(lines[i+1]) && strings.Contains(lines[i+1], "-"):
			i = writeTable(b, lines, i)
		case indentOf(l) >= 4:
			var code []string
			for ; i < len(lines) && (isBlank(lines[i]) || indentOf(lines[i]) >= 4); i++ {
				code = append(code, strings.TrimPrefix(lines[i], "    "))
			}
			for len(code) > 0 && isBlank(code[len(code)-1]) {
				code = code[:len(code)-1]
			}
			b.WriteString("<pre><code>" + esc(strings.Join(code, "\n")) + "</code></pre>\n")
		default:
			var para []string
			for ; i < len(lines) && !isBlank(lines[i]) && (len(para) == 0 || !startsBlock(lines[i])); i++ {
				para = append(para, strings.TrimSpace(lines[i]))
			}
			text := inlineHTML(strings.Join(para, "\n"))
			if tight {
				b.WriteString(text + "\n")
			} else {
				b.WriteString("<p>" + text + "</p>\n")
			}
		}
	}
}

func writeFence(b *strings.Builder, lines []string, i int) int {
	m := mdFenceRe().FindStringSubmatch(lines[i])
	indent, fence, lang := len(m[1]), m[2], m[3]
	var code []string
	i++
	for ; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if indentOf(l) < 4 && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
			i++
			break
		}
		// Content loses up to the opening fence's indentation.
		code = append(code, l[min(indent, indentOf(l)):])
	}
	class := ""
	if lang != "" {
		class = ` class="language-` + esc(lang) + `"`
	}
	b.WriteString("<pre><code" + class + ">" + esc(strings.Join(code, "\n")) + "</code></pre>\n")
	return i
}

// writeList renders the list starting at lines[i]; items are the lines
// indented under their marker (plus lazy continuation lines).
func writeList(b *strings.Builder, lines []string, i int) int {
	first := mdListRe().FindStringSubmatch(lines[i])
	ordered := first[3] != ""
	kind := first[2][len(first[2])-1:] // "-", "+", "*", "." or ")"
	var items [][]string
	loose := false
	for i < len(lines) {
		m := mdListRe().FindStringSubmatch(lines[i])
		if m == nil || (m[3] != "") != ordered || m[2][len(m[2])-1:] != kind {
			break
		}
		// The content column: after the marker and its spaces, or one
		// space after the marker when it is followed by 5+ or none.
		w := len(m[0])
		if len(m[4]) > 4 || len(m[4]) == 0 {
			w = len(m[1]) + len(m[2]) + 1
		}
		item := []string{lines[i][min(w, len(lines[i])):]}
		i++
		for i < len(lines) {
			l := lines[i]
			switch {
			case isBlank(l):
				item = append(item, "")
			case indentOf(l) >= w:
				item = append(item, l[w:])
			case !isBlank(item[len(item)-1]) && !startsBlock(l):
				item = append(item, strings.TrimLeft(l, " ")) // lazy continuation
			default:
				goto done
			}
			i++
		}
	done:
		trailing := 0
		for len(item) > 1 && isBlank(item[len(item)-1]) {
			item = item[:len(item)-1]
			trailing++
		}
		for _, x := range item {
			if isBlank(x) {
				loose = true
			}
		}
		items = append(items, item)
		if trailing > 0 {
			if i < len(lines) && mdListRe().MatchString(lines[i]) {
				loose = true
			} else {
				break
			}
		}
	}
	open, closeTag := "<ul>", "</ul>"
	if ordered {
		open, closeTag = "<ol>", "</ol>"
		if n, _ := strconv.Atoi(first[3]); n != 1 {
			open = `<ol start="` + strconv.Itoa(n) + `">`
		}
	}
	b.WriteString(open + "\n")
	for _, item := range items {
		var inner strings.Builder
		writeBlocks(&inner, item, !loose)
		b.WriteString("<li>" + strings.TrimSuffix(inner.String(), "\n") + "</li>\n")
	}
	b.WriteString(closeTag + "\n")
	return i
}

// writeTable renders a GFM table: a header row, a delimiter row setting
// each column's alignment, and rows until a blank line or another block.
func writeTable(b *strings.Builder, lines []string, i int) int {
	head := tableCells(lines[i])
	var align []string
	for _, d := range tableCells(lines[i+1]) {
		d = strings.TrimSpace(d)
		switch {
		case strings.HasPrefix(d, ":") && strings.HasSuffix(d, ":"):
			align = append(align, "center")
		case strings.HasSuffix(d, ":"):
			align = append(align, "right")
		case strings.HasPrefix(d, ":"):
			align = append(align, "left")
		default:
			align = append(align, "")
		}
	}
	row := func(tag string, cells []string) {
		b.WriteString("<tr>")
		for c := range head {
			attr := ""
			if c < len(align) && align[c] != "" {
				attr = ` style="text-align: ` + align[c] + `"`
			}
			text := ""
			if c < len(cells) {
				text = inlineHTML(strings.TrimSpace(cells[c]))
			}
			b.WriteString("<" + tag + attr + ">" + text + "</" + tag + ">")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("<table>\n<thead>\n")
	row("th", head)
	b.WriteString("</thead>\n<tbody>\n")
	for i += 2; i < len(lines) && !isBlank(lines[i]) && !startsBlock(lines[i]); i++ {
		row("td", tableCells(lines[i]))
	}
	b.WriteString("</tbody>\n</table>\n")
	return i
}

// tableCells splits a table row on its unescaped pipes; \| becomes |.
func tableCells(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	if strings.HasSuffix(l, "|") && !strings.HasSuffix(l, `\|`) {
		l = l[:len(l)-1]
	}
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && l[i+1] == '|':
			cur.WriteByte('|')
			i++
		case l[i] == '|':
			cells = append(cells, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(l[i])
		}
	}
	return append(cells, cur.String())
}
