package lint

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// textPattern is one entry of a curated pattern list: a regular
// expression over the ASCII-lower-cased text (or a list of literal
// paths). Regular expressions are slow on long texts and almost no text
// matches, so each pattern names the words that any match contains
// (triggers: a word, or two words in a row, "must always", "whenever *"),
// and runs only in a window around each trigger a text has. Every text is
// scanned for the triggers of every pattern once (modelText.hits).
type textPattern struct {
	kind     string
	triggers []string
	re       func() *regexp.Regexp
	// literals, instead of re: the first of these strings in the window
	// (extended over the path it starts; see findLiteral).
	literals []string
	// at, instead of re: a matcher of the words around the trigger at
	// byte at of the whole text, compared lower-cased (clauseWords;
	// faster than a regexp that starts anywhere).
	at func(text string, at int) (int, int)
	// also: words the text must contain too, anywhere (nil: none).
	also []string
	// bytes: characters the text must contain one of ("": none).
	bytes string
	id    int // index in allPatterns
}

// find returns the first match of p in s, or -1.
func (p *textPattern) find(s string) (int, int) {
	if p.literals != nil {
		return findLiteral(s, p.literals)
	}
	if m := p.re().FindStringIndex(s); m != nil {
		return m[0], m[1]
	}
	return -1, -1
}

// findLiteral returns the first occurrence in s of one of lits not inside
// a word, extended over the file path around it (~/.ssh/id_rsa for
// ".ssh/").
func findLiteral(s string, lits []string) (int, int) {
	best, end := -1, -1
	for _, l := range lits {
		for off := 0; off < len(s); {
			i := strings.Index(s[off:], l)
			if i < 0 {
				break
			}
			i += off
			off = i + 1
			if best >= 0 && i >= best {
				break
			}
			if wordByte(l[0]) && i > 0 && wordByte(s[i-1]) {
				continue
			}
			best, end = i, i+len(l)
			break
		}
	}
	if best < 0 {
		return -1, -1
	}
	for best > 0 && (s[best-1] == '~' || s[best-1] == '/' || s[best-1] == '.' || wordByte(s[best-1]) && s[best] == '.') {
		best--
	}
	for end < len(s) && (wordByte(s[end]) || s[end] == '/' || s[end] == '.' || s[end] == '-') {
		end++
	}
	for end > best+1 && s[end-1] == '.' {
		end--
	}
	return best, end
}

// wordTriggers is what one word triggers.
type wordTriggers struct {
	word   string
	single []int         // patterns it triggers alone
	pairs  []pairTrigger // patterns it triggers followed by a second word
	also   []int         // patterns whose also list it is in
}

type pairTrigger struct {
	second  string // "*": any word
	pattern int
}

// hit is where a pattern's trigger is in a text.
type hit struct{ pattern, at int }

// allPatterns holds every built-in pattern; patternSets are ranges of it.
var (
	allPatterns []*textPattern
	// triggerIndex maps a word to what it triggers; built on first use.
	triggerIndex = sync.OnceValue(func() *wordTable { return newWordTable(triggerWords()) })
	triggerWords = func() map[string]*wordTriggers {
		x := map[string]*wordTriggers{}
		get := func(w string) *wordTriggers {
			if x[w] == nil {
				x[w] = &wordTriggers{word: w}
			}
			return x[w]
		}
		for _, p := range allPatterns {
			for _, t := range p.triggers {
				if a, b, ok := strings.Cut(t, " "); ok {
					get(a).pairs = append(get(a).pairs, pairTrigger{b, p.id})
					if b != "*" {
						get(b) // so that the scan finds the second word
					}
				} else {
					get(t).single = append(get(t).single, p.id)
				}
			}
			for _, w := range p.also {
				get(w).also = append(get(w).also, p.id)
			}
		}
		return x
	}
)

// wordTable is an open-addressing hash table of the trigger words, looked
// up with a hash made while a word is scanned (fnv1a of its lower-case
// bytes): cheaper than a map lookup, which needs the word lower-cased
// first, on every word of every text.
type wordTable struct {
	slots []*wordTriggers
	mask  uint32
}

func newWordTable(words map[string]*wordTriggers) *wordTable {
	size := 1
	for size < 4*len(words) {
		size <<= 1
	}
	t := &wordTable{slots: make([]*wordTriggers, size), mask: uint32(size - 1)}
	for w, x := range words {
		k := fnvLower(w) & t.mask
		for t.slots[k] != nil {
			k = (k + 1) & t.mask
		}
		t.slots[k] = x
	}
	return t
}

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// fnvLower is fnv1a of s with its ASCII letters lower-cased.
func fnvLower(s string) uint32 {
	h := uint32(fnvOffset)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(lowerByte[s[i]])) * fnvPrime
	}
	return h
}

// lookup returns what word (whose fnvLower is h) triggers, or nil.
func (t *wordTable) lookup(h uint32, word string) *wordTriggers {
	for k := h & t.mask; t.slots[k] != nil; k = (k + 1) & t.mask {
		if x := t.slots[k]; len(x.word) == len(word) && equalLower(x.word, word) {
			return x
		}
	}
	return nil
}

// equalLower tells whether word, lower-cased, is lower.
func equalLower(lower, word string) bool {
	for i := 0; i < len(word); i++ {
		if lowerByte[word[i]] != lower[i] {
			return false
		}
	}
	return true
}

// lowerByte lower-cases an ASCII letter and keeps any other byte.
var lowerByte = func() (t [256]byte) {
	for c := range 256 {
		t[c] = byte(c)
		if c >= 'A' && c <= 'Z' {
			t[c] = byte(c) + 'a' - 'A'
		}
	}
	return t
}()

// scanTriggers appends to dst the trigger positions in text of the
// patterns whose also words and bytes it has, in text order, and tells
// whether text is plainASCII (one pass for both). Words are runs of ASCII
// letters, digits, _ and ', compared in lower case (without lower-casing
// the whole text: almost no text has a trigger).
func scanTriggers(dst []hit, text string) ([]hit, bool) {
	index := triggerIndex()
	base := len(dst)
	hits := dst
	var alsoSeen uint64
	var prev *wordTriggers
	var seen uint8 // the byteClass bits of the text
	prevAt := 0
	for i := 0; i < len(text); {
		c := byteClass[text[i]]
		if c&classWord == 0 {
			seen |= c
			i++
			continue
		}
		j := i
		h := uint32(fnvOffset)
		for j < len(text) && byteClass[text[j]]&classWord != 0 {
			h = (h ^ uint32(lowerByte[text[j]])) * fnvPrime
			j++
		}
		cur := index.lookup(h, text[i:j])
		if prev != nil {
			for _, pt := range prev.pairs {
				if pt.second == "*" || cur != nil && cur.word == pt.second {
					hits = append(hits, hit{pt.pattern, prevAt})
				}
			}
		}
		if cur != nil {
			for _, p := range cur.single {
				hits = append(hits, hit{p, i})
			}
			for _, p := range cur.also {
				alsoSeen |= 1 << p
			}
		}
		prev, prevAt = cur, i
		i = j
	}
	plain := seen&classOther == 0
	if len(hits) == base {
		return hits, plain
	}
	out := hits[:base]
	for _, h := range hits[base:] {
		p := allPatterns[h.pattern]
		if (p.also == nil || alsoSeen&(1<<h.pattern) != 0) && (p.bytes == "" || strings.ContainsAny(text, p.bytes)) {
			out = append(out, h)
		}
	}
	return out, plain
}

func wordByte(c byte) bool { return byteClass[c]&classWord != 0 }

// byteClass classifies bytes for scanTriggers: word bytes (ASCII
// letters, digits, _ and '), upper-case letters, and bytes that make a
// text not plainASCII (non-ASCII, control characters but tab and line
// breaks).
var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 'A' && c <= 'Z':
			t[c] = classWord | classUpper
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '\'':
			t[c] = classWord
		case c >= utf8.RuneSelf || c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7F:
			t[c] = classOther
		}
	}
	return t
}()

const (
	classWord uint8 = 1 << iota
	classUpper
	classOther
)

// window is the range of lower around a trigger at a that any match
// containing it lies in: patterns span at most ~150 characters.
func window(lower string, at int) (int, int) {
	from, to := max(0, at-200), min(len(lower), at+250)
	for from > 0 && lower[from-1] != ' ' && lower[from-1] != '\n' && at-from < 260 {
		from--
	}
	for to < len(lower) && lower[to] != ' ' && lower[to] != '\n' && to-at < 310 {
		to++
	}
	return from, to
}

// patternSet is a rule's range of allPatterns.
type patternSet struct{ lo, hi int }

func newPatternSet(patterns []textPattern) patternSet {
	ps := patternSet{lo: len(allPatterns)}
	for i := range patterns {
		p := &patterns[i]
		p.id = len(allPatterns)
		allPatterns = append(allPatterns, p)
	}
	ps.hi = len(allPatterns)
	if ps.hi > 64 {
		panic("at most 64 built-in text patterns")
	}
	return ps
}

// first returns the first match in m of any pattern of the set, and the
// pattern's kind; -1 when none matches.
func (ps patternSet) first(m *modelText) (int, int, string) {
	best, end, kind := -1, -1, ""
	for _, h := range m.hits() {
		if h.pattern < ps.lo || h.pattern >= ps.hi {
			continue
		}
		p := allPatterns[h.pattern]
		if s, e := p.matchAt(m, h.at); s >= 0 && (best < 0 || s < best) {
			best, end, kind = s, e, p.kind
		}
	}
	return best, end, kind
}

// matchAt returns the match of p around the trigger at byte at of m's
// text, or -1. It reads the text lower-cased (m.lowered: once per text
// with a trigger, almost none has one) in the window around the trigger
// (a text can be a long detail).
func (p *textPattern) matchAt(m *modelText, at int) (int, int) {
	text := m.scanLower()
	if p.at != nil {
		return p.at(text, at) // word matchers compare words lower-cased
	}
	from, to := window(text, at)
	if p.literals != nil {
		// A literal contains its trigger word: a few characters around
		// it are enough.
		from, to = max(0, at-30), min(len(text), at+40)
	}
	s, e := p.find(text[from:to])
	if s < 0 {
		return -1, -1
	}
	return from + s, from + e
}

// lowerASCII lower-cases the ASCII letters of s only, so that byte
// offsets in the result are offsets in s.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			// One allocation (a []byte and string() would be two).
			var b strings.Builder
			b.Grow(len(s))
			b.WriteString(s[:i])
			for j := i; j < len(s); j++ {
				b.WriteByte(lowerByte[s[j]])
			}
			return b.String()
		}
	}
	return s
}

// pairs lists "a b" for every a and b.
func pairs(firsts, seconds string) []string {
	var out []string
	for _, a := range strings.Fields(firsts) {
		for _, b := range strings.Fields(seconds) {
			out = append(out, a+" "+b)
		}
	}
	return out
}

func words(s string) []string { return strings.Fields(s) }

const negations = "not don't dont never"

// hiddenInstructions is the curated list of security-hidden-instructions
// (README, "Security scanning"): text that addresses the model instead of
// describing the tool. English only; lint.security.hidden_instructions
// adds patterns.
var hiddenInstructions = newPatternSet([]textPattern{
	{kind: "an instruction override", triggers: words("ignore disregard forget override"),
		re: lazyRegexp(`\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous|prior|above|earlier|preceding|other|existing|original|system|safety)\s+(?:instructions?|prompts?|rules|directions|guidelines|guardrails|messages)\b`)},
	{kind: "a request about the system prompt", triggers: []string{"system prompt"},
		re: lazyRegexp(`\b(?:reveal|ignore|override|disregard|print|repeat|leak|output|send|include|dump|append)\b[^.\n]{0,30}\b(?:the\s+|your\s+)?system prompt\b`)},
	{kind: "a new-instructions marker", triggers: append(pairs("new updated real actual hidden secret", "instruction instructions"), "are now"),
		re: lazyRegexp(`\b(?:new|updated|real|actual|hidden|secret)\s+instructions?\s*:|\byou are now\b`)},
	{kind: "secrecy toward the user", triggers: append(append(append(pairs(negations, "tell inform mention show reveal notify alert disclose let know see notice be"),
		pairs("without", "telling informing notifying alerting asking showing")...), pairs("keep hide", "this it these")...), pairs("user users", "must should need needs")...),
		re:   lazyRegexp(`\b(?:do\s+not|don'?t|never|must\s+not|should\s+not)\s+(?:tell|inform|mention\s+(?:this|it|that)?\s*to|show|reveal\s+(?:this|it|that)?\s*to|notify|alert|disclose\s+(?:this|it|that)?\s*to|let)\s+(?:the\s+)?users?\b|\bwithout\s+(?:telling|informing|notifying|alerting|asking|showing)\s+(?:the\s+)?users?\b|\busers?\s+(?:must|should|need|needs)\s+(?:not|never)\s+(?:to\s+)?(?:know|see|notice|be\s+(?:told|informed|notified|aware))\b|\b(?:keep|hide)\s+(?:this|it|these)\b[^.\n]{0,20}\bfrom\s+(?:the\s+)?users?\b`),
		also: words("user users")},
	{kind: "secrecy about these instructions", triggers: pairs(negations, "mention reveal disclose"),
		re: lazyRegexp(`\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose)\s+(?:these|this|that\s+you|the\s+above)\s*(?:instructions?|notes?|steps?|requirements?)?\b`)},
	{kind: "a tag-like wrapper", triggers: words("important system instruction instructions secret hidden admin assistant sys inst im_start im_end endoftext"),
		re:    lazyRegexp(`<\s*/?\s*(?:important|system|instructions?|secret|hidden|admin|assistant|sys)\s*>|\[/?inst\]|<<\s*/?sys\s*>>|<\|(?:im_start|im_end|system|endoftext)\|>`),
		bytes: "<["},
	{kind: "coercion to call tools", triggers: append(append(pairs("before", "using calling invoking running"), pairs("must", "always")...), "regardless of", "no matter"),
		re: lazyRegexp(`\bbefore\s+(?:using|calling|invoking|running)\s+(?:any|every|all)\s+(?:other\s+)?tools?\b|\byou\s+must\s+always\s+(?:call|use|invoke|run|execute)\b|\b(?:regardless\s+of|no\s+matter)\s+(?:what\s+)?(?:the\s+)?(?:user|instructions?)\b`)},
})

// sensitiveData is the curated list of security-sensitive-data (README,
// "Security scanning"); lint.security.sensitive_data adds patterns.
var sensitiveData = newPatternSet([]textPattern{
	{kind: "a private key or credentials file", triggers: append(words("ssh id_rsa id_ed25519 id_ecdsa id_dsa passwd shadow sudoers credentials netrc npmrc pypirc pgpass kube docker claude_desktop_config gnupg keychain"), "mcp json", "wallet dat"),
		literals: []string{".ssh/", "~/.ssh", "id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "/etc/passwd", "/etc/shadow", "/etc/sudoers", ".aws/credentials", ".aws/config", ".git-credentials", ".netrc", ".npmrc", ".pypirc", ".pgpass", ".kube/config", ".docker/config.json", "credentials.json", "mcp.json", "claude_desktop_config.json", ".gnupg", "login.keychain", "wallet.dat"}},
	{kind: "reading the .env file", triggers: words("env"),
		re: lazyRegexp(`\b(?:read|cat|open|load|send|pass|include|upload|copy|print|dump|extract|attach|forward|paste)\b[^.\n]{0,40}?(?:^|[\s"'\x60(/~])\.env(?:\.(?:local|production|development|prod|dev))?(?:$|[\s"'\x60).,;:])`)},
	{kind: "a secret to pass along", triggers: words("key keys api_key apikey password passwords passphrase passphrases token tokens secret secrets credential credentials seed mnemonic mnemonics cookie cookies"),
		at: secretToPass, also: words(paramWords)},
	{kind: "conversation or file contents to put into a parameter", triggers: words("conversation chat context messages history prompt instructions contents"),
		at: contextToPass, also: words("entire full whole complete all previous prior every your")},
})

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

// firstMatch returns the first (leftmost) match in m of the built-in
// patterns and of the user's.
func firstMatch(m *modelText, builtin patternSet, user []textPattern) (int, int, string) {
	best, end, kind := builtin.first(m)
	best, end = m.orig(best), m.orig(end)
	for i := range user {
		if loc := user[i].re().FindStringIndex(m.text); loc != nil && (best < 0 || loc[0] < best) {
			best, end, kind = loc[0], loc[1], user[i].kind
		}
	}
	return best, end, kind
}

// excerpt is the matched text for a message.
func excerpt(text string, from, to int) string {
	return quoteText(strings.TrimSpace(text[from:to]), 60)
}

// word is a word of a text and its byte range.
type word struct {
	text       string
	start, end int
}

// clauseWords returns the words of text's sentence around byte at: up to
// back bytes before it and ahead bytes after (a sentence ends at ". ", a
// line break, ; and !?), lower-cased, and the index of the word at at. It
// appends to buf[:0] (a caller's array keeps them off the heap).
func clauseWords(buf []word, text string, at, back, ahead int) ([]word, int) {
	from := at
	for from > 0 && at-from < back && !clauseEnd(text, from-1) {
		from--
	}
	to := at
	for to < len(text) && to-at < ahead && !clauseEnd(text, to) {
		to++
	}
	out := buf[:0]
	self := -1
	for i := from; i < to; {
		if !wordByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && wordByte(text[j]) {
			j++
		}
		if i <= at && at < j {
			self = len(out)
		}
		out = append(out, word{lowerASCII(text[i:j]), i, j})
		i = j
	}
	return out, self
}

func clauseEnd(s string, i int) bool {
	switch s[i] {
	case '\n', ';', '!', '?':
		return true
	case '.':
		return i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n'
	}
	return false
}

// isWordIn tells whether w is one of the words of set (separated by
// single spaces), without splitting set.
func isWordIn(w string, set string) bool {
	for set != "" {
		f := set
		if i := strings.IndexByte(set, ' '); i >= 0 {
			f, set = set[:i], set[i+1:]
		} else {
			set = ""
		}
		if f == w {
			return true
		}
	}
	return false
}

const (
	passVerbs  = "pass send include put forward append attach copy add insert embed paste supply read collect fill dump"
	paramWords = "parameter parameters param params argument arguments field fields note notes sidenote comment comments metadata"
)

// secretToPass matches "pass/send/include ... API key/password/token ...
// in/as/into ... parameter/field/notes": a secret the text asks to put
// into a call (from the verb to the parameter word).
func secretToPass(text string, at int) (int, int) {
	var buf [48]word
	ws, i := clauseWords(buf[:], text, at, 80, 120)
	if i < 0 {
		return -1, -1
	}
	w, prev, next := ws[i].text, "", ""
	if i > 0 {
		prev = ws[i-1].text
	}
	if i+1 < len(ws) {
		next = ws[i+1].text
	}
	switch {
	case w == "key" || w == "keys":
		if !isWordIn(prev, "api private ssh access secret") {
			return -1, -1
		}
	case w == "seed":
		if next != "phrase" && next != "phrases" {
			return -1, -1
		}
	case w == "cookie" || w == "cookies":
		if prev != "session" {
			return -1, -1
		}
	}
	verb := -1
	for k := i - 1; k >= 0 && at-ws[k].start <= 60; k-- {
		if isWordIn(ws[k].text, passVerbs) {
			verb = k
			break
		}
	}
	if verb < 0 {
		return -1, -1
	}
	for k := i + 1; k < len(ws) && ws[k].start-ws[i].end <= 60; k++ {
		if !isWordIn(ws[k].text, "as in into inside via within to") {
			continue
		}
		for n := k + 1; n < len(ws) && n <= k+3; n++ {
			if isWordIn(ws[n].text, paramWords) {
				return ws[verb].start, ws[n].end
			}
		}
	}
	return -1, -1
}

// contextToPass matches "paste/include/send the entire/full/previous
// conversation/chat history/context/system prompt ...": the conversation
// or a file's contents to put into a call.
func contextToPass(text string, at int) (int, int) {
	var buf [48]word
	ws, i := clauseWords(buf[:], text, at, 80, 10)
	if i < 1 {
		return -1, -1
	}
	// The quantifier is right before the noun, or before its compound
	// (chat history, system prompt, file contents).
	const quantifiers = "entire full whole complete all previous prior every your"
	q := i - 1
	if !isWordIn(ws[q].text, quantifiers) && q > 0 && isWordIn(ws[q].text, "chat conversation message system file") {
		q--
	}
	if !isWordIn(ws[q].text, quantifiers) {
		return -1, -1
	}
	if w := ws[i].text; w == "contents" || w == "prompt" || w == "history" {
		// "file contents", "system prompt", "chat history": the word
		// before says what.
		if w == "prompt" && ws[i-1].text != "system" || w == "contents" && ws[i-1].text != "file" && (i+1 >= len(ws) || ws[i+1].text != "of") {
			return -1, -1
		}
	}
	for k := q - 1; k >= 0 && ws[q].start-ws[k].end <= 40; k-- {
		if isWordIn(ws[k].text, "pass send include put append attach copy add insert embed paste fill dump forward") {
			return ws[k].start, ws[i].end
		}
	}
	return -1, -1
}
