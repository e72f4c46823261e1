package compat

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// This file holds what both strict modes refuse and what toolctl export
// --strict shares with the checks to decide it: the type a schema implies,
// whether a oneOf's alternatives exclude each other, and the merging of
// one-element allOfs and $refs with siblings that the transform does first.
//
//   - Every schema needs a type. OpenAI answers "In context=(...), schema
//     must have a 'type' key" (https://github.com/can1357/oh-my-pi/issues/211);
//     Anthropic's SDK refuses a schema without "a 'type', 'enum', 'anyOf',
//     'oneOf', or 'allOf' field" (anthropic-sdk-python
//     src/anthropic/lib/_parse/_transform.py). The transform adds the type a
//     schema implies (InferType), so only a schema that accepts any value
//     is refused.
//   - An OpenAI array needs items: "In context=(...), array schema missing
//     items" (https://github.com/sigoden/aichat/pull/1049), answered even
//     without strict mode.
//   - oneOf: "'oneOf' is not permitted" (OpenAI; Structured Outputs
//     "supports anyOf, not arbitrary JSON Schema composition",
//     https://github.com/openai/openai-node/pull/2602), and Anthropic lists
//     only anyOf and allOf. The transform turns a oneOf into anyOf where
//     both mean the same (Exclusive); any other oneOf is refused.

// strictNode reports the problems of one subschema that both strict modes
// share: no type, an overlapping oneOf and, for OpenAI, an array without
// items. The type and items checks look at the schema as the transform
// leaves it (merged); the schema a one-element allOf holds is merged into
// its parent, which is checked instead.
func strictNode(c *collector, provider string, n *node, root *spec.Map) {
	// The root is an object whatever it says: export --strict makes it one
	// and input-schema-not-object reports the rest.
	if !n.merged && n.kw != "" && !typed(merged(n.schema, root), provider) && !(provider == "OpenAI" && openAIRefusedBranch(n)) {
		c.at(n.ptr, "%s has no type, so it accepts any JSON value; %s strict mode needs a type on every schema: give it one (for free-form data, type: string holding JSON), or export without --strict", n.label(), provider)
	}
	if provider == "OpenAI" {
		checkItems(c, n, root)
	}
	if !n.merged && n.name != "" && freeForm(merged(n.schema, root)) {
		c.warn(n.ptr, "%s is an object without properties; in strict mode it can only be {}: declare its keys as properties, or set strict: false on the tool", n.label())
	}
	v, ok := n.schema.Get("oneOf")
	if !ok {
		return
	}
	ptr := n.ptr + "/oneOf"
	switch {
	case !Exclusive(asList(v), root):
		c.atKey(ptr, "%s uses oneOf whose alternatives may overlap; %s strict mode supports only anyOf: use anyOf if a value may match several, or make the alternatives exclusive (different types, or a property with a different const in each)", n.label(), provider)
	case n.schema.Has("anyOf"):
		c.atKey(ptr, "%s uses both oneOf and anyOf; %s strict mode supports only anyOf: combine them into one anyOf", n.label(), provider)
	}
}

// freeForm tells whether a schema is an object that declares no keys and
// allows no others (additionalProperties unset, which export --strict
// makes false, or false) and no patternProperties: strict mode then
// accepts only {} for it, so the free-form data it was meant for cannot
// be passed. An advisory problem: the provider takes the schema.
func freeForm(s *spec.Map) bool {
	if !slices.Contains(types(s), "object") || s.Has("patternProperties") {
		return false
	}
	if v, ok := s.Get("properties"); ok {
		props, isMap := v.(*spec.Map)
		if !isMap || props.Len() > 0 {
			return false
		}
	}
	ap, ok := s.Get("additionalProperties")
	return !ok || isFalse(ap)
}

// openAIRefusedBranch tells whether a node is reached through a keyword
// OpenAI strict mode refuses (not, if, ..., allOf of several schemas, the
// root's anyOf): the keyword's own problem says what to do, a missing type
// adds nothing.
func openAIRefusedBranch(n *node) bool {
	rootAnyOf := n.kw == "anyOf" && strings.Count(n.ptr, "/") == 2
	return slices.Contains(openAIUnsupported, n.kw) || n.kw == "allOf" && !n.merged || rootAnyOf
}

// ArraysWithoutItems reports the arrays of schema that have no items (rule
// openai-strict-schema): OpenAI refuses them with or without strict mode.
func ArraysWithoutItems(schema *spec.Map, bound map[string]bool) []Problem {
	c := &collector{rule: "openai-strict-schema"}
	walk(schema, bound, func(n *node) { checkItems(c, n, schema) })
	return c.out
}

// checkItems reports n when it is (merged) an array without items.
func checkItems(c *collector, n *node, root *spec.Map) {
	if view := merged(n.schema, root); !n.merged && slices.Contains(types(view), "array") && !view.Has("items") {
		c.at(n.ptr, "%s is an array without items, which OpenAI refuses even without strict mode (\"array schema missing items\"); add items, e.g. items: {type: string}", n.label())
	}
}

// typed tells whether a schema has a type for provider's strict mode: its
// own or one it implies, or alternatives, a reference or a not (refused on
// their own where unsupported), or an enum. For Anthropic a const counts as
// an enum: the transform turns it into one.
func typed(s *spec.Map, provider string) bool {
	for _, kw := range []string{"type", "anyOf", "$ref", "oneOf", "allOf", "not", "enum"} {
		if s.Has(kw) {
			return true
		}
	}
	return InferType(s) != nil || (provider == "Anthropic" && s.Has("const"))
}

// Types returns the types a schema names: its type or type list.
func Types(s *spec.Map) []string {
	v, _ := s.Get("type")
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

// types returns the types a schema names or, without a type, implies.
func types(s *spec.Map) []string {
	if s.Has("type") {
		return Types(s)
	}
	switch t := InferType(s).(type) {
	case string:
		return []string{t}
	case []any:
		out := make([]string, len(t))
		for i, x := range t {
			out[i], _ = x.(string)
		}
		return out
	}
	return nil
}

// InferType returns the type a schema without one implies (a string or a
// list of them), or nil: the kinds of its enum or const values, object for
// properties, array for items or prefixItems. A schema with a type,
// alternatives, a reference or an allOf implies none of its own.
func InferType(s *spec.Map) any {
	for _, kw := range []string{"type", "anyOf", "$ref", "oneOf", "allOf"} {
		if s.Has(kw) {
			return nil
		}
	}
	if vs, ok := values(s); ok && len(vs) > 0 {
		var kinds []any
		for _, v := range vs {
			k := spec.JSONType(v, spec.Int64Literal)
			if k == "" || k == "object" || k == "array" {
				return nil
			}
			if !slices.Contains(kinds, any(k)) {
				kinds = append(kinds, k)
			}
		}
		// 1 and 2.5 together are numbers.
		if slices.Contains(kinds, any("integer")) && slices.Contains(kinds, any("number")) {
			kinds = slices.DeleteFunc(kinds, func(k any) bool { return k == "integer" })
		}
		if len(kinds) == 1 {
			return kinds[0]
		}
		return kinds
	}
	switch {
	case s.Has("properties"):
		return "object"
	case s.Has("items") || s.Has("prefixItems"):
		return "array"
	}
	return nil
}

// values returns the literal values a schema allows through const or enum.
func values(s *spec.Map) ([]any, bool) {
	if c, ok := s.Get("const"); ok {
		return []any{c}, true
	}
	if e, ok := s.Get("enum"); ok {
		if list, ok := e.([]any); ok {
			return list, true
		}
	}
	return nil, false
}

// Exclusive tells whether no value can match two of a oneOf's
// alternatives, so that it means the same as an anyOf: their types (named
// or implied) are pairwise disjoint, or each is a const/enum with pairwise
// disjoint values, or each is an object requiring one common property
// whose const/enum values are pairwise disjoint. An alternative that is
// only a $ref is followed in root.
func Exclusive(list []any, root *spec.Map) bool {
	if len(list) < 2 {
		return len(list) == 1
	}
	alts := make([]*spec.Map, len(list))
	for i, x := range list {
		m, ok := x.(*spec.Map)
		if !ok {
			return false
		}
		if ref, ok := m.GetString("$ref"); ok && m.Len() == 1 {
			if m, ok = ResolveRef(root, ref); !ok {
				return false
			}
		}
		alts[i] = m
	}
	return disjointTypes(alts) || disjointValues(alts) || discriminated(alts)
}

func disjointTypes(alts []*spec.Map) bool {
	seen := map[string]bool{}
	for _, a := range alts {
		ts := types(a)
		if len(ts) == 0 {
			return false
		}
		for _, t := range ts {
			// integer values are numbers too
			if seen[t] || (t == "integer" && seen["number"]) || (t == "number" && seen["integer"]) {
				return false
			}
		}
		for _, t := range ts {
			seen[t] = true
		}
	}
	return true
}

func disjointValues(alts []*spec.Map) bool {
	seen := map[string]bool{}
	for _, a := range alts {
		vs, ok := values(a)
		if !ok {
			return false
		}
		keys := make([]string, len(vs))
		for i, v := range vs {
			keys[i] = valueKey(v)
			if seen[keys[i]] {
				return false
			}
		}
		for _, k := range keys {
			seen[k] = true
		}
	}
	return true
}

// valueKey identifies a JSON value for comparison.
func valueKey(v any) string {
	b, _ := json.Marshal(spec.Plain(v))
	return string(b)
}

// discriminated: every alternative requires a property of the same name
// whose allowed values differ from alternative to alternative.
func discriminated(alts []*spec.Map) bool {
	props0, ok := alts[0].GetMap("properties")
	if !ok {
		return false
	}
	for _, key := range props0.Keys() {
		var subs []*spec.Map
		for _, a := range alts {
			props, _ := a.GetMap("properties")
			p, ok := props.GetMap(key)
			if !ok || !requiredSet(a)[key] {
				break
			}
			subs = append(subs, p)
		}
		if len(subs) == len(alts) && disjointValues(subs) {
			return true
		}
	}
	return false
}

// ResolveRef follows a local reference (#, #/$defs/x) in root.
func ResolveRef(root *spec.Map, ref string) (*spec.Map, bool) {
	if ref != "#" && !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	var cur any = root
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

// maxMerge bounds Merge's repetitions ($refs that lead to each other).
const maxMerge = 64

// Merge does in place what export --strict does first to every subschema,
// as OpenAI's SDK does: a one-element allOf is merged into s (s's own keys
// win: a parameter's description over the shared definition's), and a
// local $ref with sibling keys is replaced by the schema it refers to in
// root merged with the siblings (the siblings win); repeated while either
// applies. moved, when set, is called for every key copied, with the
// pointer it came from: relative to s ("/allOf/0/type", local) or, for a
// reference, absolute in root ("/$defs/x/type").
func Merge(s, root *spec.Map, moved func(key, from string, local bool)) {
	for range maxMerge {
		if !flattenAllOf(s, moved) && !inlineRef(s, root, moved) {
			return
		}
	}
}

func flattenAllOf(s *spec.Map, moved func(key, from string, local bool)) bool {
	v, ok := s.Get("allOf")
	list, _ := v.([]any)
	if !ok || len(list) != 1 {
		return false
	}
	inner, ok := list[0].(*spec.Map)
	if !ok {
		return false
	}
	s.Delete("allOf")
	for i := range inner.Len() {
		k, iv := inner.At(i)
		if !s.Has(k) {
			s.Set(k, spec.CloneValue(iv))
			if moved != nil {
				moved(k, "/allOf/0/"+escape(k), true)
			}
		}
	}
	return true
}

func inlineRef(s, root *spec.Map, moved func(key, from string, local bool)) bool {
	ref, ok := s.GetString("$ref")
	if !ok || s.Len() < 2 {
		return false
	}
	target, ok := ResolveRef(root, ref)
	if !ok {
		return false // a reference that does not resolve stays (and is reported)
	}
	s.Delete("$ref")
	for i := range target.Len() {
		k, v := target.At(i)
		if !s.Has(k) && k != "$defs" && k != "definitions" {
			s.Set(k, spec.CloneValue(v))
			if moved != nil {
				moved(k, ref[1:]+"/"+escape(k), false)
			}
		}
	}
	return true
}

// merged returns s as Merge leaves it, without changing s.
func merged(s, root *spec.Map) *spec.Map {
	if !needsMerge(s) {
		return s
	}
	m := spec.NewMap(s.Len())
	for i := range s.Len() {
		k, v := s.At(i)
		m.Set(k, v)
	}
	Merge(m, root, nil)
	return m
}

func needsMerge(s *spec.Map) bool {
	if v, ok := s.Get("allOf"); ok && len(asList(v)) == 1 {
		return true
	}
	return s.Has("$ref") && s.Len() > 1
}
