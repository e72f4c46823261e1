package spec

import (
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// coreTags are the YAML tags a tool file may write, with the node kind
// each fits: the JSON types, and !!timestamp, which YAML gives to plain
// dates (2024-01-31) anyway and whose text toolctl keeps as a string.
var coreTags = map[string]yaml.Kind{
	"!!str": yaml.ScalarNode, "!!int": yaml.ScalarNode, "!!float": yaml.ScalarNode,
	"!!bool": yaml.ScalarNode, "!!null": yaml.ScalarNode, "!!timestamp": yaml.ScalarNode,
	"!!map": yaml.MappingNode, "!!seq": yaml.SequenceNode,
}

// maxTagErrors bounds the errors about tags one file gets.
const maxTagErrors = 20

// checkTags reports every explicit tag of doc that is not a core tag, does
// not fit its node, or whose value is not of its type. yaml.v3 reads
// them all without a word, as the text: "name: !!binary aGVsbG8=" named a
// tool aGVsbG8=, and "!custom x" was "x". (yaml.v3's own tags, the ones it
// resolves for untagged values, are always core.) It returns the number
// of errors.
func (f *File) checkTags(doc *yaml.Node) int {
	n := 0
	var walk func(x *yaml.Node)
	walk = func(x *yaml.Node) {
		if x.Style&yaml.TaggedStyle != 0 {
			if msg := tagProblem(x); msg != "" {
				if n++; n <= maxTagErrors {
					f.Errors = append(f.Errors, &Error{File: f.Path, Span: f.tagSpan(x), Message: msg})
				}
			}
		}
		for _, c := range x.Content {
			walk(c)
		}
	}
	walk(doc)
	if n > maxTagErrors {
		f.fail(Pos{Line: 1, Col: 1}, "%d more YAML tags are not supported; toolctl stops reporting them here", n-maxTagErrors)
	}
	return n
}

// tagSpan is the range of the tag of n (yaml.v3 places a tagged node at
// its tag, or at its anchor when that comes first), or of n when the tag
// is not found there.
func (f *File) tagSpan(n *yaml.Node) Span {
	line := f.lineBytes(n.Line)
	if n.Column < 1 {
		return f.span(n)
	}
	i := f.colOffset(n.Line, n.Column, line)
	token := func(i int) int {
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		return i
	}
	if i < len(line) && line[i] == '&' {
		for i = token(i); i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
		}
	}
	if i >= len(line) || line[i] != '!' {
		return f.span(n)
	}
	col := utf8.RuneCount(line[:i]) + 1
	return Span{Start: Pos{Line: n.Line, Col: col}, End: Pos{Line: n.Line, Col: col + utf8.RuneCount(line[i:token(i)])}}
}

// tagProblem says what is wrong with the explicit tag of n, or "".
func tagProblem(n *yaml.Node) string {
	tag := n.ShortTag()
	kind, core := coreTags[tag]
	switch {
	case tag == "!!binary":
		return "the YAML tag !!binary is not supported: a tool file holds text, and the value would be read as its base64 form; remove the tag to keep that text as a string, or write the decoded text"
	case !core:
		return "the YAML tag " + tag + " is not supported: a tool file uses the core types only (" + coreTagList + "); remove the tag"
	case kind != n.Kind:
		return "the YAML tag " + tag + " does not fit " + KindName(n) + "; remove the tag"
	}
	var bad bool
	switch tag {
	case "!!int":
		var v int64
		var u uint64
		bad = n.Decode(&v) != nil && n.Decode(&u) != nil
	case "!!float":
		var v float64
		bad = n.Decode(&v) != nil
	case "!!bool":
		var v bool
		bad = n.Decode(&v) != nil
	case "!!null":
		switch n.Value {
		case "", "~", "null", "Null", "NULL":
		default:
			bad = true
		}
	case "!!timestamp":
		var v time.Time
		bad = n.Decode(&v) != nil
	}
	if bad {
		return "the value " + quoteClip(n.Value) + " is not " + tagTypeNames[tag] + ", as its YAML tag " + tag + " says; fix the value or remove the tag"
	}
	return ""
}

var coreTagList = "!!str, !!int, !!float, !!bool, !!null, !!map, !!seq and !!timestamp"

var tagTypeNames = map[string]string{
	"!!int": "an integer", "!!float": "a number", "!!bool": "true or false", "!!null": "null", "!!timestamp": "a date or time",
}

func quoteClip(s string) string {
	return `"` + strings.ReplaceAll(truncate(s, 40), `"`, `\"`) + `"`
}
