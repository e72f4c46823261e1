package importer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestPythonExecLeftover: a process the module starts while it is
// imported (--exec) does not outlive the import: on Linux the supervisor
// (pkg/internal/proc) kills it.
func TestPythonExecLeftover(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	src := "import subprocess\np = subprocess.Popen(['sleep', '300'])\nopen(" + pyQuote(pidFile) + ", 'w').write(str(p.pid))\n\ndef f(x: int) -> int:\n    \"\"\"F.\"\"\"\n    return x\n"
	name := filepath.Join(dir, "spawner.py")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ImportPython(context.Background(), PythonOptions{Name: name, Source: []byte(src), ToolDir: dir, Exec: true}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	if pid <= 0 {
		t.Fatalf("pid %q", data)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the process the module started (%d) is still running: %v", pid, err)
	}
}

// TestPythonExecMemory: a module that allocates more than the memory
// limit while it is imported is stopped, and the error says so.
func TestPythonExecMemory(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	src := "blocks = []\nwhile True:\n    blocks.append(bytearray(16 << 20))\n\ndef f(x: int) -> int:\n    \"\"\"F.\"\"\"\n    return x\n"
	name := filepath.Join(dir, "hungry.py")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ImportPython(context.Background(), PythonOptions{Name: name, Source: []byte(src), ToolDir: dir, Exec: true, Memory: 64 << 20})
	var d *Diagnostic
	if !errors.As(err, &d) || d.Rule != RulePythonExecFailed || !strings.Contains(d.Message, "went over the memory limit of 64 MiB and was stopped") {
		t.Fatalf("err = %v", err)
	}
}
