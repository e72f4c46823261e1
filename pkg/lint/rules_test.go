package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRuleTable keeps the rules table (rules.go) and the rule files in
// step: every Rule a file of the package declares is a package-level
// variable of its own rule_*.go file (one rule per file) and listed in the
// table exactly once, and no two rules share an ID.
func TestRuleTable(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]string{} // rule variable -> file
	var listed []string
	perFile := map[string]int{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Rule literals that are the value of a package-level variable.
		top := map[ast.Expr]string{}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if i >= len(vs.Names) {
						break
					}
					if lit := ruleLiteral(v); lit != nil {
						top[lit] = vs.Names[i].Name
					}
					table, ok := v.(*ast.CompositeLit)
					if vs.Names[i].Name != "rules" || !ok {
						continue
					}
					for _, e := range table.Elts {
						if id, ok := e.(*ast.Ident); ok {
							listed = append(listed, id.Name)
						} else {
							t.Errorf("%s: the rules table lists a %T; list rule variables only", fset.Position(e.Pos()), e)
						}
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || !isRuleType(lit.Type) {
				return true
			}
			v, ok := top[ast.Expr(lit)]
			if !ok {
				t.Errorf("%s: a Rule not declared as a package-level variable of a rule_*.go file; declare var ruleX = &Rule{...} and list it in rules.go", fset.Position(lit.Pos()))
				return true
			}
			if !strings.HasPrefix(name, "rule_") {
				t.Errorf("%s: rule %s is declared outside a rule_*.go file", name, v)
			}
			declared[v] = name
			perFile[name]++
			return true
		})
	}
	if len(declared) == 0 || len(listed) == 0 {
		t.Fatalf("found %d rule variables and a table of %d: the test no longer sees the package's layout", len(declared), len(listed))
	}
	for name, n := range perFile {
		if n != 1 {
			t.Errorf("%s declares %d rules; one file per rule", name, n)
		}
	}
	for v, file := range declared {
		if n := count(listed, v); n != 1 {
			t.Errorf("%s: rule %s is listed %d times in the rules table (rules.go); list it once", file, v, n)
		}
	}
	for _, v := range listed {
		if _, ok := declared[v]; !ok {
			t.Errorf("the rules table lists %s, which no rule_*.go file declares", v)
		}
	}
	ids := map[string]bool{}
	for _, r := range rules {
		if ids[r.ID] {
			t.Errorf("rule ID %s is used twice", r.ID)
		}
		ids[r.ID] = true
	}
	if got := RuleIDs(); len(got) != len(rules) || !slices.IsSorted(got) {
		t.Errorf("RuleIDs() = %d sorted IDs for %d rules", len(got), len(rules))
	}
	for _, r := range rules {
		if got, ok := Lookup(r.ID); !ok || got != r {
			t.Errorf("Lookup(%q) does not return the table's rule", r.ID)
		}
	}
}

// ruleLiteral returns the Rule composite literal v is (&Rule{...} or
// Rule{...}), or nil.
func ruleLiteral(v ast.Expr) ast.Expr {
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = u.X
	}
	if lit, ok := v.(*ast.CompositeLit); ok && isRuleType(lit.Type) {
		return lit
	}
	return nil
}

func isRuleType(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "Rule"
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}
