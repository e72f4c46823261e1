package lint

import (
	"errors"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleEntryJavaScriptInvalid = &Rule{
	ID:          "entry-javascript-invalid",
	Severity:    Error,
	Description: "A javascript entry's code parses and defines function execute(input).",
	Explain: `The JavaScript executor calls execute(input); code that does not parse, or
defines no execute, fails at every call. Syntax errors point at the line
inside the code block.

Bad:
  entry:
    type: javascript
    code: |
      function run(input) {
        return input.value * 2
      }

Good:
  entry:
    type: javascript
    code: |
      function execute(input) {
        return { result: input.value * 2 };
      }`,
	Tool: func(r *Reporter, t *spec.Tool) {
		e := t.Entry
		if e == nil || e.Kind() != spec.EntryJavaScript || strings.TrimSpace(e.Code) == "" {
			return
		}
		prog, err := parser.ParseFile(nil, "", e.Code, 0)
		if err != nil {
			var list parser.ErrorList
			var one *parser.Error
			switch {
			case errors.As(err, &list) && len(list) > 0:
				one = list[0]
			case errors.As(err, &one):
			}
			if one != nil {
				p := t.TextPos("/entry/code", one.Position.Line, one.Position.Column)
				r.ReportSpan(t, spec.Span{Start: p, End: spec.Pos{Line: p.Line, Col: p.Col + 1}}, "JavaScript syntax error in entry.code (line %d of the code): %s", one.Position.Line, one.Message)
				return
			}
			r.Report(t, "/entry/code", "JavaScript syntax error in entry.code: %v", err)
			return
		}
		if !definesExecute(prog) {
			r.Report(t, "/entry/code", "entry.code does not define execute; add function execute(input) { ... } returning the result")
		}
	},
}

// definesExecute finds a top-level function execute, or a var/let/const
// execute bound to a function.
func definesExecute(p *ast.Program) bool {
	for _, st := range p.Body {
		switch st := st.(type) {
		case *ast.FunctionDeclaration:
			if st.Function.Name != nil && st.Function.Name.Name == "execute" {
				return true
			}
		case *ast.VariableStatement:
			if bindsExecute(st.List) {
				return true
			}
		case *ast.LexicalDeclaration:
			if bindsExecute(st.List) {
				return true
			}
		}
	}
	return false
}

func bindsExecute(list []*ast.Binding) bool {
	for _, b := range list {
		if id, ok := b.Target.(*ast.Identifier); ok && id.Name == "execute" && b.Initializer != nil {
			return true
		}
	}
	return false
}
