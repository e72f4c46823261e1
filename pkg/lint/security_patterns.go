package lint

import (
	"regexp"
	"strings"
)

// textPattern is one entry of a curated pattern list: a regular
// expression over the ASCII-lower-cased text, tried only when the text
// contains one of its hints (most texts contain none).
type textPattern struct {
	kind  string
	hints []string
	re    func() *regexp.Regexp
}

// match returns the byte range of the first match of p in lower (the
// ASCII-lower-cased text), or -1.
func (p *textPattern) match(lower string) (int, int) {
	if !containsAny(lower, p.hints) {
		return -1, -1
	}
	m := p.re().FindStringIndex(lower)
	if m == nil {
		return -1, -1
	}
	return m[0], m[1]
}

// lowerASCII lower-cases the ASCII letters of s only, so that byte
// offsets in the result are offsets in s.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// hiddenInstructionPatterns is the curated list of
// security-hidden-instructions (README, "Security scanning"): text that
// addresses the model instead of describing the tool. English only;
// lint.security.hidden_instructions adds patterns.
var hiddenInstructionPatterns = []textPattern{
	{"an instruction override", []string{"ignore", "disregard", "forget", "override"},
		lazyRegexp(`\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous|prior|above|earlier|preceding|other|existing|original|system|safety)\s+(?:instructions?|prompts?|rules|directions|guidelines|guardrails|messages)\b`)},
	{"a request about the system prompt", []string{"system prompt"},
		lazyRegexp(`\b(?:reveal|ignore|override|disregard|print|repeat|leak|output|send|include|dump|append)\b[^.\n]{0,30}\b(?:the\s+|your\s+)?system prompt\b`)},
	{"a new-instructions marker", []string{"instruction", "you are now"},
		lazyRegexp(`\b(?:new|updated|real|actual|hidden|secret)\s+instructions?\s*:|\byou are now\b`)},
	{"secrecy toward the user", []string{"user"},
		lazyRegexp(`\b(?:do\s+not|don'?t|never|must\s+not|should\s+not)\s+(?:tell|inform|mention\s+(?:this|it|that)?\s*to|show|reveal\s+(?:this|it|that)?\s*to|notify|alert|disclose\s+(?:this|it|that)?\s*to|let)\s+(?:the\s+)?users?\b|\bwithout\s+(?:telling|informing|notifying|alerting|asking|showing)\s+(?:the\s+)?users?\b|\busers?\s+(?:must|should|need|needs)\s+(?:not|never)\s+(?:to\s+)?(?:know|see|notice|be\s+(?:told|informed|notified|aware))\b|\b(?:keep|hide)\s+(?:this|it|these)\b[^.\n]{0,20}\bfrom\s+(?:the\s+)?users?\b`)},
	{"secrecy about these instructions", []string{"mention", "reveal", "disclose"},
		lazyRegexp(`\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose)\s+(?:these|this|that\s+you|the\s+above)\s*(?:instructions?|notes?|steps?|requirements?)?\b`)},
	{"a tag-like wrapper", []string{"<", "[inst", "[/inst"},
		lazyRegexp(`<\s*/?\s*(?:important|system|instructions?|secret|hidden|admin|assistant|sys)\s*>|\[/?inst\]|<<\s*/?sys\s*>>|<\|(?:im_start|im_end|system|endoftext)\|>`)},
	{"coercion to call tools", []string{"any other tool", "all other tool", "every other tool", "before using", "before calling", "must always", "regardless of"},
		lazyRegexp(`\bbefore\s+(?:using|calling|invoking|running)\s+(?:any|every|all)\s+(?:other\s+)?tools?\b|\byou\s+must\s+always\s+(?:call|use|invoke|run|execute)\b|\b(?:regardless\s+of|no\s+matter)\s+(?:what\s+)?(?:the\s+)?(?:user|instructions?)\b`)},
}

// secretWords are what security-sensitive-data looks for as something
// to pass along.
const secretWords = `(?:api[ _-]?keys?|passwords?|passphrases?|access[ _-]?tokens?|auth(?:entication)?[ _-]?tokens?|bearer[ _-]?tokens?|session[ _-]?(?:tokens?|cookies?)|secrets?|credentials?|private[ _-]?keys?|ssh[ _-]?keys?|seed[ _-]?phrases?|mnemonics?)`

// sensitiveDataPatterns is the curated list of security-sensitive-data
// (README, "Security scanning"); lint.security.sensitive_data adds
// patterns.
var sensitiveDataPatterns = []textPattern{
	{"a private key or credentials file", []string{".ssh", "id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "passwd", "shadow", ".aws", "credentials", ".netrc", ".npmrc", ".pypirc", ".pgpass", ".kube", ".docker", "mcp.json", "claude_desktop_config", ".gnupg", "keychain", "wallet.dat"},
		lazyRegexp(`~?/?\.ssh\b(?:/[\w.-]*)?|\bid_(?:rsa|ed25519|ecdsa|dsa)\b(?:\.pub)?|/etc/(?:passwd|shadow|sudoers)\b|~?/?\.aws/(?:credentials|config)\b|\.git-credentials\b|(?:^|[\s"'\x60(/~])\.(?:netrc|npmrc|pypirc|pgpass)\b|~?/?\.kube/config\b|~?/?\.docker/config\.json\b|\bcredentials\.json\b|\bmcp\.json\b|\bclaude_desktop_config\.json\b|~?/?\.gnupg\b|\blogin\.keychain\b|\bwallet\.dat\b`)},
	{"reading the .env file", []string{".env"},
		lazyRegexp(`\b(?:read|cat|open|load|send|pass|include|upload|copy|print|dump|extract|attach|forward|paste)\b[^.\n]{0,40}?(?:^|[\s"'\x60(/~])\.env(?:\.(?:local|production|development|prod|dev))?(?:$|[\s"'\x60).,;:])`)},
	{"a secret to pass along", []string{"key", "password", "passphrase", "token", "secret", "credential", "seed", "mnemonic", "cookie"},
		lazyRegexp(`\b(?:pass|send|include|put|forward|append|attach|copy|add|insert|embed|paste|supply|read|collect)\b[^.\n]{0,40}?\b(?:the\s+|your\s+|all\s+|any\s+|users?'?s?\s+)*` + secretWords + `\b[^.\n]{0,40}?\b(?:as|in|into|inside|via|within)\s+(?:the\s+|this\s+|a\s+)?(?:[\x60"']?[\w.-]+[\x60"']?\s+)?(?:parameter|argument|field|param|notes?|sidenote|comment|metadata)\b`)},
	{"conversation or file contents to put into a parameter", []string{"conversation", "chat", "context", "messages", "system prompt", "contents"},
		lazyRegexp(`\b(?:pass|send|include|put|append|attach|copy|add|insert|embed|paste|fill|dump|forward)\b[^.\n]{0,30}?\b(?:the\s+)?(?:entire|full|whole|complete|all(?:\s+of)?(?:\s+the)?|previous|prior|every|your)\s+(?:conversation|chat|context|messages|message\s+history|chat\s+history|conversation\s+history|system\s+prompt|instructions|file\s+contents?|contents\s+of)\b`)},
}

// compileUserPatterns compiles the patterns of the lint.security
// settings: case-insensitive RE2 expressions over the original text.
func compileUserPatterns(kind string, exprs []string) ([]textPattern, error) {
	var out []textPattern
	for _, e := range exprs {
		re, err := regexp.Compile("(?i)" + e)
		if err != nil {
			return nil, err
		}
		out = append(out, textPattern{kind: kind, re: func() *regexp.Regexp { return re }})
	}
	return out, nil
}

// firstMatch returns the first (leftmost) match of the built-in patterns
// in lower and of the user's in text.
func firstMatch(text, lower string, builtin, user []textPattern) (int, int, string) {
	best, end, kind := -1, -1, ""
	for i := range builtin {
		if s, e := builtin[i].match(lower); s >= 0 && (best < 0 || s < best) {
			best, end, kind = s, e, builtin[i].kind
		}
	}
	for i := range user {
		if m := user[i].re().FindStringIndex(text); m != nil && (best < 0 || m[0] < best) {
			best, end, kind = m[0], m[1], user[i].kind
		}
	}
	return best, end, kind
}

// excerpt is the matched text for a message.
func excerpt(text string, from, to int) string {
	return quoteText(strings.TrimSpace(text[from:to]), 60)
}
