package breaking

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Schema is a JSON Schema in canonical form: local $refs resolved (a
// reference met again inside itself stays a reference), equivalent
// spellings made one (type: [T, null], nullable: true and anyOf [T,
// {type: null}]; a one-type list and its type; integer beside number;
// const and a one-value enum keep their own keyword; a one-element allOf
// merged; draft-4 boolean exclusiveMinimum/Maximum), required sorted.
// Ptr is where the schema is written, as a canonical JSON pointer of the
// tool (/input_schema/properties/q, /input_schema/$defs/addr), for
// positions.
type Schema struct {
	Ptr string
	// Types is the sorted set of types; nil accepts every type.
	Types []string
	// Props are the properties by name; Order their names as written.
	Props    map[string]*Schema
	Order    []string
	Required []string
	// Additional is additionalProperties: nil when absent, Closed for
	// false.
	Additional *Schema
	Closed     bool
	Items      *Schema
	Prefix     []*Schema
	AnyOf      []*Schema
	OneOf      []*Schema
	AllOf      []*Schema
	// Enum is nil when absent; numbers are canonical (canonNumber).
	Enum     []any
	HasConst bool
	Const    any
	// Bounds holds the numeric keywords (minimum, maxLength, ...).
	Bounds  map[string]*big.Rat
	Pattern string
	Format  string
	// Other keeps every other validation keyword (not, if, uniqueItems,
	// dependentRequired, patternProperties, ...) as canonical JSON.
	Other map[string]string

	HasDefault  bool
	Default     any
	Description string
	Title       string
	Examples    []any
	// Ref is set on a reference left unresolved: a cycle, a reference
	// that does not resolve, or the expansion budget spent.
	Ref string
}

// boundKeys are the numeric keywords Schema.Bounds holds, in the order
// findings list them.
var boundKeys = []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains"}

// annotationKeys are read into Schema's own fields or carry no meaning
// for a call.
var ignoredKeys = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "$anchor": true, "$defs": true, "definitions": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "contentMediaType": true, "contentEncoding": true,
	"nullable": true, "x-order": true,
}

// Limits of the expansion of references: a schema whose $refs multiply
// (a → [b, b], b → [c, c], ...) stops being expanded, and its remaining
// references compare by their target.
const (
	maxDepth = 64
	maxNodes = 20000
)

type normaliser struct {
	root  *spec.Map
	base  string // the pointer of root in the tool
	stack []string
	nodes int
}

// Normalise returns the canonical form of schema, written at base in its
// tool (/input_schema, /output_schema); local references resolve against
// schema. Nil is nil.
func Normalise(schema *spec.Map, base string) *Schema {
	if schema == nil {
		return nil
	}
	n := &normaliser{root: schema, base: base}
	return n.schema(schema, base, 0)
}

func (n *normaliser) schema(m *spec.Map, ptr string, depth int) *Schema {
	n.nodes++
	s := &Schema{Ptr: ptr}
	if m == nil {
		return s
	}
	if depth > maxDepth || n.nodes > maxNodes {
		s.Ref = "#" + strings.TrimPrefix(ptr, n.base)
		return s
	}
	if ref, ok := m.GetString("$ref"); ok {
		target, ok := n.resolve(ref)
		if !ok || slices.Contains(n.stack, ref) || n.nodes > maxNodes {
			s.Ref = ref
			n.readSiblings(s, m, ptr, depth)
			return s
		}
		n.stack = append(n.stack, ref)
		resolved := n.schema(target, n.base+strings.TrimPrefix(ref, "#"), depth+1)
		n.stack = n.stack[:len(n.stack)-1]
		if m.Len() == 1 {
			return resolved
		}
		// $ref beside other keywords: both apply (2020-12); the siblings
		// are read over the target as OpenAI's SDK inlines them.
		sib := m.Clone()
		sib.Delete("$ref")
		over := n.schema(sib, ptr, depth)
		merged := mergeSchemas(resolved, over)
		if v, _ := m.Get("nullable"); v == true {
			merged.addNull() // the siblings' nullable is about the target's type
		}
		return merged
	}
	n.readSiblings(s, m, ptr, depth)
	return s.simplify()
}

func (n *normaliser) resolve(ref string) (*spec.Map, bool) {
	if ref != "#" && !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	var cur any = n.root
	for _, tok := range spec.SplitPointer(strings.TrimPrefix(ref, "#")) {
		switch c := cur.(type) {
		case *spec.Map:
			v, ok := c.Get(tok)
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	m, ok := cur.(*spec.Map)
	return m, ok
}

// sub is the canonical form of a subschema value: a map, or true/false.
func (n *normaliser) sub(v any, ptr string, depth int) *Schema {
	switch v := v.(type) {
	case *spec.Map:
		return n.schema(v, ptr, depth+1)
	case bool:
		if !v {
			return &Schema{Ptr: ptr, Enum: []any{}} // accepts nothing
		}
	}
	return &Schema{Ptr: ptr}
}

func (n *normaliser) list(v any, ptr string, depth int) []*Schema {
	l, _ := v.([]any)
	out := make([]*Schema, 0, len(l))
	for i, x := range l {
		out = append(out, n.sub(x, ptr+"/"+strconv.Itoa(i), depth))
	}
	return out
}

func (n *normaliser) readSiblings(s *Schema, m *spec.Map, ptr string, depth int) {
	nullable := false
	for i := range m.Len() {
		k, v := m.At(i)
		kp := ptr + "/" + escape(k)
		switch k {
		case "$ref":
		case "type":
			s.Types = typeSet(v)
		case "nullable":
			nullable, _ = v.(bool)
		case "properties":
			pm, _ := v.(*spec.Map)
			if pm == nil || pm.Len() == 0 {
				continue // properties: {} says nothing
			}
			s.Props = make(map[string]*Schema, pm.Len())
			for j := range pm.Len() {
				name, ps := pm.At(j)
				s.Props[name] = n.sub(ps, kp+"/"+escape(name), depth)
				s.Order = append(s.Order, name)
			}
		case "required":
			if l, ok := v.([]any); ok {
				for _, x := range l {
					if str, ok := x.(string); ok && !slices.Contains(s.Required, str) {
						s.Required = append(s.Required, str)
					}
				}
				slices.Sort(s.Required)
			}
		case "additionalProperties":
			if b, ok := v.(bool); ok {
				s.Closed = !b
			} else {
				s.Additional = n.sub(v, kp, depth)
			}
		case "items":
			if l, ok := v.([]any); ok { // draft 4-7 tuple form
				s.Prefix = n.list(l, kp, depth)
			} else {
				s.Items = n.sub(v, kp, depth)
			}
		case "prefixItems":
			s.Prefix = n.list(v, kp, depth)
		case "anyOf":
			s.AnyOf = n.list(v, kp, depth)
		case "oneOf":
			s.OneOf = n.list(v, kp, depth)
		case "allOf":
			s.AllOf = n.list(v, kp, depth)
		case "enum":
			l, _ := v.([]any)
			s.Enum = make([]any, 0, len(l))
			for _, x := range l {
				s.Enum = append(s.Enum, canonValue(x))
			}
		case "const":
			s.HasConst, s.Const = true, canonValue(v)
		case "pattern":
			s.Pattern, _ = v.(string)
		case "format":
			s.Format, _ = v.(string)
		case "default":
			s.HasDefault, s.Default = true, canonValue(v)
		case "description":
			s.Description, _ = v.(string)
		case "title":
			s.Title, _ = v.(string)
		case "examples":
			if l, ok := v.([]any); ok {
				for _, x := range l {
					s.Examples = append(s.Examples, canonValue(x))
				}
			}
		case "exclusiveMinimum", "exclusiveMaximum":
			if b, ok := v.(bool); ok { // draft 4: a flag on minimum/maximum
				if b {
					other := "minimum"
					if k == "exclusiveMaximum" {
						other = "maximum"
					}
					if x, ok := m.Get(other); ok {
						if r, ok := toRat(x); ok {
							s.setBound(k, r)
							defer delete(s.Bounds, other)
						}
					}
				}
				continue
			}
			fallthrough
		default:
			if slices.Contains(boundKeys, k) {
				if r, ok := toRat(v); ok {
					s.setBound(k, r)
				}
				continue
			}
			if ignoredKeys[k] || strings.HasPrefix(k, "x-") {
				continue
			}
			if k == "uniqueItems" && v == false {
				continue
			}
			if s.Other == nil {
				s.Other = map[string]string{}
			}
			s.Other[k] = canonJSON(v)
		}
	}
	if nullable {
		s.addNull()
	}
}

func (s *Schema) setBound(k string, r *big.Rat) {
	if s.Bounds == nil {
		s.Bounds = map[string]*big.Rat{}
	}
	s.Bounds[k] = r
}

// addNull makes s accept null too.
func (s *Schema) addNull() {
	if s.Types != nil && !slices.Contains(s.Types, "null") {
		s.Types = sortTypes(append(s.Types, "null"))
	}
	if s.HasConst {
		s.Enum, s.HasConst, s.Const = []any{s.Const}, false, nil
	}
	if s.Enum != nil && !slices.ContainsFunc(s.Enum, func(v any) bool { return v == nil }) {
		s.Enum = append(s.Enum, nil)
	}
}

// simplify merges a one-element allOf, turns anyOf/oneOf [X, {type:
// null}] into X accepting null and an anyOf of bare types into a type
// list.
func (s *Schema) simplify() *Schema {
	if len(s.AllOf) == 1 && s.AllOf[0].Ref == "" {
		one := s.AllOf[0]
		s.AllOf = nil
		s = mergeSchemas(one, s)
	}
	for _, alts := range []*[]*Schema{&s.AnyOf, &s.OneOf} {
		if len(*alts) == 0 || s.Types != nil || s.Enum != nil || s.HasConst {
			continue
		}
		var rest []*Schema
		null := false
		for _, b := range *alts {
			if b.isBareType("null") {
				null = true
				continue
			}
			rest = append(rest, b)
		}
		if null && len(rest) == 1 && len(rest[0].AnyOf) == 0 && len(rest[0].OneOf) == 0 {
			*alts = nil
			merged := mergeSchemas(rest[0], s)
			merged.Ptr = s.Ptr
			if merged.Types != nil {
				merged.addNull()
			} else if merged.Enum != nil || merged.HasConst {
				merged.addNull()
			}
			s = merged
			continue
		}
		bare := true
		var types []string
		for _, b := range *alts {
			if len(b.Types) == 0 || !b.isBareType(b.Types...) {
				bare = false
				break
			}
			types = append(types, b.Types...)
		}
		if bare {
			*alts = nil
			s.Types = sortTypes(types)
		}
	}
	return s
}

// isBareType reports whether s is {type: ts} and nothing but annotations.
func (s *Schema) isBareType(ts ...string) bool {
	if !slices.Equal(s.Types, sortTypes(slices.Clone(ts))) {
		return false
	}
	c := *s
	c.Types, c.Ptr, c.Description, c.Title, c.Examples, c.HasDefault, c.Default = nil, "", "", "", nil, false, nil
	return isEmpty(&c)
}

func isEmpty(s *Schema) bool {
	return s.Types == nil && s.Props == nil && s.Required == nil && s.Additional == nil && !s.Closed &&
		s.Items == nil && s.Prefix == nil && s.AnyOf == nil && s.OneOf == nil && s.AllOf == nil &&
		s.Enum == nil && !s.HasConst && s.Bounds == nil && s.Pattern == "" && s.Format == "" &&
		s.Other == nil && s.Ref == "" && !s.HasDefault && s.Description == "" && s.Title == "" && s.Examples == nil
}

// mergeSchemas returns base with over's keywords laid over it (over's
// win; properties and required are united).
func mergeSchemas(base, over *Schema) *Schema {
	out := *base
	out.Ptr = over.Ptr
	if over.Types != nil {
		out.Types = over.Types
	}
	if over.Props != nil {
		props := make(map[string]*Schema, len(base.Props)+len(over.Props))
		order := slices.Clone(base.Order)
		for k, v := range base.Props {
			props[k] = v
		}
		for _, k := range over.Order {
			if _, ok := props[k]; !ok {
				order = append(order, k)
			}
			props[k] = over.Props[k]
		}
		out.Props, out.Order = props, order
	}
	if over.Required != nil {
		req := slices.Clone(base.Required)
		for _, r := range over.Required {
			if !slices.Contains(req, r) {
				req = append(req, r)
			}
		}
		slices.Sort(req)
		out.Required = req
	}
	if over.Additional != nil || over.Closed {
		out.Additional, out.Closed = over.Additional, over.Closed
	}
	if over.Items != nil {
		out.Items = over.Items
	}
	if over.Prefix != nil {
		out.Prefix = over.Prefix
	}
	if over.AnyOf != nil {
		out.AnyOf = over.AnyOf
	}
	if over.OneOf != nil {
		out.OneOf = over.OneOf
	}
	if over.AllOf != nil {
		out.AllOf = over.AllOf
	}
	if over.Enum != nil {
		out.Enum = over.Enum
	}
	if over.HasConst {
		out.HasConst, out.Const = true, over.Const
	}
	if over.Bounds != nil {
		b := make(map[string]*big.Rat, len(base.Bounds)+len(over.Bounds))
		for k, v := range base.Bounds {
			b[k] = v
		}
		for k, v := range over.Bounds {
			b[k] = v
		}
		out.Bounds = b
	}
	if over.Pattern != "" {
		out.Pattern = over.Pattern
	}
	if over.Format != "" {
		out.Format = over.Format
	}
	if over.Other != nil {
		o := make(map[string]string, len(base.Other)+len(over.Other))
		for k, v := range base.Other {
			o[k] = v
		}
		for k, v := range over.Other {
			o[k] = v
		}
		out.Other = o
	}
	if over.HasDefault {
		out.HasDefault, out.Default = true, over.Default
	}
	if over.Description != "" {
		out.Description = over.Description
	}
	if over.Title != "" {
		out.Title = over.Title
	}
	if over.Examples != nil {
		out.Examples = over.Examples
	}
	if over.Ref != "" {
		out.Ref = over.Ref
	}
	return &out
}

// typeSet reads type: a name or a list, as a sorted set; integer goes
// when number is there (number accepts every integer).
func typeSet(v any) []string {
	var out []string
	switch t := v.(type) {
	case string:
		out = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	default:
		return nil
	}
	return sortTypes(out)
}

func sortTypes(ts []string) []string {
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		if t == "any" { // Feagent's any
			return nil
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if slices.Contains(out, "number") {
		out = slices.DeleteFunc(out, func(t string) bool { return t == "integer" })
	}
	slices.Sort(out)
	return out
}

// accepts reports whether a type set accepts values of type t.
func accepts(types []string, t string) bool {
	return types == nil || slices.Contains(types, t) || (t == "integer" && slices.Contains(types, "number"))
}

func toRat(v any) (*big.Rat, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = string(x)
	case float64:
		s = strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		s = strconv.Itoa(x)
	case int64:
		s = strconv.FormatInt(x, 10)
	default:
		return nil, false
	}
	if !plainNumber(s) {
		// An exponent or a mantissa beyond what any real bound needs
		// would cost big.Rat seconds and megabytes (1e999999): such
		// numbers are compared as float64, and dropped when infinite.
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(f), true
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// plainNumber reports whether a JSON number is short (at most 64
// characters) with an exponent of at most 3 digits.
func plainNumber(s string) bool {
	if len(s) > 64 {
		return false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp := strings.TrimLeft(s[i+1:], "+-")
		return len(strings.TrimLeft(exp, "0")) <= 3
	}
	return true
}

// canonValue makes equal JSON values equal Go values: numbers become
// json.Number in their shortest exact form (1, 1.0 and 1e0 are "1"),
// maps spec.Map with sorted keys.
func canonValue(v any) any {
	switch x := v.(type) {
	case *spec.Map:
		keys := x.Keys()
		slices.Sort(keys)
		out := spec.NewMap(len(keys))
		for _, k := range keys {
			val, _ := x.Get(k)
			out.Set(k, canonValue(val))
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = canonValue(e)
		}
		return out
	case json.Number, float64, int, int64:
		if r, ok := toRat(x); ok {
			return json.Number(ratString(r))
		}
	}
	return v
}

// ratString writes r as a JSON number: an integer, or a decimal when r has
// a finite one, else a float's shortest form.
func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	if n, exact := r.FloatPrec(); exact {
		return strings.TrimRight(r.FloatString(n), "0")
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// canonJSON is the canonical JSON of a value: sorted keys, canonical
// numbers, no HTML escaping.
func canonJSON(v any) string {
	var b strings.Builder
	writeJSON(&b, canonValue(v))
	return b.String()
}

func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}
