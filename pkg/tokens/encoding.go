package tokens

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Encodings: OpenAI's byte-pair encodings, compiled into the binary by
// github.com/tiktoken-go/tokenizer (its ranks are Go source; nothing is
// downloaded). Only the codec package is imported, and only the two
// encodings current models use are referenced, so the linker leaves the
// others out. A table is built on first use (sync.Once), never at init:
// toolctl version, lint without budget rules, run and serve never pay
// for it.
const (
	O200kBase  = "o200k_base"
	Cl100kBase = "cl100k_base"
)

var (
	o200kOnce, cl100kOnce sync.Once
	o200k, cl100k         *codec.Codec
)

// encoder returns the codec of an encoding, building its table on first
// use (~0.1-0.3 s and ~100 MB of allocations for o200k_base).
func encoder(name string) *codec.Codec {
	switch name {
	case Cl100kBase:
		cl100kOnce.Do(func() { cl100k = codec.NewCl100kBase() })
		return cl100k
	default:
		o200kOnce.Do(func() { o200k = codec.NewO200kBase() })
		return o200k
	}
}

// Count returns the number of tokens of text in encoding (O200kBase or
// Cl100kBase). Special tokens such as <|endoftext|> in text are counted
// as the ordinary text they are: a tool definition is data.
func Count(encoding, text string) int {
	if text == "" {
		return 0
	}
	if i, j := longBreakRun(text); i >= 0 {
		// Split around the run, and the run into slices.
		n := Count(encoding, text[:i])
		for k := i; k < j; {
			end := min(k+maxBreakRun, j)
			for end < j && !utf8.RuneStart(text[end]) {
				end++ // slice whole runes
			}
			n += count(encoding, text[k:end])
			k = end
		}
		return n + Count(encoding, text[j:])
	}
	return count(encoding, text)
}

// maxBreakRun bounds the whitespace runs holding a line break that are
// counted whole. The tokenizer's pre-split takes time quadratic in such a
// run (" \n" repeated 10,000 times: ~1.5 s; 200,000 times: ~6 minutes), so
// a longer one is counted in slices of maxBreakRun bytes: within a token
// or two per slice of the exact count, on text no tool needs, and bounded
// time on text a hostile file holds. Any other text is counted exactly.
const maxBreakRun = 64

// longBreakRun returns the byte range of the first run of more than
// maxBreakRun bytes of whitespace (\s: unicode.IsSpace) that holds a line
// break (\r or \n), or -1, -1.
func longBreakRun(s string) (int, int) {
	start, brk := -1, false
	for i := 0; i <= len(s); {
		if i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				if start < 0 {
					start, brk = i, false
				}
				brk = brk || r == '\n' || r == '\r'
				i += size
				continue
			}
			if start >= 0 && brk && i-start > maxBreakRun {
				return start, i
			}
			start = -1
			i += size
			continue
		}
		if start >= 0 && brk && i-start > maxBreakRun {
			return start, i
		}
		break
	}
	return -1, -1
}

func count(encoding, text string) int {
	if text == "" {
		return 0
	}
	n, err := encoder(encoding).Count(text)
	if err != nil {
		// Only strict UTF-8 mode errors, which toolctl does not set; count
		// bytes rather than lose the text.
		return len(text)
	}
	return n
}

// Model is what toolctl knows of a model: its provider family and, for
// OpenAI models, the encoding and the cookbook's per-function constants.
type Model struct {
	Name string
	// Family is "openai", "anthropic" or "gemini".
	Family   string
	Encoding string
}

// Default models per family: the accounting used when --model does not
// name one of that family.
const (
	DefaultOpenAIModel    = "gpt-4o"
	DefaultAnthropicModel = "claude-sonnet-4-5"
	DefaultGeminiModel    = "gemini-2.5-pro"
)

// openAIModels maps model name prefixes to their encoding, as tiktoken's
// model.py does (MODEL_PREFIX_TO_ENCODING): gpt-4o, gpt-4.1, gpt-4.5,
// gpt-5 and the o-series use o200k_base; gpt-4 and gpt-3.5-turbo
// cl100k_base. Longest prefix first.
var openAIModels = []struct{ prefix, encoding string }{
	{"gpt-4o", O200kBase},
	{"gpt-4.1", O200kBase},
	{"gpt-4.5", O200kBase},
	{"gpt-5", O200kBase},
	{"gpt-oss", O200kBase},
	{"chatgpt-4o", O200kBase},
	{"o1", O200kBase},
	{"o3", O200kBase},
	{"o4", O200kBase},
	{"gpt-4", Cl100kBase},
	{"gpt-3.5", Cl100kBase},
}

// KnownModels lists examples of accepted --model values, for help and
// errors.
var KnownModels = []string{"gpt-5", "gpt-4.1", "gpt-4o", "o3", "o4-mini", "gpt-4", "gpt-3.5-turbo", "claude-opus-4-1", "claude-sonnet-4-5", "claude-haiku-4-5", "claude-3-5-haiku", "gemini-2.5-pro", "gemini-2.5-flash"}

// LookupModel resolves a model name: an OpenAI model by its prefix, a
// Claude model (claude-*), a Gemini model (gemini-*).
func LookupModel(name string) (Model, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch {
	case strings.HasPrefix(n, "claude-"):
		return Model{Name: n, Family: "anthropic", Encoding: O200kBase}, nil
	case strings.HasPrefix(n, "gemini-"):
		return Model{Name: n, Family: "gemini", Encoding: O200kBase}, nil
	}
	for _, m := range openAIModels {
		if n == m.prefix || strings.HasPrefix(n, m.prefix+"-") || strings.HasPrefix(n, m.prefix+".") {
			return Model{Name: n, Family: "openai", Encoding: m.encoding}, nil
		}
	}
	return Model{}, fmt.Errorf("unknown model %q; use an OpenAI (gpt-5, gpt-4.1, gpt-4o, o3, gpt-4, gpt-3.5-turbo ...), Claude (claude-...) or Gemini (gemini-...) model", name)
}
