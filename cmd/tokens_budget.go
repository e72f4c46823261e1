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
