package importer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/toolctl/toolctl/internal/testhook"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/pyast"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Python is --from python: tools from the functions of a Python source
// file (ImportPython), read statically.
const Python Format = "python"

// PythonOptions control ImportPython.
type PythonOptions struct {
	// Name is the file's path as the user gave it, for messages and for
	// the python entry (module = its base name, path = its directory).
	Name string
	// Source is the file's content (at most spec.MaxFileSize bytes).
	Source []byte
	// Functions selects functions (NAME, or Class.method for a static or
	// class method); none: every public top-level function.
	Functions []string
	// ToolDir is the directory the tool files are written to: the python
	// entry's path is relative to it ("" for the working directory).
	ToolDir string
	// Module, when set, is the python entry's module instead of the
	// file's base name, and the entry has no path: a snippet read from
	// stdin, saved as MODULE.py next to the tool file or installed.
	Module string
	// NoEntry writes the tools without an entry (a snippet without
	// Module: there is no file to run).
	NoEntry bool
	// Interpreter runs the reader ("python3" when empty).
	Interpreter string
	// Timeout bounds the reader (30s when zero), and with Exec the
	// import of the module.
	Timeout time.Duration
	// Exec imports the module (in python3, which runs its code) to
	// resolve what only the running code knows: type aliases and NewTypes
	// from other modules, pydantic models (their model_json_schema()),
	// the Enum, TypedDict, dataclass and NamedTuple classes of other
	// modules, defaults that are names. The file is read statically
	// first, as without Exec (docstrings, positions, parameter kinds).
	Exec bool
	// Memory bounds the memory of an Exec import (0: pyast.DefaultMemory).
	Memory int64
}

// ErrNoPython is returned (wrapped) when the interpreter cannot be run.
var ErrNoPython = pyast.ErrNoPython

// ImportPython turns the functions of a Python source file into tools,
// reading the file with Python's own parser (the ast module, in python3)
// and never running its code: no import, no exec, no eval; defaults are
// read with ast.literal_eval. The interpreter runs isolated (-I -S: no
// site hooks, no user site, no PYTHON* variables, not the working
// directory on sys.path), gets the source on stdin and the name as an
// argument only, within a timeout and an output limit.
//
// Each function becomes a tool: its summary the description, the rest of
// its docstring the detail, its parameters the input schema (pythonconv.go
// translates the annotations), Returns the output schema's description,
// Raises the tool's warnings, and a python entry that runs it. A function
// that cannot be called with the input as keyword arguments (*args,
// **kwargs, positional-only parameters, instance methods) is skipped with
// a warning; the others are imported.
func ImportPython(ctx context.Context, opts PythonOptions) (res *Result, err error) {
	if opts.Name == "" {
		opts.Name = "<input>"
	}
	defer recoverInput(opts.Name, &res, &err)
	testhook.Check("import", opts.Name)
	if len(opts.Source) > spec.MaxFileSize {
		return nil, &Diagnostic{File: opts.Name, Message: fmt.Sprintf("the file is larger than %d MB; import reads smaller Python files", spec.MaxFileSize>>20)}
	}
	mod, err := readPythonModule(ctx, opts)
	if err != nil {
		return nil, err
	}
	if mod.Error != nil {
		pos := spec.Pos{Line: mod.Error.Line, Col: max(mod.Error.Col, 1)}
		if pos.Line <= 0 {
			pos = spec.Pos{}
		}
		return nil, &Diagnostic{File: opts.Name, Span: diag.At(pos), Message: "cannot read the file as Python: " + mod.Error.Message + "; import --from python reads Python 3 source"}
	}
	var entry *spec.Entry
	switch {
	case opts.NoEntry:
	case opts.Module != "":
		if !validModule(opts.Module) {
			return nil, &Diagnostic{File: opts.Name, Message: fmt.Sprintf("--module %q is not a Python module name; give dotted identifiers, e.g. %s", opts.Module, ToolName(opts.Module))}
		}
		entry = &spec.Entry{Type: spec.EntryPython, Module: opts.Module}
	default:
		if entry, err = pythonEntry(opts); err != nil {
			return nil, err
		}
	}
	funcs, errs := selectPython(opts, mod)
	var execWarnings []*Diagnostic
	if opts.Exec && len(funcs) > 0 && len(errs) == 0 {
		if execWarnings, err = execPython(ctx, opts, mod, funcs); err != nil {
			return nil, err
		}
	}
	c := newPyConv(opts.Name, mod)
	c.exec = opts.Exec
	c.warnings = execWarnings
	r := &reader{src: &source{name: opts.Name}}
	r.errs = append(r.errs, errs...)
	for _, f := range funcs {
		if t := c.tool(f, entry); t != nil {
			r.tools = append(r.tools, &Tool{Tool: t, SourceName: f.Qualname, Pos: f.Pos.Spec()})
		}
	}
	r.warnings = append(r.warnings, c.warnings...)
	if opts.NoEntry && len(r.tools) > 0 {
		r.warnings = append(r.warnings, &Diagnostic{File: opts.Name, Rule: RulePythonNoEntry, Message: "the tools have no entry, so toolctl cannot run them: a snippet is not a file the python executor can import; save it as MODULE.py next to the tool files and import it with --module MODULE (or import the file)"})
	}
	if len(r.tools) == 0 && len(r.errs) == 0 {
		msg := "no function to import"
		switch {
		case len(funcs) > 0:
			msg += ": every function was skipped (see the warnings)"
		case len(mod.Functions) > 0:
			msg += ": every top-level function is private (_name); name one to import it (FILE.py:NAME)"
		default:
			msg += ": the file defines no top-level function"
		}
		r.errs = append(r.errs, &Diagnostic{File: opts.Name, Message: msg})
	}
	mapNames(r)
	res = &Result{Format: Python, Tools: r.tools, Warnings: r.warnings}
	if len(r.errs) > 0 {
		res.Tools = nil
		return res, Errors(r.errs)
	}
	return res, nil
}

// readPythonModule runs the reader on the source.
func readPythonModule(ctx context.Context, opts PythonOptions) (*pyModule, error) {
	return pyast.Read(ctx, pyast.Options{Name: opts.Name, Source: opts.Source, Interpreter: opts.Interpreter, Timeout: opts.Timeout})
}

// execPython imports the module (pyast.Exec) and puts what its running
// code says into what the static reader read: each parameter's and
// return's annotation as resolved, defaults that are names as their
// values, the classes of other modules the hints name. It returns the
// warnings for what could not be resolved (the static reading stays).
func execPython(ctx context.Context, opts PythonOptions, mod *pyModule, funcs []*pyFunc) ([]*Diagnostic, error) {
	if opts.Source == nil || opts.Name == "<input>" || opts.Name == "<stdin>" {
		return nil, &Diagnostic{File: opts.Name, Rule: RulePythonExecFailed, Message: "--exec imports a module from its file; save the snippet as a file and import that"}
	}
	file, err := filepath.Abs(opts.Name)
	if err != nil {
		return nil, err
	}
	module := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	if module == "__init__" {
		module = filepath.Base(filepath.Dir(file))
	}
	names := make([]string, len(funcs))
	for i, f := range funcs {
		names[i] = f.Qualname
	}
	var classes []string
	for _, cl := range mod.Classes {
		classes = append(classes, cl.Name)
	}
	res, err := pyast.Exec(ctx, pyast.ExecOptions{File: opts.Name, Module: module, Functions: names, Classes: classes, Interpreter: opts.Interpreter, Timeout: opts.Timeout, Memory: opts.Memory})
	if errors.Is(err, pyast.ErrNoPython) {
		return nil, err
	}
	if err != nil {
		d := &Diagnostic{File: opts.Name, Rule: RulePythonExecFailed, Message: err.Error()}
		var ee *pyast.ExecError
		if errors.As(err, &ee) && ee.Line > 0 {
			d.Span = diag.At(spec.Pos{Line: ee.Line, Col: 1})
		}
		return nil, d
	}
	var warnings []*Diagnostic
	for _, f := range funcs {
		rf := res.Functions[f.Qualname]
		if rf == nil {
			continue
		}
		if rf.Error != "" {
			warnings = append(warnings, &Diagnostic{File: opts.Name, Span: diag.At(f.Pos.Spec()), Tool: f.Qualname, Rule: RulePythonExecUnresolved, Message: fmt.Sprintf("%s could not be resolved at run time (%s); its annotations are read statically", f.Qualname, short(rf.Error))})
			continue
		}
		for _, p := range f.Params {
			at := p.Pos
			if p.Annotation != nil && p.From == "" {
				at = p.Annotation.Pos
			}
			if n := rf.Params[p.Name]; n != nil {
				repos(n, at)
				if p.Annotation != nil && p.From == "" {
					n.Text = p.Annotation.Text
				}
				p.Annotation, p.From = n, ""
			} else if why := rf.Notes[p.Name]; why != "" {
				warnings = append(warnings, &Diagnostic{File: opts.Name, Span: diag.At(at.Spec()), Tool: f.Qualname, Rule: RulePythonExecUnresolved, Message: fmt.Sprintf("parameter %q of %s: its annotation could not be resolved at run time (%s); it is read statically", p.Name, f.Qualname, short(why))})
			}
			if d := p.Default; d != nil && d.Value == nil && d.Call == nil {
				if v, ok := rf.Defaults[p.Name]; ok {
					d.Value = v
				}
			}
		}
		if n := rf.Returns; n != nil {
			at := f.Pos
			if f.Returns != nil {
				at = f.Returns.Pos
				n.Text = f.Returns.Text
			}
			repos(n, at)
			f.Returns = n
		} else if why := rf.Notes["return"]; why != "" {
			warnings = append(warnings, &Diagnostic{File: opts.Name, Span: diag.At(f.Pos.Spec()), Tool: f.Qualname, Rule: RulePythonExecUnresolved, Message: fmt.Sprintf("the return annotation of %s could not be resolved at run time (%s); it is read statically", f.Qualname, short(why))})
		}
	}
	mod.Classes = append(mod.Classes, res.Classes...)
	return warnings, nil
}

// repos gives an annotation resolved at run time (no position) the
// position of what the source wrote, and marks it as read at run time.
func repos(n *pyNode, at pyPos) {
	if n == nil {
		return
	}
	n.Pos, n.RunTime = at, true
	repos(n.Base, at)
	repos(n.Parsed, at)
	for _, l := range [][]*pyNode{n.Args, n.Items} {
		for _, a := range l {
			repos(a, at)
		}
	}
	for _, a := range n.KW {
		repos(a, at)
	}
}

// pythonEntry is the python entry of the file's tools: the module is the
// file's base name (a package's __init__.py: the package), the path its
// directory relative to the tool directory.
func pythonEntry(opts PythonOptions) (*spec.Entry, error) {
	file, err := filepath.Abs(opts.Name)
	if err != nil {
		return nil, err
	}
	dir, module := filepath.Dir(file), strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	if module == "__init__" {
		dir, module = filepath.Dir(dir), filepath.Base(dir)
	}
	if module == "" || strings.ContainsAny(module, ". ") {
		return nil, &Diagnostic{File: opts.Name, Message: fmt.Sprintf("the module name %q (the file's base name) cannot be imported by the python executor; rename the file to a Python identifier, e.g. %s.py", module, ToolName(module))}
	}
	toolDir, err := filepath.Abs(opts.ToolDir)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(toolDir, dir)
	if err != nil {
		rel = dir // another volume: absolute
	}
	e := &spec.Entry{Type: spec.EntryPython, Module: module}
	if rel = filepath.ToSlash(rel); rel != "." {
		e.Path = rel
	}
	return e, nil
}

// validModule tells whether m is a dotted Python module name (ASCII
// identifiers; Python allows more, the executor's users rarely do).
func validModule(m string) bool {
	for _, part := range strings.Split(m, ".") {
		if part == "" || (part[0] >= '0' && part[0] <= '9') {
			return false
		}
		for _, r := range part {
			if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
				return false
			}
		}
	}
	return true
}

// selectPython picks the functions to import: the named ones (an unknown
// name is an error), or every public top-level function.
func selectPython(opts PythonOptions, mod *pyModule) ([]*pyFunc, []*Diagnostic) {
	if len(opts.Functions) == 0 {
		var out []*pyFunc
		seen := map[string]bool{}
		for _, f := range mod.Functions {
			if strings.HasPrefix(f.Name, "_") || isOverload(f) {
				continue
			}
			if seen[f.Name] { // a redefinition: the last one is the function
				for i, g := range out {
					if g.Name == f.Name {
						out = append(out[:i], out[i+1:]...)
						break
					}
				}
			}
			seen[f.Name] = true
			out = append(out, f)
		}
		return out, nil
	}
	all := map[string]*pyFunc{}
	var names []string
	add := func(f *pyFunc) {
		if isOverload(f) {
			return
		}
		if _, ok := all[f.Qualname]; !ok {
			names = append(names, f.Qualname)
		}
		all[f.Qualname] = f
	}
	for _, f := range mod.Functions {
		add(f)
	}
	for _, c := range mod.Classes {
		for _, m := range c.Methods {
			add(m)
		}
	}
	var out []*pyFunc
	var errs []*Diagnostic
	seen := map[string]bool{}
	for _, n := range opts.Functions {
		if seen[n] {
			continue
		}
		seen[n] = true
		f, ok := all[n]
		if !ok {
			msg := fmt.Sprintf("there is no function %q in this file", n)
			if sug := spec.Suggest(n, names); sug != "" {
				msg += fmt.Sprintf("; did you mean %q?", sug)
			} else if len(names) > 0 {
				sort.Strings(names)
				list := names
				if len(list) > 10 {
					list = append(list[:10:10], "...")
				}
				msg += "; it defines: " + strings.Join(list, ", ")
			}
			errs = append(errs, &Diagnostic{File: opts.Name, Message: msg})
			continue
		}
		out = append(out, f)
	}
	return out, errs
}

func isOverload(f *pyFunc) bool {
	for _, d := range f.Decorators {
		if d == "overload" || d == "typing.overload" {
			return true
		}
	}
	return false
}

// ParsePythonTarget splits FILE.py:NAME,NAME into the file and the names.
func ParsePythonTarget(arg string) (file string, funcs []string) {
	i := strings.LastIndexByte(arg, ':')
	if i <= 0 || strings.ContainsAny(arg[i+1:], `/\`) || (i == 1 && len(arg) > 2 && (arg[2] == '\\' || arg[2] == '/')) {
		return arg, nil
	}
	if _, err := os.Stat(arg); err == nil {
		return arg, nil // a file whose name has a colon
	}
	for _, n := range strings.Split(arg[i+1:], ",") {
		if n = strings.TrimSpace(n); n != "" {
			funcs = append(funcs, n)
		}
	}
	return arg[:i], funcs
}

// The reader's document (pkg/pyast).
type (
	pyModule  = pyast.Module
	pyFunc    = pyast.Func
	pyParam   = pyast.Param
	pyDefault = pyast.Default
	pyClass   = pyast.Class
	pyNode    = pyast.Node
	pyPos     = pyast.Pos
)

var rawValue = pyast.RawValue
