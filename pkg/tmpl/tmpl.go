// Package tmpl reads the placeholders of entry templates: {param} takes a
// parameter's value, ${NAME} an environment variable. It tells where in a
// URL template or an argv element a placeholder sits, so that the executor
// (pkg/run) and lint (pkg/lint) agree on which placeholders may change what
// a tool reaches or runs.
package tmpl

import "strings"

// Placeholder reads "{name}" at the start of s and returns the name and the
// length of the placeholder, or 0 when s does not start with one. A name
// starts with a letter or _ and goes on with letters, digits, _, - and .
func Placeholder(s string) (string, int) {
	if len(s) < 3 || s[0] != '{' {
		return "", 0
	}
	end := strings.IndexByte(s, '}')
	if end < 2 {
		return "", 0
	}
	name := s[1:end]
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.')
		if !ok {
			return "", 0
		}
	}
	return name, end + 1
}

// IsEnvName tells whether s can name an environment variable in ${NAME}.
func IsEnvName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// Ref is one {param} placeholder in a template.
type Ref struct {
	Name string
	// Off and End are its byte range in the template, braces included.
	Off, End int
}

// Params lists the {param} placeholders of s in order; ${NAME} variables
// are not parameters and are skipped.
func Params(s string) []Ref {
	var out []Ref
	for i := 0; i < len(s); {
		if s[i] == '$' && i+1 < len(s) && s[i+1] == '{' {
			if name, n := Placeholder(s[i+1:]); n > 0 && IsEnvName(name) {
				i += 1 + n
				continue
			}
		}
		if s[i] == '{' {
			if name, n := Placeholder(s[i:]); n > 0 {
				out = append(out, Ref{Name: name, Off: i, End: i + n})
				i += n
				continue
			}
		}
		i++
	}
	return out
}

// EndOfOptions tells whether an argv element ends a program's options:
// "--" (POSIX getopt and most parsers) or "--end-of-options" (git).
// Every later element is read as an operand even when it starts with "-".
func EndOfOptions(arg string) bool {
	return arg == "--" || arg == "--end-of-options"
}

// OptionSlot tells whether a parameter placeholder of an argv element
// decides whether the element is an option: the element is the placeholder
// alone ("{path}", so a value "-x" is an option), or only dashes come
// before it ("-{flag}", "--{name}", so the value picks which option).
// It returns that placeholder and whether dashes precede it.
func OptionSlot(arg string) (ref Ref, dashed, ok bool) {
	refs := Params(arg)
	if len(refs) == 0 {
		return Ref{}, false, false
	}
	prefix := arg[:refs[0].Off]
	if strings.Trim(prefix, "-") != "" {
		return Ref{}, false, false
	}
	return refs[0], prefix != "", true
}

// Part is a piece of a URL template: its text and where it starts.
type Part struct {
	Text string
	Off  int
}

// URL is a URL template split into the parts a placeholder may sit in.
// The split is made on the template's own text, before anything is
// substituted, so a value can never move a boundary.
type URL struct {
	// Authority is true when the template spells out "scheme://": then
	// Scheme, Userinfo, Host and Port are set (empty when absent).
	Authority bool
	Scheme    Part
	Userinfo  Part
	Host      Part
	Port      Part
	// HasUserinfo and HasPort tell "@" and ":" apart from empty parts.
	HasUserinfo, HasPort bool
	// Origin is the text before the path when the template has no
	// "scheme://" of its own ("${BASE_URL}" or "{base_url}" in
	// "${BASE_URL}/v1/items").
	Origin Part
	// Path runs from the first "/" after the origin to "?" or "#".
	Path Part
	// Query is the text after "?", up to "#" ("" when none).
	Query Part
	// HasQuery tells "?" apart from an empty query.
	HasQuery bool
}

// SplitURL splits a URL template: fragment, query, then the origin at the
// first "/" after "scheme://" (or after the start), and the authority at
// its last "@" and the port's ":".
func SplitURL(s string) URL {
	var u URL
	rest := s
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		u.Query = Part{rest[i+1:], i + 1}
		u.HasQuery = true
		rest = rest[:i]
	}
	start := 0
	if i := strings.Index(rest, "://"); i >= 0 {
		u.Authority = true
		u.Scheme = Part{rest[:i], 0}
		start = i + 3
	}
	end := len(rest)
	if j := strings.IndexByte(rest[start:], '/'); j >= 0 {
		end = start + j
	}
	u.Path = Part{rest[end:], end}
	if !u.Authority {
		u.Origin = Part{rest[:end], 0}
		return u
	}
	auth, off := rest[start:end], start
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		u.Userinfo = Part{auth[:at], off}
		u.HasUserinfo = true
		auth, off = auth[at+1:], off+at+1
	}
	host := auth
	if strings.HasPrefix(auth, "[") {
		// an IPv6 literal: the port comes after the bracket
		if k := strings.IndexByte(auth, ']'); k >= 0 {
			host = auth[:k+1]
		}
	} else if k := strings.LastIndexByte(auth, ':'); k >= 0 {
		host = auth[:k]
	}
	u.Host = Part{host, off}
	if len(host) < len(auth) && auth[len(host)] == ':' {
		u.Port = Part{auth[len(host)+1:], off + len(host) + 1}
		u.HasPort = true
	}
	return u
}

// IsLabel tells whether s can be what a placeholder in a URL's host puts
// there: at most one DNS label, 1 to 63 ASCII letters, digits and hyphens
// (a hyphen may start it: "api{suffix}" with "-eu"). Anything else (a dot,
// ":", "/", "@", "%", "#", a space, a non-ASCII letter that IDNA could map
// to a dot) could change the host, the port or the userinfo. An
// internationalised label is given in its ASCII form (xn--...).
func IsLabel(s string) bool {
	if s == "" || len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
