package export

// The typescript format writes, per tool, what a javascript entry's code
// declares, typed: an interface NameInput of the input schema (bound
// parameters left out), with a JSDoc comment per property (description,
// default, constraints), the output type NameOutput, and the stub
// `export async function execute(input: NameInput): Promise<NameOutput>`
// that a javascript entry calls. One file per tool (-o DIR/, NAME.ts), or
// one document in which each tool is an `export namespace name { ... }`,
// since every tool's function is named execute. Names are not mapped:
// property names that are no identifiers are quoted.
//
// Types: string → string; integer, number → number; boolean; null; array
// → T[] (a tuple for prefixItems); an object with properties → an inline
// object type (nested JSDoc too); additionalProperties →
// Record<string, T>; enum and const → a union of literals; type lists,
// anyOf and oneOf → unions; allOf → an intersection; a local $ref → a type
// alias named after its definition, declared before the interface
// (export type Point = {...}; recursion works, "#" is the input interface);
// no type, or a $ref that does not resolve (with a warning) → unknown.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

// tsStub is one tool's declarations.
type tsStub struct {
	Name string // the tool's name, for the namespace
	Code string
}

func typeScriptTool(t *spec.Tool, name string, _ Options) (any, []Warning, []Problem) {
	base := camel(name)
	if base == "" || !tsIdentRE.MatchString(base) {
		base = "Tool"
	}
	in := InputSchema(t)
	names := map[string]bool{base + "Input": true, base + "Output": true}
	gin := &tsGen{root: in, self: base + "Input", names: names}
	input := gin.tsObject(in, "")
	out := "unknown"
	gout := &tsGen{root: t.OutputSchema, self: base + "Output", names: names}
	if t.OutputSchema != nil {
		out = gout.tsType(withoutKey(t.OutputSchema, "description"), "")
	} else if c := outputContent(t); c != "" {
		// output.content: the result is an MCP content item of that type.
		kind, sub, _ := strings.Cut(c, "/")
		mime := "string"
		if sub != "*" {
			mime = tsString(c)
		}
		if kind == "image" || kind == "audio" {
			out = "{ type: " + tsString(kind) + "; data: string; mimeType: " + mime + " }"
		} else {
			out = "{ type: \"resource\"; resource: { uri: string; mimeType: " + mime + "; text?: string; blob?: string } }"
		}
	}
	var b strings.Builder
	for _, a := range append(gin.aliases, gout.aliases...) {
		b.WriteString(a)
	}
	b.WriteString(tsJSDoc(tsToolDoc(t), ""))
	b.WriteString("export interface " + base + "Input " + input + "\n\n")
	if d, ok := mapGetString(t.OutputSchema, "description"); ok && strings.TrimSpace(d) != "" {
		b.WriteString(tsJSDoc([]string{strings.TrimSpace(d)}, ""))
	}
	if strings.HasPrefix(out, "{") {
		b.WriteString("export interface " + base + "Output " + out + "\n\n")
	} else {
		b.WriteString("export type " + base + "Output = " + out + ";\n\n")
	}
	var doc []string
	if d := strings.TrimSpace(t.Description); d != "" {
		doc = append(doc, d, "")
	}
	doc = append(doc, "@param input - the tool's parameters ("+base+"Input)", "@returns the tool's result ("+base+"Output)")
	b.WriteString(tsJSDoc(doc, ""))
	b.WriteString("export async function execute(input: " + base + "Input): Promise<" + base + "Output> {\n")
	b.WriteString("  throw new Error(" + tsString("not implemented: "+t.Name) + ");\n}\n")
	var ws []Warning
	if refs := append(gin.unresolved, gout.unresolved...); len(refs) > 0 {
		ws = append(ws, Warning{Tool: t.Name, Message: "typed as unknown: $ref " + andList(refs) + ", which does not resolve in its schema", Source: t})
	}
	return &tsStub{Name: name, Code: b.String()}, ws, nil
}

// tsGen writes the types of one schema (root): each local $ref becomes a
// type alias named after the definition (export type Point = {...}),
// written once and used by name, so that references, recursive ones
// included, keep their type.
type tsGen struct {
	root *spec.Map
	// self is the name of root's own type (a $ref "#" uses it).
	self string
	// names are the type names taken in the tool's code.
	names map[string]bool
	byRef map[string]string
	// aliases are the declarations written, unresolved the $refs that do
	// not resolve (typed unknown, with a warning).
	aliases    []string
	unresolved []string
}

// refType is the type of a $ref: its alias, declared at first use.
func (g *tsGen) refType(ref string) string {
	if ref == "#" && g.self != "" {
		return g.self
	}
	if name, ok := g.byRef[ref]; ok {
		return name
	}
	target, ok := compat.ResolveRef(g.root, ref)
	if !ok {
		if !slices.Contains(g.unresolved, ref) {
			g.unresolved = append(g.unresolved, ref)
		}
		return "unknown"
	}
	toks := spec.SplitPointer(strings.TrimPrefix(ref, "#"))
	base := camel(strings.NewReplacer("-", "_", ".", "_", "$", "_").Replace(FileName(toks[len(toks)-1])))
	if base == "" || !tsIdentRE.MatchString(base) || tsReserved[base] {
		base = "Def" + base
	}
	name := base
	for i := 2; g.names[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	g.names[name] = true
	if g.byRef == nil {
		g.byRef = map[string]string{}
	}
	g.byRef[ref] = name
	var doc []string
	if d, ok := target.GetString("description"); ok && strings.TrimSpace(d) != "" {
		doc = strings.Split(strings.TrimSpace(d), "\n")
	}
	body := g.tsType(withoutKey(target, "description"), "")
	g.aliases = append(g.aliases, tsJSDoc(doc, "")+"export type "+name+" = "+body+";\n\n")
	return name
}

var tsIdentRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// tsReserved are the words a namespace or property cannot be named
// without quotes in every position.
var tsReserved = map[string]bool{
	"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "enum": true,
	"export": true, "extends": true, "false": true, "finally": true, "for": true, "function": true,
	"if": true, "import": true, "in": true, "instanceof": true, "new": true, "null": true,
	"return": true, "super": true, "switch": true, "this": true, "throw": true, "true": true,
	"try": true, "typeof": true, "var": true, "void": true, "while": true, "with": true,
}

func tsToolDoc(t *spec.Tool) []string {
	var doc []string
	if d := strings.TrimSpace(t.Description); d != "" {
		doc = append(doc, "Input of "+t.Name+": "+d)
	} else {
		doc = append(doc, "Input of "+t.Name+".")
	}
	if d := strings.TrimSpace(t.Detail); d != "" {
		doc = append(doc, "")
		doc = append(doc, strings.Split(d, "\n")...)
	}
	return doc
}

// tsJSDoc is a /** ... */ comment at indentation ind ("" for none).
func tsJSDoc(lines []string, ind string) string {
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(ind + "/**\n")
	var split []string // a text with line breaks is several comment lines
	for _, l := range lines {
		split = append(split, strings.Split(strings.ReplaceAll(l, "\r\n", "\n"), "\n")...)
	}
	for _, l := range split {
		l = strings.ReplaceAll(strings.TrimRight(l, " \t\r"), "*/", "*\\/")
		if l == "" {
			b.WriteString(ind + " *\n")
		} else {
			b.WriteString(ind + " * " + l + "\n")
		}
	}
	b.WriteString(ind + " */\n")
	return b.String()
}

// tsObject is an object type with one member per property, each with its
// JSDoc; ind is the indentation of the closing brace.
func (g *tsGen) tsObject(s *spec.Map, ind string) string {
	props, _ := s.GetMap("properties")
	required := stringSet(s)
	var b strings.Builder
	b.WriteString("{\n")
	inner := ind + "  "
	if props != nil {
		for i := range props.Len() {
			k, v := props.At(i)
			ps, _ := v.(*spec.Map)
			b.WriteString(tsJSDoc(tsPropDoc(ps), inner))
			key := k
			if !tsIdentRE.MatchString(k) {
				key = tsString(k)
			}
			opt := "?"
			if required[k] {
				opt = ""
			}
			b.WriteString(inner + key + opt + ": " + g.tsType(withoutKey(ps, "description"), inner) + ";\n")
		}
	}
	if ap, ok := s.Get("additionalProperties"); ok {
		if as, ok := ap.(*spec.Map); ok {
			b.WriteString(inner + "[key: string]: " + g.tsIndexType(as, props, inner) + ";\n")
		}
	}
	b.WriteString(ind + "}")
	return b.String()
}

// tsIndexType is the type of additional properties; TypeScript requires
// every declared property to fit it, so with properties it is unknown.
func (g *tsGen) tsIndexType(as, props *spec.Map, ind string) string {
	if props != nil && props.Len() > 0 {
		return "unknown"
	}
	return g.tsType(as, ind)
}

// tsPropDoc is a property's JSDoc: description, default, constraints.
func tsPropDoc(s *spec.Map) []string {
	if s == nil {
		return nil
	}
	var doc []string
	if d, ok := s.GetString("description"); ok && strings.TrimSpace(d) != "" {
		doc = append(doc, strings.Split(strings.TrimSpace(d), "\n")...)
	}
	for _, k := range []string{"format", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties"} {
		if v, ok := s.Get(k); ok {
			doc = append(doc, "@"+k+" "+tsJSON(v))
		}
	}
	if v, ok := s.Get("default"); ok {
		doc = append(doc, "@default "+tsJSON(v))
	}
	return doc
}

func tsJSON(v any) string {
	if s, ok := v.(string); ok && !strings.ContainsAny(s, "\n\r") {
		return tsString(s)
	}
	b, err := spec.MarshalJSONIndent(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

// tsType is the TypeScript type of schema s; ind is the current
// indentation, for inline object types.
func (g *tsGen) tsType(s *spec.Map, ind string) string {
	if s == nil || s.Len() == 0 {
		return "unknown"
	}
	if ref, ok := s.GetString("$ref"); ok {
		name := g.refType(ref)
		rest := s.Clone()
		for _, k := range []string{"$ref", "description", "title", "default", "examples", "$comment"} {
			rest.Delete(k)
		}
		if rt := g.tsType(rest, ind); rest.Len() > 0 && rt != "unknown" && name != "unknown" {
			return name + " & " + tsParen(rt)
		} else if rest.Len() > 0 && rt != "unknown" {
			return rt
		}
		return name
	}
	if v, ok := s.Get("allOf"); ok && !s.Has("type") && !s.Has("properties") && !s.Has("anyOf") && !s.Has("oneOf") && !s.Has("enum") && !s.Has("const") {
		var parts []string
		for _, m := range asList(v) {
			ms, _ := m.(*spec.Map)
			if pt := g.tsType(ms, ind); pt != "unknown" {
				parts = append(parts, tsParen(pt))
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, " & ")
		}
	}
	if v, ok := s.Get("const"); ok {
		return tsJSON(v)
	}
	if e, ok := s.Get("enum"); ok {
		if l, ok := e.([]any); ok && len(l) > 0 {
			parts := make([]string, len(l))
			for i, v := range l {
				parts[i] = tsJSON(v)
			}
			return tsUnion(parts)
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if a, ok := s.Get(k); ok {
			if l, ok := a.([]any); ok && len(l) > 0 {
				var parts []string
				for _, m := range l {
					ms, _ := m.(*spec.Map)
					parts = append(parts, g.tsType(ms, ind))
				}
				return tsUnion(parts)
			}
		}
	}
	types := stubTypes(s)
	if len(types) == 0 {
		return "unknown"
	}
	var parts []string
	for _, t := range types {
		switch t {
		case "string":
			parts = append(parts, "string")
		case "integer", "number":
			parts = append(parts, "number")
		case "boolean":
			parts = append(parts, "boolean")
		case "null":
			parts = append(parts, "null")
		case "array":
			if p, ok := s.Get("prefixItems"); ok {
				if l, ok := p.([]any); ok {
					items := make([]string, len(l))
					for i, x := range l {
						xs, _ := x.(*spec.Map)
						items[i] = g.tsType(xs, ind)
					}
					parts = append(parts, "["+strings.Join(items, ", ")+"]")
					continue
				}
			}
			it := "unknown"
			if items, ok := s.Get("items"); ok {
				is, _ := items.(*spec.Map)
				it = g.tsType(withoutKey(is, "description"), ind)
			}
			if strings.ContainsAny(it, "|&") && !strings.HasPrefix(it, "{") {
				it = "(" + it + ")"
			}
			parts = append(parts, it+"[]")
		case "object":
			if props, ok := s.GetMap("properties"); ok && props.Len() > 0 {
				parts = append(parts, g.tsObject(s, ind))
				continue
			}
			vt := "unknown"
			if ap, ok := s.Get("additionalProperties"); ok {
				if as, ok := ap.(*spec.Map); ok {
					vt = g.tsType(as, ind)
				}
			}
			parts = append(parts, "Record<string, "+vt+">")
		default:
			parts = append(parts, "unknown")
		}
	}
	return tsUnion(parts)
}

// tsParen parenthesizes a union for an intersection or array.
func tsParen(t string) string {
	if strings.Contains(t, " | ") && !strings.HasPrefix(t, "{") {
		return "(" + t + ")"
	}
	return t
}

func tsUnion(parts []string) string {
	var out []string
	for _, p := range parts {
		dup := false
		for _, o := range out {
			dup = dup || o == p
		}
		if !dup {
			out = append(out, p)
		}
	}
	return strings.Join(out, " | ")
}

// tsString is a double-quoted TypeScript string literal.
func tsString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

const tsModuleDoc = "generated by toolctl export --format typescript: the input and output\n * types of each tool and the execute function a javascript entry defines;\n * replace its body with the implementation."

// typeScriptDocument is one file: one tool as a module of its own, several
// each in a namespace of its name.
func typeScriptDocument(r *Result) ([]byte, error) {
	if len(r.Items) == 1 {
		return typeScriptFile(r.Items[0].Value)
	}
	var b strings.Builder
	b.WriteString("/**\n * Types and stubs of " + plural(len(r.Items), "tool") + ", " + tsModuleDoc + "\n */\n")
	for _, it := range r.Items {
		s := it.Value.(*tsStub)
		ns := s.Name
		if !tsIdentRE.MatchString(ns) || tsReserved[ns] {
			ns = "tool_" + FileName(ns)
			ns = strings.NewReplacer("-", "_", ".", "_").Replace(ns)
		}
		b.WriteString("\nexport namespace " + ns + " {\n")
		for _, l := range strings.Split(strings.TrimRight(s.Code, "\n"), "\n") {
			if l == "" {
				b.WriteString("\n")
			} else {
				b.WriteString("  " + l + "\n")
			}
		}
		b.WriteString("}\n")
	}
	return []byte(b.String()), nil
}

func typeScriptFile(v any) ([]byte, error) {
	s := v.(*tsStub)
	return []byte("/**\n * Types and stub of a tool, " + tsModuleDoc + "\n */\n\n" + s.Code), nil
}
