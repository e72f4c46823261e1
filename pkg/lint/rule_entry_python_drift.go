package lint

import (
	"context"
	"fmt"
	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/diag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolctl/toolctl/pkg/pyast"
	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleEntryPythonDrift = &Rule{
	ID:          "entry-python-drift",
	Severity:    Warning,
	Description: "A python entry's function takes the parameters the input schema declares.",
	Explain: `A tool file and the Python function its python entry calls are written
separately (or imported once with 'toolctl import --from python' and then
edited apart). When the function's signature changes and the file does not,
the model is told about parameters the function does not take, or does not
learn about ones it needs. This rule reads the function statically (python3
parses the module with its ast module; none of its code runs) when the module
file is found next to the tool file (entry.path, else the tool's directory),
and reports a parameter missing on either side, a required/optional mismatch
and an obviously different type (str against integer, list against object).
Without python3, or when the module is installed rather than next to the
file, it says nothing. 'toolctl import --from python FILE.py' updates the
file from the code and keeps what was added by hand.

Bad:
  # scripts/weather.py: def forecast(city: str, days: int = 1)
  entry: {type: python, module: weather, function: forecast, path: scripts}
  input_schema:
    type: object
    properties:
      town: {type: string}
      days: {type: string}
    required: [town, days]

Good:
  entry: {type: python, module: weather, function: forecast, path: scripts}
  input_schema:
    type: object
    properties:
      city: {type: string}
      days: {type: integer, default: 1}
    required: [city]`,
	Tool: func(r *Reporter, t *spec.Tool) {
		e := t.Entry
		if e == nil || e.Kind() != spec.EntryPython || e.Module == "" || e.Function == "" || t.InputSchema == nil {
			return
		}
		file := pythonModuleFile(t, e)
		if file == "" {
			return
		}
		mod := readPythonModule(file, r.cfg.Python)
		if mod == nil {
			return
		}
		f := findPythonFunc(mod, e.Function)
		if f == nil {
			return // entry.function names no function of the file: run says so
		}
		comparePython(r, t, f, displayPath(t, file))
	},
}

// pythonModuleFile is the module's file next to the tool file: entry.path
// (relative to the tool file) or the tool's directory, then a/b.py or
// a/b/__init__.py for module a.b; "" when there is none.
func pythonModuleFile(t *spec.Tool, e *spec.Entry) string {
	dir := filepath.Dir(t.Path())
	if e.Path != "" {
		if filepath.IsAbs(e.Path) {
			dir = e.Path
		} else {
			dir = filepath.Join(dir, filepath.FromSlash(e.Path))
		}
	}
	base := filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(e.Module, ".", "/")))
	for _, p := range []string{base + ".py", filepath.Join(base, "__init__.py")} {
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

func displayPath(t *spec.Tool, file string) string {
	if rel, err := filepath.Rel(filepath.Dir(t.Path()), file); err == nil {
		return filepath.ToSlash(rel)
	}
	return file
}

// pythonModules caches what the reader made of each module file (by path,
// size and modification time): several tools run functions of one module,
// and python3 starts once per file.
var (
	pythonModules sync.Map // key -> *pythonModuleRead
)

type pythonModuleRead struct {
	once sync.Once
	mod  *pyast.Module
}

// readPythonModule reads file statically with interp (python3 when "");
// nil when the interpreter is not installed, the file cannot be read or
// does not parse (the python executor reports those when the tool runs).
func readPythonModule(file, interp string) *pyast.Module {
	if interp == "" {
		interp = "python3"
	}
	if _, err := exec.LookPath(interp); err != nil {
		return nil // no interpreter: nothing to compare with, nothing said
	}
	info, err := os.Stat(file)
	if err != nil || !info.Mode().IsRegular() || info.Size() > spec.MaxFileSize {
		return nil // a FIFO would block the read
	}
	key := fmt.Sprintf("%s\x00%d\x00%d", file, info.Size(), info.ModTime().UnixNano())
	v, _ := pythonModules.LoadOrStore(key, &pythonModuleRead{})
	m := v.(*pythonModuleRead)
	m.once.Do(func() {
		data, err := spec.ReadToolFile(file) // a regular file, within the limit
		if err != nil {
			return
		}
		mod, err := pyast.ReadCached(context.Background(), pyast.Options{Name: file, Source: data, Interpreter: interp, Timeout: 10 * time.Second})
		if err == nil && mod.Error == nil {
			m.mod = mod
		}
	})
	return m.mod
}

// findPythonFunc finds a top-level function (the last definition) or
// Class.method.
func findPythonFunc(mod *pyast.Module, name string) *pyast.Func {
	var found *pyast.Func
	for _, f := range mod.Functions {
		if f.Qualname == name {
			found = f
		}
	}
	for _, c := range mod.Classes {
		for _, f := range c.Methods {
			if f.Qualname == name {
				found = f
			}
		}
	}
	return found
}

// comparePython reports the drift between f's signature and t's input
// schema's top-level properties.
func comparePython(r *Reporter, t *spec.Tool, f *pyast.Func, file string) {
	params := f.Params
	if strings.Contains(f.Qualname, ".") && !slices.Contains(f.Decorators, "staticmethod") && len(params) > 0 {
		params = params[1:] // self, cls
	}
	props, _ := t.InputSchema.GetMap("properties")
	required := map[string]bool{}
	if list, ok := t.InputSchema.Get("required"); ok {
		if l, ok := list.([]any); ok {
			for _, x := range l {
				if s, ok := x.(string); ok {
					required[s] = true
				}
			}
		}
	}
	where := func(p pyast.Pos) string { return diag.Where(file, p.Spec()) }
	anyKeyword := false
	inCode := map[string]bool{}
	for _, p := range params {
		switch p.Kind {
		case "var_keyword":
			anyKeyword = true
			continue
		case "var_positional":
			continue
		}
		if p.Name == "ctx" {
			// toolctl's runner passes its context as ctx when the schema
			// has no parameter of that name (README "Rich results")
			var declared *spec.Map
			if props != nil {
				declared, _ = props.GetMap("ctx")
			}
			if declared == nil {
				continue
			}
		}
		inCode[p.Name] = true
		codeRequired := pythonRequired(p)
		var schema *spec.Map
		if props != nil {
			schema, _ = props.GetMap(p.Name)
		}
		if schema == nil {
			ptr := "/input_schema"
			if props != nil {
				ptr = "/input_schema/properties"
			}
			opt := "an optional"
			if codeRequired {
				opt = "a required"
			}
			r.ReportKey(t, ptr, "%s() takes %s parameter %q (%s) that input_schema does not declare; add it, or import the function again (toolctl import --from python)", f.Qualname, opt, p.Name, where(p.Pos))
			continue
		}
		ptr := spec.Pointer("input_schema", "properties", p.Name)
		switch {
		case codeRequired && !required[p.Name]:
			r.ReportKey(t, ptr, "parameter %q is required by %s() (no default, %s) but optional in input_schema; add it to required, or give it a default in the code", p.Name, f.Qualname, where(p.Pos))
		case !codeRequired && required[p.Name]:
			r.ReportKey(t, ptr, "parameter %q has a default in %s() (%s) but is required in input_schema; take it out of required, or drop the default in the code", p.Name, f.Qualname, where(p.Pos))
		}
		if p.Annotation != nil {
			code, ok := pythonJSONTypes(p.Annotation)
			declared := compat.Types(schema)
			if ok && len(declared) > 0 && !typesOverlap(code, declared) {
				tptr := ptr
				if schema.Has("type") {
					tptr += "/type"
				}
				r.Report(t, tptr, "parameter %q is %s in %s() (%s) but %s in input_schema; make them agree", p.Name, p.Annotation.Text, f.Qualname, where(p.Annotation.Pos), strings.Join(declared, " or "))
			}
		}
	}
	if anyKeyword || props == nil {
		return
	}
	for _, name := range props.Keys() {
		if !inCode[name] {
			r.ReportKey(t, spec.Pointer("input_schema", "properties", name), "input_schema declares %q, which %s() (%s) does not take: a call with it fails; remove it, or add the parameter to the function", name, f.Qualname, where(f.Pos))
		}
	}
}

// pythonRequired: a parameter without a default, or with Field(...) /
// Field() without a default.
func pythonRequired(p *pyast.Param) bool {
	d := p.Default
	if d == nil {
		return true
	}
	if c := d.Call; c != nil && (c.Func == "Field" || strings.HasSuffix(c.Func, ".Field")) {
		if len(c.Args) > 0 {
			return c.Args[0].K == "ellipsis"
		}
		_, def := c.KW["default"]
		_, fac := c.KW["default_factory"]
		return !def && !fac
	}
	return false
}

// pythonJSONTypes is the JSON types an annotation obviously allows; ok
// false when it is not obvious (a class, a type variable, Any, ...).
func pythonJSONTypes(n *pyast.Node) ([]string, bool) {
	switch n.K {
	case "name":
		id := strings.TrimPrefix(strings.TrimPrefix(n.ID, "typing."), "builtins.")
		switch id {
		case "str":
			return []string{"string"}, true
		case "int":
			return []string{"integer"}, true
		case "float":
			return []string{"number"}, true
		case "bool":
			return []string{"boolean"}, true
		case "None":
			return []string{"null"}, true
		case "list", "List", "tuple", "Tuple", "set", "Set", "frozenset", "FrozenSet", "Sequence", "collections.abc.Sequence":
			return []string{"array"}, true
		case "dict", "Dict", "Mapping", "collections.abc.Mapping":
			return []string{"object"}, true
		}
	case "const":
		if string(n.Value) == "null" {
			return []string{"null"}, true
		}
		if n.Parsed != nil {
			return pythonJSONTypes(n.Parsed)
		}
	case "sub":
		base, _ := pythonJSONTypes(n.Base)
		if len(base) == 1 && (base[0] == "array" || base[0] == "object") {
			return base, true
		}
		id := ""
		if n.Base != nil {
			id = strings.TrimPrefix(n.Base.ID, "typing.")
		}
		switch id {
		case "Optional":
			if len(n.Args) == 1 {
				if t, ok := pythonJSONTypes(n.Args[0]); ok {
					return append(t, "null"), true
				}
			}
		case "Union":
			return unionTypes(n.Args)
		case "Annotated":
			if len(n.Args) > 0 {
				return pythonJSONTypes(n.Args[0])
			}
		case "Literal":
			var out []string
			for _, a := range n.Args {
				v, ok := a.ConstValue()
				if !ok {
					return nil, false
				}
				out = append(out, spec.JSONType(v, spec.WholeValue))
			}
			return out, len(out) > 0
		}
	case "or":
		return unionTypes(n.Args)
	}
	return nil, false
}

func unionTypes(args []*pyast.Node) ([]string, bool) {
	var out []string
	for _, a := range args {
		t, ok := pythonJSONTypes(a)
		if !ok {
			return nil, false
		}
		out = append(out, t...)
	}
	return out, len(out) > 0
}

// typesOverlap: some non-null type of the code is one the schema allows
// (integer and number count as one: Python passes an int for a float).
func typesOverlap(code, declared []string) bool {
	norm := func(t string) string {
		if t == "integer" {
			return "number"
		}
		return t
	}
	onlyNull := true
	for _, c := range code {
		if c == "null" {
			continue
		}
		onlyNull = false
		for _, d := range declared {
			if norm(c) == norm(d) {
				return true
			}
		}
	}
	return onlyNull
}
