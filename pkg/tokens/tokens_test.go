package tokens

import (
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// The token counts of github.com/tiktoken-go/tokenizer's own test vectors
// (tokenizer_test.go, TestO200kBase and TestCl100kBase; the IDs there are
// tiktoken's): pinned so that a change of tokenizer or tables shows.
func TestCountPublishedVectors(t *testing.T) {
	cases := []struct {
		text          string
		o200k, cl100k int
	}{
		{"'RE", 2, 1},
		{"hello world", 2, 2},
		{"hello  world", 3, 3},
		{"hello   world", 3, 3},
		{"supercalifragilistic", 6, 7},
		{"We know what we are, but know not what we may be.", 14, 14},
		{"", 0, 0},
	}
	for _, c := range cases {
		if got := Count(O200kBase, c.text); got != c.o200k {
			t.Errorf("o200k_base %q: %d tokens, want %d", c.text, got, c.o200k)
		}
		if got := Count(Cl100kBase, c.text); got != c.cl100k {
			t.Errorf("cl100k_base %q: %d tokens, want %d", c.text, got, c.cl100k)
		}
	}
}

// OpenAI's cookbook checks num_tokens_for_tools against the API's
// prompt_tokens on its weather tool and two messages: 101 for gpt-4o
// (o200k_base), 105 for gpt-4 and gpt-3.5-turbo (cl100k_base). The
// definitions' share plus the messages' (num_tokens_from_messages: 3 per
// message, its role and content, 3 to prime the reply) must give the same.
func TestOpenAIPromptMatchesCookbook(t *testing.T) {
	params := mustMap(t, `{"type":"object","properties":{
		"location":{"type":"string","description":"The city and state, e.g. San Francisco, CA"},
		"unit":{"type":"string","description":"The unit of temperature to return","enum":["celsius","fahrenheit"]}},
		"required":["location"]}`)
	messages := [][2]string{
		{"system", "You are a helpful assistant that can answer to questions about the weather."},
		{"user", "What's the weather like in San Francisco?"},
	}
	for _, c := range []struct {
		encoding string
		want     int
	}{{O200kBase, 101}, {Cl100kBase, 105}} {
		tools, parts := openAIPrompt(c.encoding, "get_current_weather", "Get the current weather in a given location", params)
		sum := 0
		for _, p := range parts {
			sum += p.Tokens
		}
		if sum != tools {
			t.Errorf("%s: parts add up to %d, the tool costs %d", c.encoding, sum, tools)
		}
		msgs := 3
		for _, m := range messages {
			msgs += 3 + Count(c.encoding, m[0]) + Count(c.encoding, m[1])
		}
		if got := tools + cookbookFor(c.encoding).funcEnd + msgs; got != c.want {
			t.Errorf("%s: %d prompt tokens, the cookbook (and the API) say %d", c.encoding, got, c.want)
		}
	}
}

func TestLookupModel(t *testing.T) {
	for name, enc := range map[string]string{
		"gpt-4o": O200kBase, "gpt-4o-mini": O200kBase, "gpt-4.1": O200kBase, "gpt-4.1-nano": O200kBase,
		"gpt-5": O200kBase, "gpt-5.1": O200kBase, "o3": O200kBase, "o4-mini": O200kBase, "o1-preview": O200kBase,
		"gpt-4": Cl100kBase, "gpt-4-turbo": Cl100kBase, "gpt-3.5-turbo": Cl100kBase,
	} {
		m, err := LookupModel(name)
		if err != nil || m.Family != "openai" || m.Encoding != enc {
			t.Errorf("%s: %+v %v, want openai %s", name, m, err, enc)
		}
	}
	if m, err := LookupModel("claude-opus-4-1"); err != nil || m.Family != "anthropic" {
		t.Errorf("claude-opus-4-1: %+v %v", m, err)
	}
	for _, bad := range []string{"", "gpt", "o", "llama-3", "gpt-40"} {
		if _, err := LookupModel(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func mustMap(t *testing.T, s string) *spec.Map {
	t.Helper()
	v, err := spec.DecodeJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.(*spec.Map)
}
