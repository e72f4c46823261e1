package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

// The strict transforms rewrite a copy of an input schema (bound parameters
// already removed) into the subset a provider's strict mode accepts, then
// compat.SchemaProblems — the same checks as toolctl lint --target — reports
// what is left; anything left refuses the tool.
//
// OpenAI (strict: true on a function; the subset is Structured Outputs'
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas):
//
//   - "additionalProperties: false must always be set in objects": added to
//     every object that does not set it (an explicit other value is left
//     for compat to refuse: a free-form map cannot be expressed);
//   - "all fields or function parameters must be specified as required":
//     every property goes into required; an optional one becomes nullable
//     ("emulate an optional parameter ... by using a union type with null"),
//     as type [T, "null"] for a plain primitive and as anyOf [schema,
//     {type: null}] for anything else (objects, arrays, enums, consts,
//     $refs, anyOf gets a null branch);
//   - default: with every key required a default can never apply, and some
//     OpenAI-compatible endpoints refuse it ("'default' is not permitted",
//     https://github.com/dotnet/extensions/issues/6196), so every default is
//     dropped and a parameter's default is noted in its description
//     ("Default: 30."); OpenAI's SDK drops default: null for the same reason
//     (openai-python src/openai/lib/_pydantic.py, _ensure_strict_json_schema);
//   - as in that SDK: a one-element allOf is flattened into its schema, and a
//     $ref with sibling keys is replaced by the referenced schema merged with
//     the siblings (the siblings win);
//   - "'oneOf' is not permitted": a oneOf becomes anyOf when its
//     alternatives provably exclude each other (compat.Exclusive), where
//     both mean the same;
//   - every schema needs a type: the type a schema implies is added
//     (compat.InferType: enum/const values, properties → object, items →
//     array);
//   - an array without items is refused even without strict, so
//     non-strict exports warn (compat.ArraysWithoutItems);
//   - a format outside the supported list (date-time, time, date, duration,
//     email, hostname, ipv4, ipv6, uuid) is moved into the description.
//
// Anthropic (strict: true, https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use;
// limitations in https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations):
//
//   - additionalProperties: false on every object, as for OpenAI;
//   - optional parameters stay optional (strict tool use allows them);
//   - default is not among the supported keywords (the SDK moves it into
//     the description too): a parameter's default is noted there, as for
//     OpenAI; const becomes a one-value enum ("enum (strings, numbers,
//     bools, or nulls only)" is supported);
//   - every schema needs a type, enum or anyOf: the implied type is added,
//     as for OpenAI;
//   - what the grammar cannot enforce — numeric constraints (minimum,
//     maximum, exclusiveMinimum, exclusiveMaximum, multipleOf), minLength,
//     maxLength, array constraints beyond minItems 0 or 1 and formats outside
//     the supported list — is moved into the description, as Anthropic's SDK
//     does (anthropic-sdk-python src/anthropic/lib/_parse/_transform.py,
//     transform_schema); minItems above 1 becomes 1 plus the note;
//   - oneOf becomes anyOf under the same condition as for OpenAI.
//
// What stays (no type, overlapping oneOf, recursion, complex enums,
// lookaround patterns, external refs, additionalProperties other than
// false, not/if/then/else, ...) is refused by compat — the checks lint
// --target runs on the source — with the path of the offending keyword,
// mapped back to the source (moves).

// strictKind selects a provider's transform.
type strictKind int

const (
	strictOpenAI strictKind = iota
	strictAnthropic
)

// maxTransformDepth bounds the walk over pathological schemas (and $ref
// chains inlined into each other).
const maxTransformDepth = 64

// maxTransformNodes bounds the schemas one transform visits. Inlining a
// $ref copies its target at every use, so definitions that each use the
// next twice grow the schema exponentially (40 of them in a 3 KB file make
// 2^40 schemas); the largest corpus schema needs 68. A schema that passes
// it is refused (maxNodesProblem) instead of filling the memory.
const maxTransformNodes = 20000

// transformer holds one schema's transform.
type transformer struct {
	kind strictKind
	// orig is the schema before the transform: $refs resolve against it.
	orig *spec.Map
	// moved lists what went into descriptions, for one warning per tool,
	// and movedAt the source place of each (lint reports each there).
	moved   []string
	movedAt []Place
	// wrapped holds the pointers of properties wrapped in anyOf [schema,
	// {type: null}], to point $refs into them.
	wrapped []string
	// moves records, in order, every place the transform put source
	// content at another pointer, so that problems found in the output
	// point at the source.
	moves []move
	// nodes counts the schemas visited; over is set, and the walk stops,
	// past maxTransformNodes. deep is set where the walk stops at
	// maxTransformDepth, leaving what is deeper untransformed.
	nodes int
	over  bool
	deep  bool
}

// move is content of the source at from that the output holds at to.
// final marks a from that is a source pointer already (content copied
// from a $ref's target in the source).
type move struct {
	to, from string
	final    bool
}

// strictSchema transforms a copy of schema for kind. It returns the new
// schema and the transformer, which holds the notes for a warning and maps
// output pointers back to the source.
func strictSchema(kind strictKind, schema *spec.Map) (*spec.Map, *transformer) {
	tr := &transformer{kind: kind, orig: schema}
	s := schema.Clone()
	if !s.Has("type") && !s.Has("anyOf") && !s.Has("$ref") {
		// The root of an input schema is an object (SDK style may omit it).
		s.SetFirst("type", "object")
	}
	tr.node(s, "", "", 0)
	if tr.over {
		return s, tr
	}
	if len(tr.wrapped) > 0 {
		tr.rewriteRefs(s, 0)
	}
	return s, tr
}

// rewriteRefs points local $refs that go through a property wrapped in
// anyOf [schema, {type: null}] at the schema's new place inside it
// (#/properties/a/items becomes #/properties/a/anyOf/0/items).
func (tr *transformer) rewriteRefs(v any, depth int) {
	if depth > 2*maxTransformDepth {
		return
	}
	switch v := v.(type) {
	case *spec.Map:
		for i := range v.Len() {
			k, cv := v.At(i)
			if ref, ok := cv.(string); ok && k == "$ref" && strings.HasPrefix(ref, "#/") {
				v.Set(k, "#"+tr.outputPointer(ref[1:]))
				continue
			}
			tr.rewriteRefs(cv, depth+1)
		}
	case []any:
		for _, x := range v {
			tr.rewriteRefs(x, depth+1)
		}
	}
}

// outputPointer maps a source pointer to the transformed schema: the
// innermost wrapped property first, so that outer insertions do not move
// the inner ones' prefixes.
func (tr *transformer) outputPointer(ptr string) string {
	ws := slices.Clone(tr.wrapped)
	slices.SortStableFunc(ws, func(a, b string) int { return len(b) - len(a) })
	for _, w := range ws {
		if rest, ok := strings.CutPrefix(ptr, w); ok && (rest == "" || rest[0] == '/') {
			ptr = w + "/anyOf/0" + rest
		}
	}
	return ptr
}

// sourcePointer maps a pointer into the transformed schema back to the
// source: the moves latest first, since each was recorded in the
// coordinates the earlier ones left (a property wrapped after its
// subschemas were merged, a oneOf renamed after its alternatives). copied
// tells the pointer was in a copy of a $ref's target.
func (tr *transformer) sourcePointer(ptr string) (_ string, copied bool) {
	for i := len(tr.moves) - 1; i >= 0; i-- {
		m := tr.moves[i]
		if rest, ok := strings.CutPrefix(ptr, m.to); ok && (rest == "" || rest[0] == '/') {
			ptr = m.from + rest
			if m.final {
				return ptr, true
			}
		}
	}
	return ptr, false
}

func (tr *transformer) record(to, from string, final bool) {
	tr.moves = append(tr.moves, move{to, from, final})
}

// label names the schema at ptr in a message, like compat does.
func label(name string) string {
	if name == "" {
		return "the input schema"
	}
	return fmt.Sprintf("parameter %q", name)
}

// node transforms s in place. ptr is its pointer from the root and name
// the dotted parameter path it describes.
func (tr *transformer) node(s *spec.Map, ptr, name string, depth int) {
	if depth > maxTransformDepth {
		tr.deep = true
		return
	}
	if tr.over {
		return
	}
	if tr.nodes++; tr.nodes > maxTransformNodes {
		tr.over = true
		return
	}
	compat.Merge(s, tr.orig, func(key, from string, local bool) {
		if local {
			from = ptr + from
		}
		tr.record(ptr+"/"+spec.Pointer(key)[1:], from, !local)
	})
	inferType(s)
	tr.fold(s, ptr, name)
	s.Delete("default") // noted in the description by object
	if c, ok := s.Get("const"); ok && tr.kind == strictAnthropic && !s.Has("enum") {
		// Anthropic lists enum, not const, among what it supports.
		s.Set("enum", []any{c})
		s.Delete("const")
		tr.record(ptr+"/enum", ptr+"/const", false)
		tr.record(ptr+"/enum/0", ptr+"/const", false)
	}
	if isObject(s) {
		tr.object(s, ptr, name, depth)
	}
	// Everything else that holds subschemas.
	for i := range s.Len() {
		kw, v := s.At(i)
		switch kw {
		case "properties":
			// done by object
		case "items", "additionalItems", "contains", "not", "if", "then", "else", "unevaluatedItems", "propertyNames":
			if m, ok := v.(*spec.Map); ok {
				tr.node(m, ptr+"/"+kw, itemName(name, kw), depth+1)
			}
			if kw == "items" {
				tr.list(v, ptr+"/items", name+"[]", depth)
			}
		case "additionalProperties", "unevaluatedProperties":
			if m, ok := v.(*spec.Map); ok {
				tr.node(m, ptr+"/"+kw, name, depth+1)
			}
		case "anyOf", "allOf", "oneOf", "prefixItems":
			tr.list(v, ptr+"/"+kw, name, depth)
		case "$defs", "definitions", "patternProperties", "dependentSchemas":
			if m, ok := v.(*spec.Map); ok {
				for j := range m.Len() {
					k, dv := m.At(j)
					if dm, ok := dv.(*spec.Map); ok {
						n := name
						if kw == "$defs" || kw == "definitions" {
							n = k
						}
						tr.node(dm, ptr+"/"+kw+"/"+spec.Pointer(k)[1:], n, depth+1)
					}
				}
			}
		}
	}
	// Last, so that the alternatives are judged as exported: compat judges
	// the output alike.
	tr.oneOf(s, ptr)
}

func itemName(name, kw string) string {
	if kw == "items" {
		return name + "[]"
	}
	return name
}

func (tr *transformer) list(v any, ptr, name string, depth int) {
	list, ok := v.([]any)
	if !ok {
		return
	}
	for j, x := range list {
		if m, ok := x.(*spec.Map); ok {
			tr.node(m, ptr+"/"+strconv.Itoa(j), name, depth+1)
		}
	}
}

// object makes an object schema strict: additionalProperties false,
// properties transformed; for OpenAI every property required, optional
// ones nullable, defaults noted in descriptions.
func (tr *transformer) object(s *spec.Map, ptr, name string, depth int) {
	if !s.Has("additionalProperties") {
		s.Set("additionalProperties", false)
	}
	props, ok := s.GetMap("properties")
	if !ok && tr.kind == strictOpenAI {
		if s.Has("properties") {
			return // not an object: compat and the schema linter say so
		}
		props = spec.NewMap(0)
		s.Set("properties", props)
	}
	required := requiredSet(s)
	for j := range props.Len() {
		key, v := props.At(j)
		child, ok := v.(*spec.Map)
		if !ok {
			continue
		}
		cptr := ptr + "/properties/" + spec.Pointer(key)[1:]
		cname := key
		if name != "" {
			cname = name + "." + key
		}
		def, hasDef := child.Get("default")
		tr.node(child, cptr, cname, depth+1)
		if hasDef && def != nil {
			noteDescription(child, "Default: "+compactJSON(def)+".")
		}
		if tr.kind != strictOpenAI {
			continue
		}
		if !required[key] {
			n := nullable(child)
			if n != child {
				tr.wrapped = append(tr.wrapped, cptr)
				tr.record(cptr+"/anyOf/0", cptr, false)
			}
			props.Set(key, n)
		}
	}
	if tr.kind == strictOpenAI {
		all := make([]any, props.Len())
		for j := range props.Len() {
			all[j], _ = props.At(j)
		}
		s.Set("required", all)
	}
}

// oneOf renames oneOf to anyOf (in place) when the alternatives exclude
// each other; compat refuses any other oneOf.
func (tr *transformer) oneOf(s *spec.Map, ptr string) {
	v, ok := s.Get("oneOf")
	if !ok || s.Has("anyOf") || !compat.Exclusive(asList(v), tr.orig) {
		return
	}
	renameKey(s, "oneOf", "anyOf")
	tr.record(ptr+"/anyOf", ptr+"/oneOf", false)
}

// renameKey renames a key in place, keeping its position.
func renameKey(s *spec.Map, from, to string) {
	m := spec.NewMap(s.Len())
	for i := range s.Len() {
		k, v := s.At(i)
		if k == from {
			k = to
		}
		m.Set(k, v)
	}
	*s = *m
}

// inferType adds the type a schema implies (compat.InferType).
func inferType(s *spec.Map) {
	if t := compat.InferType(s); t != nil {
		s.SetFirst("type", t)
	}
}

func isObject(s *spec.Map) bool {
	return slices.Contains(compat.Types(s), "object") || (!s.Has("type") && s.Has("properties"))
}

// fold moves what the provider's grammar cannot enforce into the
// description: "(format: uri)", "(minimum: 1, maximum: 300)". ptr is s's
// pointer, for the source place of each keyword moved.
func (tr *transformer) fold(s *spec.Map, ptr, name string) {
	var parts []string
	// key: lint (compat) reports the keyword at its key rather than its
	// value.
	move := func(kw string, key bool) {
		v, _ := s.Get(kw)
		parts = append(parts, kw+": "+noteValue(v))
		s.Delete(kw)
		tr.moved = append(tr.moved, fmt.Sprintf("%s of %s", kw, label(name)))
		// The moves recorded so far are those that lead here.
		src, _ := tr.sourcePointer(ptr + "/" + spec.Pointer(kw)[1:])
		tr.movedAt = append(tr.movedAt, Place{Pointer: "/input_schema" + src, Key: key})
	}
	formats := compat.OpenAIFormats
	if tr.kind == strictAnthropic {
		formats = compat.AnthropicFormats
		for _, kw := range slices.Clone(s.Keys()) {
			if slices.Contains(compat.AnthropicUnenforced, kw) {
				move(kw, true)
			}
		}
		if n, ok := s.Get("minItems"); ok {
			if num, ok := n.(json.Number); ok && num != "0" && num != "1" {
				move("minItems", false)
				s.Set("minItems", json.Number("1"))
			}
		}
	}
	if f, ok := s.GetString("format"); ok && !slices.Contains(formats, f) {
		move("format", false)
	}
	if len(parts) > 0 {
		noteDescription(s, "("+strings.Join(parts, ", ")+")")
	}
}

// noteDescription appends a sentence to a schema's description.
func noteDescription(s *spec.Map, note string) {
	d, _ := s.GetString("description")
	d = strings.TrimRight(d, " \t\n")
	if d == "" {
		s.Set("description", note)
		return
	}
	s.Set("description", d+" "+note)
}

// nullable returns s accepting null too: a primitive type gets "null" in a
// type list; an anyOf gets a {type: null} alternative; anything else is
// wrapped as {description, anyOf: [s, {type: null}]}.
func nullable(s *spec.Map) *spec.Map {
	if acceptsNull(s) {
		return s
	}
	simple := !s.Has("enum") && !s.Has("const") && !s.Has("anyOf") && !s.Has("$ref")
	ts := compat.Types(s)
	if simple && len(ts) > 0 && !slices.Contains(ts, "object") && !slices.Contains(ts, "array") {
		list := make([]any, 0, len(ts)+1)
		for _, t := range ts {
			list = append(list, t)
		}
		s.Set("type", append(list, "null"))
		return s
	}
	nullAlt := spec.NewMap(1)
	nullAlt.Set("type", "null")
	if alts, ok := s.Get("anyOf"); ok && s.Len() <= 3 && !s.Has("type") {
		if list, ok := alts.([]any); ok {
			onlyDoc := true
			for _, k := range s.Keys() {
				if k != "anyOf" && k != "description" && k != "title" {
					onlyDoc = false
				}
			}
			if onlyDoc {
				s.Set("anyOf", append(slices.Clone(list), nullAlt))
				return s
			}
		}
	}
	outer := spec.NewMap(3)
	inner := spec.NewMap(s.Len())
	for i := range s.Len() {
		k, v := s.At(i)
		if k == "description" || k == "title" {
			outer.Set(k, v)
			continue
		}
		inner.Set(k, v)
	}
	outer.Set("anyOf", []any{inner, nullAlt})
	return outer
}

// acceptsNull tells whether null is already one of a schema's values.
func acceptsNull(s *spec.Map) bool {
	if slices.Contains(compat.Types(s), "null") {
		return true
	}
	if alts, ok := s.Get("anyOf"); ok {
		for _, a := range asList(alts) {
			if m, ok := a.(*spec.Map); ok && m.Len() == 1 && slices.Contains(compat.Types(m), "null") {
				return true
			}
		}
	}
	return false
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func requiredSet(s *spec.Map) map[string]bool {
	out := map[string]bool{}
	v, _ := s.Get("required")
	for _, x := range asList(v) {
		if k, ok := x.(string); ok {
			out[k] = true
		}
	}
	return out
}

func isFalse(v any) bool {
	b, ok := v.(bool)
	return ok && !b
}

// noteValue renders a keyword's value in a description: strings as they
// are (format: uri), anything else as JSON.
func noteValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return compactJSON(v)
}

// compactJSON renders a value as one-line JSON for a description.
func compactJSON(v any) string {
	b, err := spec.MarshalJSONIndent(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return strings.TrimSpace(string(b))
	}
	return out.String()
}
