// Package pyast reads Python source statically: Python's own ast module,
// run in an isolated python3 (-I -S) on the source given on stdin, prints
// the file's functions, classes and type aliases as JSON (python_ast.py);
// none of the file's code runs. import --from python (pkg/importer) turns
// what it reads into tools, lint's entry-python-drift compares it with a
// tool file.
package pyast

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strings"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

// script reads a Python file statically and prints its functions and
// classes as JSON (python_ast.py). It is passed with -c, so nothing is
// written to disk.
//
//go:embed python_ast.py
var script string

// Options control Read.
type Options struct {
	// Name is the file's name, for messages only (it is passed as an
	// argument; the reader never opens it).
	Name string
	// Source is the file's content.
	Source []byte
	// Interpreter runs the reader ("python3" when empty).
	Interpreter string
	// Timeout bounds the reader (30s when zero).
	Timeout time.Duration
}

// MaxOutput bounds what the reader may print.
var MaxOutput = 64 << 20

// ErrNoPython is returned (wrapped) when the interpreter cannot be run.
var ErrNoPython = errors.New("python interpreter not found")

// Read runs the reader on the source: python3 -I -S -c SCRIPT NAME, the
// source on stdin, within a timeout and an output limit. A file that does
// not parse is a Module with Error set, not an error.
func Read(ctx context.Context, opts Options) (*Module, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	interp := opts.Interpreter
	if interp == "" {
		interp = "python3"
	}
	cmd := exec.CommandContext(ctx, interp, "-I", "-S", "-c", script, opts.Name)
	cmd.Stdin = bytes.NewReader(opts.Source)
	out := &limitedBuffer{max: MaxOutput, full: cancel}
	var stderr limitedBuffer
	stderr.max = 4 << 10
	cmd.Stdout, cmd.Stderr = out, &stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("%w: import --from python reads the file with Python's ast module, and %q cannot be run (%v); install Python 3.8 or newer, or set run.python in .toolctl.yaml", ErrNoPython, interp, unwrapExec(err))
	case out.over:
		return nil, fmt.Errorf("reading %s: the description of its functions is larger than %d MB; import fewer functions (FILE.py:NAME)", opts.Name, MaxOutput>>20)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("reading %s with %s took longer than %s and was stopped; the file may be too large or too deeply nested", opts.Name, interp, timeout)
	}
	var mod Module
	if jerr := json.Unmarshal(out.buf.Bytes(), &mod); jerr != nil {
		why := strings.TrimSpace(stderr.buf.String())
		if why == "" && err != nil {
			why = err.Error()
		}
		if i := strings.LastIndexByte(why, '\n'); i >= 0 {
			why = why[i+1:]
		}
		return nil, fmt.Errorf("%s could not read %s (%s); import --from python needs Python 3.8 or newer", interp, opts.Name, why)
	}
	return &mod, nil
}

func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// limitedBuffer keeps at most max bytes; when more comes, it notes it and
// calls full (which stops the process).
type limitedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
	full func()
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); len(p) > room {
		b.over = true
		b.buf.Write(p[:max(room, 0)])
		if b.full != nil {
			b.full()
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}

// --- the reader's document (python_ast.py) ---------------------------------

// Pos is a 1-based line and column (columns count characters).
type Pos [2]int

// Spec is the position as a spec.Pos.
func (p Pos) Spec() spec.Pos { return spec.Pos{Line: p[0], Col: p[1]} }

// Module is what the reader prints for one file.
type Module struct {
	Functions []*Func          `json:"functions"`
	Classes   []*Class         `json:"classes"`
	Aliases   map[string]*Node `json:"aliases"`
	Error     *struct {
		Message string `json:"message"`
		Line    int    `json:"line"`
		Col     int    `json:"col"`
	} `json:"error"`
}

// Func is a function or method.
type Func struct {
	Name        string   `json:"name"`
	Qualname    string   `json:"qualname"`
	Pos         Pos      `json:"pos"`
	Async       bool     `json:"async"`
	Decorators  []string `json:"decorators"`
	Doc         *string  `json:"doc"`
	Params      []*Param `json:"params"`
	Returns     *Node    `json:"returns"`
	TypeComment *struct {
		Text    string  `json:"text"`
		Error   bool    `json:"error"`
		Args    []*Node `json:"args"`
		Returns *Node   `json:"returns"`
	} `json:"type_comment"`
}

// Param is a parameter; Kind is positional_only, positional,
// var_positional, keyword_only or var_keyword.
type Param struct {
	Name       string   `json:"name"`
	Kind       string   `json:"kind"`
	Pos        Pos      `json:"pos"`
	Annotation *Node    `json:"annotation"`
	From       string   `json:"from"`
	Default    *Default `json:"default"`
}

// Default is a default value: Value when it is a literal, Ref for a name
// (Color.RED), Call for a call (Field(3, ge=1)).
type Default struct {
	Text  string          `json:"text"`
	Pos   Pos             `json:"pos"`
	Value json.RawMessage `json:"value"`
	Ref   string          `json:"ref"`
	Call  *Node           `json:"call"`
	Name  string          `json:"name"` // class values only
}

// Class is a class: its annotated fields, assigned values and methods.
type Class struct {
	Name       string            `json:"name"`
	Pos        Pos               `json:"pos"`
	Bases      []string          `json:"bases"`
	Keywords   map[string]string `json:"keywords"`
	Decorators []string          `json:"decorators"`
	Doc        *string           `json:"doc"`
	Fields     []*struct {
		Name       string   `json:"name"`
		Pos        Pos      `json:"pos"`
		Annotation *Node    `json:"annotation"`
		Default    *Default `json:"default"`
	} `json:"fields"`
	Values  []*Default `json:"values"`
	Methods []*Func    `json:"methods"`
}

// Node is an annotation: K is name (ID), sub (Base[Args]), or (Args),
// const (Value; a string also Parsed, as a forward reference), ellipsis,
// list (Items), call (Func(Args, KW)) or other; read at run time (Exec)
// also schema (Value: a JSON Schema, a pydantic model's), and Why may
// say why an other cannot be translated.
type Node struct {
	Text   string           `json:"text"`
	Pos    Pos              `json:"pos"`
	K      string           `json:"k"`
	ID     string           `json:"id"`
	Base   *Node            `json:"base"`
	Args   []*Node          `json:"args"`
	Value  json.RawMessage  `json:"value"`
	Parsed *Node            `json:"parsed"`
	Items  []*Node          `json:"items"`
	Func   string           `json:"func"`
	KW     map[string]*Node `json:"kw"`
	Why    string           `json:"why"`
	// RunTime: the node was read at run time (importer: Exec's answer).
	RunTime bool `json:"-"`
}

// ConstValue is a const node's value as a spec value (ok false: not a
// constant).
func (n *Node) ConstValue() (any, bool) {
	if n == nil || n.K != "const" {
		return nil, false
	}
	return RawValue(n.Value)
}

// RawValue decodes a literal the reader printed.
func RawValue(raw json.RawMessage) (any, bool) {
	if raw == nil {
		return nil, false
	}
	v, err := spec.DecodeJSON(raw)
	return v, err == nil
}
