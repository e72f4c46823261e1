package tokens

import "strings"

// The estimates for providers without an offline tokenizer, in one place
// so that they can be recalibrated.
//
// Anthropic and Google publish no tokenizer for their current models, and
// their token-counting endpoints need an API key and the network. toolctl
// estimates: the o200k_base tokens of the exported JSON element of the
// tool (what the API receives) times a calibration factor, plus once per
// request the tool-use system prompt the provider adds when tools are
// present. The factors are not fitted by toolctl (it has no offline way
// to measure). Anthropic's 1.25 follows a published comparison of the same
// inputs counted by Claude 3.5 Sonnet and GPT-4o (o200k_base): +16% on
// English prose, +21% on math, +30% on Python code (VentureBeat, "Hidden
// costs in AI deployment: why Claude models may be 20-30% more expensive
// than GPT in enterprise settings", 2025); tool definitions are JSON with
// English descriptions, between the two. Gemini's SentencePiece
// vocabulary is of o200k's size and counts English alike: 1.0. Treat the
// numbers as ±Error: good for comparing tools and watching a trend, not for
// billing; recalibrate here against count_tokens when the APIs are at
// hand.
type estimateMethod struct {
	Factor float64
	// Error is the expected relative error, as printed.
	Error string
	// PerRequest is the tool-use system prompt of a model, added once to
	// the total.
	PerRequest func(model string) int
	// Note is the method in one line, for the legend and JSON output.
	Note string
}

var estimates = map[string]estimateMethod{
	"anthropic": {
		Factor:     1.25,
		Error:      "±25%",
		PerRequest: anthropicToolPrompt,
		Note:       "o200k tokens of the exported JSON × 1.25, plus the tool-use system prompt once per request",
	},
	"gemini": {
		Factor:     1.0,
		Error:      "±25%",
		PerRequest: func(string) int { return 0 },
		Note:       "o200k tokens of the exported JSON × 1.0 (Google documents no tool-use system prompt)",
	},
}

// anthropicToolPrompt is the "tool use system prompt token count" for
// tool_choice auto (or none) from Anthropic's tool-use pricing table
// (https://docs.claude.com/en/docs/agents-and-tools/tool-use/overview#pricing):
// 346 tokens for the Claude 4 family and Claude 3.7 Sonnet (313 with
// tool_choice any or tool), 264 for Claude 3.5 Haiku and Claude 3 Haiku,
// 530 for Claude 3 Opus, 159 for Claude 3 Sonnet.
func anthropicToolPrompt(model string) int {
	switch {
	case strings.HasPrefix(model, "claude-3-opus"):
		return 530
	case strings.HasPrefix(model, "claude-3-sonnet"):
		return 159
	case strings.HasPrefix(model, "claude-3-haiku"), strings.HasPrefix(model, "claude-3-5-haiku"):
		return 264
	default:
		return 346
	}
}

// scale applies a factor to a count, rounding to the nearest token.
func scale(n int, f float64) int {
	return int(float64(n)*f + 0.5)
}
