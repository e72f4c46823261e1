package lint

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Tool-name rules of the providers (the --target packs). Each is checked by
// hand rather than by a regexp so that messages can say what is wrong.

// tgtNameRule is one provider's tool-name syntax.
type tgtNameRule struct {
	// allowed reports whether a character may appear in a name.
	allowed func(r rune) bool
	// first, when set, restricts the first character.
	first func(r rune) bool
	max   int
}

func tgtAlnum(r rune) bool {
	return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
}

var (
	// OpenAI: "Must be a-z, A-Z, 0-9, or contain underscores and dashes,
	// with a maximum length of 64." (FunctionDefinition.name,
	// https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools)
	tgtOpenAIName = tgtNameRule{allowed: func(r rune) bool { return tgtAlnum(r) || r == '_' || r == '-' }, max: 64}

	// Anthropic: "Must match the regex ^[a-zA-Z0-9_-]{1,128}$."
	// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools;
	// the page said {1,64} until 2026, PRODUCT.md section 5 still does.)
	tgtAnthropicName = tgtNameRule{allowed: func(r rune) bool { return tgtAlnum(r) || r == '_' || r == '-' }, max: 128}

	// Gemini FunctionDeclaration.name: "Must start with a letter or an
	// underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots,
	// colons and dashes, with a maximum length of 128."
	// (https://ai.google.dev/api/caching#FunctionDeclaration, and Vertex AI
	// https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Tool#FunctionDeclaration
	// for the first character)
	tgtGeminiName = tgtNameRule{
		allowed: func(r rune) bool { return tgtAlnum(r) || strings.ContainsRune("_.:-", r) },
		first:   func(r rune) bool { return tgtAlnum(r) && !(r >= '0' && r <= '9') || r == '_' },
		max:     128,
	}

	// MCP 2025-11-25 (SEP-986): "Tool names SHOULD be between 1 and 128
	// characters in length (inclusive) ... uppercase and lowercase ASCII
	// letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot
	// (.)". https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names
	tgtMCPName = tgtNameRule{allowed: func(r rune) bool { return tgtAlnum(r) || strings.ContainsRune("_-.", r) }, max: 128}
)

// valid reports whether name follows the rule.
func (nr tgtNameRule) valid(name string) bool {
	n := 0
	for i, r := range name {
		if !nr.allowed(r) || (i == 0 && nr.first != nil && !nr.first(r)) {
			return false
		}
		n++
	}
	return n >= 1 && n <= nr.max
}

// suggest returns a name that follows the rule: other characters become _,
// runs of _ collapse, the length is cut to the maximum. It returns "" when
// nothing usable is left.
func (nr tgtNameRule) suggest(name string) string {
	var b strings.Builder
	for _, r := range name {
		if !nr.allowed(r) {
			r = '_'
		}
		if r == '_' && strings.HasSuffix(b.String(), "_") {
			continue
		}
		b.WriteRune(r)
	}
	out := strings.Trim(b.String(), "_")
	if out == "" {
		return ""
	}
	if first, _ := utf8.DecodeRuneInString(out); nr.first != nil && !nr.first(first) {
		out = "tool_" + out
	}
	if len(out) > nr.max { // ASCII only by now
		out = strings.TrimRight(out[:nr.max], "_")
	}
	return out
}

// tgtNameProblem says what is wrong with name under rule, e.g. `contains " "`
// or "is 70 characters long"; "" when the name is valid.
func tgtNameProblem(nr tgtNameRule, name string) string {
	for i, r := range name {
		if !nr.allowed(r) {
			return "contains " + tgtQuoteRune(r)
		}
		if i == 0 && nr.first != nil && !nr.first(r) {
			return "starts with " + tgtQuoteRune(r)
		}
	}
	if n := utf8.RuneCountInString(name); n > nr.max {
		return "is " + strconv.Itoa(n) + " characters long"
	}
	return ""
}

func tgtQuoteRune(r rune) string {
	if r == ' ' {
		return "a space"
	}
	if r < ' ' || r == utf8.RuneError {
		return "a control character"
	}
	return "\"" + string(r) + "\""
}
