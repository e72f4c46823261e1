package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/internal/jsonschema"
	"github.com/toolctl/toolctl/pkg/run"
)

// The array handler. Values compare as JSON: 1 and 1.0 are equal, objects
// are equal when their members are. Sorting orders mixed lists by type
// (null, booleans, numbers, strings, arrays, objects) and then by value.

var arrOperations = []string{"length", "sort", "unique", "reverse", "slice", "flatten", "chunk", "sum", "min", "max", "avg", "join", "contains", "index_of", "filter", "pluck", "group_by", "frequencies"}

// arrMaxOutput bounds what chunk and flatten may build.
const arrMaxOutput = 1 << 20

func arrayHandler(_ context.Context, c *run.Call) (any, error) {
	op, err := c.String("operation", "")
	if err != nil {
		return nil, err
	}
	items, err := objList(c, "items")
	if err != nil {
		return nil, err
	}
	key, err := c.String("key", "")
	if err != nil {
		return nil, err
	}
	keySegs, err := objParsePath("key", key)
	if err != nil {
		return nil, err
	}
	// at is the value an operation looks at: the item, or its key.
	at := func(v any) any {
		if len(keySegs) == 0 {
			return v
		}
		x, _ := objGet(v, keySegs)
		return x
	}
	needKey := func() error {
		if len(keySegs) == 0 {
			return &run.Error{Kind: run.ValidationError, Param: "key", Message: fmt.Sprintf("operation %s needs key: the field (dotted path) of each item, e.g. name or user.id", op)}
		}
		return nil
	}
	res := func(v any) (any, error) { return map[string]any{"result": v}, nil }

	switch op {
	case "length":
		return res(int64(len(items)))
	case "reverse":
		out := make([]any, len(items))
		for i, x := range items {
			out[len(items)-1-i] = x
		}
		return res(out)
	case "sort":
		order, err := c.String("order", "asc")
		if err != nil {
			return nil, err
		}
		if order != "asc" && order != "desc" {
			return nil, &run.Error{Kind: run.ValidationError, Param: "order", Message: fmt.Sprintf("order %q is not known; use asc or desc", order)}
		}
		out := append([]any{}, items...)
		sort.SliceStable(out, func(i, j int) bool {
			if order == "desc" {
				return arrCompare(at(out[j]), at(out[i])) < 0
			}
			return arrCompare(at(out[i]), at(out[j])) < 0
		})
		return res(out)
	case "unique":
		seen := map[string]bool{}
		out := []any{}
		for _, x := range items {
			id := arrKey(at(x))
			if !seen[id] {
				seen[id] = true
				out = append(out, x)
			}
		}
		return res(out)
	case "slice":
		start, end, err := strRange(c, len(items))
		if err != nil {
			return nil, err
		}
		return res(append([]any{}, items[start:end]...))
	case "flatten":
		depth, err := c.Int("depth", 1)
		if err != nil {
			return nil, err
		}
		if depth < 1 {
			return nil, &run.Error{Kind: run.ValidationError, Param: "depth", Message: fmt.Sprintf("depth %d is too small; use 1 for one level, or a large number to flatten completely", depth)}
		}
		out, err := arrFlatten(nil, items, depth)
		if err != nil {
			return nil, err
		}
		return res(out)
	case "chunk":
		size, err := c.Int("size", 10)
		if err != nil {
			return nil, err
		}
		if size < 1 {
			return nil, &run.Error{Kind: run.ValidationError, Param: "size", Message: fmt.Sprintf("size %d is too small; chunks hold at least 1 item", size)}
		}
		out := []any{}
		for i := 0; i < len(items); i += size {
			out = append(out, append([]any{}, items[i:min(i+size, len(items))]...))
		}
		return res(out)
	case "sum", "avg":
		nums, err := arrNumbers(items, at, key)
		if err != nil {
			return nil, err
		}
		if op == "avg" {
			if len(nums) == 0 {
				return res(nil)
			}
			sum, _ := arrSum(nums).Float64()
			return res(arrNumber(sum / float64(len(nums))))
		}
		return res(arrRat(arrSum(nums)))
	case "min", "max":
		if len(items) == 0 {
			return res(nil)
		}
		best := items[0]
		for _, x := range items[1:] {
			d := arrCompare(at(x), at(best))
			if op == "min" && d < 0 || op == "max" && d > 0 {
				best = x
			}
		}
		// With a key the answer is the item, as Python's max(key=...).
		return res(best)
	case "join":
		sep, err := c.String("separator", ",")
		if err != nil {
			return nil, err
		}
		parts := make([]string, len(items))
		for i, x := range items {
			parts[i] = arrText(at(x))
		}
		return res(strings.Join(parts, sep))
	case "contains", "index_of", "filter":
		want := c.Input["value"]
		idx := -1
		matched := []any{}
		for i, x := range items {
			if arrEqual(at(x), want) {
				if idx < 0 {
					idx = i
				}
				matched = append(matched, x)
			}
		}
		switch op {
		case "contains":
			return res(idx >= 0)
		case "index_of":
			return res(int64(idx))
		}
		return res(matched)
	case "pluck":
		if err := needKey(); err != nil {
			return nil, err
		}
		out := make([]any, len(items))
		for i, x := range items {
			out[i] = at(x)
		}
		return res(out)
	case "group_by":
		if err := needKey(); err != nil {
			return nil, err
		}
		out := map[string]any{}
		for _, x := range items {
			k := arrText(at(x))
			l, _ := out[k].([]any)
			out[k] = append(l, x)
		}
		return res(out)
	case "frequencies":
		type freq struct {
			value any
			count int64
		}
		var list []*freq
		byKey := map[string]*freq{}
		for _, x := range items {
			v := at(x)
			k := arrKey(v)
			f, ok := byKey[k]
			if !ok {
				f = &freq{value: v}
				byKey[k] = f
				list = append(list, f)
			}
			f.count++
		}
		sort.SliceStable(list, func(i, j int) bool { return list[i].count > list[j].count })
		out := make([]any, len(list))
		for i, f := range list {
			out[i] = map[string]any{"value": f.value, "count": f.count}
		}
		return res(out)
	}
	return nil, &run.Error{Kind: run.ValidationError, Param: "operation", Message: fmt.Sprintf("unknown operation %q; use one of %s", op, strings.Join(arrOperations, ", "))}
}

func arrFlatten(out, items []any, depth int) ([]any, error) {
	for _, x := range items {
		if l, ok := x.([]any); ok && depth > 0 {
			var err error
			if out, err = arrFlatten(out, l, depth-1); err != nil {
				return nil, err
			}
			continue
		}
		if len(out) >= arrMaxOutput {
			return nil, &run.Error{Kind: run.ValidationError, Param: "items", Message: fmt.Sprintf("the flattened list would have more than %d items", arrMaxOutput)}
		}
		out = append(out, x)
	}
	return out, nil
}

// arrNumbers reads the numbers of a list for sum and avg.
func arrNumbers(items []any, at func(any) any, key string) ([]*big.Rat, error) {
	out := make([]*big.Rat, 0, len(items))
	for i, x := range items {
		v := at(x)
		r, ok := arrToRat(v)
		if !ok {
			where := fmt.Sprintf("items[%d]", i)
			if key != "" {
				where += "." + key
			}
			msg := fmt.Sprintf("%s is %s, not a number; sum and avg take numbers only (use key to pick a numeric field)", where, run.JSONType(v))
			if n, isNumber := v.(json.Number); isNumber {
				msg = fmt.Sprintf("%s is a number beyond what sum and avg take (%s): more than %d characters or an exponent beyond ±%d, and too large for a float64", where, shortNumber(n), jsonschema.MaxExactLength, jsonschema.MaxExactExponent)
			}
			return nil, &run.Error{Kind: run.ValidationError, Param: fmt.Sprintf("items/%d", i), Message: msg}
		}
		out = append(out, r)
	}
	return out, nil
}

// shortNumber is n for a message: its start and its length when long.
func shortNumber(n json.Number) string {
	if len(n) <= 40 {
		return string(n)
	}
	return fmt.Sprintf("%s... %d characters", n[:20], len(n))
}

// arrToRat reads a number exactly, so 0.1 + 0.2 sums to 0.3.
func arrToRat(v any) (*big.Rat, bool) {
	switch n := v.(type) {
	case json.Number:
		if r, ok := jsonschema.ExactNumber(n.String()); ok {
			return r, true
		}
		// Beyond what is made exact (1e999999, a million digits: seconds
		// of CPU): read it as a float (inexact, as any float is).
		f, err := n.Float64()
		if err != nil {
			return nil, false
		}
		return arrToRat(f)
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(n), true
	case int:
		return new(big.Rat).SetInt64(int64(n)), true
	case int64:
		return new(big.Rat).SetInt64(n), true
	}
	return nil, false
}

func arrSum(nums []*big.Rat) *big.Rat {
	sum := new(big.Rat)
	for _, r := range nums {
		sum.Add(sum, r)
	}
	return sum
}

// arrRat renders an exact sum: as an exact decimal when one of at most 17
// significant digits exists (0.1 + 0.2 is 0.3), else as a float.
func arrRat(r *big.Rat) json.Number {
	if r.IsInt() {
		// Up to 21 digits as is (the largest JSON readers keep exact are
		// smaller anyway); beyond that an exponent, as JavaScript prints.
		if s := r.Num().String(); len(strings.TrimPrefix(s, "-")) <= 21 {
			return json.Number(s)
		}
	}
	s := strings.TrimRight(r.FloatString(20), "0")
	digits := strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(s), "0")
	if exact, ok := new(big.Rat).SetString(s); ok && exact.Cmp(r) == 0 && len(digits) <= 17 {
		return json.Number(s)
	}
	f, _ := r.Float64()
	return arrNumber(f)
}

// arrNumber renders a float with at most 15 significant digits, which
// drops binary noise (0.30000000000000004) and a needless ".0".
func arrNumber(f float64) json.Number {
	g, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
	if math.Abs(g) >= 1e21 {
		return json.Number(strconv.FormatFloat(g, 'g', -1, 64))
	}
	s := strconv.FormatFloat(g, 'f', -1, 64)
	if s == "-0" {
		s = "0"
	}
	return json.Number(s)
}

// arrRank orders JSON types for sorting mixed lists.
func arrRank(v any) int {
	switch v.(type) {
	case nil:
		return 0
	case bool:
		return 1
	case json.Number, float64, int, int64:
		return 2
	case string:
		return 3
	case []any:
		return 4
	}
	return 5
}

// arrCompare orders two JSON values: by type rank, then numbers by value,
// strings by code point, lists element by element, objects by their
// canonical JSON.
func arrCompare(a, b any) int {
	ra, rb := arrRank(a), arrRank(b)
	if ra != rb {
		return ra - rb
	}
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case string:
		return strings.Compare(x, b.(string))
	case []any:
		y := b.([]any)
		for i := 0; i < len(x) && i < len(y); i++ {
			if d := arrCompare(x[i], y[i]); d != 0 {
				return d
			}
		}
		return len(x) - len(y)
	case nil:
		return 0
	}
	if ra == 2 {
		fa, _ := arrToRat(a)
		fb, _ := arrToRat(b)
		if fa != nil && fb != nil {
			return fa.Cmp(fb)
		}
	}
	return strings.Compare(arrKey(a), arrKey(b))
}

func arrEqual(a, b any) bool { return arrRank(a) == arrRank(b) && arrCompare(a, b) == 0 }

// arrKey is a canonical text for a value: equal values (1 and 1.0
// included) have equal keys.
func arrKey(v any) string {
	var b bytes.Buffer
	arrWriteKey(&b, v)
	return b.String()
}

func arrWriteKey(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case map[string]any:
		b.WriteByte('{')
		for i, k := range objSortedKeys(x) {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			arrWriteKey(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			arrWriteKey(b, e)
		}
		b.WriteByte(']')
	default:
		if r, ok := arrToRat(v); ok {
			b.WriteString(r.RatString())
			return
		}
		vb, _ := json.Marshal(v)
		b.Write(vb)
	}
}

// arrText renders a value for join and group_by: strings as they are,
// null as "", anything else as JSON.
func arrText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}
