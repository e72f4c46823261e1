package lint

import (
	"fmt"
	"sync"

	"github.com/toolctl/toolctl/pkg/spec"
)

// BudgetConfig is the lint.budget section: what a tool (Tool) and the
// whole linted set (Total) may cost in tokens in one provider format as
// one model counts them. The budget rules are off while the limit they
// check is 0 (not configured).
type BudgetConfig struct {
	// Model names the model whose accounting counts ("" the default of
	// the format's provider); Format the export format (default openai).
	Model, Format string
	// ModelPos is where lint.budget.model is set, for the error of a
	// model the counter does not know.
	ModelPos spec.Pos
	Tool     int
	Total    int
	// Counter counts a tool. The tokenizer lives above this package
	// (pkg/tokens, which builds on pkg/export), so the command that lints
	// sets it; its tables are built on the first count, never when no
	// budget is configured.
	Counter TokenCounter
}

// BudgetLimits are an override's budget: what the tools of its files
// (Tool) and a set whose costliest tool is in them (Total) may cost; 0
// keeps lint.budget's.
type BudgetLimits struct {
	Tool, Total int
}

// budgetLimits returns the limits in force for file: lint.budget's, or
// the last matching override's, limit by limit, and whether each came
// from an override.
func (c *Config) budgetLimits(file string) (tool, total int, toolOver, totalOver bool) {
	tool, total = c.Budget.Tool, c.Budget.Total
	for _, o := range c.Overrides {
		if (o.Budget.Tool > 0 || o.Budget.Total > 0) && o.Matches(file) {
			if o.Budget.Tool > 0 {
				tool, toolOver = o.Budget.Tool, true
			}
			if o.Budget.Total > 0 {
				total, totalOver = o.Budget.Total, true
			}
		}
	}
	return tool, total, toolOver, totalOver
}

// limitName names a limit in messages.
func limitName(key string, n int, override bool) string {
	if override {
		return fmt.Sprintf("the budget of its override (%s: %d; lint.budget.%s is the goal)", key, n, key)
	}
	return fmt.Sprintf("lint.budget.%s (%d)", key, n)
}

// BudgetFormats are the formats lint.budget.format accepts (toolctl
// tokens --format).
var BudgetFormats = []string{"openai", "openai-responses", "anthropic", "gemini", "mcp"}

// BudgetKeys are the keys of lint.budget.
var BudgetKeys = []string{"model", "format", "tool", "total"}

// TokenCounter returns what t costs in format as model counts it.
type TokenCounter func(t *spec.Tool, format, model string) (TokenCount, error)

// TokenCount is one tool's cost, split into parts that add up to Tokens.
type TokenCount struct {
	Tokens int
	// Estimate tells the count is an estimate (anthropic, gemini).
	Estimate bool
	// PerRequest is paid once per request with tools (OpenAI's func_end,
	// Anthropic's tool-use system prompt).
	PerRequest int
	Parts      []TokenPart
}

// TokenPart is a share of a tool's cost: its description, a parameter,
// the rest.
type TokenPart struct {
	Label   string
	Pointer string
	Tokens  int
}

// biggest returns the costliest part other than the rest (the first of
// equals), and false when there is none.
func (c TokenCount) biggest() (TokenPart, bool) {
	var best TokenPart
	found := false
	for _, p := range c.Parts {
		if p.Pointer == "" {
			continue
		}
		if !found || p.Tokens > best.Tokens {
			best, found = p, true
		}
	}
	return best, found
}

func (b BudgetConfig) format() string {
	if b.Format == "" {
		return "openai"
	}
	return b.Format
}

// unit names the tokens counted in messages: "openai tokens",
// "estimated anthropic tokens".
func (b BudgetConfig) unit(c TokenCount) string {
	if c.Estimate {
		return "estimated " + b.format() + " tokens"
	}
	return b.format() + " tokens"
}

// budgetState caches each tool's count for the two budget rules of a run.
type budgetState struct {
	mu     sync.Mutex
	counts map[*spec.Tool]TokenCount
}

// budgetCount counts t once per run; false when no counter is set or it
// fails (the error is reported once per tool by the rule that asked).
func (r *Reporter) budgetCount(t *spec.Tool) (TokenCount, error) {
	s := r.cfg.budget
	b := r.cfg.Budget
	if s == nil || b.Counter == nil {
		return TokenCount{}, fmt.Errorf("no token counter")
	}
	s.mu.Lock()
	c, ok := s.counts[t]
	s.mu.Unlock()
	if ok {
		return c, nil
	}
	c, err := b.Counter(t, b.format(), b.Model)
	if err != nil {
		return c, err
	}
	s.mu.Lock()
	s.counts[t] = c
	s.mu.Unlock()
	return c, nil
}

// budgetOn tells whether lint.budget configures the limit a rule checks.
func budgetToolOn(c *Config) bool  { return c.Budget.Tool > 0 }
func budgetTotalOn(c *Config) bool { return c.Budget.Total > 0 }
