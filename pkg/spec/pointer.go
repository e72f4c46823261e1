package spec

import (
	"strings"
)

// SplitPointer splits an RFC 6901 JSON pointer into unescaped tokens.
// "" and "/" both denote the whole document.
func SplitPointer(p string) []string {
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil
	}
	tokens := strings.Split(p, "/")
	for i, t := range tokens {
		if strings.Contains(t, "~") {
			tokens[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
		}
	}
	return tokens
}

// Pointer joins tokens into an escaped JSON pointer.
func Pointer(tokens ...string) string {
	if len(tokens) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		if strings.ContainsAny(t, "~/") {
			t = strings.NewReplacer("~", "~0", "/", "~1").Replace(t)
		}
		b.WriteString(t)
	}
	return b.String()
}
