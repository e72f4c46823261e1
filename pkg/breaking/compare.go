// Package breaking compares two versions of a tool set and reports the
// changes that break agents' calls (call), change what calls return
// (result), change how a tool behaves (behaviour) or what the model reads
// (prompt), break a provider's rules (provider) or are not reflected in
// the version (version). It compares canonical models (Tool, Schema), not
// text: formatting, comments, key order, file layout and dialect are no
// changes.
package breaking

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Options tune Compare.
type Options struct {
	// Severity overrides rules' severities by rule ID or by category
	// (call, prompt, ...); a rule ID wins over its category. Off turns a
	// rule off.
	Severity map[string]diag.Severity
	// Additions lists the changes that break nothing (category addition)
	// too; they are left out otherwise.
	Additions bool
	// Targets are the provider packs (compat.Targets) the provider rule
	// checks; none by default.
	Targets []string
	// Ignore, when set, drops the findings it returns true for (inline
	// ignore comments: InlineIgnores) before versions are checked.
	Ignore func(d diag.Diagnostic) bool
}

// Compare reports what changed from old to new, sorted by file and
// position. Tools are matched by name; a tool removed while a tool with
// the same input schema appears is a rename.
func Compare(old, new []*Tool, opts Options) []diag.Diagnostic {
	c := &comparer{opts: opts}
	oldBy := map[string]*Tool{}
	for _, t := range old {
		if _, dup := oldBy[t.Name]; !dup {
			oldBy[t.Name] = t
		}
	}
	newBy := map[string]*Tool{}
	var added []*Tool
	for _, t := range new {
		if _, dup := newBy[t.Name]; dup {
			continue
		}
		newBy[t.Name] = t
		if _, ok := oldBy[t.Name]; !ok {
			added = append(added, t)
		}
	}
	renamed := map[*Tool]bool{}
	for _, o := range old {
		if oldBy[o.Name] != o {
			continue
		}
		n, ok := newBy[o.Name]
		if ok {
			c.tool(o, n)
			continue
		}
		// A rename is told by the input schema; one without parameters
		// tells nothing (every such tool would look like every other).
		key := callKey(o.Input)
		var to *Tool
		for _, a := range added {
			if !renamed[a] && o.Input != nil && len(o.Input.Props) > 0 && callKey(a.Input) == key {
				to = a
				break
			}
		}
		if to != nil {
			renamed[to] = true
			c.emit(o, to, "tool-renamed", newSide, "", "tool %s was renamed to %s: calls to %s fail; keep %s as well", o.Name, to.Name, o.Name, o.Name)
			continue
		}
		c.emit(o, nil, "tool-removed", oldSide, "", "tool %s was removed: every call to it fails; keep it (deprecated) until no agent calls it", o.Name)
	}
	for _, a := range added {
		if !renamed[a] {
			c.emit(nil, a, "tool-added", newSide, "", "tool %s is new", a.Name)
		}
	}
	slices.SortStableFunc(c.out, func(a, b diag.Diagnostic) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Span.Start.Line, b.Span.Start.Line),
			cmp.Compare(a.Span.Start.Col, b.Span.Start.Col), strings.Compare(a.Rule, b.Rule), strings.Compare(a.Message, b.Message))
	})
	// A keyword beside an anyOf is compared on its own and again inside
	// each alternative (where it points at the alternative): the first
	// finding of a tool with a message is enough.
	type key struct{ tool, rule, msg string }
	seen := map[key]bool{}
	return slices.DeleteFunc(c.out, func(d diag.Diagnostic) bool {
		k := key{d.Tool, d.Rule, d.Message}
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	})
}

type side int

const (
	newSide side = iota
	oldSide
)

type comparer struct {
	opts Options
	out  []diag.Diagnostic
	// per tool: the categories found (severity not off), for version
	found map[string]bool
	// o, n are the tools being compared
	o, n *Tool
	// probe collects findings instead of emitting them (union branches)
	probe *[]probeFinding
	steps int
}

type probeFinding struct {
	rule, ptr, msg string
	side           side
}

// severity is rule id's severity under the options; Off when it is off.
func (c *comparer) severity(r *Rule) diag.Severity {
	if s, ok := c.opts.Severity[r.ID]; ok {
		return s
	}
	if s, ok := c.opts.Severity[r.Category]; ok {
		return s
	}
	return r.Severity
}

func (c *comparer) emit(o, n *Tool, id string, sd side, ptr, format string, args ...any) {
	r := byID[id]
	msg := fmt.Sprintf(format, args...)
	if c.probe != nil {
		*c.probe = append(*c.probe, probeFinding{id, ptr, msg, sd})
		return
	}
	sev := c.severity(r)
	if sev == diag.Off {
		return
	}
	if _, set := c.opts.Severity[r.ID]; r.Category == CatAddition && !c.opts.Additions && !set {
		// not listed: it only asks for a minor version bump (and needs
		// no position, which may cost a parse of the file)
		if c.found != nil {
			c.found[r.Category] = true
		}
		return
	}
	t := n
	if sd == oldSide || n == nil {
		t = o
	}
	d := diag.Diagnostic{File: t.File, Span: t.Span(ptr), Pointer: ptr, Severity: sev, Rule: id, Message: msg, Tool: t.Name}
	if c.opts.Ignore != nil && c.opts.Ignore(d) {
		return
	}
	if c.found != nil {
		c.found[r.Category] = true
	}
	c.out = append(c.out, d)
}

// at emits a finding about the tools being compared.
func (c *comparer) at(id string, sd side, ptr, format string, args ...any) {
	c.emit(c.o, c.n, id, sd, ptr, format, args...)
}

func (c *comparer) tool(o, n *Tool) {
	c.o, c.n = o, n
	c.found = map[string]bool{}
	c.steps = 0
	c.input(o.Input, n.Input, "", 0)
	switch {
	case o.Output != nil && n.Output != nil:
		c.output(o.Output, n.Output, "", 0)
	case o.unknown(FieldOutput, o.Output == nil) || n.unknown(FieldOutput, n.Output == nil):
	case o.Output != nil:
		c.at("output-field-removed", oldSide, "/output_schema", "the output schema of %s was removed: callers that read its fields get nothing", o.Name)
	case n.Output != nil:
		c.at("param-added", newSide, "/output_schema", "%s now declares an output schema", n.Name)
	}
	c.behaviour(o, n)
	c.prompt(o, n)
	c.provider(o, n)
	c.version(o, n)
	c.found = nil
}

// --- input: calls -------------------------------------------------------

// maxSteps bounds the work on one tool (unions compare branches pairwise).
const maxSteps = 200000

func label(path string) string {
	if path == "" {
		return "the input"
	}
	return "parameter " + path
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// input compares what a call may pass: o is what calls were valid
// against, n what they are checked against now.
func (c *comparer) input(o, n *Schema, path string, depth int) {
	c.steps++
	if o == nil || n == nil || depth > maxDepth || c.steps > maxSteps {
		return
	}
	if o.Ref != "" || n.Ref != "" {
		if o.Ref != n.Ref {
			c.at("constraint-tightened", newSide, n.Ptr, "%s now refers to %s instead of %s", label(path), refName(n), refName(o))
		}
		return
	}
	if od, nd := norm(o.Description), norm(n.Description); c.probe == nil && path != "" && od != nd {
		switch {
		case od == "":
			c.at("param-description-changed", newSide, n.Ptr+"/description", "%s has a description now: %q", label(path), clipText(nd))
		case nd == "":
			c.at("param-description-changed", newSide, n.Ptr, "the description of %s was removed (it was %q)", label(path), clipText(od))
		default:
			c.at("param-description-changed", newSide, n.Ptr+"/description", "the description of %s changed: %s", label(path), wordDiff(o.Description, n.Description))
		}
	}
	if c.probe == nil && path != "" {
		switch {
		case o.HasDefault && !n.HasDefault:
			c.at("default-changed", newSide, n.Ptr, "the default of %s (%s) was removed: calls that leave it out now get none", label(path), clipText(canonJSON(o.Default)))
		case o.HasDefault && canonJSON(o.Default) != canonJSON(n.Default):
			c.at("default-changed", newSide, n.Ptr+"/default", "the default of %s changed from %s to %s: calls that leave it out now do something else", label(path), clipText(canonJSON(o.Default)), clipText(canonJSON(n.Default)))
		}
	}
	if !c.types(o, n, path) {
		return
	}
	c.values(o, n, path)
	c.bounds(o, n, path)
	c.object(o, n, path, depth)
	c.array(o, n, path, depth)
	c.unions(o, n, path, depth)
}

func refName(s *Schema) string {
	if s.Ref == "" {
		return "an inline schema"
	}
	return s.Ref
}

// types compares the accepted types; false when no old type is accepted
// any more (the rest would be noise).
func (c *comparer) types(o, n *Schema, path string) bool {
	ot, nt := effectiveTypes(o), effectiveTypes(n)
	if nt == nil {
		if ot != nil {
			c.at("constraint-loosened", newSide, n.Ptr, "%s takes any type now (was %s)", label(path), typeList(ot))
		}
		return true
	}
	if ot == nil {
		c.at("type-changed", newSide, n.Ptr+"/type", "%s takes only %s now (any type before): calls with other values fail", label(path), typeList(nt))
		return true
	}
	var lost []string
	kept := false
	for _, t := range ot {
		if accepts(nt, t) {
			kept = true
		} else {
			lost = append(lost, t)
		}
	}
	for _, t := range nt {
		if kept && !accepts(ot, t) {
			c.at("constraint-loosened", newSide, n.Ptr+"/type", "%s now also takes %s", label(path), t)
		}
	}
	if len(lost) == 0 {
		return true
	}
	var msg string
	switch {
	case len(lost) == 1 && lost[0] == "null":
		msg = fmt.Sprintf("%s is no longer nullable: calls that pass null fail", label(path))
	case len(lost) == 1 && lost[0] == "number" && slices.Contains(nt, "integer"):
		msg = fmt.Sprintf("%s narrowed from number to integer: calls with a fraction such as 2.5 fail", label(path))
	case kept:
		msg = fmt.Sprintf("%s no longer takes %s (type was %s, is %s): calls with such values fail", label(path), strings.Join(lost, ", "), typeList(ot), typeList(nt))
	default:
		msg = fmt.Sprintf("the type of %s changed from %s to %s: every call that passes it fails", label(path), typeList(ot), typeList(nt))
	}
	c.at("type-changed", newSide, n.Ptr+"/type", "%s", msg)
	return kept
}

// effectiveTypes are the types a schema accepts: its type, or without one
// the types of its enum or const values ({enum: [a, b]} takes strings
// only, as {type: string, enum: [a, b]} does).
func effectiveTypes(s *Schema) []string {
	vals := allowed(s)
	if len(vals) == 0 {
		return s.Types
	}
	var ts []string
	for _, v := range vals {
		if t := jsonType(v); accepts(s.Types, t) {
			ts = append(ts, t)
		} else if t == "integer" && accepts(s.Types, "number") {
			ts = append(ts, "number")
		}
	}
	if len(ts) == 0 {
		return s.Types // no value has the type: it says what is meant
	}
	return sortTypes(ts)
}

// jsonType is the JSON Schema type of a canonical value (integer for a
// whole number).
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if r, ok := toRat(x); ok && r.IsInt() {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	}
	return "object"
}

func typeList(ts []string) string {
	if len(ts) == 1 {
		return ts[0]
	}
	return "[" + strings.Join(ts, ", ") + "]"
}

// values compares enum and const.
func (c *comparer) values(o, n *Schema, path string) {
	ov, nv := allowed(o), allowed(n)
	switch {
	case nv == nil && ov != nil:
		c.at("constraint-loosened", newSide, n.Ptr, "%s takes any value now (was %s)", label(path), valueList(ov))
	case nv == nil:
	case o.HasConst && n.HasConst:
		if canonJSON(o.Const) != canonJSON(n.Const) {
			c.at("const-changed", newSide, n.Ptr+"/const", "the const of %s changed from %s to %s: calls that pass %s fail", label(path), canonJSON(o.Const), canonJSON(n.Const), canonJSON(o.Const))
		}
	case ov == nil && n.HasConst:
		c.at("const-changed", newSide, n.Ptr+"/const", "%s must now be %s: calls with other values fail", label(path), canonJSON(n.Const))
	case ov == nil:
		c.at("enum-value-removed", newSide, n.Ptr+"/enum", "%s now takes only %s: calls with other values fail", label(path), valueList(nv))
	default:
		removed, addedV := diffValues(ov, nv), diffValues(nv, ov)
		key := "/enum"
		if n.HasConst {
			key = "/const"
		}
		if len(removed) > 0 {
			c.at("enum-value-removed", newSide, n.Ptr+key, "%s no longer takes %s: calls that pass %s fail", label(path), valueList(removed), plural(len(removed), "it", "them"))
		}
		if len(addedV) > 0 {
			c.at("constraint-loosened", newSide, n.Ptr+key, "%s now also takes %s", label(path), valueList(addedV))
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// allowed is the enum, or the const as a one-value list, or nil.
func allowed(s *Schema) []any {
	if s.HasConst {
		return []any{s.Const}
	}
	return s.Enum
}

func diffValues(a, b []any) []any {
	in := map[string]bool{}
	for _, v := range b {
		in[canonJSON(v)] = true
	}
	var out []any
	for _, v := range a {
		if !in[canonJSON(v)] {
			out = append(out, v)
		}
	}
	return out
}

func valueList(vs []any) string {
	var parts []string
	for i, v := range vs {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(vs)-8))
			break
		}
		parts = append(parts, canonJSON(v))
	}
	return strings.Join(parts, ", ")
}

// lower and upper bounds, with exclusive forms compared as one bound.
func bound(s *Schema, incl, excl string) (v *big.Rat, exclusive bool) {
	a, b := s.Bounds[incl], s.Bounds[excl]
	switch {
	case a == nil:
		return b, b != nil
	case b == nil:
		return a, false
	}
	if incl == "minimum" {
		if b.Cmp(a) >= 0 {
			return b, true
		}
		return a, false
	}
	if b.Cmp(a) <= 0 {
		return b, true
	}
	return a, false
}

// bounds compares numeric bounds, pattern, format and other keywords.
func (c *comparer) bounds(o, n *Schema, path string) {
	for _, pair := range [][2]string{{"minimum", "exclusiveMinimum"}, {"maximum", "exclusiveMaximum"}} {
		ov, oe := bound(o, pair[0], pair[1])
		nv, ne := bound(n, pair[0], pair[1])
		lower := pair[0] == "minimum"
		key := pair[0]
		if ne {
			key = pair[1]
		}
		switch {
		case nv == nil && ov == nil:
		case nv == nil:
			c.at("constraint-loosened", newSide, n.Ptr, "%s has no %s any more", label(path), pair[0])
		case ov == nil:
			c.at("constraint-tightened", newSide, n.Ptr+"/"+key, "%s now has %s %s: calls with values beyond it fail", label(path), key, ratString(nv))
		default:
			d := nv.Cmp(ov)
			if !lower {
				d = -d
			}
			switch {
			case d > 0 || (d == 0 && ne && !oe):
				c.at("constraint-tightened", newSide, n.Ptr+"/"+key, "%s: %s tightened from %s to %s: calls with values in between fail", label(path), key, boundText(ov, oe, lower), boundText(nv, ne, lower))
			case d < 0 || (d == 0 && oe && !ne):
				c.at("constraint-loosened", newSide, n.Ptr+"/"+key, "%s: %s loosened from %s to %s", label(path), key, boundText(ov, oe, lower), boundText(nv, ne, lower))
			}
		}
	}
	for _, k := range boundKeys[5:] {
		ov, nv := o.Bounds[k], n.Bounds[k]
		minKind := strings.HasPrefix(k, "min")
		switch {
		case ov == nil && nv == nil:
		case nv == nil:
			c.at("constraint-loosened", newSide, n.Ptr, "%s has no %s any more", label(path), k)
		case ov == nil:
			c.at("constraint-tightened", newSide, n.Ptr+"/"+k, "%s now has %s %s: calls beyond it fail", label(path), k, ratString(nv))
		default:
			d := nv.Cmp(ov)
			if !minKind {
				d = -d
			}
			if d > 0 {
				c.at("constraint-tightened", newSide, n.Ptr+"/"+k, "%s: %s tightened from %s to %s: calls in between fail", label(path), k, ratString(ov), ratString(nv))
			} else if d < 0 {
				c.at("constraint-loosened", newSide, n.Ptr+"/"+k, "%s: %s loosened from %s to %s", label(path), k, ratString(ov), ratString(nv))
			}
		}
	}
	if ov, nv := o.Bounds["multipleOf"], n.Bounds["multipleOf"]; nv != nil {
		if ov != nil && ov.Cmp(nv) == 0 {
			// unchanged
		} else if ov == nil || ov.Sign() == 0 || !new(big.Rat).Quo(nv, ov).IsInt() {
			from := "none"
			if ov != nil {
				from = ratString(ov)
			}
			c.at("constraint-tightened", newSide, n.Ptr+"/multipleOf", "%s: multipleOf changed from %s to %s: calls with values that are not multiples fail", label(path), from, ratString(nv))
		} else if nv.Cmp(ov) != 0 {
			c.at("constraint-loosened", newSide, n.Ptr+"/multipleOf", "%s: multipleOf loosened from %s to %s", label(path), ratString(ov), ratString(nv))
		}
	} else if ov != nil {
		c.at("constraint-loosened", newSide, n.Ptr, "%s has no multipleOf any more", label(path))
	}
	switch {
	case n.Pattern != "" && o.Pattern == "":
		c.at("pattern-changed", newSide, n.Ptr+"/pattern", "%s must now match the pattern %q: calls with other strings fail", label(path), n.Pattern)
	case n.Pattern != o.Pattern && n.Pattern != "":
		c.at("pattern-changed", newSide, n.Ptr+"/pattern", "the pattern of %s changed from %q to %q: strings that matched the old one may fail", label(path), o.Pattern, n.Pattern)
	case n.Pattern != o.Pattern:
		c.at("constraint-loosened", newSide, n.Ptr, "%s has no pattern any more", label(path))
	}
	switch {
	case n.Format != "" && o.Format == "":
		c.at("format-changed", newSide, n.Ptr+"/format", "%s must now be in format %s: validating callers reject other strings", label(path), n.Format)
	case n.Format != o.Format && n.Format != "":
		c.at("format-changed", newSide, n.Ptr+"/format", "the format of %s changed from %s to %s", label(path), o.Format, n.Format)
	case n.Format != o.Format:
		c.at("constraint-loosened", newSide, n.Ptr, "%s has no format any more", label(path))
	}
	for _, k := range sortedKeys(n.Other) {
		ov, ok := o.Other[k]
		switch {
		case !ok:
			c.at("constraint-tightened", newSide, n.Ptr+"/"+escape(k), "%s now has %s: calls valid before may fail", label(path), k)
		case ov != n.Other[k]:
			c.at("constraint-tightened", newSide, n.Ptr+"/"+escape(k), "%s: %s changed: calls valid before may fail", label(path), k)
		}
	}
	for _, k := range sortedKeys(o.Other) {
		if _, ok := n.Other[k]; !ok {
			c.at("constraint-loosened", newSide, n.Ptr, "%s has no %s any more", label(path), k)
		}
	}
}

func boundText(v *big.Rat, excl, lower bool) string {
	op := map[[2]bool]string{{true, false}: "≥ ", {true, true}: "> ", {false, false}: "≤ ", {false, true}: "< "}[[2]bool{lower, excl}]
	return op + ratString(v)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// object compares properties, required and additionalProperties.
func (c *comparer) object(o, n *Schema, path string, depth int) {
	root := depth == 0
	for _, name := range o.Order {
		op := o.Props[name]
		np, ok := n.Props[name]
		p := join(path, name)
		switch {
		case !ok && root && c.n.bound(name):
			// now filled by bind: calls that still pass it are overridden
		case !ok:
			c.at("param-removed", oldSide, op.Ptr, "%s was removed: calls that pass it fail or no longer mean the same; keep it (deprecated) until callers stop sending it", label(p))
		case root && c.o.bound(name) && c.n.bound(name):
		case root && c.o.bound(name):
			c.at("param-unbound", newSide, np.Ptr, "%s is no longer bound: the model now sees it and must fill it; calls made so far do not pass it", label(p))
		default:
			c.input(op, np, p, depth+1)
		}
	}
	for _, name := range n.Order {
		if _, ok := o.Props[name]; ok || (root && c.n.bound(name)) {
			continue
		}
		np := n.Props[name]
		if slices.Contains(n.Required, name) && !np.HasDefault {
			c.at("param-required-added", newSide, np.Ptr, "new required %s has no default: every call made before lacks it and fails; make it optional with a default", label(join(path, name)))
		} else {
			c.at("param-added", newSide, np.Ptr, "new optional %s", label(join(path, name)))
		}
	}
	for _, r := range n.Required {
		np, ok := n.Props[r]
		if slices.Contains(o.Required, r) || !ok || (root && c.n.bound(r)) {
			continue
		}
		if _, existed := o.Props[r]; !existed || (root && c.o.bound(r)) {
			continue // reported as new or unbound
		}
		if !np.HasDefault {
			c.at("param-now-required", newSide, np.Ptr, "%s became required: calls that leave it out fail; keep it optional with a default", label(join(path, r)))
		}
	}
	for _, r := range o.Required {
		if _, ok := n.Props[r]; ok && !slices.Contains(n.Required, r) {
			c.at("constraint-loosened", newSide, n.Props[r].Ptr, "%s is optional now", label(join(path, r)))
		}
	}
	switch {
	case o.Closed && !n.Closed:
		c.at("constraint-loosened", newSide, n.Ptr, "%s takes extra properties now", label(path))
	case !o.Closed && n.Closed:
		c.at("additional-properties-closed", newSide, n.Ptr+"/additionalProperties", "%s no longer takes extra properties (additionalProperties: false): calls that pass others fail", label(path))
	case !o.Closed && n.Additional != nil:
		if o.Additional == nil {
			if callKey(n.Additional) != "{}" {
				c.at("additional-properties-closed", newSide, n.Ptr+"/additionalProperties", "extra properties of %s are now constrained: calls that pass other values fail", label(path))
			}
			return
		}
		c.input(o.Additional, n.Additional, join(path, "*"), depth+1)
	case o.Additional != nil && !n.Closed:
		c.at("constraint-loosened", newSide, n.Ptr, "extra properties of %s take any value now", label(path))
	}
}

// array compares items and prefixItems.
func (c *comparer) array(o, n *Schema, path string, depth int) {
	p := path + "[]"
	switch {
	case n.Items != nil && o.Items != nil:
		c.input(o.Items, n.Items, p, depth+1)
	case n.Items != nil:
		c.input(&Schema{Ptr: o.Ptr}, n.Items, p, depth+1)
	case o.Items != nil:
		c.at("constraint-loosened", newSide, n.Ptr, "items of %s take any value now", label(path))
	}
	for i, np := range n.Prefix {
		op := &Schema{Ptr: o.Ptr}
		if i < len(o.Prefix) {
			op = o.Prefix[i]
		}
		c.input(op, np, path+"["+strconv.Itoa(i)+"]", depth+1)
	}
}

// branches are the alternatives of a schema's anyOf/oneOf, each merged
// with what the schema says beside them; a schema without is its own one.
func branches(s *Schema) []*Schema {
	alts := append(slices.Clone(s.AnyOf), s.OneOf...)
	if len(alts) == 0 {
		return nil
	}
	base := *s
	base.AnyOf, base.OneOf = nil, nil
	out := make([]*Schema, len(alts))
	for i, b := range alts {
		out[i] = mergeSchemas(&base, b)
	}
	return out
}

// unions compares anyOf/oneOf: every old alternative must still be
// accepted by a new one; the new alternative closest to it (fewest
// findings) names what broke.
func (c *comparer) unions(o, n *Schema, path string, depth int) {
	ob, nb := branches(o), branches(n)
	if ob == nil && nb == nil {
		c.allOf(o, n, path, depth)
		return
	}
	if nb == nil {
		return // the new schema is checked beside the alternatives already
	}
	if ob == nil {
		base := *o
		base.AllOf = nil
		ob = []*Schema{&base}
	}
	for i, old := range ob {
		if old.Types != nil && !slices.ContainsFunc(nb, func(nw *Schema) bool {
			return slices.ContainsFunc(old.Types, func(t string) bool { return accepts(nw.Types, t) })
		}) {
			what := "the alternative"
			if len(o.AnyOf)+len(o.OneOf) > 0 {
				what = "alternative " + strconv.Itoa(i+1)
			}
			c.at("type-changed", oldSide, old.Ptr, "%s no longer takes %s (%s of the old schema): calls with such values fail", label(path), typeList(old.Types), what)
			continue
		}
		var best []probeFinding
		for _, nw := range nb {
			var got []probeFinding
			saved := c.probe
			c.probe = &got
			c.input(old, nw, path, depth+1)
			c.probe = saved
			errs := slices.DeleteFunc(got, func(f probeFinding) bool { return byID[f.rule].Category == CatAddition })
			if best == nil || len(errs) < len(best) {
				best = errs
			}
			if len(errs) == 0 {
				break
			}
		}
		for _, f := range best {
			c.at(f.rule, f.side, f.ptr, "%s", f.msg)
		}
	}
}

// allOf compares the parts of an allOf by position.
func (c *comparer) allOf(o, n *Schema, path string, depth int) {
	for i, np := range n.AllOf {
		op := &Schema{Ptr: o.Ptr}
		if i < len(o.AllOf) {
			op = o.AllOf[i]
		}
		c.input(op, np, path, depth+1)
	}
}

// --- output: results ----------------------------------------------------

func outLabel(path string) string {
	if path == "" {
		return "the output"
	}
	return "output field " + path
}

// output compares what a call returns: every value the new version
// returns must be one the old could have.
func (c *comparer) output(o, n *Schema, path string, depth int) {
	c.steps++
	if depth > maxDepth || c.steps > maxSteps || o.Ref != "" || n.Ref != "" {
		return
	}
	ot, nt := o.Types, n.Types
	if ot != nil {
		if nt == nil {
			c.at("output-type-changed", newSide, n.Ptr, "%s may now be of any type (was %s): callers that parse %s break", outLabel(path), typeList(ot), typeList(ot))
			return
		}
		var gained []string
		kept := false
		for _, t := range nt {
			if accepts(ot, t) {
				kept = true
			} else {
				gained = append(gained, t)
			}
		}
		if len(gained) > 0 {
			c.at("output-type-changed", newSide, n.Ptr+"/type", "%s may now be %s (was %s): callers that parse %s break", outLabel(path), strings.Join(gained, ", "), typeList(ot), typeList(ot))
		}
		if !kept {
			return
		}
	}
	if ov, nv := allowed(o), allowed(n); ov != nil {
		if nv == nil {
			c.at("output-type-changed", newSide, n.Ptr, "%s may now be any value (was one of %s)", outLabel(path), valueList(ov))
		} else if extra := diffValues(nv, ov); len(extra) > 0 {
			c.at("output-type-changed", newSide, n.Ptr+"/enum", "%s may now be %s, which callers have not seen", outLabel(path), valueList(extra))
		}
	}
	for _, name := range o.Order {
		p := join(path, name)
		np, ok := n.Props[name]
		if !ok {
			c.at("output-field-removed", oldSide, o.Props[name].Ptr, "%s was removed: callers that read it get nothing; keep returning it", outLabel(p))
			continue
		}
		if slices.Contains(o.Required, name) && !slices.Contains(n.Required, name) {
			c.at("output-field-optional", newSide, np.Ptr, "%s is no longer required: callers that rely on it break when it is missing", outLabel(p))
		}
		c.output(o.Props[name], np, p, depth+1)
	}
	for _, name := range n.Order {
		if _, ok := o.Props[name]; !ok {
			c.at("param-added", newSide, n.Props[name].Ptr, "new %s", outLabel(join(path, name)))
		}
	}
	if o.Items != nil && n.Items != nil {
		c.output(o.Items, n.Items, path+"[]", depth+1)
	}
}

// --- behaviour, prompt, provider, version -------------------------------

func hint(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

func (c *comparer) behaviour(o, n *Tool) {
	for _, h := range []struct {
		name     string
		o, n     *bool
		def, bad bool
		says     string
	}{
		{"readOnlyHint", o.Hints.ReadOnly, n.Hints.ReadOnly, false, false, "it may now modify its environment"},
		{"destructiveHint", o.Hints.Destructive, n.Hints.Destructive, true, true, "it may now destroy data"},
		{"idempotentHint", o.Hints.Idempotent, n.Hints.Idempotent, false, false, "repeating a call may now have more effect"},
		{"openWorldHint", o.Hints.OpenWorld, n.Hints.OpenWorld, true, true, "it may now reach outside systems"},
	} {
		if o.unknown(FieldHints, o.Hints == Hints{}) || n.unknown(FieldHints, n.Hints == Hints{}) {
			break
		}
		ov, nv := hint(h.o, h.def), hint(h.n, h.def)
		if ov != nv && nv == h.bad {
			set := ""
			if h.n == nil {
				set = " (unset: MCP's default)"
			}
			c.at("annotation-weakened", newSide, "/annotations/"+h.name, "%s changed from %t to %t%s: %s, and clients may stop asking before calling it", h.name, ov, nv, set, h.says)
		}
	}
	switch {
	case o.EntryKind != "" && n.EntryKind != "" && o.EntryKind != n.EntryKind:
		c.at("entry-changed", newSide, "/entry/type", "the entry type changed from %s to %s: calls now run a different way", o.EntryKind, n.EntryKind)
	case o.EntryTarget != n.EntryTarget && o.EntryKind != "" && n.EntryKind != "":
		c.at("entry-changed", newSide, "/entry", "the %s entry now reaches %s instead of %s: another target gets the calls' arguments", n.EntryKind, quoteOrNone(n.EntryTarget), quoteOrNone(o.EntryTarget))
	}
	if o.Timeout > 0 && n.Timeout > 0 && n.Timeout < o.Timeout {
		c.at("timeout-shortened", newSide, "/runtime/timeout", "runtime.timeout shortened from %s to %s: calls that took longer now time out", o.Timeout, n.Timeout)
	}
}

func quoteOrNone(s string) string {
	if s == "" {
		return "nothing"
	}
	return strconv.Quote(s)
}

func norm(s string) string { return strings.Join(strings.Fields(s), " ") }

// clipText is s cut to 80 characters.
func clipText(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}

func (c *comparer) prompt(o, n *Tool) {
	if norm(o.Description) != norm(n.Description) {
		c.at("description-changed", newSide, "/description", "the description changed: %s", wordDiff(o.Description, n.Description))
	}
	if norm(o.Detail) != norm(n.Detail) && !o.unknown(FieldDetail, o.Detail == "") && !n.unknown(FieldDetail, n.Detail == "") {
		c.at("description-changed", newSide, "/detail", "the detail changed: %s", wordDiff(o.Detail, n.Detail))
	}
	switch ot, nt := norm(o.Title), norm(n.Title); {
	case ot == nt, o.unknown(FieldTitle, ot == ""), n.unknown(FieldTitle, nt == ""):
	case ot == "":
		c.at("title-changed", newSide, "/title", "a title was added: %q", n.Title)
	case nt == "":
		c.at("title-changed", newSide, "/title", "the title %q was removed", o.Title)
	default:
		c.at("title-changed", newSide, "/title", "the title changed from %q to %q", o.Title, n.Title)
	}
	if exampleKey(o.Examples) != exampleKey(n.Examples) && !o.unknown(FieldExamples, len(o.Examples) == 0) && !n.unknown(FieldExamples, len(n.Examples) == 0) {
		c.at("examples-changed", newSide, "/examples", "the examples changed (%d before, %d now): the model copies them", len(o.Examples), len(n.Examples))
	}
}

func exampleKey(exs []Example) string {
	var b strings.Builder
	for _, e := range exs {
		b.WriteString(norm(e.Scenario))
		b.WriteByte(0)
		b.WriteString(canonJSON(e.Params))
		b.WriteByte(0)
	}
	return b.String()
}

// providerProblems are the problems target has with t (advisory ones
// left out).
func providerProblems(target string, t *Tool) []compat.Problem {
	var out []compat.Problem
	for _, p := range compat.NameProblems(target, t.Name) {
		if !p.Warning {
			p.Pointer = "/name"
			out = append(out, p)
		}
	}
	if t.Source != nil {
		bound := map[string]bool{}
		for _, b := range t.Bound {
			bound[b] = true
		}
		for _, p := range compat.SchemaProblems(target, t.Source.Input(), bound) {
			if !p.Warning {
				p.Pointer = "/input_schema" + p.Pointer
				out = append(out, p)
			}
		}
	}
	return out
}

func (c *comparer) provider(o, n *Tool) {
	for _, target := range c.opts.Targets {
		if len(providerProblems(target, o)) > 0 {
			continue
		}
		ps := providerProblems(target, n)
		if len(ps) == 0 {
			continue
		}
		more := ""
		if len(ps) > 1 {
			more = fmt.Sprintf(" (and %d more; toolctl lint --target %s lists them)", len(ps)-1, target)
		}
		c.at("provider-incompatible", newSide, ps[0].Pointer, "%s passed --target %s and no longer does: %s [%s]%s", n.Name, target, ps[0].Message, ps[0].Rule, more)
	}
}

// semver reads MAJOR.MINOR.PATCH (a missing version is 1.0.0, the
// documented default).
func semver(v string) (major, minor int, ok bool) {
	if v == "" {
		v = "1.0.0"
	}
	v = strings.TrimPrefix(v, "v")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	return major, minor, err1 == nil && err2 == nil
}

func (c *comparer) version(o, n *Tool) {
	if (o.Version == "") != (n.Version == "") {
		return // one side does not carry versions (an import format, a server)
	}
	om, on, ok1 := semver(o.Version)
	nm, nn, ok2 := semver(n.Version)
	if !ok1 || !ok2 {
		return
	}
	ver := func(v string) string {
		if v == "" {
			return "1.0.0 (unset, the default)"
		}
		return v
	}
	if c.found[CatCall] || c.found[CatResult] {
		bumped := nm > om || (om == 0 && nm == 0 && nn > on)
		if !bumped {
			want := strconv.Itoa(om+1) + ".0.0"
			if om == 0 {
				want = "0." + strconv.Itoa(on+1) + ".0"
			}
			c.at("version-major-not-bumped", newSide, "/version", "%s has breaking changes but its version went from %s to %s; make it %s", n.Name, ver(o.Version), ver(n.Version), want)
		}
		return
	}
	if c.found[CatAddition] && !(nm > om || (nm == om && nn > on)) {
		c.at("version-minor-not-bumped", newSide, "/version", "%s has additions but its version went from %s to %s; make it %d.%d.0", n.Name, ver(o.Version), ver(n.Version), om, on+1)
	}
}

// callKey is the canonical JSON of what a call must look like (no
// descriptions, titles or examples), to recognise a renamed tool.
func callKey(s *Schema) string {
	if s == nil {
		return ""
	}
	var b strings.Builder
	writeJSON(&b, stripNotes(s.value()))
	return b.String()
}

func stripNotes(v any) any {
	switch x := v.(type) {
	case *spec.Map:
		out := spec.NewMap(x.Len())
		for i := range x.Len() {
			k, val := x.At(i)
			if k == "description" || k == "title" || k == "examples" {
				continue
			}
			if k == "properties" {
				if pm, ok := val.(*spec.Map); ok {
					props := spec.NewMap(pm.Len())
					for j := range pm.Len() {
						pk, pv := pm.At(j)
						props.Set(pk, stripNotes(pv))
					}
					out.Set(k, props)
					continue
				}
			}
			out.Set(k, stripNotes(val))
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stripNotes(e)
		}
		return out
	}
	return v
}
