package builtin

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/run"
)

func TestCalculator(t *testing.T) {
	cases := []struct {
		input string
		want  string // the result as JSON
	}{
		{`{"expression": "2*(3+4)"}`, `14`},
		{`{"expression": "10/3", "precision": 2}`, `3.33`},
		{`{"expression": "10/3"}`, `3.3333333333`},
		{`{"expression": "2/3", "precision": 0}`, `1`},
		{`{"expression": "0.1+0.2"}`, `0.3`},
		{`{"expression": "2^10"}`, `1024`},
		{`{"expression": "2**0.5", "precision": 4}`, `1.4142`},
		{`{"expression": "-2^2"}`, `-4`},
		{`{"expression": "2^3^2"}`, `512`},
		{`{"expression": "7 % 3"}`, `1`},
		{`{"expression": "7.5 % 2"}`, `1.5`},
		{`{"expression": "-7 % 3"}`, `-1`},
		{`{"expression": "sqrt(16) + abs(-3)"}`, `7`},
		{`{"expression": "pow(2, 8)"}`, `256`},
		{`{"expression": "min(3, 1, 2) + max(4, 9)"}`, `10`},
		{`{"expression": "floor(2.7) + ceil(2.1) + round(2.5) + trunc(-2.5)"}`, `6`},
		{`{"expression": "round(3.14159, 2)"}`, `3.14`},
		{`{"expression": "log(e) + ln(1) + log10(1000) + log2(8) + log(8, 2)"}`, `10`},
		{`{"expression": "sin(pi/2) + cos(0) + tan(0)"}`, `2`},
		{`{"expression": "pi", "precision": 5}`, `3.14159`},
		{`{"expression": "1e3 * 1_000"}`, `1000000`},
		{`{"expression": "9007199254740993.0 * 2"}`, `18014398509481984`},
		{`{"expression": "1e300 * 10"}`, `1e+301`},
		{`{"expression": "-0 * 5"}`, `0`},
		{`{"expression": "3 × 4 ÷ 2 − 1"}`, `5`},
		{`{"expression": "0.000001", "precision": 3}`, `0`},
		{`{"expression": "99999999999 * 99999999999"}`, `9.9999999998e+21`},
		{`{"expression": "` + strings.Repeat("1+", 2000) + `1"}`, `2001`},
		{`{"expression": "` + strings.Repeat("(", 1000) + "2" + strings.Repeat(")", 1000) + `"}`, `2`},
	}
	for _, tc := range cases {
		got, err := biRun(t, calculatorHandler, tc.input)
		if err != nil {
			t.Errorf("%s: %v", tc.input, err)
			continue
		}
		m := got.(map[string]any)
		if b, _ := json.Marshal(m["result"]); string(b) != tc.want {
			t.Errorf("%s: result %s, want %s", tc.input, b, tc.want)
		}
	}
}

func TestCalculatorEchoesExpression(t *testing.T) {
	got, err := biRun(t, calculatorHandler, `{"expression": "1+1"}`)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(got); string(b) != `{"expression":"1+1","result":2}` {
		t.Errorf("got %s", b)
	}
}

func TestCalculatorErrors(t *testing.T) {
	cases := []struct {
		input string
		kind  run.Kind
		msg   string
	}{
		{`{"expression": "1/0"}`, run.ToolExecutionError, `division by zero in "1 / 0" at column 2`},
		{`{"expression": "5 % (2-2)"}`, run.ToolExecutionError, "modulo by zero"},
		{`{"expression": "0^-1"}`, run.ToolExecutionError, "division by zero"},
		{`{"expression": "sqrt(-1)"}`, run.ToolExecutionError, `"sqrt(-1)" at column 1 is not a real number`},
		{`{"expression": "ln(0)"}`, run.ToolExecutionError, "is infinite"},
		{`{"expression": "10^400"}`, run.ToolExecutionError, "is infinite"},
		{`{"expression": "2*(3+"}`, run.ValidationError, "syntax error in expression: unexpected token EOF at column 5"},
		{`{"expression": "2 +* 3"}`, run.ValidationError, "at column 4"},
		{`{"expression": "12345678901234567890123"}`, run.ValidationError, "decimal point"},
		{`{"expression": "x + 1"}`, run.ValidationError, `unknown name "x" at column 1`},
		{`{"expression": "1 + foo(2)"}`, run.ValidationError, `unknown function "foo" at column 5`},
		{`{"expression": "sqrt"}`, run.ValidationError, "is a function; call it with parentheses"},
		{`{"expression": "sqrt(1, 2)"}`, run.ValidationError, "sqrt takes 1 argument(s), got 2"},
		{`{"expression": "min()"}`, run.ValidationError, "min takes at least 1 argument(s), got 0"},
		{`{"expression": "\"abc\""}`, run.ValidationError, "is not allowed"},
		{`{"expression": "1 < 2"}`, run.ValidationError, `operator "<" at column 3 is not arithmetic`},
		{`{"expression": "1 == 1"}`, run.ValidationError, "not arithmetic"},
		{`{"expression": "[1,2,3]"}`, run.ValidationError, "is not allowed"},
		{`{"expression": "len([1])"}`, run.ValidationError, `unknown function "len"`},
		{`{"expression": "map([1], # * 2)"}`, run.ValidationError, "is not allowed"},
		{`{"expression": "now()"}`, run.ValidationError, `unknown function "now"`},
		{`{"expression": "1..3"}`, run.ValidationError, "not arithmetic"},
		{`{"expression": "true ? 1 : 2"}`, run.ValidationError, "is not allowed"},
		{`{"expression": "let x = 1; x"}`, run.ValidationError, "is not allowed"},
		{`{"expression": "!1"}`, run.ValidationError, "not arithmetic"},
		{`{"expression": "   "}`, run.ValidationError, "expression is empty"},
		{`{"expression": "1", "precision": 16}`, run.ValidationError, "precision 16 is out of range"},
		{`{"expression": "` + strings.Repeat("1+", 3000) + `1"}`, run.ValidationError, "the limit is 4096"},
	}
	for _, tc := range cases {
		_, err := biRun(t, calculatorHandler, tc.input)
		e := biWantError(t, tc.input, err, tc.kind, tc.msg)
		if e != nil && e.Kind == run.ValidationError && e.Param != "expression" && !strings.Contains(tc.msg, "precision") {
			t.Errorf("%s: param %q, want expression", tc.input, e.Param)
		}
	}
}
