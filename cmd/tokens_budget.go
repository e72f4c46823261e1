package cmd

import (
	"fmt"

	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/tokens"
)

// budgetCounter gives lint's budget rules pkg/tokens' counter when
// lint.budget is configured (pkg/lint sits below pkg/tokens). An unknown
// lint.budget.model, or one of another provider than the format, is a
// config error at its position.
func budgetCounter(cfg *lint.Config, file string) error {
	b := &cfg.Budget
	if b.Tool == 0 && b.Total == 0 {
		return nil
	}
	format := export.Format(b.Format)
	if format == "" {
		format = export.OpenAI
	}
	if b.Model != "" {
		if err := tokens.CheckModel(format, b.Model); err != nil {
			return &diag.Diagnostic{File: file, Span: diag.At(spec.Pos{Line: b.ModelPos.Line, Col: b.ModelPos.Col}), Message: fmt.Sprintf("lint.budget.model: %v", err)}
		}
	}
	b.Counter = countForLint
	return nil
}

// countForLint is lint.TokenCounter over tokens.MeasureTool.
func countForLint(t *spec.Tool, format, model string) (lint.TokenCount, error) {
	c, info, err := tokens.MeasureTool(t, export.Format(format), model)
	if err != nil {
		return lint.TokenCount{}, err
	}
	out := lint.TokenCount{Tokens: c.Tokens, Estimate: !info.Exact, PerRequest: info.PerRequest}
	for _, p := range c.Parts {
		out.Parts = append(out.Parts, lint.TokenPart{Label: p.Label(), Pointer: p.Pointer, Tokens: p.Tokens})
	}
	return out, nil
}

// The budget rules' IDs, for the baseline.
const (
	budgetToolRule  = "budget-tool-tokens"
	budgetTotalRule = "budget-total-tokens"
)

// budgetBaseline is what --baseline-out records for the budget findings:
// per file with a budget-tool-tokens finding, the cost of its costliest
// tool; on the file of a budget-total-tokens finding, the set's total. The
// findings carry no numbers, so the files are counted again (lint's set
// has released the tools' bodies); nothing is counted without such
// findings.
func budgetBaseline(files []string, findings []lint.Finding, cfg lint.Config) (map[string]lint.BudgetLimits, error) {
	toolFiles := map[string]bool{}
	totalFile := ""
	for _, f := range findings {
		switch f.Rule {
		case budgetToolRule:
			toolFiles[f.File] = true
		case budgetTotalRule:
			totalFile = f.File
		}
	}
	if len(toolFiles) == 0 && totalFile == "" || cfg.Budget.Counter == nil {
		return nil, nil
	}
	load := files
	if totalFile == "" {
		load = load[:0:0]
		for f := range toolFiles {
			load = append(load, f)
		}
	}
	set, err := spec.Load(load)
	if err != nil {
		return nil, usageError(err)
	}
	b := cfg.Budget
	out := map[string]lint.BudgetLimits{}
	total, perRequest := 0, 0
	for _, t := range set.Tools() {
		c, err := b.Counter(t, budgetFormat(b), b.Model)
		if err != nil {
			continue // reported by the rule, and turned off below
		}
		total += c.Tokens
		perRequest = c.PerRequest
		if toolFiles[t.Path()] {
			l := out[t.Path()]
			l.Tool = max(l.Tool, c.Tokens)
			out[t.Path()] = l
		}
	}
	if totalFile != "" {
		l := out[totalFile]
		l.Total = total + perRequest
		out[totalFile] = l
	}
	return out, nil
}

func budgetFormat(b lint.BudgetConfig) string {
	if b.Format == "" {
		return string(export.OpenAI)
	}
	return b.Format
}
