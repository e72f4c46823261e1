package lint

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// applyOverrides sets each finding's severity from the last override whose
// globs match its file, and drops findings that end up Off.
func applyOverrides(fs []Finding, overrides []Override) []Finding {
	out := fs[:0]
	for _, f := range fs {
		for _, o := range overrides {
			if s, ok := o.Rules[f.Rule]; ok && o.Matches(f.File) {
				f.Severity = s
			}
		}
		if f.Severity != Off {
			out = append(out, f)
		}
	}
	return out
}

// Matches tells whether file (as loaded: relative to the working directory
// or absolute) matches one of the override's globs.
func (o Override) Matches(file string) bool {
	if len(o.Files) == 0 {
		return false
	}
	rel := RelativeTo(o.Root, file)
	for _, g := range o.Files {
		if MatchGlob(g, rel) {
			return true
		}
	}
	return false
}

// RelativeTo returns file relative to root, slash-separated; files outside
// root keep their cleaned path.
func RelativeTo(root, file string) string {
	if root == "" {
		root = "."
	}
	absRoot, err1 := filepath.Abs(root)
	absFile, err2 := filepath.Abs(file)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absRoot, absFile); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(filepath.Clean(file))
}

// MatchGlob matches a slash path against a glob (doublestar syntax): * and
// ? stay within a path segment, ** spans segments ("tools/**/*.yaml",
// "**/legacy/*"), [...] is a character class, {a,b} alternatives, and \
// escapes a special character. A pattern without a slash also matches the
// base name, as in .gitignore. Patterns and paths are matched by rune, so
// non-ASCII names match like any other.
func MatchGlob(pattern, path string) bool {
	pattern = strings.TrimPrefix(pattern, "./")
	if doublestar.MatchUnvalidated(pattern, path) {
		return true
	}
	if !strings.Contains(pattern, "/") {
		return doublestar.MatchUnvalidated(pattern, path[strings.LastIndex(path, "/")+1:])
	}
	return false
}

// ValidGlob reports whether a pattern is well formed (closed classes and
// alternatives, no trailing escape).
func ValidGlob(pattern string) bool {
	return doublestar.ValidatePattern(pattern)
}

// EscapeGlob quotes path so that MatchGlob matches it literally: baselines
// name files such as tool[1].yaml or {a}.yaml.
func EscapeGlob(path string) string {
	var b strings.Builder
	for _, r := range path {
		switch r {
		case '*', '?', '[', ']', '{', '}', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
