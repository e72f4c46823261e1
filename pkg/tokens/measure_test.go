package tokens

import (
	"testing"

	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/spec"
)

func bundled(t *testing.T) []*spec.Tool {
	t.Helper()
	set, err := spec.Load([]string{"../../tools"})
	if err != nil {
		t.Fatal(err)
	}
	if errs := set.Errors(); len(errs) > 0 {
		t.Fatal(errs[0])
	}
	return set.Tools()
}

// On the bundled tools in every format: the parts add up to the tool; the
// two OpenAI APIs cost the same prompt tokens (one rendering); an estimate
// is its JSON count times the factor; the totals add the per-request
// tokens.
func TestMeasureBundledConsistent(t *testing.T) {
	r, err := Measure(bundled(t), Options{Formats: Formats, Parts: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range r.Formats {
		sum := 0
		for _, tc := range r.Tools {
			c := tc.Costs[i]
			parts := 0
			for _, p := range c.Parts {
				parts += p.Tokens
				if p.Tokens < 0 {
					t.Errorf("%s %s: part %s is %d tokens", f.Format, tc.Name, p.Label(), p.Tokens)
				}
			}
			if parts != c.Tokens || c.Tokens <= 0 || c.JSON <= 0 {
				t.Errorf("%s %s: %d tokens, %d JSON, parts %d", f.Format, tc.Name, c.Tokens, c.JSON, parts)
			}
			if e, ok := estimates[string(f.Format)]; ok && c.Tokens != scale(c.JSON, e.Factor) {
				t.Errorf("%s %s: estimate %d, JSON %d × %v", f.Format, tc.Name, c.Tokens, c.JSON, e.Factor)
			}
			if f.Format == export.OpenAIResponses && c.Tokens != tc.Costs[0].Tokens {
				t.Errorf("%s: responses %d, chat %d prompt tokens", tc.Name, c.Tokens, tc.Costs[0].Tokens)
			}
			sum += c.Tokens
		}
		if r.Sum[i] != sum || r.Total[i] != sum+f.PerRequest {
			t.Errorf("%s: sum %d total %d, tools %d + %d", f.Format, r.Sum[i], r.Total[i], sum, f.PerRequest)
		}
	}
	// Costliest first by the first format, ties by name.
	for i := 1; i < len(r.Tools); i++ {
		a, b := r.Tools[i-1], r.Tools[i]
		if a.Costs[0].Tokens < b.Costs[0].Tokens || a.Costs[0].Tokens == b.Costs[0].Tokens && a.Name > b.Name {
			t.Errorf("order: %s (%d) before %s (%d)", a.Name, a.Costs[0].Tokens, b.Name, b.Costs[0].Tokens)
		}
	}
}

func TestCheckModel(t *testing.T) {
	for _, c := range []struct {
		format export.Format
		model  string
		ok     bool
	}{
		{export.OpenAI, "gpt-4.1", true}, {export.MCP, "gpt-4", true}, {export.Anthropic, "claude-opus-4-1", true},
		{export.Gemini, "gemini-2.5-flash", true}, {export.Anthropic, "gpt-4o", false}, {export.OpenAI, "claude-sonnet-4-5", false},
		{export.Gemini, "claude-sonnet-4-5", false}, {export.OpenAI, "gtp-4o", false},
	} {
		if err := CheckModel(c.format, c.model); (err == nil) != c.ok {
			t.Errorf("%s %s: %v", c.format, c.model, err)
		}
	}
}
