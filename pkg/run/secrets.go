package run

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Redacted replaces a secret wherever it would be printed.
const Redacted = "***"

// minSecretLen keeps very short values (a bound "1", "eu", "dev") from being
// redacted at all: a value that short is no secret, and hiding every "dev"
// would garble results.
const minSecretLen = 4

// minEncodedLen is the shortest secret whose base64 and hex forms are
// redacted too: those of a shorter value are short enough to occur by
// chance in unrelated text.
const minEncodedLen = 6

// minAnywhereLen is the shortest secret redacted wherever it occurs; a
// shorter one (a bound "prod", "8080") only where it stands alone, not
// inside a longer word or number ("product", "18080").
const minAnywhereLen = 8

// Secrets is the set of values that must never reach output: values bound
// from the environment and values substituted from ${ENV}. Each secret is
// redacted in every form the executors produce from it and the common forms
// a tool may print (see secretForms). It is safe for concurrent use.
type Secrets struct {
	mu     sync.RWMutex
	values map[string]bool
	// red is built from values on first use after a change: the forms of
	// every secret, ready to find and replace.
	red *redactor
}

// redactor replaces the forms of a set of secrets. Most text holds none,
// so a string is first scanned for any form (one table lookup a byte) and
// only replaced, which allocates, when it holds one.
type redactor struct {
	r *strings.Replacer // nil when every secret is short
	// short lists the forms of secrets shorter than minAnywhereLen, longest
	// first: replaced only where no letter or digit touches them.
	short []string
	// pairs has a bit set for the first two bytes of every form (all are
	// at least minSecretLen long), so that the scan rarely stops.
	pairs [1 << 16 / 64]uint64
	// first lists the forms by their first byte.
	first [256][]string
}

// Replace returns s with every form replaced, or s itself when it holds
// none.
func (x *redactor) Replace(s string) string {
	if x.r != nil && x.holds(s) {
		s = x.r.Replace(s)
	}
	for _, f := range x.short {
		s = replaceWord(s, f)
	}
	return s
}

// holds tells whether s contains a form of a long secret.
func (x *redactor) holds(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		p := uint16(s[i])<<8 | uint16(s[i+1])
		if x.pairs[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		for _, f := range x.first[s[i]] {
			if strings.HasPrefix(s[i:], f) {
				return true
			}
		}
	}
	return false
}

// replaceWord replaces the occurrences of f in s that no ASCII letter or
// digit touches on either side.
func replaceWord(s, f string) string {
	var b strings.Builder
	last, from := 0, 0 // s[:last] is written; search from s[from:]
	for {
		k := strings.Index(s[from:], f)
		if k < 0 {
			break
		}
		i, end := from+k, from+k+len(f)
		if (i == 0 || !isAlnum(s[i-1])) && (end == len(s) || !isAlnum(s[end])) {
			b.WriteString(s[last:i])
			b.WriteString(Redacted)
			last, from = end, end
		} else {
			from = i + 1
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Add records a secret value.
func (s *Secrets) Add(v string) {
	if s == nil || len(v) < minSecretLen {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.values[v] {
		return
	}
	if s.values == nil {
		s.values = map[string]bool{}
	}
	s.values[v] = true
	s.red = nil
}

// Len is the number of secrets recorded.
func (s *Secrets) Len() int {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.values)
}

// Redact replaces every form of every secret in text by ***. Where forms
// overlap, the longest is replaced, so that a secret containing another is
// hidden whole.
func (s *Secrets) Redact(text string) string {
	r := s.replacer()
	if r == nil {
		return text
	}
	return r.Replace(text)
}

// replacer returns the redactor of the current secrets, nil when there are
// none, building it once per change.
func (s *Secrets) replacer() *redactor {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	r, n := s.red, len(s.values)
	s.mu.RUnlock()
	if r != nil || n == 0 {
		return r
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.red == nil && len(s.values) > 0 {
		long, short := map[string]bool{}, map[string]bool{}
		for v := range s.values {
			for _, f := range secretForms(v) {
				if len(v) >= minAnywhereLen {
					long[f] = true
				} else {
					short[f] = true
				}
			}
		}
		x := &redactor{short: longestFirst(short)}
		if list := longestFirst(long); len(list) > 0 {
			pairs := make([]string, 0, 2*len(list))
			for _, f := range list {
				pairs = append(pairs, f, Redacted)
				x.first[f[0]] = append(x.first[f[0]], f)
				p := uint16(f[0])<<8 | uint16(f[1])
				x.pairs[p>>6] |= 1 << (p & 63)
			}
			x.r = strings.NewReplacer(pairs...)
		}
		s.red = x
	}
	return s.red
}

// longestFirst lists a set longest first, then in order: strings.Replacer
// prefers the earlier of two keys that match at the same place, and a
// secret that contains another must be hidden whole.
func longestFirst(set map[string]bool) []string {
	list := make([]string, 0, len(set))
	for f := range set {
		list = append(list, f)
	}
	sort.Slice(list, func(i, j int) bool {
		if len(list[i]) != len(list[j]) {
			return len(list[i]) > len(list[j])
		}
		return list[i] < list[j]
	})
	return list
}

// secretForms lists the texts a secret v can appear as:
//
//   - as it is;
//   - URL-encoded as Go's QueryEscape, PathEscape and userinfo escaping,
//     JavaScript's encodeURIComponent and encodeURI, Python's quote,
//     quote(safe="") and quote_plus, and HTML forms produce it, with
//     upper- and lower-case hex digits;
//   - inside a JSON string (Go's encoding with and without HTML escaping,
//     Python's ensure_ascii, "\/" for "/");
//   - inside a Python str or bytes literal (repr);
//   - base64 (standard and URL alphabets, padded or not) of the secret
//     alone, and the part of the encoding that does not depend on what
//     comes before or after it (a password in base64("user:password"),
//     HTTP basic auth);
//   - hex, lower and upper case.
//
// Forms shorter than minSecretLen are left out.
func secretForms(v string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(f string) {
		if len(f) >= minSecretLen && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	add(v)
	for _, lower := range []bool{false, true} {
		for _, e := range urlEncoders {
			add(percentEncode(v, e.safe, e.plus, lower))
		}
	}
	add(url.PathEscape(v))
	add(strings.TrimPrefix(url.UserPassword("", v).String(), ":"))
	for _, html := range []bool{false, true} {
		for _, ascii := range []bool{false, true} {
			j := jsonEscape(v, html, ascii)
			add(j)
			add(strings.ReplaceAll(j, "/", `\/`))
		}
	}
	add(pyEscape(v, '\'', false))
	add(pyEscape(v, '"', false))
	add(pyEscape(v, '\'', true))
	// escapes escaped again: a repr or a JSON text printed inside JSON
	for _, f := range out {
		if strings.ContainsAny(f, "\\\"") || !isASCII(f) {
			add(jsonEscape(f, false, false))
			add(jsonEscape(f, false, true))
		}
	}
	if len(v) >= minEncodedLen {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			add(enc.EncodeToString([]byte(v)))
			add(enc.WithPadding(base64.NoPadding).EncodeToString([]byte(v)))
			for shift := 1; shift <= 2; shift++ {
				add(base64Core(enc, v, shift))
			}
		}
		add(hex.EncodeToString([]byte(v)))
		add(strings.ToUpper(hex.EncodeToString([]byte(v))))
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// base64Core is the part of the base64 encoding of v, preceded by shift
// bytes of anything, that depends on v alone: the whole 4-character groups
// made only of v's bytes. "" when that is shorter than 8 characters.
func base64Core(enc *base64.Encoding, v string, shift int) string {
	skip := (3 - shift) % 3 // v's bytes that share a group with the prefix
	rest := v[skip:]
	n := len(rest) / 3 * 3
	if n < 6 {
		return ""
	}
	return enc.WithPadding(base64.NoPadding).EncodeToString([]byte(rest[:n]))
}

var urlEncoders = []struct {
	safe string // kept as is besides ASCII letters and digits
	plus bool   // space as +
}{
	{"-_.~", true},                  // Go QueryEscape, Python quote_plus
	{"-_.~", false},                 // RFC 3986, Python quote(safe="")
	{"-_.~/", false},                // Python quote
	{"-_.!~*'()", false},            // JavaScript encodeURIComponent
	{"-_.!~*'();,/?:@&=+$#", false}, // JavaScript encodeURI
	{"-_.*", true},                  // HTML forms, URLSearchParams
}

// percentEncode escapes every byte of s but ASCII letters, digits and safe.
func percentEncode(s, safe string, plus, lower bool) string {
	digits := "0123456789ABCDEF"
	if lower {
		digits = "0123456789abcdef"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c < utf8.RuneSelf && strings.IndexByte(safe, c) >= 0:
			b.WriteByte(c)
		case c == ' ' && plus:
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(digits[c>>4])
			b.WriteByte(digits[c&15])
		}
	}
	return b.String()
}

// jsonEscape is s as inside a JSON string: Go's escapes (\" \\ \n \r \t,
// other controls and U+2028/9 as \u00XX), <, > and & as \u003c... when html,
// and every non-ASCII character as \uXXXX (surrogate pairs beyond the BMP)
// when ascii, as Python's json.dumps does by default.
func jsonEscape(s string, html, ascii bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x2028 || r == 0x2029 || html && (r == '<' || r == '>' || r == '&'):
			fmt.Fprintf(&b, `\u%04x`, r)
		case ascii && r >= utf8.RuneSelf:
			if r > 0xFFFF {
				r -= 0x10000
				fmt.Fprintf(&b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pyEscape is s as inside a Python literal quoted with quote: repr of a
// str (non-ASCII kept) or, when bytes, of its UTF-8 bytes (\xNN).
func pyEscape(s string, quote byte, bytes bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' || c == quote:
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f || bytes && c >= utf8.RuneSelf:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// RedactValue returns a copy of a JSON-like value with every string
// redacted (map keys included). The secrets' forms are built once for the
// whole value, not once per string; without secrets v is returned as is.
func (s *Secrets) RedactValue(v any) any {
	r := s.replacer()
	if r == nil {
		return v
	}
	return redactValue(v, r)
}

func redactValue(v any, r *redactor) any {
	switch v := v.(type) {
	case nil, bool, float64, int, int64:
		return v
	case string:
		return r.Replace(v)
	case json.Number:
		// a number bound from a secret variable is hidden too (as text)
		if s := r.Replace(string(v)); s != string(v) {
			return s
		}
		return v
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = redactValue(e, r)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[r.Replace(k)] = redactValue(e, r)
		}
		return out
	case []string:
		out := make([]string, len(v))
		for i, e := range v {
			out[i] = r.Replace(e)
		}
		return out
	case *MCPResult:
		if v == nil {
			return v
		}
		return v.redact(r)
	case *spec.Map:
		if v == nil {
			return v
		}
		out := spec.NewMap(v.Len())
		for i := range v.Len() {
			k, e := v.At(i)
			out.Set(r.Replace(k), redactValue(e, r))
		}
		return out
	}
	// Other shapes an executor may return (map[string]string, typed
	// slices): redacted through reflection, as the JSON they print as.
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		if s := r.Replace(rv.String()); s != rv.String() {
			return s
		}
		return v
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			return v // []byte prints as base64 of bytes, not as text
		}
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = redactValue(rv.Index(i).Interface(), r)
		}
		return out
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return v
		}
		out := make(map[string]any, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			out[r.Replace(it.Key().String())] = redactValue(it.Value().Interface(), r)
		}
		return out
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() || rv.Elem().Kind() == reflect.Struct {
			return v
		}
		return redactValue(rv.Elem().Interface(), r)
	}
	return v
}
