package importer

import "testing"

func TestAnthropicRequestBody(t *testing.T) {
	res := mustImport(t, Anthropic, `{
  "model": "claude-sonnet-4-5",
  "max_tokens": 1024,
  "tools": [
    {"name": "get_stock_price", "description": "Gets the current price of a stock. Use when asked for a quote.",
     "input_schema": {"type": "object", "properties": {"ticker": {"type": "string", "description": "Ticker symbol"}}, "required": ["ticker"]},
     "input_examples": [{"ticker": "AAPL"}, {"ticker": "MSFT"}],
     "strict": true,
     "cache_control": {"type": "ephemeral"}},
    {"type": "web_search_20250305", "name": "web_search", "max_uses": 5},
    {"type": "custom", "name": "noop", "description": "Does nothing.", "input_schema": {"type": "object"}}
  ]}`)
	if len(res.Tools) != 2 {
		t.Fatalf("%d tools, want 2", len(res.Tools))
	}
	yamlEq(t, canonical(t, res.Tools[0]), `
		name: get_stock_price
		description: Gets the current price of a stock. Use when asked for a quote.
		input_schema:
		  type: object
		  properties:
		    ticker:
		      type: string
		      description: Ticker symbol
		  required:
		    - ticker
		examples:
		  - params:
		      ticker: AAPL
		  - params:
		      ticker: MSFT
		strict: true
		`)
	wantContains(t, warningsText(res),
		`in.json:9:23: tool "get_stock_price": field "cache_control" is not kept`,
		`in.json:10:5: skipped "web_search": Anthropic tools of type "web_search_20250305" are defined by Anthropic`)
	if res.Tools[1].Tool.Name != "noop" {
		t.Errorf("second tool %q, want noop (type custom is a client tool)", res.Tools[1].Tool.Name)
	}
}

func TestAnthropicErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"input_examples not a list", `[{"name": "f", "input_examples": {"a": 1}}]`,
			`in.json:1:34: input_examples: expected a JSON array, got an object`},
		{"example not an object", `[{"name": "f", "input_examples": [1]}]`,
			`in.json:1:35: input_examples item: expected a JSON object, got the number 1`},
		{"input_schema a string", `{"name": "f", "input_schema": "object"}`,
			`in.json:1:31: input_schema: expected a JSON Schema object, got the string "object"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantContains(t, importErr(t, Anthropic, tc.in), tc.want)
		})
	}
}
