package builtin

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/run"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// The string handler works on Unicode characters (code points), never on
// bytes: length, substring, index_of, pad and reverse count "é" as one.

// strMaxOutput bounds what pad and replace may build, which a width or a
// replacement could otherwise make arbitrarily large.
const strMaxOutput = 1 << 20

var strOperations = []string{"upper", "lower", "title", "trim", "replace", "split", "length", "substring", "contains", "starts_with", "ends_with", "index_of", "pad", "reverse", "regex_match", "regex_replace"}

func stringHandler(_ context.Context, c *run.Call) (any, error) {
	op, err := c.String("operation", "")
	if err != nil {
		return nil, err
	}
	text, err := c.String("text", "")
	if err != nil {
		return nil, err
	}
	caseSensitive, err := c.Bool("case_sensitive", true)
	if err != nil {
		return nil, err
	}
	search := func() (string, error) {
		s, err := c.String("search", "")
		if err == nil && s == "" {
			err = &run.Error{Kind: run.ValidationError, Param: "search", Message: fmt.Sprintf("operation %s needs search: the text to look for", op)}
		}
		return s, err
	}

	switch op {
	case "upper":
		return strResult(cases.Upper(language.Und).String(text)), nil
	case "lower":
		return strResult(cases.Lower(language.Und).String(text)), nil
	case "title":
		return strResult(cases.Title(language.Und).String(text)), nil
	case "trim":
		side, err := strSide(c)
		if err != nil {
			return nil, err
		}
		chars, err := c.String("characters", "")
		if err != nil {
			return nil, err
		}
		return strResult(strTrim(text, side, chars)), nil
	case "length":
		return strResult(int64(utf8.RuneCountInString(text))), nil
	case "reverse":
		return strResult(strReverse(text)), nil
	case "contains", "starts_with", "ends_with", "index_of":
		s, err := search()
		if err != nil {
			return nil, err
		}
		t := text
		if !caseSensitive {
			t, s = strings.ToLower(t), strings.ToLower(s)
		}
		switch op {
		case "contains":
			return strResult(strings.Contains(t, s)), nil
		case "starts_with":
			return strResult(strings.HasPrefix(t, s)), nil
		case "ends_with":
			return strResult(strings.HasSuffix(t, s)), nil
		}
		i := strings.Index(t, s)
		if i >= 0 {
			i = utf8.RuneCountInString(t[:i])
		}
		return strResult(int64(i)), nil
	case "replace":
		s, err := search()
		if err != nil {
			return nil, err
		}
		re := regexp.QuoteMeta(s)
		if !caseSensitive {
			re = "(?i)" + re
		}
		return strReplace(c, text, regexp.MustCompile(re), true)
	case "regex_replace":
		re, err := strRegexp(c, caseSensitive)
		if err != nil {
			return nil, err
		}
		return strReplace(c, text, re, false)
	case "regex_match":
		re, err := strRegexp(c, caseSensitive)
		if err != nil {
			return nil, err
		}
		return strMatch(c, text, re)
	case "split":
		sep, err := c.String("separator", "")
		if err != nil {
			return nil, err
		}
		limit, err := c.Int("count", -1)
		if err != nil {
			return nil, err
		}
		var parts []string
		switch {
		case limit == 0:
			parts = []string{}
		case sep == "":
			// No separator: split on runs of whitespace, as most
			// languages' split() without arguments does.
			parts = strings.Fields(text)
			if limit > 0 && len(parts) > limit {
				parts = strSplitFields(text, limit)
			}
		default:
			parts = strings.SplitN(text, sep, limit)
		}
		out := make([]any, len(parts))
		for i, p := range parts {
			out[i] = p
		}
		return strResult(out), nil
	case "substring":
		return strSubstring(c, text)
	case "pad":
		return strPad(c, text)
	}
	return nil, &run.Error{Kind: run.ValidationError, Param: "operation", Message: fmt.Sprintf("unknown operation %q; use one of %s", op, strings.Join(strOperations, ", "))}
}

func strResult(v any) map[string]any { return map[string]any{"result": v} }

func strSide(c *run.Call) (string, error) {
	side, err := c.String("side", "both")
	if err != nil {
		return "", err
	}
	switch side {
	case "both", "left", "right":
		return side, nil
	}
	return "", &run.Error{Kind: run.ValidationError, Param: "side", Message: fmt.Sprintf("side %q is not known; use both, left or right", side)}
}

// strTrim removes whitespace, or the given characters, from one or both
// ends.
func strTrim(s, side, chars string) string {
	cut := unicode.IsSpace
	if chars != "" {
		cut = func(r rune) bool { return strings.ContainsRune(chars, r) }
	}
	if side != "right" {
		s = strings.TrimLeftFunc(s, cut)
	}
	if side != "left" {
		s = strings.TrimRightFunc(s, cut)
	}
	return s
}

// strSplitFields splits on whitespace into at most n fields, the last one
// holding the rest of the text as is.
func strSplitFields(s string, n int) []string {
	var out []string
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	for len(out) < n-1 && s != "" {
		i := strings.IndexFunc(s, unicode.IsSpace)
		if i < 0 {
			break
		}
		out = append(out, s[:i])
		s = strings.TrimLeftFunc(s[i:], unicode.IsSpace)
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// strReverse reverses the characters, keeping combining marks, variation
// selectors and zero-width joiners with the character they belong to, so
// "é" written as e + U+0301 stays é.
func strReverse(s string) string {
	var clusters []string
	for i := 0; i < len(s); {
		j := i
		_, w := utf8.DecodeRuneInString(s[j:])
		j += w
		for j < len(s) {
			r, w := utf8.DecodeRuneInString(s[j:])
			if !strJoins(r) {
				break
			}
			j += w
			if r == '\u200d' && j < len(s) { // a ZWJ glues the next character too
				_, w = utf8.DecodeRuneInString(s[j:])
				j += w
			}
		}
		clusters = append(clusters, s[i:j])
		i = j
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := len(clusters) - 1; i >= 0; i-- {
		b.WriteString(clusters[i])
	}
	return b.String()
}

func strJoins(r rune) bool {
	return unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Mc, r) ||
		r == '\u200d' || (r >= '\ufe00' && r <= '\ufe0f') || (r >= 0x1f3fb && r <= 0x1f3ff)
}

func strRegexp(c *run.Call, caseSensitive bool) (*regexp.Regexp, error) {
	p, err := c.String("pattern", "")
	if err != nil {
		return nil, err
	}
	if p == "" {
		return nil, &run.Error{Kind: run.ValidationError, Param: "pattern", Message: "this operation needs pattern: a regular expression in Go (RE2) syntax, e.g. \\d+"}
	}
	if !caseSensitive {
		p = "(?i)" + p
	}
	re, err := regexp.Compile(p)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		return nil, &run.Error{Kind: run.ValidationError, Param: "pattern", Message: fmt.Sprintf("pattern is not a valid regular expression: %s; the syntax is Go's RE2 (no lookaround or backreferences)", msg)}
	}
	return re, nil
}

// strReplace replaces the first count matches (all when count < 0). For
// regex_replace the replacement may use $1, ${1} and ${name}.
func strReplace(c *run.Call, text string, re *regexp.Regexp, literal bool) (any, error) {
	repl, err := c.String("replacement", "")
	if err != nil {
		return nil, err
	}
	limit, err := c.Int("count", -1)
	if err != nil {
		return nil, err
	}
	var out []byte
	last, n := 0, 0
	for _, m := range re.FindAllStringSubmatchIndex(text, limit) {
		out = append(out, text[last:m[0]]...)
		if literal {
			out = append(out, repl...)
		} else {
			out = re.ExpandString(out, repl, text, m)
		}
		last = m[1]
		n++
		if len(out) > len(text)+strMaxOutput {
			return nil, &run.Error{Kind: run.ValidationError, Param: "replacement", Message: fmt.Sprintf("the result would grow by more than %d bytes; replace fewer matches (count) or use a shorter replacement", strMaxOutput)}
		}
	}
	out = append(out, text[last:]...)
	return map[string]any{"result": string(out), "replacements": int64(n)}, nil
}

// strMatch lists the matches of a regular expression, at most count
// (all when count < 0), with their capture groups.
func strMatch(c *run.Call, text string, re *regexp.Regexp) (any, error) {
	limit, err := c.Int("count", -1)
	if err != nil {
		return nil, err
	}
	names := re.SubexpNames()
	matches := []any{}
	for _, loc := range re.FindAllStringSubmatchIndex(text, limit) {
		groups := make([]any, 0, len(loc)/2-1)
		named := map[string]any{}
		for g := 1; g < len(loc)/2; g++ {
			var v any // nil for a group that did not take part
			if loc[2*g] >= 0 {
				v = text[loc[2*g]:loc[2*g+1]]
			}
			groups = append(groups, v)
			if names[g] != "" {
				named[names[g]] = v
			}
		}
		m := map[string]any{
			"match":  text[loc[0]:loc[1]],
			"index":  int64(utf8.RuneCountInString(text[:loc[0]])),
			"groups": groups,
		}
		if len(named) > 0 {
			m["named"] = named
		}
		matches = append(matches, m)
	}
	return map[string]any{"result": len(matches) > 0, "matches": matches}, nil
}

// strSubstring takes characters start (inclusive) to end (exclusive);
// negative positions count from the end, as in Python's s[start:end].
func strSubstring(c *run.Call, text string) (any, error) {
	runes := []rune(text)
	start, end, err := strRange(c, len(runes))
	if err != nil {
		return nil, err
	}
	return strResult(string(runes[start:end])), nil
}

// strRange reads start and end (end null: to the end) and clamps them to
// [0, n] as Python slicing does.
func strRange(c *run.Call, n int) (int, int, error) {
	start, err := c.Int("start", 0)
	if err != nil {
		return 0, 0, err
	}
	end, err := c.Int("end", n)
	if err != nil {
		return 0, 0, err
	}
	clamp := func(i int) int {
		if i < 0 {
			i += n
		}
		return max(0, min(i, n))
	}
	start, end = clamp(start), clamp(end)
	if end < start {
		end = start
	}
	return start, end, nil
}

// strPad pads to width characters with pad_char on the side given (both:
// centred, the extra character on the right).
func strPad(c *run.Call, text string) (any, error) {
	width, err := c.Int("width", 0)
	if err != nil {
		return nil, err
	}
	if width > strMaxOutput {
		return nil, &run.Error{Kind: run.ValidationError, Param: "width", Message: fmt.Sprintf("width %d is too large; the limit is %d characters", width, strMaxOutput)}
	}
	fill, err := c.String("pad_char", " ")
	if err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(fill) != 1 {
		return nil, &run.Error{Kind: run.ValidationError, Param: "pad_char", Message: fmt.Sprintf("pad_char %q must be exactly one character", fill)}
	}
	side, err := strSide(c)
	if err != nil {
		return nil, err
	}
	n := width - utf8.RuneCountInString(text)
	if n <= 0 {
		return strResult(text), nil
	}
	switch side {
	case "left":
		return strResult(strings.Repeat(fill, n) + text), nil
	case "right":
		return strResult(text + strings.Repeat(fill, n)), nil
	}
	return strResult(strings.Repeat(fill, n/2) + text + strings.Repeat(fill, n-n/2)), nil
}
