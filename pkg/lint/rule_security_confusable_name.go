package lint

//go:generate go run gen_confusables.go -in confusables.txt

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
	"golang.org/x/text/unicode/norm"
)

var ruleSecurityConfusableName = &Rule{
	ID:          "security-confusable-name",
	Severity:    Error,
	Pack:        PackSecurity,
	Description: "Tool and parameter names use one script and no look-alikes of ASCII letters; no two tools have names that look the same (Unicode TR39 skeletons).",
	Explain: `A model picks tools by name, and people approve them by name. A name that
mixes scripts (Latin "a" and Cyrillic "а"), or spells an ASCII word with
look-alike letters, passes for another tool's name: a server can shadow
read_file with rеad_file. Names are compared by their Unicode TR39 skeleton
(confusables.txt): two tools whose names differ but have the same skeleton
are reported too (including ASCII pairs such as l/I/1, O/0 and rn/m).
Scripts that are written together (Latin with Han, Hiragana, Katakana,
Hangul or Bopomofo) are not mixed scripts.

Bad:
  name: rеad_file      # the "е" is Cyrillic U+0435

Good:
  name: read_file`,
	SetPins: pinName,
	Set:     func(r *Reporter, tools []*spec.Tool) { confusableNameSet(r, tools) },
	Tool: func(r *Reporter, t *spec.Tool) {
		texts := r.texts(t)
	texts:
		for i := range texts {
			m := &texts[i]
			if !m.name || m.isPlain() {
				continue texts
			}
			what := "tool name"
			if m.key {
				what = "parameter name"
			}
			if at, a, b := mixedScripts(m.text); at >= 0 {
				c, _ := utf8.DecodeRuneInString(m.text[at:])
				r.reportText(t, m, at, at, "%s %q mixes %s and %s scripts (%q is U+%04X, %s); write it in one script", what, m.text, a, b, c, c, b)
				continue texts
			}
			if at, sk := asciiLookalike(m.text); at >= 0 {
				c, _ := utf8.DecodeRuneInString(m.text[at:])
				r.reportText(t, m, at, at, "%s %q looks like the ASCII name %q (%q is U+%04X); write it in ASCII or in one script without look-alikes", what, m.text, sk, c, c)
			}
		}
	},
}

// confusableNameSet is the set half of security-confusable-name. Tools
// are grouped by a hash of their name's skeleton (no string per tool);
// names whose hashes collide are compared by their skeletons.
func confusableNameSet(r *Reporter, tools []*spec.Tool) {
	first := make(map[uint64]*spec.Tool, len(tools))
	var exact map[string]*spec.Tool // skeletons whose hash another skeleton has
	for _, t := range tools {
		if t.Name == "" {
			continue
		}
		h := skeletonHash(t.Name)
		f, seen := first[h]
		if !seen {
			first[h] = t
			continue
		}
		if f.Name == t.Name {
			continue // name-unique
		}
		if sk := skeleton(t.Name); sk != skeleton(f.Name) {
			if exact == nil {
				exact = map[string]*spec.Tool{}
			}
			if f, seen = exact[sk]; !seen {
				exact[sk] = t
				continue
			}
			if f.Name == t.Name {
				continue
			}
		}
		p := f.Pos("/name")
		where := fmt.Sprintf("line %d", p.Line)
		if f.Path() != t.Path() {
			where = diag.Where(f.Path(), p)
		}
		r.Report(t, "/name", "tool name %q looks the same as %q at %s (their Unicode TR39 skeletons are equal); rename one of them", t.Name, f.Name, where)
		r.findings[len(r.findings)-1].Pointer, r.findings[len(r.findings)-1].Tool = "/name", t.Name
	}
}

// skeletonHash is the 64-bit FNV-1a hash of skeleton(s), made without the
// skeleton for an ASCII name (most names).
func skeletonHash(s string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	add := func(b byte) { h = (h ^ uint64(b)) * prime }
	if !isASCII(s) {
		s = skeleton(s)
		for i := 0; i < len(s); i++ {
			add(s[i])
		}
		return h
	}
	for i := 0; i < len(s); i++ {
		if p := asciiPrototype[s[i]]; p != "" {
			for j := 0; j < len(p); j++ {
				add(p[j])
			}
		} else {
			add(s[i])
		}
	}
	return h
}

// skeleton is the Unicode TR39 skeleton of s restricted to the ASCII
// prototypes of confusables_table.go: NFD, each character replaced by
// its prototype, NFD again.
func skeleton(s string) string {
	if isASCII(s) {
		// NFD leaves ASCII as it is, and ASCII prototypes are ASCII.
		if !strings.ContainsAny(s, confusableASCII) {
			return s
		}
		var b strings.Builder
		b.Grow(len(s) + 8)
		for i := 0; i < len(s); i++ {
			if p := asciiPrototype[s[i]]; p != "" {
				b.WriteString(p)
			} else {
				b.WriteByte(s[i])
			}
		}
		return b.String()
	}
	d := norm.NFD.String(s)
	var b strings.Builder
	for _, c := range d {
		if i, ok := slices.BinarySearch(confusableFrom[:], c); ok {
			b.WriteString(confusableTo[i])
		} else {
			b.WriteRune(c)
		}
	}
	return norm.NFD.String(b.String())
}

// confusableASCII are the ASCII characters with a prototype of their own,
// asciiPrototype their prototypes.
var confusableASCII, asciiPrototype = func() (string, [utf8.RuneSelf]string) {
	var b strings.Builder
	var protos [utf8.RuneSelf]string
	for i, c := range confusableFrom {
		if c < utf8.RuneSelf {
			b.WriteRune(c)
			protos[c] = confusableTo[i]
		}
	}
	return b.String(), protos
}()

// asciiLookalike returns the offset of the first non-ASCII character of
// s and the ASCII name s looks like, when every non-ASCII character of s
// is a compatibility form (fullwidth, mathematical letters) or a
// confusable of ASCII: s spells an ASCII name with look-alikes. -1
// otherwise.
func asciiLookalike(s string) (int, string) {
	var b strings.Builder
	for _, c := range norm.NFKC.String(s) {
		switch i, ok := slices.BinarySearch(confusableFrom[:], c); {
		case c < utf8.RuneSelf:
			b.WriteRune(c)
		case ok:
			b.WriteString(confusableTo[i])
		default:
			// A character with no ASCII prototype (é, ß, 名): s is no
			// spelling of an ASCII name.
			return -1, ""
		}
	}
	for i, c := range s {
		if c >= utf8.RuneSelf {
			return i, b.String()
		}
	}
	return -1, ""
}

// mixedScripts returns the offset of the first character of s whose
// script is not allowed with the scripts before it (Unicode TR39's
// "highly restrictive" level: one script, or Latin with Han and
// Hiragana/Katakana, Bopomofo or Hangul), and the two script names; -1
// when s is fine. Common and Inherited characters (digits, _, marks) go
// with any script.
func mixedScripts(s string) (int, string, string) {
	var seen []string
	for i, c := range s {
		sc := scriptOf(c)
		if sc == "" || slices.Contains(seen, sc) {
			continue
		}
		if len(seen) > 0 && !allowedTogether(append(slices.Clone(seen), sc)) {
			return i, seen[0], sc
		}
		seen = append(seen, sc)
	}
	return -1, "", ""
}

func allowedTogether(scripts []string) bool {
	for _, set := range [][]string{
		{"Latin", "Han", "Hiragana", "Katakana"},
		{"Latin", "Han", "Bopomofo"},
		{"Latin", "Han", "Hangul"},
	} {
		ok := true
		for _, s := range scripts {
			ok = ok && slices.Contains(set, s)
		}
		if ok {
			return true
		}
	}
	return false
}

// scriptOf is the Unicode script of c, "" for Common, Inherited and
// unassigned characters.
func scriptOf(c rune) string {
	if c < utf8.RuneSelf {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			return "Latin"
		}
		return ""
	}
	for _, name := range commonScripts {
		if unicode.Is(unicode.Scripts[name], c) {
			return name
		}
	}
	if unicode.In(c, unicode.Common, unicode.Inherited) {
		return ""
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, c) {
			return name
		}
	}
	return ""
}

// commonScripts are tried first (unicode.Scripts is a map).
var commonScripts = []string{"Latin", "Cyrillic", "Greek", "Han", "Hiragana", "Katakana", "Hangul", "Arabic", "Hebrew", "Armenian", "Cherokee", "Bopomofo"}
