package builtin

import (
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
)

func TestTextAnalyzer(t *testing.T) {
	cases := []struct {
		input string
		want  string // fields that must be in the result, as JSON
	}{
		{`{"text": "The quick brown fox jumps over the lazy dog. The dog sleeps.", "top_n": 2}`,
			`"top_words":[{"count":3,"word":"the"},{"count":2,"word":"dog"}],"unique_words":9,"words":12`},
		{`{"text": "The quick brown fox jumps over the lazy dog. The dog sleeps.", "features": ["sentences"]}`,
			`{"avg_words_per_sentence":6,"longest_sentence_words":9,"sentences":2}`},
		{`{"text": "", "features": ["counts", "sentences", "top_words", "reading_time"]}`,
			`{"avg_words_per_sentence":0,"characters":0,"characters_no_spaces":0,"lines":0,"longest_sentence_words":0,"paragraphs":0,"reading_time_minutes":0,"reading_time_seconds":0,"sentences":0,"top_words":[],"unique_words":0,"words":0}`},
		{`{"text": "One line\nTwo lines\n\n\nThird para\n", "features": ["counts"]}`,
			`"lines":5,"paragraphs":2,"unique_words":6,"words":6`},
		{`{"text": "Don't stop: it's 3.14, or 1,000 — l’eau!", "features": ["counts", "top_words"], "top_n": 3}`,
			`"top_words":[{"count":1,"word":"1,000"},{"count":1,"word":"3.14"},{"count":1,"word":"don't"}],"unique_words":7,"words":7`},
		{`{"text": "well-known e-mail", "features": ["counts"]}`, `"words":4`},
		{`{"text": "Ünïcode naïve café", "features": ["counts"]}`, `"characters":18,"characters_no_spaces":16`},
		{`{"text": "我爱北京。北京很大！", "features": ["counts", "sentences", "top_words"], "top_n": 2}`,
			`"sentences":2,"top_words":[{"count":2,"word":"京"},{"count":2,"word":"北"}],"unique_words":6,"words":8`},
		{`{"text": "東京タワーへ行く", "features": ["counts"]}`, `"words":8`},
		{`{"text": "Hello 世界 again", "features": ["counts"]}`, `"words":4`},
		{`{"text": "Привет, мир! Как дела?", "features": ["counts", "sentences"]}`, `"sentences":2,"unique_words":4,"words":4`},
		{`{"text": "Dr. Smith met J. R. Tolkien, e.g. at the pub. Then? He left... Really!", "features": ["sentences"]}`, `"sentences":5`},
		{`{"text": "He said \"stop.\" Then he left.", "features": ["sentences"]}`, `"sentences":2`},
		{`{"text": "Version 2.0 is out. No dot at the end", "features": ["sentences"]}`, `"sentences":2`},
		{`{"text": "a b c d e f g h i j", "features": ["reading_time"]}`, `{"reading_time_minutes":0.1,"reading_time_seconds":3}`},
	}
	for _, tc := range cases {
		got, err := biRun(t, textAnalyzerHandler, tc.input)
		if err != nil {
			t.Errorf("%s: %v", tc.input, err)
			continue
		}
		if s := biJSON(t, got); !strings.Contains(s, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.input, s, tc.want)
		}
	}
}

func TestTextAnalyzerReadingTime(t *testing.T) {
	got, err := biRun(t, textAnalyzerHandler, `{"text": "`+strings.Repeat("word ", 400)+strings.Repeat("字", 500)+`", "features": ["reading_time"]}`)
	if err != nil {
		t.Fatal(err)
	}
	// 400 words at 200 a minute plus 500 CJK characters at 500 a minute.
	if s := biJSON(t, got); s != `{"reading_time_minutes":3,"reading_time_seconds":180}` {
		t.Errorf("got %s", s)
	}
}

func TestTextAnalyzerErrors(t *testing.T) {
	cases := []struct {
		input, param, msg string
	}{
		{`{"text": "a", "features": ["counts", "vibes"]}`, "features/1", "features[1] vibes is not a feature; use counts, top_words, sentences, reading_time"},
		{`{"text": "a", "top_n": 0}`, "top_n", "top_n 0 is too small"},
		{`{"text": 3}`, "text", "expected a string"},
	}
	for _, tc := range cases {
		_, err := biRun(t, textAnalyzerHandler, tc.input)
		if e := biWantError(t, tc.input, err, run.ValidationError, tc.msg); e != nil && e.Param != tc.param {
			t.Errorf("%s: param %q, want %q", tc.input, e.Param, tc.param)
		}
	}
}
