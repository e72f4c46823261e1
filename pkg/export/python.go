package export

// The python format writes, per tool, a typed Python function stub whose
// body raises NotImplementedError: the signature carries the input schema
// (type hints, defaults, required parameters first), a Google-style
// docstring the descriptions (summary, detail, Args, Returns). It is the
// inverse of toolctl import --from python: importing the stub gives back
// the same input schema, for every construct the Python type system can
// express (pythonRoundTrip in python_test.go lists the rest). Names are
// not mapped; a tool or parameter name that is no Python identifier (or
// is a keyword) skips the tool with a warning.
//
// Types: string, integer, number, boolean, null → str, int, float, bool,
// None; string formats date-time, date, time, duration, uuid → datetime,
// date, time, timedelta, UUID; array → list[T] (set[T] with uniqueItems,
// tuple[A, B] for prefixItems of a fixed length); an object with
// properties → a TypedDict class emitted before the function (NotRequired
// for the optional keys, the property descriptions in its Attributes);
// additionalProperties → dict[str, T]; enum and const → Literal[...];
// type lists, anyOf and oneOf → Union / Optional; constraints (minimum,
// maxLength, pattern, ...), titles, examples and the descriptions of
// nested schemas → Annotated[T, Field(...)], which the importer reads
// back. An optional parameter without a default gets the sentinel UNSET.

import (
	"encoding/json"
	"fmt"
	"github.com/toolctl/toolctl/pkg/compat"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// pyStub is one tool's part of the module: its classes and function, and
// the names it imports.
type pyStub struct {
	Code    string
	Imports map[string][]string // module → names
	Unset   bool                // uses the UNSET sentinel
}

// pyKeywords are Python's hard keywords: no parameter may be named so.
var pyKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

var pyIdentRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// pyIdentProblem says why name cannot be a Python name ("" when it can).
func pyIdentProblem(name string) string {
	switch {
	case pyKeywords[name]:
		return "is a Python keyword"
	case !pyIdentRE.MatchString(name):
		return "is not a Python identifier (a-z, A-Z, 0-9 and _, not starting with a digit)"
	}
	return ""
}

// pyGen builds one tool's stub.
type pyGen struct {
	tool    *spec.Tool
	imports map[string]map[string]bool
	classes []string
	names   map[string]bool // class names used
	warns   []string
	unset   bool
	// root is the schema $refs resolve in; refs the $refs being inlined
	// (a recursive one is Any), inlined how many were, to bound it.
	root    *spec.Map
	refs    []string
	inlined int
	warned  map[string]bool
}

// maxPyRefs bounds the $refs inlined into one stub: each use is a copy,
// which definitions that use each other twice make exponential.
const maxPyRefs = 1000

// deref returns s with its local $ref replaced by the schema it refers to
// (s's other keys win), as a Python type hint has no references; false,
// with a warning, when it cannot: unresolvable, recursive, or past
// maxPyRefs. The caller pushes ref while it writes the result.
func (g *pyGen) deref(s *spec.Map, ref string) (*spec.Map, bool) {
	target, ok := compat.ResolveRef(g.root, ref)
	var msg string
	switch {
	case !ok:
		msg = fmt.Sprintf("$ref %s does not resolve in its schema; typed Any", ref)
	case slices.Contains(g.refs, ref):
		msg = fmt.Sprintf("$ref %s is recursive, which the stub's type hints cannot say; typed Any where it recurs (import --from python will not give the recursion back)", ref)
	case g.inlined >= maxPyRefs:
		msg = fmt.Sprintf("more than %d $refs to inline; the rest are typed Any", maxPyRefs)
	default:
		g.inlined++
		m := target.Clone()
		m.Delete("$defs")
		m.Delete("definitions")
		for i := range s.Len() {
			if k, v := s.At(i); k != "$ref" {
				m.Set(k, v)
			}
		}
		return m, true
	}
	if !g.warned[msg] {
		g.warned[msg] = true
		g.warns = append(g.warns, msg)
	}
	return s, false
}

func (g *pyGen) use(module, name string) {
	if g.imports[module] == nil {
		g.imports[module] = map[string]bool{}
	}
	g.imports[module][name] = true
}

func pythonTool(t *spec.Tool, name string, _ Options) (any, []Warning, []Problem) {
	skip := func(msg string, ptr string) (any, []Warning, []Problem) {
		return nil, []Warning{{Tool: t.Name, Message: "not exported as Python: " + msg, Source: t, Places: []Place{{Pointer: ptr, Key: ptr != "/name"}}}}, nil
	}
	if why := pyIdentProblem(name); why != "" {
		return skip(fmt.Sprintf("the tool name %q %s; rename the tool (snake_case) to export it", name, why), "/name")
	}
	in := InputSchema(t)
	props, _ := in.GetMap("properties")
	required := stringSet(in)
	g := &pyGen{tool: t, imports: map[string]map[string]bool{}, names: map[string]bool{}, root: in, warned: map[string]bool{}}
	type param struct {
		name, ann, def string
		desc           string
	}
	var req, opt []param
	if props != nil {
		for i := range props.Len() {
			pname, v := props.At(i)
			if why := pyIdentProblem(pname); why != "" {
				return skip(fmt.Sprintf("the parameter name %q %s, so no Python function can take it; rename the parameter to export the tool", pname, why), "/input_schema/properties/"+escapePointer(pname))
			}
			s, _ := v.(*spec.Map)
			p := param{name: pname, ann: g.typ(s, camel(name)+camel(pname), false)}
			if s != nil {
				p.desc, _ = s.GetString("description")
			}
			switch d, ok := mapGet(s, "default"); {
			case required[pname]:
				req = append(req, p)
			case ok:
				p.def = pyLiteral(d)
				opt = append(opt, p)
			default:
				p.def = "UNSET"
				g.unset = true
				opt = append(opt, p)
			}
		}
	}
	ret := "None"
	var retDesc string
	if out := t.OutputSchema; out != nil {
		retDesc, _ = out.GetString("description")
		g.root = out
		ret = g.typ(withoutKey(out, "description"), camel(name)+"Output", false)
	} else if c := outputContent(t); c != "" {
		// output.content: the result is an MCP content item of that type.
		ret = "dict"
		retDesc = "An MCP content item of type " + c + " (toolctl.image, toolctl.audio or toolctl.resource)."
	}
	var b strings.Builder
	for _, c := range g.classes {
		b.WriteString(c + "\n\n")
	}
	params := append(req, opt...)
	b.WriteString("def " + name + "(")
	if len(params) > 0 {
		b.WriteString("\n")
		for _, p := range params {
			b.WriteString("    " + p.name + ": " + p.ann)
			if p.def != "" {
				b.WriteString(" = " + p.def)
			}
			b.WriteString(",\n")
		}
	}
	b.WriteString(") -> " + ret + ":\n")
	var doc []string
	if d := strings.TrimSpace(t.Description); d != "" {
		doc = append(doc, d)
	}
	detail := strings.TrimSpace(t.Detail)
	// A detail with a line a docstring parser reads as a section (NumPy's
	// "Notes" and dashes, "Example:", ":param x:") would swallow the
	// sections after it: then it goes last.
	detailLast := docSectionRE.MatchString(detail)
	if detail != "" && !detailLast {
		doc = append(doc, "", detail)
	}
	var args []string
	for _, p := range params {
		if p.desc != "" {
			args = append(args, docEntry(p.name, p.desc)...)
		}
	}
	if len(args) > 0 {
		doc = append(doc, "", "Args:")
		doc = append(doc, args...)
	}
	if retDesc != "" {
		if docRETyped.MatchString(oneLine(retDesc)) {
			retDesc = ret + ": " + retDesc // else the importer reads its first word as the type
		}
		doc = append(doc, "", "Returns:")
		doc = append(doc, indentLines(retDesc, "    ")...)
	}
	if detail != "" && detailLast {
		doc = append(doc, "", detail)
	}
	if len(doc) > 0 {
		b.WriteString(pyDocstring(doc, "    ") + "\n")
	}
	b.WriteString("    raise NotImplementedError\n")
	imports := map[string][]string{}
	for m, names := range g.imports {
		for n := range names {
			imports[m] = append(imports[m], n)
		}
		sort.Strings(imports[m])
	}
	var ws []Warning
	for _, w := range g.warns {
		ws = append(ws, Warning{Tool: t.Name, Message: w, Source: t, Places: []Place{{Pointer: "/input_schema"}}})
	}
	return &pyStub{Code: b.String(), Imports: imports, Unset: g.unset}, ws, nil
}

// docRETyped is the importer's "type: text" form of a Returns line.
var docRETyped = regexp.MustCompile(`^([A-Za-z_][\w.]*(?:\[[^\]]*\])?(?:\s*\|\s*[A-Za-z_][\w.\[\], ]*)*)\s*:\s+(.*)$`)

// docSectionRE matches a line that starts a docstring section in one of
// the styles the importer reads.
var docSectionRE = regexp.MustCompile(`(?m)^(-{3,}\s*|[A-Z][A-Za-z ]*:\s*|:[a-z]+[^:]*:.*)$`)

// docEntry is an Args entry: "name: text", continuation lines indented.
func docEntry(name, desc string) []string {
	lines := strings.Split(strings.TrimSpace(desc), "\n")
	out := []string{"    " + name + ": " + strings.TrimSpace(lines[0])}
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(l); l == "" {
			out = append(out, "")
		} else {
			out = append(out, "        "+l)
		}
	}
	return out
}

func indentLines(s, ind string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if strings.TrimSpace(l) == "" {
			out = append(out, "")
		} else {
			out = append(out, ind+strings.TrimRight(l, " \t"))
		}
	}
	return out
}

// pyDocstring writes lines as a triple-quoted docstring indented by ind,
// escaping what would end it or change it (backslashes, quotes).
func pyDocstring(lines []string, ind string) string {
	lines = strings.Split(strings.Join(lines, "\n"), "\n")
	var b strings.Builder
	for i, l := range lines {
		l = strings.ReplaceAll(l, `\`, `\\`)
		l = strings.ReplaceAll(l, `"""`, `\"\"\"`)
		if i > 0 {
			b.WriteString("\n")
			if l != "" {
				b.WriteString(ind)
			}
		}
		b.WriteString(strings.ReplaceAll(l, "\t", `\t`))
	}
	s := b.String()
	if strings.HasSuffix(s, `"`) {
		s = s[:len(s)-1] + `\"`
	}
	if len(lines) == 1 {
		return ind + `"""` + s + `"""`
	}
	return ind + `"""` + s + "\n" + ind + `"""`
}

// typ is the annotation of schema s; hint names a TypedDict it needs.
// nested: s is no parameter's schema, so its description goes into the
// annotation (Field(description=...)).
func (g *pyGen) typ(s *spec.Map, hint string, nested bool) string {
	depth := len(g.refs)
	defer func() { g.refs = g.refs[:depth] }()
	for ref, ok := mapGetString(s, "$ref"); ok; ref, ok = mapGetString(s, "$ref") {
		m, ok := g.deref(s, ref)
		if !ok {
			break
		}
		g.refs = append(g.refs, ref)
		s = m
	}
	base := g.baseType(s, hint)
	var field []string
	if s != nil {
		if nested {
			if d, ok := s.GetString("description"); ok {
				field = append(field, "description="+pyLiteral(d))
			}
		}
		if v, ok := s.Get("title"); ok {
			field = append(field, "title="+pyLiteral(v))
		}
		for _, kw := range pyConstraints {
			if v, ok := s.Get(kw.key); ok {
				field = append(field, kw.field+"="+pyLiteral(v))
			}
		}
		if v, ok := s.Get("examples"); ok {
			field = append(field, "examples="+pyLiteral(v))
		}
	}
	if len(field) == 0 {
		return base
	}
	g.use("typing", "Annotated")
	g.use("pydantic", "Field")
	return "Annotated[" + base + ", Field(" + strings.Join(field, ", ") + ")]"
}

// pyConstraints are the JSON Schema keywords Field(...) carries back.
var pyConstraints = []struct{ key, field string }{
	{"minimum", "ge"}, {"exclusiveMinimum", "gt"}, {"maximum", "le"}, {"exclusiveMaximum", "lt"},
	{"multipleOf", "multiple_of"}, {"minLength", "min_length"}, {"maxLength", "max_length"},
	{"minItems", "min_length"}, {"maxItems", "max_length"}, {"minProperties", "min_length"},
	{"maxProperties", "max_length"}, {"pattern", "pattern"},
}

// baseType is s's type without Annotated metadata.
func (g *pyGen) baseType(s *spec.Map, hint string) string {
	if s == nil || s.Len() == 0 {
		g.use("typing", "Any")
		return "Any"
	}
	if v, ok := s.Get("const"); ok {
		return g.literal([]any{v})
	}
	if e, ok := s.Get("enum"); ok {
		if l, ok := e.([]any); ok && len(l) > 0 && allScalar(l) {
			lit := g.literal(l)
			if types := compat.Types(s); slices.Contains(types, "null") && !slices.Contains(l, nil) {
				return g.optional(lit)
			}
			return lit
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if a, ok := s.Get(k); ok {
			if l, ok := a.([]any); ok && len(l) > 0 {
				var members []string
				for i, m := range l {
					ms, _ := m.(*spec.Map)
					members = append(members, g.typ(ms, fmt.Sprintf("%s%d", hint, i+1), true))
				}
				return g.union(members)
			}
		}
	}
	types := stubTypes(s)
	if len(types) == 0 {
		g.use("typing", "Any")
		return "Any"
	}
	var members []string
	for _, t := range types {
		members = append(members, g.single(s, t, hint))
	}
	return g.union(members)
}

// union joins member types: Optional[T] for one type and None.
func (g *pyGen) union(members []string) string {
	var out []string
	null := false
	for _, m := range members {
		if m == "None" {
			null = true
			continue
		}
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	var t string
	switch len(out) {
	case 0:
		return "None"
	case 1:
		t = out[0]
	default:
		g.use("typing", "Union")
		t = "Union[" + strings.Join(out, ", ") + "]"
	}
	if null {
		return g.optional(t)
	}
	return t
}

func (g *pyGen) optional(t string) string {
	g.use("typing", "Optional")
	return "Optional[" + t + "]"
}

func (g *pyGen) literal(values []any) string {
	g.use("typing", "Literal")
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = pyLiteral(v)
	}
	return "Literal[" + strings.Join(parts, ", ") + "]"
}

// single is the Python type of s as JSON type t.
func (g *pyGen) single(s *spec.Map, t, hint string) string {
	switch t {
	case "string":
		f, _ := s.GetString("format")
		switch f {
		case "date-time":
			g.use("datetime", "datetime")
			return "datetime"
		case "date":
			g.use("datetime", "date")
			return "date"
		case "time":
			g.use("datetime", "time")
			return "time"
		case "duration":
			g.use("datetime", "timedelta")
			return "timedelta"
		case "uuid":
			g.use("uuid", "UUID")
			return "UUID"
		}
		return "str"
	case "integer":
		return "int"
	case "number":
		return "float"
	case "boolean":
		return "bool"
	case "null":
		return "None"
	case "array":
		if p, ok := s.Get("prefixItems"); ok {
			if l, ok := p.([]any); ok && len(l) > 0 {
				parts := make([]string, len(l))
				for i, x := range l {
					xs, _ := x.(*spec.Map)
					parts[i] = g.typ(xs, fmt.Sprintf("%sItem%d", hint, i+1), true)
				}
				return "tuple[" + strings.Join(parts, ", ") + "]"
			}
		}
		kind := "list"
		if u, _ := s.Get("uniqueItems"); u == true {
			kind = "set"
		}
		items, ok := s.Get("items")
		if !ok {
			return kind
		}
		is, _ := items.(*spec.Map)
		return kind + "[" + g.typ(is, hint+"Item", true) + "]"
	case "object":
		if props, ok := s.GetMap("properties"); ok && props.Len() > 0 {
			if cls := g.typedDict(s, props, hint); cls != "" {
				return cls
			}
		}
		if ap, ok := s.Get("additionalProperties"); ok {
			if as, ok := ap.(*spec.Map); ok {
				return "dict[str, " + g.typ(as, hint+"Value", true) + "]"
			}
		}
		return "dict"
	}
	g.use("typing", "Any")
	return "Any"
}

// typedDict emits a TypedDict class for an object with properties and
// returns its name; "" when a property name is no identifier (then the
// object is a dict, with a warning).
func (g *pyGen) typedDict(s, props *spec.Map, hint string) string {
	for i := range props.Len() {
		k, _ := props.At(i)
		if why := pyIdentProblem(k); why != "" {
			g.warns = append(g.warns, fmt.Sprintf("the object %s has a property %q that %s; a TypedDict cannot declare it, so the Python type is dict and its properties are left out", hint, k, why))
			return ""
		}
	}
	name := hint
	for n := 2; g.names[name]; n++ {
		name = fmt.Sprintf("%s%d", hint, n)
	}
	g.names[name] = true
	required := stringSet(s)
	total := false
	for i := range props.Len() {
		k, _ := props.At(i)
		total = total || required[k]
	}
	var fields, attrs []string
	for i := range props.Len() {
		k, v := props.At(i)
		ps, _ := v.(*spec.Map)
		ann := g.typ(withoutKey(ps, "description"), name+camel(k), true)
		if !required[k] && total {
			g.use("typing", "NotRequired")
			ann = "NotRequired[" + ann + "]"
		}
		fields = append(fields, "    "+k+": "+ann)
		if d, ok := mapGetString(ps, "description"); ok && strings.TrimSpace(d) != "" {
			for j, l := range docEntry(k, d) {
				if j == 0 || l != "" {
					l = "    " + l
				}
				attrs = append(attrs, l)
			}
		}
	}
	g.use("typing", "TypedDict")
	var doc []string
	if d, ok := s.GetString("description"); ok && strings.TrimSpace(d) != "" {
		doc = append(doc, strings.TrimSpace(d))
	}
	if len(attrs) > 0 {
		// a blank first line keeps the section's indentation: Python's
		// cleandoc dedents the lines after the first
		doc = append(doc, "")
		doc = append(doc, "Attributes:")
		for _, a := range attrs {
			doc = append(doc, strings.TrimPrefix(a, "    "))
		}
	}
	var b strings.Builder
	if total {
		b.WriteString("class " + name + "(TypedDict):\n")
	} else {
		b.WriteString("class " + name + "(TypedDict, total=False):\n")
	}
	if len(doc) > 0 {
		b.WriteString(pyDocstring(doc, "    ") + "\n\n")
	}
	b.WriteString(strings.Join(fields, "\n") + "\n")
	g.classes = append(g.classes, b.String())
	return name
}

// pyLiteral writes a JSON value as a Python literal.
func pyLiteral(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case json.Number:
		return string(v)
	case string:
		return pyString(v)
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = pyLiteral(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *spec.Map:
		parts := make([]string, v.Len())
		for i := range v.Len() {
			k, x := v.At(i)
			parts[i] = pyString(k) + ": " + pyLiteral(x)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return pyString(fmt.Sprint(v))
}

// pyString is a double-quoted Python string literal.
func pyString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// camel is a snake_case (or other) name in CamelCase.
func camel(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if r == '_' || r == '-' || r == '.' || r == ' ' {
			up = true
			continue
		}
		if up {
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func allScalar(l []any) bool {
	for _, v := range l {
		switch v.(type) {
		case nil, string, bool:
		case json.Number:
			if _, err := v.(json.Number).Int64(); err != nil {
				return false // Literal takes no floats
			}
		default:
			return false
		}
	}
	return true
}

// stringSet is s's required list as a set.
func stringSet(s *spec.Map) map[string]bool {
	out := map[string]bool{}
	if s == nil {
		return out
	}
	if r, ok := s.Get("required"); ok {
		if l, ok := r.([]any); ok {
			for _, x := range l {
				if str, ok := x.(string); ok {
					out[str] = true
				}
			}
		}
	}
	return out
}

func mapGet(s *spec.Map, k string) (any, bool) {
	if s == nil {
		return nil, false
	}
	return s.Get(k)
}

func mapGetString(s *spec.Map, k string) (string, bool) {
	if s == nil {
		return "", false
	}
	return s.GetString(k)
}

func withoutKey(s *spec.Map, k string) *spec.Map {
	if s == nil || !s.Has(k) {
		return s
	}
	c := s.Clone()
	c.Delete(k)
	return c
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// pyHeader is the start of a module: its docstring, the imports and the
// UNSET sentinel when a stub uses it.
func pyHeader(doc string, stubs []*pyStub) string {
	imports := map[string]map[string]bool{}
	unset := false
	for _, s := range stubs {
		unset = unset || s.Unset
		for m, names := range s.Imports {
			if imports[m] == nil {
				imports[m] = map[string]bool{}
			}
			for _, n := range names {
				imports[m][n] = true
			}
		}
	}
	if unset {
		if imports["typing"] == nil {
			imports["typing"] = map[string]bool{}
		}
		imports["typing"]["Any"] = true
	}
	var b strings.Builder
	b.WriteString(pyDocstring(strings.Split(doc, "\n"), "") + "\n")
	// standard library first, then third-party (pydantic), as isort does
	mods := make([]string, 0, len(imports))
	for m := range imports {
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool {
		if (mods[i] == "pydantic") != (mods[j] == "pydantic") {
			return mods[j] == "pydantic"
		}
		return mods[i] < mods[j]
	})
	if len(mods) > 0 {
		b.WriteString("\n")
	}
	for i, m := range mods {
		if m == "pydantic" && i > 0 {
			b.WriteString("\n")
		}
		names := make([]string, 0, len(imports[m]))
		for n := range imports[m] {
			names = append(names, n)
		}
		sort.Strings(names)
		b.WriteString("from " + m + " import " + strings.Join(names, ", ") + "\n")
	}
	if unset {
		b.WriteString("\n# The default of an optional parameter that has none in the schema: the\n# caller left it out.\nUNSET: Any = object()\n")
	}
	return b.String()
}

const pyModuleDoc = "generated by toolctl export --format python: replace each\nNotImplementedError with the implementation; toolctl import --from python reads\nthe functions back."

func pythonDocument(r *Result) ([]byte, error) {
	if len(r.Items) == 0 {
		return nil, nil // every tool skipped, each with its warning
	}
	stubs := make([]*pyStub, 0, len(r.Items))
	for _, it := range r.Items {
		stubs = append(stubs, it.Value.(*pyStub))
	}
	var b strings.Builder
	b.WriteString(pyHeader("Function stubs of "+plural(len(stubs), "tool")+", "+pyModuleDoc, stubs))
	for _, s := range stubs {
		b.WriteString("\n\n" + s.Code)
	}
	return []byte(b.String()), nil
}

func pythonFile(v any) ([]byte, error) {
	s := v.(*pyStub)
	return []byte(pyHeader("A function stub, "+pyModuleDoc, []*pyStub{s}) + "\n\n" + s.Code), nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// stubTypes is the types a code stub gives s (python, typescript): its
// type or type list, else object or array when its keywords say so; nil
// for any value.
func stubTypes(s *spec.Map) []string {
	if types := compat.Types(s); len(types) > 0 {
		return types
	}
	switch {
	case s.Has("properties") || s.Has("additionalProperties"):
		return []string{"object"}
	case s.Has("items") || s.Has("prefixItems"):
		return []string{"array"}
	}
	return nil
}
