package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/internal/jsonschema"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Diff is one difference between expected and the result.
type Diff struct {
	// Path is the JSON path of the value in the result ($ for the whole).
	Path string
	// Expected and Got are the values as JSON, "" when absent.
	Expected, Got string
	// Message says what differs when a value pair does not ("missing key").
	Message string
}

func (d Diff) String() string {
	switch {
	case d.Message != "" && d.Expected == "" && d.Got == "":
		return d.Path + ": " + d.Message
	case d.Message != "":
		return fmt.Sprintf("%s: %s\n    expected: %s\n    got:      %s", d.Path, d.Message, orNone(d.Expected), orNone(d.Got))
	}
	return fmt.Sprintf("%s:\n    expected: %s\n    got:      %s", d.Path, orNone(d.Expected), orNone(d.Got))
}

func orNone(s string) string {
	if s == "" {
		return "(nothing)"
	}
	return s
}

// Normalize turns a value (a spec value or a runner result) into plain
// JSON values: map[string]any, []any, string, bool, nil and json.Number,
// so values from YAML, JSON and executors compare alike.
func Normalize(v any) (any, error) {
	data, err := json.Marshal(spec.Plain(v))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// Compare compares a normalized result with a normalized expected value:
// a subset match unless exact (every key of an expected object is in the
// result with a matching value; arrays match element by element and have
// the same length; numbers match within tolerance; strings exactly).
func Compare(expected, got any, exact bool, tolerance float64) []Diff {
	var out []Diff
	c := comparer{exact: exact, tol: tolerance}
	c.compare("$", expected, got, &out)
	return out
}

// CompareTypes is match: types: keys as a subset match, every value
// compared by its JSON type only and arrays element by element as far as
// both go (expected holds illustrative values: a timestamp, a size).
func CompareTypes(expected, got any) []Diff {
	var out []Diff
	c := comparer{types: true}
	c.compare("$", expected, got, &out)
	return out
}

type comparer struct {
	exact, types bool
	tol          float64
}

func (c comparer) compare(path string, want, got any, out *[]Diff) {
	exact := c.exact
	if _, isMap := want.(map[string]any); c.types && !isMap {
		if _, isList := want.([]any); !isList {
			if kind(want) != kind(got) {
				*out = append(*out, Diff{Path: path, Expected: jsonText(want), Got: jsonText(got), Message: "expected " + kind(want) + ", got " + kind(got) + " (match: types)"})
			}
			return
		}
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, Diff{Path: path, Expected: jsonText(want), Got: jsonText(got), Message: "expected an object, got " + kind(got)})
			return
		}
		for _, k := range sortedKeys(w) {
			gv, ok := g[k]
			if !ok {
				*out = append(*out, Diff{Path: child(path, k), Expected: jsonText(w[k]), Message: "missing key"})
				continue
			}
			c.compare(child(path, k), w[k], gv, out)
		}
		if exact {
			for _, k := range sortedKeys(g) {
				if _, ok := w[k]; !ok {
					*out = append(*out, Diff{Path: child(path, k), Got: jsonText(g[k]), Message: "unexpected key (match: exact)"})
				}
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			*out = append(*out, Diff{Path: path, Expected: jsonText(want), Got: jsonText(got), Message: "expected an array, got " + kind(got)})
			return
		}
		for i := range w {
			p := path + "[" + strconv.Itoa(i) + "]"
			if i >= len(g) && c.types {
				break
			}
			if i >= len(g) {
				*out = append(*out, Diff{Path: p, Expected: jsonText(w[i]), Message: "missing element"})
				continue
			}
			c.compare(p, w[i], g[i], out)
		}
		for i := len(w); i < len(g) && !c.types; i++ {
			*out = append(*out, Diff{Path: path + "[" + strconv.Itoa(i) + "]", Got: jsonText(g[i]), Message: "unexpected element"})
		}
	case json.Number:
		g, ok := got.(json.Number)
		if !ok || !numbersMatch(w, g, c.tol) {
			d := Diff{Path: path, Expected: string(w), Got: jsonText(got)}
			if c.tol > 0 && ok {
				d.Message = "differs by more than the tolerance " + strconv.FormatFloat(c.tol, 'g', -1, 64)
			}
			*out = append(*out, d)
		}
	default:
		if jsonText(want) != jsonText(got) {
			*out = append(*out, Diff{Path: path, Expected: jsonText(want), Got: jsonText(got)})
		}
	}
}

// numbersMatch compares two JSON numbers exactly (as rationals: 1 and
// 1.0 match, 0.1+0.2 and 0.3 do not), or within tol when tol > 0.
func numbersMatch(a, b json.Number, tol float64) bool {
	if tol > 0 {
		fa, errA := a.Float64()
		fb, errB := b.Float64()
		return errA == nil && errB == nil && math.Abs(fa-fb) <= tol
	}
	// Beyond jsonschema.ExactNumber's bounds (a server's 1e999999, or a million
	// digits: seconds of CPU each) a number matches only as written.
	ra, okA := jsonschema.ExactNumber(string(a))
	rb, okB := jsonschema.ExactNumber(string(b))
	if !okA || !okB {
		return a == b
	}
	return ra.Cmp(rb) == 0
}

func child(path, key string) string {
	if isIdent(key) {
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

// jsonText is v as compact JSON, shortened past 200 characters.
func jsonText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	s := strings.TrimSpace(buf.String())
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return s
}

// asText is the result as text for contains and pattern: a string as it
// is, anything else as compact JSON.
func asText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(buf.String())
}
