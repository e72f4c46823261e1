package spec

import (
	"strings"
	"unicode"
)

// IsSnakeCase reports whether name is a snake_case tool name:
// ^[a-z][a-z0-9_]*$.
func IsSnakeCase(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// SnakeCase suggests a snake_case spelling: HttpRequest, http-request and
// "Http Request" all become http_request; a name that would not start with
// a letter gets "tool_" in front.
func SnakeCase(s string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			if prevLower {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			prevLower = false
		case unicode.IsLower(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			prevLower = true
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
			prevLower = false
		}
	}
	out := strings.Trim(b.String(), "_")
	if out == "" || !unicode.IsLetter(rune(out[0])) {
		out = "tool_" + out
	}
	return out
}
