package compat

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Tool-name rules of the providers. Each is checked by hand rather than by
// a regexp so that messages can say what is wrong.

// nameRule is one provider's tool-name syntax.
type nameRule struct {
	// allowed reports whether a character may appear in a name.
	allowed func(r rune) bool
	// first, when set, restricts the first character.
	first func(r rune) bool
	max   int
	// provider and fix go into messages.
	provider, fix string
	// advisory: the rule is a SHOULD (MCP), not a refusal.
	advisory bool
}

func alnum(r rune) bool {
	return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
}

var nameRules = map[string]nameRule{
	// OpenAI: "Must be a-z, A-Z, 0-9, or contain underscores and dashes,
	// with a maximum length of 64." (FunctionDefinition.name,
	// https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools)
	OpenAI: {
		allowed:  func(r rune) bool { return alnum(r) || r == '_' || r == '-' },
		max:      64,
		provider: "OpenAI",
		fix:      "use only letters, digits, _ and - (at most 64 characters)",
	},

	// Anthropic: "The name of the tool. Must match the regex
	// ^[a-zA-Z0-9_-]{1,128}$." (Define tools, "Specifying client tools",
	// https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools,
	// checked 2026-11). Its predecessor page implement-tool-use, some
	// translations and API mirrors still say {1,64}; the current English
	// page is the reference.
	Anthropic: {
		allowed:  func(r rune) bool { return alnum(r) || r == '_' || r == '-' },
		max:      128,
		provider: "Anthropic",
		fix:      "use only letters, digits, _ and - (at most 128 characters)",
	},

	// Gemini FunctionDeclaration.name: "Must start with a letter or an
	// underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots,
	// colons and dashes, with a maximum length of 128."
	// (https://ai.google.dev/api/caching#FunctionDeclaration, and Vertex AI
	// https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Tool#FunctionDeclaration
	// for the first character)
	Gemini: {
		allowed:  func(r rune) bool { return alnum(r) || strings.ContainsRune("_.:-", r) },
		first:    func(r rune) bool { return alnum(r) && !(r >= '0' && r <= '9') || r == '_' },
		max:      128,
		provider: "Gemini",
		fix:      "start with a letter or _ and use only letters, digits, _ . : and - (at most 128 characters)",
	},

	// MCP 2025-11-25 (SEP-986): "Tool names SHOULD be between 1 and 128
	// characters in length (inclusive) ... uppercase and lowercase ASCII
	// letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot
	// (.)". https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names
	MCP: {
		allowed:  func(r rune) bool { return alnum(r) || strings.ContainsRune("_-.", r) },
		max:      128,
		provider: "MCP",
		fix:      "use 1 to 128 of A-Z, a-z, 0-9, _, - and .",
		advisory: true,
	},
}

// valid reports whether name follows the rule.
func (nr nameRule) valid(name string) bool {
	n := 0
	for i, r := range name {
		if !nr.allowed(r) || (i == 0 && nr.first != nil && !nr.first(r)) {
			return false
		}
		n++
	}
	return n >= 1 && n <= nr.max
}

// suggest returns a name that follows the rule: Latin letters with
// diacritics are transliterated (é is e, ß is ss), other characters become
// _, runs of _ collapse, the length is cut to the maximum. It returns ""
// when nothing usable is left; exact is false when letters or digits
// without an ASCII spelling (查询, поиск) were dropped, so that the result
// is a valid name but no longer says what the tool is.
func (nr nameRule) suggest(name string) (_ string, exact bool) {
	name, exact = spec.Transliterate(name)
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
		return "", exact
	}
	if first, _ := utf8.DecodeRuneInString(out); nr.first != nil && !nr.first(first) {
		out = "tool_" + out
	}
	if len(out) > nr.max { // ASCII only by now
		out = strings.TrimRight(out[:nr.max], "_")
	}
	return out, exact
}

// problem says what is wrong with name, e.g. `contains " "` or "is 70
// characters long"; "" when the name is valid or empty.
func (nr nameRule) problem(name string) string {
	for i, r := range name {
		if !nr.allowed(r) {
			return "contains " + quoteRune(r)
		}
		if i == 0 && nr.first != nil && !nr.first(r) {
			return "starts with " + quoteRune(r)
		}
	}
	if n := utf8.RuneCountInString(name); n > nr.max {
		return "is " + strconv.Itoa(n) + " characters long"
	}
	return ""
}

func quoteRune(r rune) string {
	if r == ' ' {
		return "a space"
	}
	if r < ' ' || r == utf8.RuneError {
		return "a control character"
	}
	return "\"" + string(r) + "\""
}

// geminiSeparator flags a valid Gemini name holding . : or -: Gemini's
// function calling guide asks for names "without spaces, periods (.), or
// dashes (-)" (https://ai.google.dev/gemini-api/docs/function-calling,
// "Best practices"), and some SDKs mishandle them.
func geminiSeparator(name string) (Problem, bool) {
	i := strings.IndexAny(name, ".:-")
	if i < 0 {
		return Problem{}, false
	}
	return Problem{
		Rule: "gemini-name-separator",
		Message: fmt.Sprintf("name %q uses %q, which Gemini accepts but advises against (some SDKs mishandle it); prefer %q",
			name, name[i:i+1], strings.NewReplacer(".", "_", ":", "_", "-", "_").Replace(name)),
		Warning: true,
	}, true
}
