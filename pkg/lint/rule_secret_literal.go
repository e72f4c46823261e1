package lint

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleSecretLiteral = &Rule{
	ID:          "secret-literal",
	Severity:    Error,
	Description: "No literal credentials in entry headers, url, query, body, code, command or server; use ${ENV}.",
	Explain: `A key committed in a tool file is a leaked key: it is in the history, in every
export and in every log. Read it from the environment at run time (or bind
the parameter to an env var).

Bad:
  entry:
    type: http
    url: https://api.example.org/v1/search
    method: GET
    headers:
      Authorization: Bearer sk-live-2f9a8d7c6b5a4e3f2a1b0c9d

Good:
  entry:
    type: http
    url: https://api.example.org/v1/search
    method: GET
    headers:
      Authorization: Bearer ${EXAMPLE_API_KEY}`,
	Tool: func(r *Reporter, t *spec.Tool) {
		e := t.Entry
		if e == nil {
			return
		}
		check := func(ptr, where, text string, keyed bool) {
			for _, s := range findSecrets(text, keyed) {
				line, col := lineCol(text, s.offset)
				p := t.TextPos(ptr, line, col)
				span := spec.Span{Start: p, End: spec.Pos{Line: p.Line, Col: p.Col + len([]rune(s.text))}}
				r.ReportSecret(t, span, s.text, "literal %s in %s (%s); never commit credentials: read it from the environment, e.g. ${%s}", s.kind, where, redact(s.text), envName(t))
			}
		}
		check("/entry/url", "entry.url", e.URL, false)
		if e.Headers != nil {
			for i := range e.Headers.Len() {
				k, v := e.Headers.At(i)
				s, _ := v.(string)
				check("/entry/headers/"+escape(k), "header "+k, s, sensitiveName(k))
			}
		}
		if e.Query != nil {
			for i := range e.Query.Len() {
				k, v := e.Query.At(i)
				if s, ok := v.(string); ok {
					check("/entry/query/"+escape(k), "query parameter "+k, s, sensitiveName(k))
				}
			}
		}
		if s, ok := e.Body.(string); ok {
			check("/entry/body", "entry.body", s, false)
		}
		check("/entry/code", "entry.code", e.Code, false)
		argv := func(ptr, where string, args []string) {
			for i, a := range args {
				// The value of a sensitive option (--api-key VALUE) is a
				// credential whatever it looks like.
				keyed := i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") && sensitiveName(args[i-1])
				check(ptr+"/"+strconv.Itoa(i), where, a, keyed)
			}
		}
		argv("/entry/command", "entry.command", e.Command)
		check("/entry/server", "entry.server", e.Server, false)
		argv("/entry/server", "entry.server", e.ServerArgs)
	},
}

type secret struct {
	offset int // byte offset in the text
	text   string
	kind   string
}

var (
	// Well-known token shapes (prefixes documented by their issuers).
	tokenPatterns = []struct {
		hints []string // every match contains one of these
		re    func() *regexp.Regexp
		kind  string
	}{
		{[]string{"sk-"}, lazyRegexp(`\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}`), "API key"},
		{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, lazyRegexp(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{40,}`), "GitHub token"},
		{[]string{"xox"}, lazyRegexp(`\bxox[abprs]-[A-Za-z0-9-]{10,}`), "Slack token"},
		{[]string{"AKIA"}, lazyRegexp(`\bAKIA[0-9A-Z]{16}\b`), "AWS access key"},
		{[]string{"AIza"}, lazyRegexp(`\bAIza[0-9A-Za-z_-]{35}`), "Google API key"},
		{[]string{"glpat-"}, lazyRegexp(`\bglpat-[A-Za-z0-9_-]{20,}`), "GitLab token"},
	}
	// Authorization schemes followed by a literal credential.
	authScheme = lazyRegexp(`(?i)\b(?:bearer|basic|token)\s+([A-Za-z0-9._~+/=-]{8,})`)
	// Credentials in a URL: query parameters and user:password@.
	urlSecret = lazyRegexp(`(?i)[?&](?:api[_-]?key|apikey|key|token|access[_-]?token|secret|password|client[_-]?secret)=([^&#\s{$]{8,})`)
	userInfo  = lazyRegexp(`://[^/\s:@{$]+:([^@/\s{$]{4,})@`)
)

// findSecrets returns the literal credentials in text. keyed says the text
// is the value of a sensitive key (an Authorization or X-Api-Key header),
// where any long literal counts.
func findSecrets(text string, keyed bool) []secret {
	if text == "" {
		return nil
	}
	var out []secret
	seen := map[int]bool{}
	add := func(start, end int, kind string) {
		if seen[start] || placeholder(text[start:end]) {
			return
		}
		seen[start] = true
		out = append(out, secret{start, text[start:end], kind})
	}
	// Cheap substring tests first: the regexps run on every string of
	// every entry, and almost none hold a credential.
	for _, p := range tokenPatterns {
		if !containsAny(text, p.hints) {
			continue
		}
		for _, m := range p.re().FindAllStringIndex(text, -1) {
			add(m[0], m[1], p.kind)
		}
	}
	lower := strings.ToLower(text)
	if strings.Contains(lower, "bearer") || strings.Contains(lower, "basic") || strings.Contains(lower, "token") {
		for _, m := range authScheme().FindAllStringSubmatchIndex(text, -1) {
			add(m[2], m[3], "credential")
		}
	}
	if strings.Contains(text, "=") {
		for _, m := range urlSecret().FindAllStringSubmatchIndex(text, -1) {
			add(m[2], m[3], "credential")
		}
	}
	if strings.Contains(text, "@") {
		for _, m := range userInfo().FindAllStringSubmatchIndex(text, -1) {
			add(m[2], m[3], "password")
		}
	}
	if keyed && len(out) == 0 {
		v := strings.TrimSpace(text)
		if i := strings.LastIndexAny(v, " \t"); i >= 0 {
			v = v[i+1:]
		}
		if len(v) >= 12 && !strings.ContainsAny(v, "{}$<>") {
			add(strings.LastIndex(text, v), strings.LastIndex(text, v)+len(v), "credential")
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].offset < out[j].offset })
	return out
}

// placeholder tells a template from a value: ${ENV}, {param}, <token>,
// xxx..., and obvious dummies.
func placeholder(s string) bool {
	l := strings.ToLower(s)
	if strings.ContainsAny(s, "{}$<>") || strings.Trim(l, "x*._-") == "" {
		return true
	}
	for _, w := range []string{"your", "example", "placeholder", "changeme", "redacted", "dummy", "xxxx"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

func sensitiveName(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"authorization", "api-key", "api_key", "apikey", "token", "secret", "password", "x-auth"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// redact keeps four characters so the reader can find the value without
// the finding (which lands in CI logs) repeating the secret.
func redact(s string) string {
	rs := []rune(s)
	if len(rs) <= 4 {
		return "****"
	}
	return string(rs[:4]) + strings.Repeat("*", min(len(rs)-4, 8))
}

func envName(t *spec.Tool) string {
	if t.Name == "" {
		return "API_KEY"
	}
	return strings.ToUpper(t.Name) + "_API_KEY"
}

// lineCol converts a byte offset of text into its 1-based line and
// character column.
func lineCol(text string, offset int) (int, int) {
	before := text[:offset]
	line := strings.Count(before, "\n") + 1
	if i := strings.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	return line, len([]rune(before)) + 1
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
