package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/toolctl/toolctl/pkg/run"
)

// The calculator parses with expr-lang's parser but evaluates the tree
// itself: only number literals, the operators + - * / % ^ ** and the
// functions and constants below are accepted, so an expression can reach
// no Go value, no expr builtin (map, filter, now, ...) and no loop. All
// arithmetic is float64, so there is no silent integer overflow, % works on
// fractions and a division by zero is caught exactly rather than as Inf.

// calcMaxLen bounds the expression; a tree walk over it is then cheap.
const calcMaxLen = 4096

var calcConstants = map[string]float64{
	"pi":  math.Pi,
	"e":   math.E,
	"tau": 2 * math.Pi,
}

// calcFunc is one function: its arity (max -1 for variadic) and body.
type calcFunc struct {
	min, max int
	fn       func(args []float64) float64
}

func calcUnary(f func(float64) float64) calcFunc {
	return calcFunc{1, 1, func(a []float64) float64 { return f(a[0]) }}
}

var calcFuncs = map[string]calcFunc{
	"sqrt":  calcUnary(math.Sqrt),
	"cbrt":  calcUnary(math.Cbrt),
	"abs":   calcUnary(math.Abs),
	"floor": calcUnary(math.Floor),
	"ceil":  calcUnary(math.Ceil),
	"trunc": calcUnary(math.Trunc),
	"exp":   calcUnary(math.Exp),
	"ln":    calcUnary(math.Log),
	"log10": calcUnary(math.Log10),
	"log2":  calcUnary(math.Log2),
	"sin":   calcUnary(math.Sin),
	"cos":   calcUnary(math.Cos),
	"tan":   calcUnary(math.Tan),
	"asin":  calcUnary(math.Asin),
	"acos":  calcUnary(math.Acos),
	"atan":  calcUnary(math.Atan),
	"sign": calcUnary(func(x float64) float64 {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0
	}),
	"pow":   {2, 2, func(a []float64) float64 { return math.Pow(a[0], a[1]) }},
	"atan2": {2, 2, func(a []float64) float64 { return math.Atan2(a[0], a[1]) }},
	"hypot": {2, 2, func(a []float64) float64 { return math.Hypot(a[0], a[1]) }},
	// log(x) is the natural logarithm, as in JavaScript and Python;
	// log(x, b) takes base b.
	"log": {1, 2, func(a []float64) float64 {
		if len(a) == 2 {
			return math.Log(a[0]) / math.Log(a[1])
		}
		return math.Log(a[0])
	}},
	// round(x) rounds half away from zero; round(x, n) to n decimals.
	"round": {1, 2, func(a []float64) float64 {
		if len(a) == 2 {
			p := math.Pow(10, math.Trunc(a[1]))
			return math.Round(a[0]*p) / p
		}
		return math.Round(a[0])
	}},
	"min": {1, -1, func(a []float64) float64 {
		m := a[0]
		for _, x := range a[1:] {
			m = math.Min(m, x)
		}
		return m
	}},
	"max": {1, -1, func(a []float64) float64 {
		m := a[0]
		for _, x := range a[1:] {
			m = math.Max(m, x)
		}
		return m
	}},
}

// calcNames lists the functions and constants for error messages.
func calcNames() string {
	fs := make([]string, 0, len(calcFuncs))
	for n := range calcFuncs {
		fs = append(fs, n)
	}
	sort.Strings(fs)
	return "functions " + strings.Join(fs, ", ") + " and constants pi, e, tau"
}

// calcParseConfig makes calls to names like abs or max plain calls (expr
// has builtins of those names) and keeps "if" an ordinary identifier. A
// config holds caches the parser may write, so a call takes one of its
// own from calcConfigs: building one (a map of every expr builtin) was a
// sixth of a call's CPU under toolctl serve.
func calcParseConfig() *conf.Config {
	c := conf.CreateNew()
	for name := range c.Builtins {
		c.Disabled[name] = true
	}
	c.DisableIfOperator = true
	c.MaxNodes = calcMaxLen // the length limit bounds the tree first
	return c
}

var calcConfigs = sync.Pool{New: func() any { return calcParseConfig() }}

// calcTypography maps the symbols people paste from documents to the
// operators they mean, rune for rune so that error columns stay right.
var calcTypography = strings.NewReplacer("×", "*", "÷", "/", "−", "-", "·", "*")

func calculatorHandler(_ context.Context, c *run.Call) (any, error) {
	src, err := c.String("expression", "")
	if err != nil {
		return nil, err
	}
	precision, err := c.Int("precision", 10)
	if err != nil {
		return nil, err
	}
	if precision < 0 || precision > 15 {
		return nil, &run.Error{Kind: run.ValidationError, Param: "precision", Message: fmt.Sprintf("precision %d is out of range; use 0 to 15 decimal places", precision)}
	}
	v, err := calcEval(src)
	if err != nil {
		return nil, err
	}
	return map[string]any{"result": calcFormat(v, precision), "expression": src}, nil
}

// calcEval parses and evaluates an expression.
func calcEval(src string) (float64, error) {
	if strings.TrimSpace(src) == "" {
		return 0, &run.Error{Kind: run.ValidationError, Param: "expression", Message: "expression is empty; give an arithmetic expression such as 2*(3+4)"}
	}
	if len(src) > calcMaxLen {
		return 0, &run.Error{Kind: run.ValidationError, Param: "expression", Message: fmt.Sprintf("expression is %d bytes long; the limit is %d", len(src), calcMaxLen)}
	}
	src = calcTypography.Replace(src)
	cfg := calcConfigs.Get().(*conf.Config)
	tree, err := parser.ParseWithConfig(src, cfg)
	calcConfigs.Put(cfg)
	if err != nil {
		var fe *file.Error
		msg := err.Error()
		if errors.As(err, &fe) {
			msg = fmt.Sprintf("%s at column %d", fe.Message, fe.Column+1)
			if strings.Contains(fe.Message, "integer literal") {
				msg += "; write very large numbers with a decimal point or an exponent, e.g. 1.5e20"
			}
			msg += fe.Snippet
		}
		return 0, &run.Error{Kind: run.ValidationError, Param: "expression", Message: "syntax error in expression: " + msg, Detail: map[string]any{"column": calcColumn(err)}}
	}
	return calcNode(tree.Node)
}

func calcColumn(err error) int {
	var fe *file.Error
	if errors.As(err, &fe) {
		return fe.Column + 1
	}
	return 0
}

// calcAt names the place of a node for messages: its 1-based column and
// the source text it spans.
func calcAt(n ast.Node) string {
	return fmt.Sprintf("%q at column %d", n.String(), n.Location().From+1)
}

func calcInvalid(n ast.Node, format string, args ...any) error {
	return &run.Error{Kind: run.ValidationError, Param: "expression", Message: fmt.Sprintf(format, args...), Detail: map[string]any{"column": n.Location().From + 1}}
}

func calcFailed(n ast.Node, format string, args ...any) error {
	return &run.Error{Kind: run.ToolExecutionError, Message: fmt.Sprintf(format, args...), Detail: map[string]any{"column": n.Location().From + 1}}
}

// calcFinite turns an Inf or NaN produced by node n into an error.
func calcFinite(n ast.Node, v float64) (float64, error) {
	switch {
	case math.IsNaN(v):
		return 0, calcFailed(n, "%s is not a real number (e.g. the square root or logarithm of a negative number)", calcAt(n))
	case math.IsInf(v, 0):
		return 0, calcFailed(n, "%s is infinite: the result is too large for a 64-bit float (about 1.8e308) or divides by zero", calcAt(n))
	}
	return v, nil
}

func calcNode(n ast.Node) (float64, error) {
	switch n := n.(type) {
	case *ast.IntegerNode:
		return float64(n.Value), nil
	case *ast.FloatNode:
		return n.Value, nil
	case *ast.IdentifierNode:
		if v, ok := calcConstants[n.Value]; ok {
			return v, nil
		}
		if _, ok := calcFuncs[n.Value]; ok {
			return 0, calcInvalid(n, "%s is a function; call it with parentheses, e.g. %s(2)", calcAt(n), n.Value)
		}
		return 0, calcInvalid(n, "unknown name %s; expressions use numbers, + - * / %% ^, parentheses, %s", calcAt(n), calcNames())
	case *ast.UnaryNode:
		x, err := calcNode(n.Node)
		if err != nil {
			return 0, err
		}
		switch n.Operator {
		case "-":
			return -x, nil
		case "+":
			return x, nil
		}
		return 0, calcInvalid(n, "operator %q at column %d is not arithmetic; use + - * / %% ^", n.Operator, n.Location().From+1)
	case *ast.BinaryNode:
		return calcBinary(n)
	case *ast.CallNode:
		return calcCall(n)
	}
	return 0, calcInvalid(n, "%s is not allowed: the calculator takes numbers, + - * / %% ^, parentheses, %s", calcAt(n), calcNames())
}

func calcBinary(n *ast.BinaryNode) (float64, error) {
	switch n.Operator {
	case "+", "-", "*", "/", "%", "^", "**":
	default:
		return 0, calcInvalid(n, "operator %q at column %d is not arithmetic; use + - * / %% ^ (or **)", n.Operator, n.Location().From+1)
	}
	a, err := calcNode(n.Left)
	if err != nil {
		return 0, err
	}
	b, err := calcNode(n.Right)
	if err != nil {
		return 0, err
	}
	var v float64
	switch n.Operator {
	case "+":
		v = a + b
	case "-":
		v = a - b
	case "*":
		v = a * b
	case "/":
		if b == 0 {
			return 0, calcFailed(n, "division by zero in %s", calcAt(n))
		}
		v = a / b
	case "%":
		if b == 0 {
			return 0, calcFailed(n, "modulo by zero in %s", calcAt(n))
		}
		v = math.Mod(a, b)
	default: // ^ and **
		if a == 0 && b < 0 {
			return 0, calcFailed(n, "division by zero in %s: zero to a negative power", calcAt(n))
		}
		v = math.Pow(a, b)
	}
	return calcFinite(n, v)
}

func calcCall(n *ast.CallNode) (float64, error) {
	id, ok := n.Callee.(*ast.IdentifierNode)
	if !ok {
		return 0, calcInvalid(n, "%s is not allowed: only the named functions can be called (%s)", calcAt(n), calcNames())
	}
	f, ok := calcFuncs[id.Value]
	if !ok {
		return 0, calcInvalid(n, "unknown function %q at column %d; use one of the %s", id.Value, n.Location().From+1, calcNames())
	}
	if len(n.Arguments) < f.min || f.max >= 0 && len(n.Arguments) > f.max {
		want := strconv.Itoa(f.min)
		switch {
		case f.max < 0:
			want = "at least " + want
		case f.max != f.min:
			want += " or " + strconv.Itoa(f.max)
		}
		return 0, calcInvalid(n, "%s takes %s argument(s), got %d at column %d", id.Value, want, len(n.Arguments), n.Location().From+1)
	}
	args := make([]float64, len(n.Arguments))
	for i, a := range n.Arguments {
		v, err := calcNode(a)
		if err != nil {
			return 0, err
		}
		args[i] = v
	}
	return calcFinite(n, f.fn(args))
}

// calcFormat rounds v to precision decimals and returns it as a JSON
// number without trailing zeros, so 14.0 prints as 14. FormatFloat rounds
// the exact binary value: 2.675 (really 2.67499...) gives 2.67.
func calcFormat(v float64, precision int) json.Number {
	if math.Abs(v) >= 1e21 {
		// Digits past float64's 17 significant ones are noise; use an
		// exponent as JavaScript does.
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64))
	}
	s := strconv.FormatFloat(v, 'f', precision, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return json.Number(s)
}
