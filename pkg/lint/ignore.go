package lint

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Inline ignores live in YAML comments:
//
//	name: HTTPRequest  # toolctl:ignore name-snake-case -- the API requires it
//	# toolctl:ignore description-too-short -- the next line's finding
//	# toolctl:ignore-file field-unknown -- anywhere: the whole file
//
// Several rules are separated by commas; "--" before the reason is optional.
const (
	ignoreMarker     = "toolctl:ignore"
	IgnoreUnusedID   = "ignore-unused"
	IgnoreNoReasonID = "ignore-no-reason"
)

type directive struct {
	span     spec.Span
	fileWide bool
	target   int // the line it applies to
	rules    []string
	reason   string
	used     []bool
}

// applyIgnores drops findings suppressed by inline directives and adds
// findings for directives without a reason or that suppress nothing.
func applyIgnores(set *spec.Set, fs []Finding, cfg *Config) []Finding {
	byFile := map[string][]*directive{}
	for _, f := range set.Files {
		if !hasIgnores(f) {
			continue
		}
		if ds := directives(f); len(ds) > 0 {
			byFile[f.Path] = ds
		}
	}
	if len(byFile) == 0 {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		if !suppressed(byFile[f.File], f) {
			out = append(out, f)
		}
	}
	unusedSev, unusedOn := cfg.enabled(ruleIgnoreUnused)
	reasonSev, reasonOn := cfg.enabled(ruleIgnoreNoReason)
	for file, ds := range byFile {
		for _, d := range ds {
			kind := ignoreMarker
			if d.fileWide {
				kind += "-file"
			}
			if reasonOn && d.reason == "" {
				out = append(out, Finding{File: file, Span: d.span, Severity: reasonSev, Rule: IgnoreNoReasonID,
					Message: "# " + kind + " has no reason; say why after the rule: # " + kind + " " + strings.Join(d.rules, ",") + " -- why"})
			}
			if !unusedOn {
				continue
			}
			if len(d.rules) == 0 {
				out = append(out, Finding{File: file, Span: d.span, Severity: unusedSev, Rule: IgnoreUnusedID,
					Message: "# " + kind + " names no rule; write # " + kind + " RULE-ID -- reason"})
				continue
			}
			for i, id := range d.rules {
				rule, known := Lookup(id)
				switch {
				case !known && OtherRules != nil && OtherRules(id):
					// another command's rule (toolctl breaking's)
				case !known:
					msg := "# " + kind + " names unknown rule \"" + id + "\""
					if s := spec.Suggest(id, RuleIDs()); s != "" {
						msg += "; did you mean \"" + s + "\"?"
					} else {
						msg += "; see toolctl lint --list-rules"
					}
					out = append(out, Finding{File: file, Span: d.span, Severity: unusedSev, Rule: IgnoreUnusedID, Message: msg})
				case d.used[i]:
				case func() bool { _, on := cfg.enabled(rule); return !on }():
					// The rule does not run here; the directive may matter
					// under another configuration.
				default:
					where := "on this line"
					if d.target != d.span.Start.Line {
						where = fmt.Sprintf("on the next line (%d)", d.target)
					}
					if d.fileWide {
						where = "in this file"
					}
					out = append(out, Finding{File: file, Span: d.span, Severity: unusedSev, Rule: IgnoreUnusedID,
						Message: "# " + kind + " " + id + " suppresses nothing: there is no " + id + " finding " + where + "; remove it"})
				}
			}
		}
	}
	return out
}

// OtherRules, when set, tells the rule IDs another command owns (toolctl
// breaking's, set by cmd): an ignore comment that names one is that
// command's, and lint neither calls it unknown nor unused.
var OtherRules func(id string) bool

// IgnoreDirective is an inline ignore comment of a file, for the commands
// that share lint's syntax (toolctl breaking).
type IgnoreDirective struct {
	// Line is the line it applies to (its own, or the next code line for
	// a comment on a line of its own); FileWide for toolctl:ignore-file.
	Line     int
	FileWide bool
	Rules    []string
	Reason   string
}

// IgnoreDirectives returns the inline ignore comments of a YAML file.
func IgnoreDirectives(f *spec.File) []IgnoreDirective {
	if !hasIgnores(f) {
		return nil
	}
	var out []IgnoreDirective
	for _, d := range directives(f) {
		out = append(out, IgnoreDirective{Line: d.target, FileWide: d.fileWide, Rules: d.rules, Reason: d.reason})
	}
	return out
}

func suppressed(ds []*directive, f Finding) bool {
	hit := false
	for _, d := range ds {
		if !d.fileWide && (f.Span.Start.Line == 0 || d.target != f.Span.Start.Line) {
			continue
		}
		for i, id := range d.rules {
			if id == f.Rule {
				d.used[i] = true
				hit = true
			}
		}
	}
	return hit
}

// hasIgnores tells whether a file may hold ignore comments (YAML with the
// marker somewhere).
func hasIgnores(f *spec.File) bool {
	return f.Data != nil && !strings.EqualFold(filepath.Ext(f.Path), ".json") && bytes.Contains(f.Data, []byte(ignoreMarker))
}

// directives finds the ignore comments of a YAML file. The YAML lexer finds
// comments, so the marker inside a string or block scalar is not one.
func directives(f *spec.File) []*directive {
	var ds []*directive
	for _, tk := range lexer.Tokenize(string(f.Source())) {
		if tk.Type != token.CommentType || tk.Position == nil {
			continue
		}
		text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(tk.Value), "#"))
		if !strings.HasPrefix(text, ignoreMarker) {
			continue
		}
		rest := strings.TrimPrefix(text, ignoreMarker)
		d := &directive{}
		switch {
		case strings.HasPrefix(rest, "-file") && (len(rest) == 5 || rest[5] == ' ' || rest[5] == '\t'):
			d.fileWide = true
			rest = rest[5:]
		case rest == "" || rest[0] == ' ' || rest[0] == '\t':
		default:
			continue // toolctl:ignored, toolctl:ignore-something: not ours
		}
		d.rules, d.reason = parseDirective(rest)
		d.used = make([]bool, len(d.rules))
		// The lexer's column is the character column of the '#'.
		line, col := tk.Position.Line, tk.Position.Column
		src := f.Line(line)
		at := byteIndexOfCol(src, col)
		comment := strings.TrimRight(src[at:], " \t")
		d.span = spec.Span{Start: spec.Pos{Line: line, Col: col}, End: spec.Pos{Line: line, Col: col + utf8.RuneCountInString(comment)}}
		d.target = line
		if strings.TrimSpace(src[:at]) == "" {
			d.target = nextCodeLine(f, line)
		}
		ds = append(ds, d)
	}
	return ds
}

// parseDirective splits "rule-a, rule-b -- reason" or "rule-a reason".
func parseDirective(s string) (rules []string, reason string) {
	s = strings.TrimSpace(s)
	var ids string
	if i := strings.Index(s, "--"); i >= 0 {
		ids, reason = s[:i], s[i+2:]
	} else {
		ids = s
		if j := strings.IndexAny(s, " \t"); j >= 0 && !strings.HasSuffix(strings.TrimSpace(s[:j]), ",") {
			ids, reason = s[:j], s[j:]
		}
	}
	for _, id := range strings.FieldsFunc(ids, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		rules = append(rules, id)
	}
	return rules, strings.TrimSpace(reason)
}

// byteIndexOfCol is the byte offset of 1-based character column col.
func byteIndexOfCol(line string, col int) int {
	n := 0
	for i := range line {
		if n == col-1 {
			return i
		}
		n++
	}
	return len(line)
}

// nextCodeLine is the first line after line that is neither blank nor a
// comment: an own-line directive applies to it.
func nextCodeLine(f *spec.File, line int) int {
	last := f.PosAt(len(f.Source())).Line
	for n := line + 1; n <= last; n++ {
		if t := strings.TrimSpace(f.Line(n)); t != "" && !strings.HasPrefix(t, "#") {
			return n
		}
	}
	return line + 1
}
