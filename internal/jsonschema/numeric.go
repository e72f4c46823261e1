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
// CPU. Numbers are made exact only within these bounds, which every
// float64 meets (its exponents run from -324 to 308); beyond them a
// number is a compile error in a schema and a validation error in an
// instance, for the keywords that need its value.
const (
	maxNumberExp = 400
	maxNumberLen = 1000
)

// ratOf is v as an exact number, or false when it is out of bounds (or
// not a number).
func ratOf(v interface{}) (*big.Rat, bool) {
	s := fmt.Sprint(v)
	if len(s) > maxNumberLen {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.Atoi(s[i+1:])
		if err != nil || exp > maxNumberExp || exp < -maxNumberExp {
			return nil, false
		}
	}
	return new(big.Rat).SetString(s)
}

// outOfRange is the error of a number ratOf refuses.
func outOfRange(v interface{}) string {
	return fmt.Sprintf("%v is beyond the numbers that can be checked exactly (exponents within ±%d, at most %d characters)", v, maxNumberExp, maxNumberLen)
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
