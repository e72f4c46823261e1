package pyast

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolctl/toolctl/pkg/internal/proc"
	"github.com/toolctl/toolctl/pkg/spec"
)

// execScript imports a module and prints what its functions' type hints
// resolve to (python_exec.py). It is passed with -c.
//
//go:embed python_exec.py
var execScript string

// ExecOptions control Exec.
type ExecOptions struct {
	// File is the module's file; it is imported, which runs its code.
	File string
	// Module is the module's name (the file's base name; a package's
	// __init__.py: the package).
	Module string
	// Functions are the qualified names of the functions to resolve.
	Functions []string
	// Classes are the classes the static reader found in the file: the
	// run-time reader names them instead of describing them again.
	Classes []string
	// Interpreter runs the module ("python3" when empty).
	Interpreter string
	// Timeout bounds the import (30s when zero).
	Timeout time.Duration
	// Memory bounds the memory of the interpreter and every process it
	// starts, in bytes, where the platform can (Linux); 0: DefaultMemory.
	Memory int64
}

// DefaultMemory is Exec's memory limit when ExecOptions.Memory is 0.
const DefaultMemory int64 = 512 << 20

// MaxModuleOutput bounds what the module may print (stdout and stderr
// together) while it is imported: more stops it.
var MaxModuleOutput = 1 << 20

// Resolved is what Exec learnt by importing a module.
type Resolved struct {
	// Functions by qualified name.
	Functions map[string]*ResolvedFunc `json:"functions"`
	// Classes are the Enum, TypedDict, dataclass and NamedTuple classes
	// of other modules the hints name, described as the static reader
	// describes a class of the file (Name is MODULE.QUALNAME).
	Classes []*Class `json:"classes"`
	Error   *struct {
		Type      string `json:"type"`
		Message   string `json:"message"`
		Traceback string `json:"traceback"`
	} `json:"error"`
}

// ResolvedFunc is one function's resolved hints: Params and Returns are
// annotations as the static reader writes them (positions zero), a
// pydantic model as a node of kind "schema" (Value: its JSON Schema);
// Defaults are the defaults that are JSON values; Notes say why an
// annotation could not be resolved; Error why the function could not be.
type ResolvedFunc struct {
	Params   map[string]*Node           `json:"params"`
	Returns  *Node                      `json:"returns"`
	Defaults map[string]json.RawMessage `json:"defaults"`
	Notes    map[string]string          `json:"notes"`
	Error    string                     `json:"error"`
}

// Exec imports the module in a subprocess and resolves its functions'
// type hints: python3 -I -c SCRIPT FILE MODULE CLASSES FUNCS..., in the
// module's directory (which is first on sys.path), within a timeout, a
// memory limit (proc.Prepare: on Linux a supervisor kills every process
// the module starts when it ends) and a bound on what the module prints;
// the module's prints never reach the JSON the script writes.
func Exec(ctx context.Context, opts ExecOptions) (*Resolved, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	memory := opts.Memory
	if memory <= 0 {
		memory = DefaultMemory
	}
	file, err := filepath.Abs(opts.File)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	interp := opts.Interpreter
	if interp == "" {
		interp = "python3"
	}
	classes, _ := json.Marshal(append([]string{}, opts.Classes...))
	args := append([]string{"-I", "-c", execScript, file, opts.Module, string(classes)}, opts.Functions...)
	cmd := exec.CommandContext(ctx, interp, args...)
	cmd.Dir = filepath.Dir(file)
	cmd.Env = append(os.Environ(), "PYTHONIOENCODING=utf-8")
	out := &limitedBuffer{max: MaxOutput, full: cancel}
	printed := &countingTail{tail: proc.NewTail(nil), max: MaxModuleOutput, full: cancel}
	cmd.Stdout, cmd.Stderr = out, printed
	g, err := proc.Prepare(cmd, memory)
	if err != nil {
		return nil, fmt.Errorf("cannot start %s: %v", interp, err)
	}
	if err = cmd.Start(); err != nil {
		g.Finish()
	} else {
		g.Started()
		err = cmd.Wait()
		if r := g.Finish(); r.StartErr != nil {
			err = r.StartErr
		} else if r.MemoryExceeded {
			return nil, fmt.Errorf("importing %s (--exec) went over the memory limit of %s and was stopped, with every process it started; import it without --exec, or raise run.memory in .toolctl.yaml", opts.File, spec.HumanSize(memory))
		}
	}
	what := fmt.Sprintf("importing %s (--exec)", opts.File)
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("%w: import --from python --exec imports the module with %q, which cannot be run (%v); install Python 3.8 or newer, or set run.python in .toolctl.yaml", ErrNoPython, interp, unwrapExec(err))
	case printed.over():
		return nil, fmt.Errorf("%s printed more than %s and was stopped; --exec expects a module that can be imported quietly (put its work under `if __name__ == \"__main__\":`), or import it without --exec", what, spec.HumanSize(int64(MaxModuleOutput)))
	case out.over:
		return nil, fmt.Errorf("%s: the description of its functions is larger than %d MB; import fewer functions (FILE.py:NAME)", what, MaxOutput>>20)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%s took longer than %s and was stopped, with every process it started: importing a module runs its top-level code, which may wait or loop; put that under `if __name__ == \"__main__\":`, raise --timeout, or import it without --exec", what, timeout)
	}
	var res Resolved
	if jerr := json.Unmarshal(out.buf.Bytes(), &res); jerr != nil {
		// no answer: the module ended the interpreter (os._exit, a crash),
		// or the interpreter could not run the script (too old)
		status := "it wrote no answer"
		if err != nil {
			status = err.Error()
		}
		last := printed.tail.LastLine()
		if strings.Contains(last, "SyntaxError") {
			return nil, fmt.Errorf("%s failed (%s%s); import --from python --exec needs Python 3.8 or newer", what, status, last)
		}
		if last != "" {
			last = "; its last output" + last
		}
		return nil, fmt.Errorf("%s ended without an answer (%s%s): the module ended the interpreter while it was imported (os._exit, a crash); import it without --exec", what, status, last)
	}
	if e := res.Error; e != nil {
		msg := e.Type
		if e.Message != "" {
			msg += ": " + e.Message
		}
		if r := []rune(msg); len(r) > 300 {
			msg = string(r[:300]) + "..."
		}
		ee := &ExecError{}
		frame, line := lastFrame(e.Traceback)
		where := ""
		switch {
		case frame == file:
			ee.Line = line
		case frame != "":
			where = fmt.Sprintf(" (%s:%d)", frame, line)
		}
		ee.Message = fmt.Sprintf("%s failed: %s%s; fix the module (or what it imports) so that it can be imported, or import it without --exec", what, msg, where)
		return nil, ee
	}
	return &res, nil
}

// ExecError is a module that raised while it was imported; Line is the
// line of its file that raised, when the traceback ends in it (0: in
// another file, named in Message).
type ExecError struct {
	Message string
	Line    int
}

func (e *ExecError) Error() string { return e.Message }

// lastFrame is the file and line of the last `File "...", line N` of a
// traceback.
func lastFrame(tb string) (file string, line int) {
	for _, l := range strings.Split(tb, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, `File "`) {
			continue
		}
		rest := l[len(`File "`):]
		f, rest, ok := strings.Cut(rest, `", line `)
		if !ok {
			continue
		}
		n, _, _ := strings.Cut(rest, ",")
		if v, err := strconv.Atoi(n); err == nil {
			file, line = f, v
		}
	}
	return file, line
}

// countingTail keeps the end of what the module printed and stops it
// (full) when it printed more than max bytes.
type countingTail struct {
	mu   sync.Mutex
	tail *proc.Tail
	n    int
	max  int
	full func()
}

func (c *countingTail) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.n += len(p)
	over := c.n > c.max
	c.mu.Unlock()
	if over && c.full != nil {
		c.full()
	}
	return c.tail.Write(p)
}

func (c *countingTail) over() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n > c.max
}
