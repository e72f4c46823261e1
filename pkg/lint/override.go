package lint

import (
	"path/filepath"
	"regexp"
	"strings"
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

var globCache syncMap[string, *regexp.Regexp]

// MatchGlob matches a slash path against a glob: * and ? stay within a
// path segment, ** spans segments ("tools/**/*.yaml", "**/legacy/*"),
// [...] is a character class. A pattern without a slash also matches the
// base name, as in .gitignore.
func MatchGlob(pattern, path string) bool {
	re, ok := globCache.Load(pattern)
	if !ok {
		re = globRegexp(pattern)
		globCache.Store(pattern, re)
	}
	if re.MatchString(path) {
		return true
	}
	if !strings.Contains(pattern, "/") {
		return re.MatchString(path[strings.LastIndex(path, "/")+1:])
	}
	return false
}

// ValidGlob reports a malformed character class.
func ValidGlob(pattern string) bool {
	_, err := filepath.Match(strings.ReplaceAll(pattern, "**", "*"), "")
	return err == nil
}

func globRegexp(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	p = strings.TrimPrefix(p, "./")
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case strings.HasPrefix(p[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(p[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			end := strings.IndexByte(p[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := p[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile(`[^\x00-\x{10FFFF}]`) // matches nothing; ValidGlob rejects such patterns up front
	}
	return re
}
