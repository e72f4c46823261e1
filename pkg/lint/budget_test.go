package lint

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// fakeTokens counts a token per 4 bytes of the description and of each
// property's JSON, plus 10 for the rest: the engine's tests need stable
// numbers, not the tokenizer (pkg/tokens has its own tests; the commands'
// scripts run the real counter).
func fakeTokens(t *spec.Tool, format, model string) (TokenCount, error) {
	c := TokenCount{PerRequest: 5, Estimate: format == "anthropic"}
	c.Parts = append(c.Parts, TokenPart{Label: "description", Pointer: "/description", Tokens: len(t.Description) / 4})
	if props, ok := t.Input().GetMap("properties"); ok {
		for i := range props.Len() {
			k, v := props.At(i)
			b, _ := spec.MarshalJSONIndent(v)
			c.Parts = append(c.Parts, TokenPart{Label: "parameter " + k, Pointer: spec.Pointer("input_schema", "properties", k), Tokens: len(b) / 4})
		}
	}
	c.Parts = append(c.Parts, TokenPart{Label: "rest", Tokens: 10})
	for _, p := range c.Parts {
		c.Tokens += p.Tokens
	}
	return c, nil
}

func budgetFindings(t *testing.T, cfg Config, path string) string {
	t.Helper()
	return render(lintWith(t, cfg, path))
}

// The budget rules are off until lint.budget sets their limit, even with
// a counter.
func TestBudgetOffUntilConfigured(t *testing.T) {
	p := filepath.Join(fixtures, "err", "budget_tool_tokens.yaml")
	got := budgetFindings(t, Config{Budget: BudgetConfig{Counter: fakeTokens}}, p)
	if strings.Contains(got, "budget-") {
		t.Errorf("budget rules ran without lint.budget:\n%s", got)
	}
	got = budgetFindings(t, Config{Budget: BudgetConfig{Tool: 40, Counter: fakeTokens}}, p)
	if !strings.Contains(got, "[budget-tool-tokens]") || strings.Contains(got, "budget-total-tokens") {
		t.Errorf("lint.budget.tool alone should run budget-tool-tokens only:\n%s", got)
	}
	// Under budget: nothing.
	if got := budgetFindings(t, Config{Budget: BudgetConfig{Tool: 1000, Total: 1000, Counter: fakeTokens}}, p); strings.Contains(got, "budget-") {
		t.Errorf("under budget:\n%s", got)
	}
}

// The biggest part is named; a counter that fails is reported, not
// silently passed.
func TestBudgetMessages(t *testing.T) {
	p := filepath.Join(fixtures, "err", "budget_tool_tokens.yaml")
	got := budgetFindings(t, Config{Budget: BudgetConfig{Tool: 40, Format: "anthropic", Counter: fakeTokens}}, p)
	if !strings.Contains(got, "the biggest part is parameter order_number") || !strings.Contains(got, "estimated anthropic tokens") {
		t.Errorf("message:\n%s", got)
	}
	failing := func(*spec.Tool, string, string) (TokenCount, error) { return TokenCount{}, errors.New("boom") }
	got = budgetFindings(t, Config{Budget: BudgetConfig{Total: 10, Counter: failing}}, p)
	if !strings.Contains(got, "cannot count the tokens of tool \"budget_tool_tokens\" for lint.budget: boom [budget-total-tokens]") {
		t.Errorf("counter error:\n%s", got)
	}
}

// RunFiles slims tools before the set rules run: the total must be the
// same as Run's.
func TestBudgetTotalRunFiles(t *testing.T) {
	p := filepath.Join(fixtures, "err", "budget_total_tokens.yaml")
	cfg := Config{Budget: BudgetConfig{Total: 50, Counter: fakeTokens}}
	want := budgetFindings(t, cfg, p)
	_, fs := RunFiles([]string{p}, cfg)
	if got := render(fs); got != want || want == "" {
		t.Errorf("RunFiles:\n%s\nRun:\n%s", got, want)
	}
	// Read one tool at a time (a large list): the same.
	_, fs = runFiles([]string{p}, cfg, 1)
	if got := render(fs); got != want {
		t.Errorf("RunFiles streaming:\n%s\nRun:\n%s", got, want)
	}
}

func TestBudgetConfig(t *testing.T) {
	parse := func(src string) (Config, error) {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(src), &n); err != nil {
			t.Fatal(err)
		}
		cfg, _, err := ParseConfig(".toolctl.yaml", ".", n.Content[0])
		return cfg, err
	}
	cfg, err := parse("budget: {model: gpt-4.1, format: anthropic, tool: 1500, total: 20000}")
	if err != nil || cfg.Budget.Model != "gpt-4.1" || cfg.Budget.Format != "anthropic" || cfg.Budget.Tool != 1500 || cfg.Budget.Total != 20000 || cfg.Budget.ModelPos.Line != 1 {
		t.Errorf("%+v %v", cfg.Budget, err)
	}
	for src, want := range map[string]string{
		"budget: {format: openia, tool: 10}": `.toolctl.yaml:1:18: lint.budget.format: unknown format "openia"; use one of openai, openai-responses, anthropic, gemini, mcp`,
		"budget: {tool: -1}":                 `.toolctl.yaml:1:16: lint.budget.tool: expected a number of tokens of at least 1, got "-1"`,
		"budget: {tool: 1.5}":                `.toolctl.yaml:1:16: lint.budget.tool: expected a number of tokens of at least 1, got "1.5"`,
		"budget: {model: gpt-4o}":            `.toolctl.yaml:1:9: lint.budget: set tool (the most one tool may cost), total (the most the set may cost) or both, in tokens`,
		"budget: {tokens: 10}":               `.toolctl.yaml:1:10: unknown setting lint.budget.tokens`,
	} {
		_, err := parse(src)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want %s", src, err, want)
		}
	}
}

// An override's budget replaces lint.budget's for its files (a baseline's
// record of what they cost): at or under it nothing is reported, over it
// the message names the override's limit.
func TestBudgetOverride(t *testing.T) {
	p := filepath.Join(fixtures, "err", "budget_tool_tokens.yaml")
	over := func(tool int) Config {
		return Config{Budget: BudgetConfig{Tool: 40, Counter: fakeTokens},
			Overrides: []Override{{Files: []string{"**/budget_tool_tokens.yaml"}, Budget: BudgetLimits{Tool: tool}}}}
	}
	if got := budgetFindings(t, over(80), p); strings.Contains(got, "budget-") {
		t.Errorf("at the override's budget (80):\n%s", got)
	}
	got := budgetFindings(t, over(79), p)
	if !strings.Contains(got, "costs 80 openai tokens, more than the budget of its override (tool: 79; lint.budget.tool is the goal)") {
		t.Errorf("over the override's budget:\n%s", got)
	}
	// An override for other files leaves lint.budget's limit.
	cfg := over(1000)
	cfg.Overrides[0].Files = []string{"other.yaml"}
	if got := budgetFindings(t, cfg, p); !strings.Contains(got, "more than lint.budget.tool (40)") {
		t.Errorf("override of another file:\n%s", got)
	}
}
