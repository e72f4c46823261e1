package importer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
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
