package importer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
)

// pyConv turns the functions of one Python file into tools. Types become
// JSON Schema:
//
//   - str, int, float, bool, None: string, integer, number, boolean, null;
//     Any and object: no constraint;
//   - list[T], List, Sequence, Iterable, Collection: array of T; set[T],
//     frozenset: array with uniqueItems; tuple[A, B]: prefixItems and a
//     fixed length; tuple[T, ...]: array of T; dict[str, T], Mapping:
//     object with additionalProperties T;
//   - Optional[T], T | None, Union[...]: type lists (or anyOf) with null;
//     Literal[...]: enum;
//   - classes of the file: Enum subclasses (enum of their values),
//     TypedDict (total=False, Required, NotRequired), @dataclass and
//     pydantic BaseModel (object with properties and required);
//   - Annotated[T, "text"] and Annotated[T, Doc("text")]: a description;
//     Annotated[T, Field(...)] and annotated_types (Ge, Gt, Le, Lt,
//     MultipleOf, MinLen, MaxLen): constraints; a Field(...) default too;
//   - datetime, date, time, timedelta, UUID: string with format
//     date-time, date, time, duration, uuid; Path: string;
//   - aliases of the file (X = list[int], X: TypeAlias = ..., type X = ...)
//     are followed.
//
// Anything else becomes an unconstrained schema with a warning naming the
// annotation and its position, never a silent string.
type pyConv struct {
	file     string
	classes  map[string]*pyClass
	aliases  map[string]*pyNode
	warnings []*Diagnostic
	fn       string          // the function being converted, for warnings
	at       pyPos           // its parameter (or itself), for warnings without a position
	exec     bool            // the module was imported (--exec): run-time types
	active   map[string]bool // classes and aliases being expanded
}

func newPyConv(file string, mod *pyModule) *pyConv {
	c := &pyConv{file: file, classes: map[string]*pyClass{}, aliases: mod.Aliases, active: map[string]bool{}}
	for _, cl := range mod.Classes {
		c.classes[cl.Name] = cl
	}
	return c
}

func (c *pyConv) warn(rule string, at pyPos, format string, args ...any) {
	if at == (pyPos{}) { // a class of another module, read at run time
		at = c.at
	}
	c.warnings = append(c.warnings, &Diagnostic{File: c.file, Span: diag.At(at.Spec()), Tool: c.fn, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// tool converts one function; nil when it cannot be called with the input
// as keyword arguments (warned).
func (c *pyConv) tool(f *pyFunc, entry *spec.Entry) *spec.Tool {
	c.fn = f.Qualname
	params := f.Params
	if i := strings.IndexByte(f.Qualname, '.'); i >= 0 {
		switch {
		case slices.Contains(f.Decorators, "staticmethod"):
		case slices.Contains(f.Decorators, "classmethod"):
			if len(params) > 0 {
				params = params[1:] // cls
			}
		default:
			c.warn(RulePythonInstanceMethod, f.Pos, "skipped %s: it is an instance method, which needs an instance to be called; make it a @staticmethod or @classmethod, or a top-level function", f.Qualname)
			return nil
		}
	}
	for _, p := range params {
		var why string
		rule := RulePythonVarargs
		switch p.Kind {
		case "var_positional":
			why = fmt.Sprintf("*%s takes any number of positional values, which a JSON object of named parameters cannot give", p.Name)
		case "var_keyword":
			why = fmt.Sprintf("**%s takes keywords of any name, which an input schema cannot list", p.Name)
		case "positional_only":
			why = fmt.Sprintf("%s is positional-only (before /), and the python executor passes the input as keyword arguments", p.Name)
			rule = RulePythonPositionalOnly
		}
		if why != "" {
			c.warn(rule, p.Pos, "skipped %s: %s; give it named parameters (or wrap it in a function that has them)", f.Qualname, why)
			return nil
		}
	}
	doc := parseDoc("")
	if f.Doc != nil {
		doc = parseDoc(*f.Doc)
	}
	t := &spec.Tool{Name: f.Qualname, Description: doc.Summary, Detail: doc.Detail}
	if t.Description == "" {
		c.warn(RuleDescriptionMissing, f.Pos, "%s has no docstring summary; the tool has no description: add a docstring (what it does and when to use it) before linting", f.Qualname)
	}
	if entry != nil {
		e := *entry
		e.Function = f.Qualname
		t.Entry = &e
	}
	// PEP 484 type comments: "# type: (int, str) -> bool"
	var commentTypes []*pyNode
	var commentReturn *pyNode
	if tc := f.TypeComment; tc != nil {
		switch {
		case tc.Error:
			c.warn(RulePythonTypeComment, f.Pos, "the type comment %q of %s is not a function type comment; it is not used", short(tc.Text), f.Qualname)
		case len(tc.Args) == len(params):
			commentTypes, commentReturn = tc.Args, tc.Returns
		case len(tc.Args) == len(params)-1 && len(f.Params) == len(params) && strings.Contains(f.Qualname, "."):
			commentTypes, commentReturn = tc.Args, tc.Returns
		default:
			commentReturn = tc.Returns
			c.warn(RulePythonTypeComment, f.Pos, "the type comment %q of %s has %d types for %d parameters; its parameter types are not used", tc.Text, f.Qualname, len(tc.Args), len(params))
		}
	}
	props := spec.NewMap(len(params))
	var required []any
	for i, p := range params {
		if p.Name == "ctx" {
			// the runner passes the call's context (progress, logs) as ctx
			// when the schema does not declare it: it is not the model's
			// to give (README "Rich results"; lint's entry-python-drift
			// skips it the same way)
			continue
		}
		c.at = p.Pos
		ann := p.Annotation
		if ann == nil && i < len(commentTypes) {
			ann = commentTypes[i]
		}
		dp := doc.Params[p.Name]
		if ann == nil && dp != nil && dp.Type != "" {
			if n, ok := parseDocType(dp.Type, p.Pos); ok {
				ann = n
			} else {
				c.warn(RulePythonAnnotation, p.Pos, "parameter %q of %s: the docstring's type %q cannot be translated to JSON Schema; the parameter accepts any value", p.Name, f.Qualname, short(dp.Type))
			}
		}
		var s *spec.Map
		if ann != nil {
			s = c.schema(ann)
		} else {
			s = spec.NewMap(2)
		}
		if dp != nil && dp.Text != "" {
			s = withFirst(s, "description", dp.Text)
		}
		if !c.applyDefault(s, p.Default, p.Name, f.Qualname) {
			required = append(required, p.Name)
		}
		props.Set(p.Name, s)
	}
	for name := range doc.Params {
		if !slices.ContainsFunc(params, func(p *pyParam) bool { return p.Name == name }) && (len(f.Params) == 0 || f.Params[0].Name != name) {
			c.warn(RulePythonDocstringParam, f.Pos, "the docstring of %s describes a parameter %q that its signature does not have", f.Qualname, name)
		}
	}
	in := spec.NewMap(3)
	in.Set("type", "object")
	in.Set("properties", props)
	if len(required) > 0 {
		in.Set("required", required)
	}
	t.InputSchema = in
	c.at = f.Pos
	t.OutputSchema = c.output(f, commentReturn, doc)
	for _, r := range doc.Raises {
		w := "May raise " + r.Type
		if r.Text != "" {
			w += ": " + r.Text
		}
		t.Warnings = append(t.Warnings, w)
	}
	return t
}

// output is the output schema: the return annotation's schema and the
// docstring's Returns text; nil for -> None and for nothing said.
func (c *pyConv) output(f *pyFunc, commentReturn *pyNode, doc *pyDoc) *spec.Map {
	ret := f.Returns
	if ret == nil {
		ret = commentReturn
	}
	if ret == nil && doc.Returns != nil && doc.Returns.Type != "" {
		ret, _ = parseDocType(doc.Returns.Type, f.Pos)
	}
	if ret != nil && ret.K == "const" && ret.Parsed != nil {
		ret = ret.Parsed // -> "Optional[int]", a forward reference
	}
	if ret != nil && (ret.K == "const" && string(ret.Value) == "null" || ret.K == "name" && pyBase(ret) == "None") {
		return nil // -> None (a name when read at run time or quoted)
	}
	if ret != nil && f.Async && ret.K == "sub" { // Coroutine[Any, Any, T]: T
		if id := pyBase(ret.Base); id == "Coroutine" || id == "Awaitable" {
			ret = ret.Args[len(ret.Args)-1]
		}
	}
	var s *spec.Map
	if ret != nil {
		s = c.schema(ret)
	}
	if doc.Returns != nil && doc.Returns.Text != "" {
		if s == nil {
			s = spec.NewMap(1)
		}
		s = withFirst(s, "description", doc.Returns.Text)
	}
	return s
}

// applyDefault writes a parameter's default into its schema and tells
// whether it has one (then it is not required).
func (c *pyConv) applyDefault(s *spec.Map, d *pyDefault, name, fn string) bool {
	if d == nil {
		return false
	}
	if d.Call != nil && isFieldCall(d.Call.Func) { // x: int = Field(3, ge=1)
		c.field(s, d.Call)
		if len(d.Call.Args) > 0 {
			if v, ok := d.Call.Args[0].ConstValue(); ok {
				setDefault(s, v)
			} else if d.Call.Args[0].K != "ellipsis" {
				c.warn(RulePythonDefault, d.Pos, "parameter %q of %s: the default %s is not a literal; it is not written to the schema", name, fn, short(d.Call.Args[0].Text))
			} else {
				return false // Field(...): required
			}
		} else if v, ok := d.Call.KW["default"].ConstValue(); ok {
			setDefault(s, v)
		} else if _, ok := d.Call.KW["default_factory"]; !ok {
			return false // Field(description=...) alone: required
		}
		return true
	}
	if v, ok := rawValue(d.Value); ok {
		setDefault(s, v)
		return true
	}
	if d.Ref != "" { // Color.RED of an Enum of the file
		if cls, member, ok := strings.Cut(d.Ref, "."); ok {
			if cl := c.classes[cls]; cl != nil && classKind(cl) == "enum" {
				for _, v := range cl.Values {
					if v.Name == member {
						if val, ok := rawValue(v.Value); ok {
							setDefault(s, val)
							return true
						}
					}
				}
			}
		}
	}
	c.warn(RulePythonDefault, d.Pos, "parameter %q of %s: the default %s is not a literal; the parameter is optional, its default is not written to the schema", name, fn, short(d.Text))
	return true
}

// setDefault writes default; a None default makes the type nullable
// (PEP 484's implicit Optional).
func setDefault(s *spec.Map, v any) {
	if v == nil {
		nullable(s)
	}
	s.Set("default", v)
}

// withFirst returns s with key set first (description reads best first).
func withFirst(s *spec.Map, key string, v any) *spec.Map {
	out := spec.NewMap(s.Len() + 1)
	out.Set(key, v)
	for i := range s.Len() {
		k, x := s.At(i)
		if k != key {
			out.Set(k, x)
		}
	}
	return out
}

// typeModules are the modules whose names are read by their last part.
var typeModules = map[string]bool{
	"typing": true, "typing_extensions": true, "t": true, "collections.abc": true, "collections": true,
	"datetime": true, "dt": true, "uuid": true, "pathlib": true, "enum": true, "annotated_types": true,
	"pydantic": true, "builtins": true, "types": true, "os": true,
}

// pyBase is a name node's name without a known module ("typing.List" is
// "List"); a name of another module is kept whole.
func pyBase(n *pyNode) string {
	if n == nil || n.K != "name" {
		return ""
	}
	if i := strings.LastIndexByte(n.ID, '.'); i >= 0 && typeModules[n.ID[:i]] {
		return n.ID[i+1:]
	}
	return n.ID
}

func typ(t string) *spec.Map {
	m := spec.NewMap(2)
	m.Set("type", t)
	return m
}

func typFormat(t, format string) *spec.Map {
	m := typ(t)
	m.Set("format", format)
	return m
}

// untranslatable warns about an annotation and returns no constraint.
func (c *pyConv) untranslatable(n *pyNode, why string) *spec.Map {
	msg := fmt.Sprintf("%s: the type %q cannot be translated to JSON Schema", c.fn, short(n.Text))
	if why == "" {
		why = n.Why
	}
	if why != "" {
		msg += " (" + why + ")"
	}
	c.warn(RulePythonAnnotation, n.Pos, "%s; its schema is left unconstrained (any value): give it a type JSON can carry (str, int, list[str], a TypedDict, ...)", msg)
	return spec.NewMap(1)
}

// schema translates an annotation.
func (c *pyConv) schema(n *pyNode) *spec.Map {
	if len(c.active) > 32 {
		return c.untranslatable(n, "nested too deeply")
	}
	switch n.K {
	case "name":
		return c.named(n)
	case "const":
		if n.Parsed != nil { // "list[int]": a forward reference
			return c.schema(n.Parsed)
		}
		if string(n.Value) == "null" {
			return typ("null")
		}
		return c.untranslatable(n, "a constant is not a type")
	case "or":
		return c.union(n.Args)
	case "sub":
		return c.subscript(n)
	case "schema": // a pydantic model, read at run time
		if v, ok := rawValue(n.Value); ok {
			if m, ok := v.(*spec.Map); ok {
				return m
			}
		}
	}
	return c.untranslatable(n, "")
}

func (c *pyConv) named(n *pyNode) *spec.Map {
	switch pyBase(n) {
	case "str":
		return typ("string")
	case "int":
		return typ("integer")
	case "float":
		return typ("number")
	case "bool":
		return typ("boolean")
	case "None", "NoneType":
		return typ("null")
	case "Any", "object":
		return spec.NewMap(1)
	case "list", "List", "Sequence", "MutableSequence", "Iterable", "Collection", "tuple", "Tuple":
		return typ("array")
	case "set", "Set", "frozenset", "FrozenSet", "AbstractSet", "MutableSet":
		s := typ("array")
		s.Set("uniqueItems", true)
		return s
	case "dict", "Dict", "Mapping", "MutableMapping":
		return typ("object")
	case "datetime":
		return typFormat("string", "date-time")
	case "date":
		return typFormat("string", "date")
	case "time":
		return typFormat("string", "time")
	case "timedelta":
		return typFormat("string", "duration")
	case "UUID":
		return typFormat("string", "uuid")
	case "Path", "PurePath", "PosixPath", "WindowsPath", "PathLike":
		return typ("string")
	}
	if cl := c.classes[n.ID]; cl != nil {
		return c.class(n, cl)
	}
	if a := c.aliases[n.ID]; a != nil {
		if c.active["alias "+n.ID] {
			return c.untranslatable(n, "the alias refers to itself")
		}
		c.active["alias "+n.ID] = true
		defer delete(c.active, "alias "+n.ID)
		return c.schema(a)
	}
	switch {
	case n.RunTime:
		return c.untranslatable(n, "not a standard type, an Enum, a TypedDict, a dataclass, a NamedTuple or a pydantic model")
	case c.exec: // not resolved at run time (warned): read statically
		return c.untranslatable(n, "not a standard type or a class of this file")
	}
	if strings.Contains(n.ID, ".") {
		return c.untranslatable(n, "a type of another module: only types of the file and the standard types are read, unless --exec imports the module")
	}
	return c.untranslatable(n, "not a standard type or a class of this file; --exec imports the module to resolve names of other modules")
}

func (c *pyConv) subscript(n *pyNode) *spec.Map {
	args := n.Args
	arg := func(i int) *spec.Map { return c.schema(args[i]) }
	switch base := pyBase(n.Base); base {
	case "Optional":
		s := arg(0)
		nullable(s)
		return s
	case "Union":
		return c.union(args)
	case "Literal":
		return c.literal(n)
	case "Annotated":
		s := arg(0)
		for _, m := range args[1:] {
			s = c.annotated(s, m)
		}
		return s
	case "Required", "NotRequired", "Final", "ReadOnly", "ClassVar":
		return arg(0)
	case "list", "List", "Sequence", "MutableSequence", "Iterable", "Collection", "set", "Set", "frozenset", "FrozenSet", "AbstractSet", "MutableSet":
		s := c.named(n.Base)
		s.Set("items", arg(0))
		return s
	case "tuple", "Tuple":
		s := typ("array")
		switch {
		case len(args) == 2 && args[1].K == "ellipsis":
			s.Set("items", arg(0))
		case len(args) == 1 && args[0].K == "list" && len(args[0].Items) == 0: // tuple[()]
			s.Set("maxItems", 0)
		default:
			items := make([]any, len(args))
			for i := range args {
				items[i] = arg(i)
			}
			s.Set("prefixItems", items)
			s.Set("minItems", len(args))
			s.Set("maxItems", len(args))
		}
		return s
	case "dict", "Dict", "Mapping", "MutableMapping":
		s := typ("object")
		if len(args) == 2 {
			if k := pyBase(args[0]); k != "str" && k != "Any" {
				c.warn(RulePythonDictKeys, args[0].Pos, "%s: the keys of %q are %s, but JSON object keys are strings; the function gets string keys", c.fn, short(n.Text), short(args[0].Text))
			}
			s.Set("additionalProperties", arg(1))
		}
		return s
	case "type", "Type", "Callable", "Generator", "Iterator", "AsyncIterator", "AsyncGenerator", "Awaitable", "Coroutine":
		return c.untranslatable(n, "JSON has no such value")
	}
	if a := c.aliases[n.Base.ID]; a != nil && n.Base.K == "name" {
		return c.untranslatable(n, "a generic alias")
	}
	return c.untranslatable(n, "")
}

// nullable lets s also be null.
func nullable(s *spec.Map) {
	if s.Len() == 0 {
		return // any value already
	}
	switch t, _ := s.Get("type"); t := t.(type) {
	case string:
		if t != "null" {
			s.Set("type", []any{t, "null"})
		}
		if e, ok := s.Get("enum"); ok {
			if l, ok := e.([]any); ok && !slices.Contains(l, nil) {
				s.Set("enum", append(l, nil))
			}
		}
		return
	case []any:
		if !slices.Contains(t, "null") {
			s.Set("type", append(t, "null"))
		}
		return
	}
	if a, ok := s.Get("anyOf"); ok {
		if l, ok := a.([]any); ok {
			for _, m := range l {
				if m, ok := m.(*spec.Map); ok && m.Len() == 1 {
					if t, _ := m.Get("type"); t == "null" {
						return
					}
				}
			}
			s.Set("anyOf", append(l, typ("null")))
			return
		}
	}
	inner := spec.NewMap(s.Len())
	for i := range s.Len() {
		k, v := s.At(i)
		inner.Set(k, v)
	}
	for _, k := range s.Keys() {
		s.Delete(k)
	}
	s.Set("anyOf", []any{inner, typ("null")})
}

// union: plain types become a type list, anything else anyOf.
func (c *pyConv) union(args []*pyNode) *spec.Map {
	var members []*spec.Map
	null := false
	for _, a := range args {
		s := c.schema(a)
		if s.Len() == 0 {
			return spec.NewMap(1) // Any absorbs the rest
		}
		if t, _ := s.Get("type"); t == "null" && s.Len() == 1 {
			null = true
			continue
		}
		members = append(members, s)
	}
	var out *spec.Map
	plain := true
	for _, m := range members {
		if _, ok := m.Get("type"); !ok || m.Len() != 1 {
			plain = false
		}
	}
	switch {
	case len(members) == 0:
		return typ("null")
	case len(members) == 1:
		out = members[0]
	case plain:
		var types []any
		for _, m := range members {
			t, _ := m.Get("type")
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
		out = spec.NewMap(1)
		if len(types) == 1 {
			out.Set("type", types[0])
		} else {
			out.Set("type", types)
		}
	default:
		list := make([]any, len(members))
		for i, m := range members {
			list[i] = m
		}
		out = spec.NewMap(1)
		out.Set("anyOf", list)
	}
	if null {
		nullable(out)
	}
	return out
}

// literal is Literal[...]: an enum, typed when its values share a type.
func (c *pyConv) literal(n *pyNode) *spec.Map {
	var values []any
	var add func(args []*pyNode) bool
	add = func(args []*pyNode) bool {
		for _, a := range args {
			if a.K == "sub" && pyBase(a.Base) == "Literal" {
				if !add(a.Args) {
					return false
				}
				continue
			}
			if a.K == "name" && strings.Contains(a.ID, ".") { // Literal[Color.RED]
				cls, member, _ := strings.Cut(a.ID, ".")
				if cl := c.classes[cls]; cl != nil {
					for _, v := range cl.Values {
						if val, ok := rawValue(v.Value); ok && v.Name == member {
							values = append(values, val)
							goto next
						}
					}
				}
				return false
			}
			if v, ok := a.ConstValue(); ok {
				values = append(values, v)
				continue
			}
			return false
		next:
		}
		return true
	}
	if !add(n.Args) {
		return c.untranslatable(n, "Literal values must be str, int, float, bool or None")
	}
	return enumSchema(values)
}

func enumSchema(values []any) *spec.Map {
	var types []any
	for _, v := range values {
		t := any(jsonTypeOf(v))
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	s := spec.NewMap(2)
	switch len(types) {
	case 0:
	case 1:
		s.Set("type", types[0])
	default:
		s.Set("type", types)
	}
	s.Set("enum", values)
	return s
}

func jsonTypeOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return "integer"
		}
		return "number"
	}
	return "object"
}

// annotated applies one Annotated metadata value.
func (c *pyConv) annotated(s *spec.Map, m *pyNode) *spec.Map {
	if v, ok := m.ConstValue(); ok {
		if str, ok := v.(string); ok {
			return withFirst(s, "description", str)
		}
	}
	if m.K == "call" {
		fn := m.Func
		if i := strings.LastIndexByte(fn, '.'); i >= 0 {
			fn = fn[i+1:]
		}
		switch fn {
		case "Field", "FieldInfo", "Param", "Query", "Body":
			return c.field(s, m)
		case "Doc":
			if len(m.Args) == 1 {
				if v, ok := m.Args[0].ConstValue(); ok {
					if str, ok := v.(string); ok {
						return withFirst(s, "description", str)
					}
				}
			}
		case "Ge", "Gt", "Le", "Lt", "MultipleOf", "MinLen", "MaxLen":
			if len(m.Args) == 1 {
				if v, ok := m.Args[0].ConstValue(); ok {
					key := map[string]string{"Ge": "ge", "Gt": "gt", "Le": "le", "Lt": "lt", "MultipleOf": "multiple_of", "MinLen": "min_length", "MaxLen": "max_length"}[fn]
					c.constraint(s, key, v, m)
					return s
				}
			}
		}
	}
	c.warn(RulePythonMetadata, m.Pos, "%s: the Annotated metadata %s is not read; it is not in the schema (toolctl reads a description string, Doc(...), Field(...) and annotated_types constraints)", c.fn, m.Text)
	return s
}

func isFieldCall(fn string) bool {
	if i := strings.LastIndexByte(fn, '.'); i >= 0 {
		fn = fn[i+1:]
	}
	return fn == "Field"
}

// fieldKeys orders Field(...)'s keywords as the schema writes them.
var fieldKeys = []string{"title", "description", "examples", "ge", "gt", "le", "lt", "multiple_of", "min_length", "max_length", "pattern"}

// field applies Field(...)'s keywords: title, description, examples and
// the constraints.
func (c *pyConv) field(s *spec.Map, m *pyNode) *spec.Map {
	for _, k := range fieldKeys {
		a := m.KW[k]
		if a == nil {
			continue
		}
		v, ok := a.ConstValue()
		if !ok && a.K == "list" {
			var list []any
			for _, it := range a.Items {
				if x, ok := it.ConstValue(); ok {
					list = append(list, x)
				}
			}
			v, ok = list, len(list) == len(a.Items)
		}
		if !ok {
			c.warn(RulePythonMetadata, a.Pos, "%s: Field(%s=%s) is not a literal; it is not in the schema", c.fn, k, a.Text)
			continue
		}
		switch k {
		case "title", "description":
			s.Set(k, v)
		case "examples":
			s.Set("examples", v)
		default:
			c.constraint(s, k, v, a)
		}
	}
	for k, a := range m.KW {
		if !slices.Contains(fieldKeys, k) && k != "default" && k != "default_factory" && k != "alias" {
			c.warn(RulePythonMetadata, a.Pos, "%s: Field(%s=...) is not read; it is not in the schema", c.fn, k)
		}
	}
	if d, ok := m.KW["description"]; ok {
		if v, ok := d.ConstValue(); ok {
			return withFirst(s, "description", v)
		}
	}
	return s
}

// constraint writes a pydantic-style constraint as its JSON Schema
// keyword; lengths depend on the type (string, array, object).
func (c *pyConv) constraint(s *spec.Map, key string, v any, at *pyNode) {
	kw := map[string]string{"ge": "minimum", "gt": "exclusiveMinimum", "le": "maximum", "lt": "exclusiveMaximum", "multiple_of": "multipleOf", "pattern": "pattern"}[key]
	if key == "min_length" || key == "max_length" {
		t, _ := s.Get("type")
		if l, ok := t.([]any); ok && len(l) > 0 {
			t = l[0]
		}
		prefix := map[bool]string{true: "min", false: "max"}[key == "min_length"]
		switch t {
		case "array":
			kw = prefix + "Items"
		case "object":
			kw = prefix + "Properties"
		default:
			kw = prefix + "Length"
		}
	}
	if kw == "" {
		return
	}
	s.Set(kw, v)
}

// classKind is what a class of the file is to a schema: enum, typeddict,
// dataclass (also pydantic models and NamedTuples), or "".
func classKind(cl *pyClass) string {
	for _, b := range cl.Bases {
		switch b {
		case "Enum", "enum.Enum", "IntEnum", "enum.IntEnum", "StrEnum", "enum.StrEnum":
			return "enum"
		case "TypedDict", "typing.TypedDict", "typing_extensions.TypedDict":
			return "typeddict"
		case "BaseModel", "pydantic.BaseModel", "NamedTuple", "typing.NamedTuple":
			return "dataclass"
		}
	}
	for _, d := range cl.Decorators {
		if d == "dataclass" || d == "dataclasses.dataclass" || d == "pydantic.dataclasses.dataclass" {
			return "dataclass"
		}
	}
	return ""
}

// class is the schema of a class of the file.
func (c *pyConv) class(n *pyNode, cl *pyClass) *spec.Map {
	kind := classKind(cl)
	if kind == "" {
		return c.untranslatable(n, fmt.Sprintf("class %s (line %d) is not an Enum, a TypedDict, a @dataclass or a pydantic model", cl.Name, cl.Pos[0]))
	}
	if c.active["class "+cl.Name] {
		return c.untranslatable(n, fmt.Sprintf("class %s refers to itself; a recursive type has no inline schema", cl.Name))
	}
	c.active["class "+cl.Name] = true
	defer delete(c.active, "class "+cl.Name)
	doc := parseDoc("")
	if cl.Doc != nil {
		doc = parseDoc(*cl.Doc)
	}
	var s *spec.Map
	if kind == "enum" {
		var values []any
		for _, v := range cl.Values {
			if strings.HasPrefix(v.Name, "_") {
				continue
			}
			val, ok := rawValue(v.Value)
			if !ok {
				return c.untranslatable(n, fmt.Sprintf("the value %s of %s.%s is not a literal", v.Text, cl.Name, v.Name))
			}
			values = append(values, val)
		}
		s = enumSchema(values)
	} else {
		s = typ("object")
		props := spec.NewMap(len(cl.Fields))
		var required []any
		total := cl.Keywords["total"] != "False"
		for _, f := range cl.Fields {
			if pyBase(f.Annotation) == "ClassVar" || f.Annotation.K == "sub" && pyBase(f.Annotation.Base) == "ClassVar" {
				continue
			}
			fs := c.schema(f.Annotation)
			if dp := doc.Params[f.Name]; dp != nil && dp.Text != "" {
				fs = withFirst(fs, "description", dp.Text)
			}
			req := f.Default == nil
			if f.Default != nil {
				if f.Default.Call != nil && isFieldCall(f.Default.Call.Func) {
					fs = c.field(fs, f.Default.Call)
					req = false
					if len(f.Default.Call.Args) > 0 {
						if v, ok := f.Default.Call.Args[0].ConstValue(); ok {
							setDefault(fs, v)
						} else if f.Default.Call.Args[0].K == "ellipsis" {
							req = true
						}
					} else if v, ok := f.Default.Call.KW["default"].ConstValue(); ok {
						setDefault(fs, v)
					} else if _, ok := f.Default.Call.KW["default_factory"]; !ok {
						req = true
					}
				} else if v, ok := rawValue(f.Default.Value); ok {
					setDefault(fs, v)
				}
			}
			if kind == "typeddict" {
				req = total
				if a := f.Annotation; a.K == "sub" {
					switch pyBase(a.Base) {
					case "Required":
						req = true
					case "NotRequired":
						req = false
					}
				}
			}
			if req {
				required = append(required, f.Name)
			}
			props.Set(f.Name, fs)
		}
		s.Set("properties", props)
		if len(required) > 0 {
			s.Set("required", required)
		}
	}
	if doc.Summary != "" {
		s = withFirst(s, "description", doc.Summary)
	}
	return s
}

func jsonString(s string) ([]byte, error) { return json.Marshal(s) }

// short is source text for a message: at most 80 characters, so that a
// pathological annotation or default does not fill the terminal.
func short(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}
