package jsonschema

import (
	"strings"
	"testing"
)

// TestExactNumber: exact within ±400 of exponent and 1,000 characters
// (every float64), refused beyond, where big.Rat would take the value's
// size in time and memory (1e999999: 30 ms; a million digits: 5 s).
func TestExactNumber(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want string // the rational, "" when refused
	}{
		{"0.1", "1/10"},
		{"1e308", "1" + strings.Repeat("0", 308) + "/1"},
		{"-2.5E-3", "-1/400"},
		{"1e400", "1" + strings.Repeat("0", 400) + "/1"},
		{"1e401", ""},
		{"1e-401", ""},
		{"1e999999", ""},
		{"1e99999999999999999999", ""},
		{strings.Repeat("7", 1000), strings.Repeat("7", 1000) + "/1"},
		{strings.Repeat("7", 1001), ""},
		{"abc", ""},
	} {
		r, ok := ExactNumber(tc.s)
		got := ""
		if ok {
			got = r.String()
		}
		if got != tc.want {
			t.Errorf("ExactNumber(%.30s) = %.40q, want %.40q", tc.s, got, tc.want)
		}
	}
}
