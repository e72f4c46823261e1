package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The generator writes YAML and JSON itself rather than through an encoder:
// the files should look hand-written (one-line descriptions, literal blocks
// for code and detail, flow lists for tags), and key order is the dialect's.

type kv struct {
	k string
	v any
}

// obj is an ordered mapping.
type obj []kv

func (o obj) has(key string) bool {
	for _, e := range o {
		if e.k == key {
			return true
		}
	}
	return false
}

// block is a multi-line string written as a YAML literal block.
type block string

// quoted is a string always written quoted (version: "1.0.0").
type quoted string

var (
	plainKey  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
	flowPlain = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_./-]*$`)
	// reserved are plain scalars YAML 1.1 or 1.2 would not read as strings.
	reserved = map[string]bool{"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true, "null": true, "y": true, "n": true, "~": true}
)

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// plainOK is deliberately conservative: a plain scalar starts with a
// letter and holds none of YAML's indicators.
func plainOK(s string) bool {
	if s == "" || reserved[strings.ToLower(s)] || strings.TrimSpace(s) != s {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(s); !unicode.IsLetter(r) {
		return false
	}
	return !strings.ContainsAny(s, ":#{}[]&*!|>'\"%@`\n\t\\")
}

func yamlScalar(v any, flow bool) string {
	switch x := v.(type) {
	case string:
		if (flow && flowPlain.MatchString(x) && !reserved[strings.ToLower(x)]) || (!flow && plainOK(x)) {
			return x
		}
		return jsonString(x)
	case quoted:
		return jsonString(string(x))
	case block:
		return jsonString(string(x))
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	}
	panic("yaml: unsupported value")
}

func isScalar(v any) bool {
	switch v.(type) {
	case obj, []any, block:
		return false
	}
	return true
}

// flowList renders a short list of scalars as [a, b, c], or "" when the
// list is too long or not all scalars.
func flowList(xs []any, max int) string {
	parts := make([]string, len(xs))
	n := 0
	for i, x := range xs {
		if !isScalar(x) {
			return ""
		}
		parts[i] = yamlScalar(x, true)
		n += len(parts[i]) + 2
	}
	if n > max {
		return ""
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func yamlKey(k string) string {
	if plainKey.MatchString(k) && !reserved[strings.ToLower(k)] {
		return k
	}
	return jsonString(k)
}

// writeYAML writes a document: head comments, then the mapping.
func writeYAML(comments []string, doc obj) []byte {
	var b bytes.Buffer
	for _, c := range comments {
		b.WriteString("# " + c + "\n")
	}
	yamlMapping(&b, doc, 0, false)
	return b.Bytes()
}

// yamlMapping writes m at indent; firstInline means the first key goes on
// the current line (after "- ").
func yamlMapping(b *bytes.Buffer, m obj, indent int, firstInline bool) {
	pad := strings.Repeat(" ", indent)
	for i, e := range m {
		if !(i == 0 && firstInline) {
			b.WriteString(pad)
		}
		b.WriteString(yamlKey(e.k) + ":")
		yamlValue(b, e.v, indent)
	}
}

// yamlValue writes the value of a key at indent, starting right after the
// colon.
func yamlValue(b *bytes.Buffer, v any, indent int) {
	switch x := v.(type) {
	case obj:
		if len(x) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteString("\n")
		yamlMapping(b, x, indent+2, false)
	case []any:
		if len(x) == 0 {
			b.WriteString(" []\n")
			return
		}
		if f := flowList(x, 72-indent); f != "" {
			b.WriteString(" " + f + "\n")
			return
		}
		b.WriteString("\n")
		yamlList(b, x, indent+2)
	case block:
		s := string(x)
		if strings.HasSuffix(s, "\n") {
			b.WriteString(" |\n")
			s = strings.TrimSuffix(s, "\n")
		} else {
			b.WriteString(" |-\n")
		}
		pad := strings.Repeat(" ", indent+2)
		for line := range strings.SplitSeq(s, "\n") {
			if line != "" {
				b.WriteString(pad + line)
			}
			b.WriteString("\n")
		}
	default:
		b.WriteString(" " + yamlScalar(x, false) + "\n")
	}
}

func yamlList(b *bytes.Buffer, xs []any, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, x := range xs {
		b.WriteString(pad + "- ")
		switch y := x.(type) {
		case obj:
			if len(y) == 0 {
				b.WriteString("{}\n")
				continue
			}
			yamlMapping(b, y, indent+2, true)
		case []any:
			f := flowList(y, 1<<30)
			if f == "" {
				panic("yaml: nested non-scalar list")
			}
			b.WriteString(f + "\n")
		default:
			b.WriteString(yamlScalar(x, false) + "\n")
		}
	}
}

// writeJSON writes v with two-space indentation and short scalar lists on
// one line, as people format tool JSON.
func writeJSON(v any) []byte {
	var b bytes.Buffer
	jsonValue(&b, v, 0)
	b.WriteString("\n")
	return b.Bytes()
}

func jsonValue(b *bytes.Buffer, v any, indent int) {
	pad := strings.Repeat("  ", indent+1)
	end := strings.Repeat("  ", indent)
	switch x := v.(type) {
	case obj:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, e := range x {
			b.WriteString(pad + jsonString(e.k) + ": ")
			jsonValue(b, e.v, indent+1)
			if i < len(x)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(end + "}")
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		if line := jsonFlow(x); line != "" {
			b.WriteString(line)
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			b.WriteString(pad)
			jsonValue(b, e, indent+1)
			if i < len(x)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(end + "]")
	case string:
		b.WriteString(jsonString(x))
	case block:
		b.WriteString(jsonString(string(x)))
	case quoted:
		b.WriteString(jsonString(string(x)))
	default:
		b.WriteString(yamlScalar(x, false))
	}
}

func jsonFlow(xs []any) string {
	parts := make([]string, len(xs))
	n := 0
	for i, x := range xs {
		if !isScalar(x) {
			return ""
		}
		var b bytes.Buffer
		jsonValue(&b, x, 0)
		parts[i] = b.String()
		n += len(parts[i]) + 2
	}
	if n > 60 {
		return ""
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
