package builtin

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/run"
)

// text_analyzer: language-agnostic statistics.
//
// A word is a run of letters, digits and combining marks; an apostrophe
// between letters stays inside it (don't, l'eau) and so do a point or
// comma between digits (3.14, 1,000). Chinese and Japanese are written
// without spaces, so each Han, Hiragana or Katakana character counts as
// one word (as word processors count them). Top words are lower-cased.
//
// A sentence ends at . ! ? … (and their CJK, Arabic, Devanagari forms)
// followed by a space or the end of the text; a "." followed by a
// lower-case word or after a single letter (e.g., J. Smith) does not end
// one. Reading time assumes 200 words a minute, and 500 characters a
// minute for CJK.

var taFeatures = []string{"counts", "top_words", "sentences", "reading_time"}

const (
	taWordsPerMinute = 200
	taCJKPerMinute   = 500
)

func textAnalyzerHandler(_ context.Context, c *run.Call) (any, error) {
	text, err := c.String("text", "")
	if err != nil {
		return nil, err
	}
	topN, err := c.Int("top_n", 10)
	if err != nil {
		return nil, err
	}
	if topN < 1 {
		return nil, &run.Error{Kind: run.ValidationError, Param: "top_n", Message: fmt.Sprintf("top_n %d is too small; list at least 1 word", topN)}
	}
	want := map[string]bool{}
	if raw, ok := c.Input["features"]; ok && raw != nil {
		list, ok := raw.([]any)
		if !ok {
			return nil, run.ArgTypeError("features", "an array", raw)
		}
		for i, f := range list {
			s, _ := f.(string)
			if !slices.Contains(taFeatures, s) {
				return nil, &run.Error{Kind: run.ValidationError, Param: fmt.Sprintf("features/%d", i), Message: fmt.Sprintf("features[%d] %v is not a feature; use %s", i, f, strings.Join(taFeatures, ", "))}
			}
			want[s] = true
		}
	} else {
		for _, f := range taFeatures {
			want[f] = true
		}
	}

	words := taWords(text)
	out := map[string]any{}
	if want["counts"] {
		unique := map[string]bool{}
		for _, w := range words {
			unique[strings.ToLower(w.text)] = true
		}
		nonSpace := 0
		for _, r := range text {
			if !unicode.IsSpace(r) {
				nonSpace++
			}
		}
		out["characters"] = int64(utf8.RuneCountInString(text))
		out["characters_no_spaces"] = int64(nonSpace)
		out["words"] = int64(len(words))
		out["unique_words"] = int64(len(unique))
		out["lines"] = int64(taLines(text))
		out["paragraphs"] = int64(taParagraphs(text))
	}
	if want["sentences"] {
		counts := taSentences(text)
		out["sentences"] = int64(len(counts))
		longest, total := 0, 0
		for _, n := range counts {
			longest = max(longest, n)
			total += n
		}
		avg := 0.0
		if len(counts) > 0 {
			avg = math.Round(float64(total)/float64(len(counts))*10) / 10
		}
		out["avg_words_per_sentence"] = calcFormat(avg, 1)
		out["longest_sentence_words"] = int64(longest)
	}
	if want["top_words"] {
		out["top_words"] = taTop(words, topN)
	}
	if want["reading_time"] {
		cjk, other := 0, 0
		for _, w := range words {
			if w.cjk {
				cjk++
			} else {
				other++
			}
		}
		minutes := float64(other)/taWordsPerMinute + float64(cjk)/taCJKPerMinute
		out["reading_time_seconds"] = int64(math.Ceil(minutes * 60))
		out["reading_time_minutes"] = calcFormat(minutes, 1)
	}
	return out, nil
}

type taWord struct {
	text string
	cjk  bool
}

func taIsCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

func taIsWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// taWords splits a text into words (see the file comment).
func taWords(text string) []taWord {
	var out []taWord
	rs := []rune(text)
	start := -1
	end := func(i int) {
		if start >= 0 {
			out = append(out, taWord{text: string(rs[start:i])})
			start = -1
		}
	}
	for i, r := range rs {
		switch {
		case taIsCJK(r):
			end(i)
			out = append(out, taWord{text: string(r), cjk: true})
		case taIsWordRune(r):
			if start < 0 {
				start = i
			}
		case start >= 0 && i+1 < len(rs) && taJoins(rs[i-1], r, rs[i+1]):
			// inside a word: don't, 3.14
		default:
			end(i)
		}
	}
	end(len(rs))
	return out
}

// taJoins reports whether punctuation r between prev and next is part of
// a word: an apostrophe between letters, a point or comma between digits.
func taJoins(prev, r, next rune) bool {
	switch r {
	case '\'', '’':
		return unicode.IsLetter(prev) && unicode.IsLetter(next)
	case '.', ',':
		return unicode.IsDigit(prev) && unicode.IsDigit(next)
	}
	return false
}

func taLines(text string) int {
	if text == "" {
		return 0
	}
	n := strings.Count(text, "\n") + 1
	if strings.HasSuffix(text, "\n") {
		n--
	}
	return n
}

func taParagraphs(text string) int {
	n, in := 0, false
	for _, line := range strings.Split(text, "\n") {
		blank := strings.TrimSpace(line) == ""
		if !blank && !in {
			n++
		}
		in = !blank
	}
	return n
}

// taTerminal reports whether r ends a sentence, and whether it does so
// without a following space (CJK and Devanagari full stops).
func taTerminal(r rune) (ends, alone bool) {
	switch r {
	case '.', '!', '?', '…', '‼', '⁇', '⁈', '⁉', '\u037e', '؟', '۔': // U+037E: Greek question mark
		return true, false
	case '。', '！', '？', '．', '।', '॥':
		return true, true
	}
	return false, false
}

func taClosing(r rune) bool {
	return unicode.In(r, unicode.Pe, unicode.Pf) || r == '"' || r == '\'' || r == '」' || r == '』'
}

// taSentences returns the number of words in each sentence that has any.
func taSentences(text string) []int {
	rs := []rune(text)
	var counts []int
	from := 0
	flush := func(to int) {
		if n := len(taWords(string(rs[from:to]))); n > 0 {
			counts = append(counts, n)
		}
		from = to
	}
	for i := 0; i < len(rs); i++ {
		ends, alone := taTerminal(rs[i])
		if !ends {
			continue
		}
		j := i
		for j+1 < len(rs) {
			if e, _ := taTerminal(rs[j+1]); !e && !taClosing(rs[j+1]) {
				break
			}
			j++
		}
		next := j + 1
		if !alone && next < len(rs) && !unicode.IsSpace(rs[next]) {
			i = j
			continue
		}
		if rs[i] == '.' && j == i && taNotSentenceEnd(rs, i, next) {
			continue
		}
		flush(next)
		i = j
	}
	flush(len(rs))
	return counts
}

// taNotSentenceEnd catches the usual non-final points: an initial (J.
// Smith) and an abbreviation followed by a lower-case word (e.g. this).
func taNotSentenceEnd(rs []rune, dot, next int) bool {
	if dot >= 1 && unicode.IsLetter(rs[dot-1]) && (dot == 1 || !taIsWordRune(rs[dot-2])) && unicode.IsUpper(rs[dot-1]) {
		return true
	}
	for k := next; k < len(rs); k++ {
		if unicode.IsSpace(rs[k]) {
			continue
		}
		return unicode.IsLower(rs[k])
	}
	return false
}

// taTop lists the n most frequent words, ties broken alphabetically.
func taTop(words []taWord, n int) []any {
	counts := map[string]int{}
	for _, w := range words {
		counts[strings.ToLower(w.text)]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = map[string]any{"word": k, "count": int64(counts[k])}
	}
	return out
}
