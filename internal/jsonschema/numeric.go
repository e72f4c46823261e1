// toolctl: this file is not upstream's (see README.md).

package jsonschema

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Exact numbers (big.Rat) cost the size of their value, not of their
// text: "1e999999" is 8 bytes and a 3.3-million-bit integer, ~30 ms to
// build, so 300 of them in a tool call's 2.7 KB of arguments took 9 s of
// CPU; a number of a million digits takes 5 s to convert. Numbers come
// from models and servers an attacker may steer, so they are made exact
// only within these bounds, which every float64 meets (its exponents run
// from -324 to 308). Beyond them a number is a compile error in a schema
// and a validation error in an instance, for the keywords that need its
// value; toolctl's other exact numbers (array_ops, test) keep the same
// bounds through ExactNumber.
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

// ratOf is the number v as ExactNumber makes it.
func ratOf(v interface{}) (*big.Rat, bool) {
	return ExactNumber(fmt.Sprint(v))
}

// outOfRange is the error of a number ratOf refuses.
func outOfRange(v interface{}) string {
	return fmt.Sprintf("%v is beyond the numbers that can be checked exactly (exponents within ±%d, at most %d characters)", v, MaxExactExponent, MaxExactLength)
}

// numericKeyword is the first keyword of s that needs a number's value.
func (s *Schema) numericKeyword() string {
	switch {
	case s.Minimum != nil:
		return "minimum"
	case s.ExclusiveMinimum != nil:
		return "exclusiveMinimum"
	case s.Maximum != nil:
		return "maximum"
	case s.ExclusiveMaximum != nil:
		return "exclusiveMaximum"
	case s.MultipleOf != nil:
		return "multipleOf"
	}
	return ""
}
