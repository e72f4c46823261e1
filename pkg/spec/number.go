package spec

import (
	"math/big"
	"strconv"
	"strings"
)

// Exact numbers (big.Rat) cost the size of their value: "1e999999" is 8
// bytes and a 3.3-million-bit integer (~30 ms), and a number of a million
// digits takes 5 s to convert. Numbers in tool calls and server responses
// come from models and servers an attacker may steer, so they are made
// exact only within these bounds, which every float64 meets (exponents
// -324..308). internal/jsonschema keeps the same bounds for validation.
const (
	MaxExactExponent = 400
	MaxExactLength   = 1000
)

// ExactNumber is the JSON number s as a rational, or false when s is not
// a number or is beyond MaxExactExponent / MaxExactLength.
func ExactNumber(s string) (*big.Rat, bool) {
	if len(s) > MaxExactLength {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.Atoi(s[i+1:])
		if err != nil || exp > MaxExactExponent || exp < -MaxExactExponent {
			return nil, false
		}
	}
	return new(big.Rat).SetString(s)
}
