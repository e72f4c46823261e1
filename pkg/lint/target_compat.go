package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// The --target rules are thin wrappers over pkg/compat, the checks export
// --strict shares: compat says what is wrong, lint adds the position.

// reportCompat reports the problems of the running rule, with pointers
// taken relative to base ("/name", "/input_schema").
func reportCompat(r *Reporter, t *spec.Tool, base string, ps []compat.Problem) {
	for _, p := range ps {
		if p.Rule == r.rule.ID {
			reportProblem(r, t, base, p)
		}
	}
}

// reportProblem reports p at its key or value, as compat says.
func reportProblem(r *Reporter, t *spec.Tool, base string, p compat.Problem) {
	if p.Key {
		r.ReportKey(t, base+p.Pointer, "%s", p.Message)
	} else {
		r.Report(t, base+p.Pointer, "%s", p.Message)
	}
}

// targetName is the Tool function of the name rules of target.
func targetName(target string) func(r *Reporter, t *spec.Tool) {
	return func(r *Reporter, t *spec.Tool) {
		if t.Name == "" {
			return // name-required's finding
		}
		reportCompat(r, t, "/name", compat.NameProblems(target, t.Name))
	}
}

// targetSchema is the Tool function of the schema rule of target; bound
// parameters are not exported, so they are not checked. A tool that sets
// strict: false is exported without strict mode, so the strict subsets do
// not apply to it: only arrays without items, which OpenAI refuses either
// way, are reported.
func targetSchema(target string) func(r *Reporter, t *spec.Tool) {
	return func(r *Reporter, t *spec.Tool) {
		bound := validate.BoundParams(t)
		ps := compat.SchemaProblems(target, t.InputSchema, bound)
		if t.Strict != nil && !*t.Strict && target != compat.Gemini {
			ps = nil
			if target == compat.OpenAI {
				ps = compat.ArraysWithoutItems(t.InputSchema, bound)
			}
		}
		reportCompat(r, t, "/input_schema", ps)
	}
}
