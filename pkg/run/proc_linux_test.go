package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// procGoneNow tells whether pid has ended and been reaped, checked once:
// no waiting, since nothing the call started may outlive it.
func procGoneNow(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err != nil
}

func readPids(t *testing.T, file string) []int {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the tool did not record its children: %v", err)
	}
	var pids []int
	for _, f := range strings.Fields(string(raw)) {
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			t.Fatalf("bad pid %q in %q", f, raw)
		}
		pids = append(pids, n)
	}
	if len(pids) == 0 {
		t.Fatal("no pid recorded")
	}
	return pids
}

func assertAllGone(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		if !procGoneNow(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %d outlived the call", pid)
		}
	}
}

// The descendants of a command entry never outlive its call: not one that
// starts its own session, not one orphaned by a double fork; whether the
// program succeeds, fails or times out.
func TestCommandLeavesNoDescendants(t *testing.T) {
	t.Parallel() // it mostly waits
	escape := `setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $! >> "$0"; (sleep 31 </dev/null >/dev/null 2>&1 & echo $! >> "$0") ; `
	for _, tc := range []struct {
		name, tail string
		kind       Kind
	}{
		{"success", "echo done", ""},
		{"failure", "exit 3", ToolExecutionError},
		{"timeout", "sleep 30", TimeoutError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pidFile := filepath.Join(t.TempDir(), "pids")
			c, stderr := cmdTestCall(t, `[sh, -c, '`+escape+tc.tail+`', "`+pidFile+`"]`, nil, nil)
			timeout := 20 * time.Second // a loaded machine, -race
			if tc.kind == TimeoutError {
				timeout = time.Second
			}
			c.Timeout = timeout
			start := time.Now()
			v, e := cmdRun(t, c, timeout)
			took := time.Since(start)
			if tc.kind == "" {
				if e != nil || v != "done" {
					t.Fatalf("got %v, %v", v, e)
				}
				if !strings.Contains(stderr.String(), "left 2 processes running; killed") {
					t.Errorf("stderr %q does not say what was killed", stderr.String())
				}
			} else if e == nil || e.Kind != tc.kind {
				t.Fatalf("want %s, got %v", tc.kind, e)
			}
			if tc.kind == TimeoutError && !strings.Contains(e.Message, "every process it started were killed") {
				t.Errorf("message %q", e.Message)
			}
			assertAllGone(t, readPids(t, pidFile))
			if took > timeout+10*time.Second {
				t.Errorf("took %s", took)
			}
		})
	}
}

func TestPythonLeavesNoDescendants(t *testing.T) {
	t.Parallel() // it mostly waits
	src := `
import os, subprocess, time

def spawn(pid_file, hang):
    # a new session, and a grandchild orphaned by a double fork
    p = subprocess.Popen(["setsid", "sleep", "30"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r, w = os.pipe()
    if os.fork() == 0:
        if os.fork() == 0:
            os.setsid()
            os.write(w, str(os.getpid()).encode())
            time.sleep(31)
        os._exit(0)
    os.wait()
    grandchild = os.read(r, 32).decode()
    with open(pid_file, "w") as f:
        f.write("%d %s" % (p.pid, grandchild))
    if hang:
        time.sleep(30)
    return "spawned"
`
	for _, hang := range []bool{false, true} {
		t.Run(fmt.Sprintf("hang=%v", hang), func(t *testing.T) {
			t.Parallel()
			pidFile := filepath.Join(t.TempDir(), "pids")
			c, _ := pyTestCall(t, src, "spawn", map[string]any{"pid_file": pidFile, "hang": hang})
			v, e := pyRun(t, c, 5*time.Second)
			if hang {
				if e == nil || e.Kind != TimeoutError {
					t.Fatalf("want TimeoutError, got %v, %v", v, e)
				}
			} else if e != nil || v != "spawned" {
				t.Fatalf("got %v, %v", v, e)
			}
			assertAllGone(t, readPids(t, pidFile))
		})
	}
}

// A call over its memory limit is stopped with a MemoryLimitError, for the
// program and for the processes it starts, all counted together.
func TestCommandMemoryLimit(t *testing.T) {
	// tail -c N keeps the last N bytes it read, here N zero bytes, until
	// the input ends: a process of a known size, held for a while.
	hog := filepath.Join(t.TempDir(), "hog.sh")
	if err := os.WriteFile(hog, []byte(`(head -c "$1" /dev/zero; sleep "${2:-0}") | tail -c "$1" | wc -c`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, argv := range map[string]string{
		"program": `[sh, "` + hog + `", 400000000]`,
		// two processes of 50 MB each under a limit of 80 MiB
		"descendants": `[sh, -c, 'sh "$0" 50000000 2 & sh "$0" 50000000 2 & wait', "` + hog + `"]`,
	} {
		t.Run(name, func(t *testing.T) {
			c, _ := cmdTestCall(t, argv, nil, nil)
			c.Memory, c.MemoryFrom = 80<<20, "runtime.memory"
			v, e := cmdRun(t, c, 60*time.Second)
			if e == nil || e.Kind != MemoryLimitError {
				t.Fatalf("want MemoryLimitError, got %v, %v", v, e)
			}
			if !strings.Contains(e.Message, "exceeded the tool's memory limit of 80 MiB (runtime.memory)") {
				t.Errorf("message %q", e.Message)
			}
			if e.Kind.Retryable() {
				t.Error("a memory limit error must not be retried")
			}
		})
	}
	// Under the limit the same program runs: one process of 50 MB.
	c, _ := cmdTestCall(t, `[sh, "`+hog+`", 50000000, 1]`, nil, nil)
	c.Memory = 80 << 20
	if v, e := cmdRun(t, c, 60*time.Second); e != nil || fmt.Sprint(v) != "50000000" {
		t.Fatalf("one process of 50 MB under 80 MiB: got %v, %v", v, e)
	}
}

func TestPythonMemoryLimit(t *testing.T) {
	src := `
def hog(mb):
    blocks = [bytearray(b"x" * (1 << 20)) for _ in range(mb)]
    return len(blocks)
`
	c, _ := pyTestCall(t, src, "hog", map[string]any{"mb": 400})
	c.Memory = 100 << 20
	v, e := pyRun(t, c, 60*time.Second)
	if e == nil || e.Kind != MemoryLimitError {
		t.Fatalf("want MemoryLimitError, got %v, %v", v, e)
	}
	if !strings.Contains(e.Message, "mod.hog exceeded the memory limit of 100 MiB (the default; set runtime.memory to change it)") {
		t.Errorf("message %q", e.Message)
	}
	c, _ = pyTestCall(t, src, "hog", map[string]any{"mb": 20})
	c.Memory = 100 << 20
	if v, e := pyRun(t, c, 60*time.Second); e != nil || pyJSON(t, v) != "20" {
		t.Fatalf("under the limit: got %v, %v", v, e)
	}
}

// The wall time of a subprocess call ends at its timeout plus the grace,
// even when a grandchild holds stdout open and ignores SIGTERM.
func TestCommandTimeoutWallTime(t *testing.T) {
	c, _ := cmdTestCall(t, `[sh, -c, 'trap "" TERM; (trap "" TERM; sleep 30) & sleep 30']`, nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := commandExecutor{}.Execute(ctx, c)
	if e := AsError(err); e == nil || e.Kind != TimeoutError {
		t.Fatalf("want TimeoutError, got %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s for a 500ms timeout", took)
	}
}
