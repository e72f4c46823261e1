package sandbox

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary act as a memory hog for the memory tests:
// SANDBOX_TEST_HOG=N touches N MiB, says so and holds it for 2 seconds.
func TestMain(m *testing.M) {
	if mb, err := strconv.Atoi(os.Getenv("SANDBOX_TEST_HOG")); err == nil {
		var keep [][]byte
		for range mb {
			b := make([]byte, 1<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			keep = append(keep, b)
		}
		os.Stdout.WriteString("allocated\n")
		time.Sleep(2 * time.Second)
		_ = keep
		os.Exit(0)
	}
	if os.Getenv("SANDBOX_TEST_PARENT") != "" {
		// A caller that dies mid-call: it starts a supervised shell that
		// prints its own pid and a setsid grandchild's, then waits to be
		// killed.
		cmd := exec.CommandContext(context.Background(), "sh", "-c", "echo $$; setsid sleep 30 >/dev/null 2>&1 & echo $!; sleep 30")
		cmd.Stdout = os.Stdout
		s, err := Prepare(cmd, 0)
		if err == nil {
			err = cmd.Start()
		}
		if err != nil {
			os.Stdout.WriteString("error " + err.Error() + "\n")
			os.Exit(1)
		}
		s.Started()
		time.Sleep(30 * time.Second)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type outcome struct {
	stdout string
	err    error
	rep    Report
	state  *os.ProcessState
	took   time.Duration
}

func runSupervised(t *testing.T, ctx context.Context, memory int64, name string, args ...string) outcome {
	t.Helper()
	if !Available() {
		t.Skip("no /proc/self/exe")
	}
	cmd := exec.CommandContext(ctx, name, args...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = os.Stderr
	s, err := Prepare(cmd, memory)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		s.Finish()
		t.Fatal(err)
	}
	s.Started()
	err = cmd.Wait()
	rep := s.Finish()
	return outcome{stdout: stdout.String(), err: err, rep: rep, state: cmd.ProcessState, took: time.Since(start)}
}

// gone tells whether pid no longer runs: absent, or a zombie nobody reaped.
func gone(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(data, ')')
	return i > 0 && i+2 < len(data) && (data[i+2] == 'Z' || data[i+2] == 'X')
}

func pids(t *testing.T, out string) []int {
	t.Helper()
	var ps []int
	for _, f := range strings.Fields(out) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("not a pid: %q in %q", f, out)
		}
		ps = append(ps, n)
	}
	if len(ps) == 0 {
		t.Fatalf("no pids printed")
	}
	return ps
}

func TestExitStatusAndOutputPassThrough(t *testing.T) {
	o := runSupervised(t, context.Background(), 0, "sh", "-c", "echo hello; exit 3")
	if o.stdout != "hello\n" {
		t.Errorf("stdout %q", o.stdout)
	}
	var ee *exec.ExitError
	if !errors.As(o.err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("err %v, want exit status 3", o.err)
	}
	o = runSupervised(t, context.Background(), 0, "sh", "-c", "kill -TERM $$")
	ws, _ := o.state.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Fatalf("state %v, want killed by SIGTERM", o.state)
	}
	o = runSupervised(t, context.Background(), 0, "true")
	if o.err != nil || o.rep != (Report{}) {
		t.Fatalf("true: err %v, report %+v", o.err, o.rep)
	}
}

func TestStartError(t *testing.T) {
	o := runSupervised(t, context.Background(), 0, "/nonexistent/prog")
	if !errors.Is(o.rep.StartErr, fs.ErrNotExist) {
		t.Fatalf("StartErr %v, want not exist", o.rep.StartErr)
	}
	dir := t.TempDir()
	noexec := dir + "/x"
	if err := os.WriteFile(noexec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o = runSupervised(t, context.Background(), 0, noexec)
	if !errors.Is(o.rep.StartErr, fs.ErrPermission) {
		t.Fatalf("StartErr %v, want permission denied", o.rep.StartErr)
	}
}

// A process the program leaves behind, even in a new session or after a
// double fork, does not outlive it.
func TestLeftoversAreKilled(t *testing.T) {
	for name, script := range map[string]string{
		"setsid":       "setsid sleep 30 >/dev/null 2>&1 & echo $!",
		"double fork":  "(sleep 30 >/dev/null 2>&1 & echo $!) ; true",
		"nohup":        "nohup sleep 30 >/dev/null 2>&1 & echo $!",
		"holds stdout": "sleep 30 & echo $!",
	} {
		t.Run(name, func(t *testing.T) {
			o := runSupervised(t, context.Background(), 0, "sh", "-c", script)
			if o.err != nil {
				t.Fatalf("err %v", o.err)
			}
			for _, p := range pids(t, o.stdout) {
				if !gone(p) {
					_ = syscall.Kill(p, syscall.SIGKILL)
					t.Fatalf("pid %d outlived the call", p)
				}
			}
			if o.rep.Leftovers < 1 {
				t.Errorf("report %+v, want leftovers", o.rep)
			}
			if o.took > 10*time.Second {
				t.Errorf("took %v", o.took)
			}
		})
	}
}

// At the deadline the program and everything it started are killed, and
// Wait returns soon after.
func TestCancelKillsTree(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	o := runSupervised(t, ctx, 0, "sh", "-c", "setsid sleep 30 >/dev/null 2>&1 & echo $!; (sleep 31 >/dev/null 2>&1 &); sleep 30")
	if o.took > 10*time.Second {
		t.Fatalf("took %v", o.took)
	}
	ws, _ := o.state.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("state %v, want killed", o.state)
	}
	for _, p := range pids(t, o.stdout) {
		if !gone(p) {
			_ = syscall.Kill(p, syscall.SIGKILL)
			t.Fatalf("pid %d outlived the call", p)
		}
	}
}

func TestMemoryLimit(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("SANDBOX_TEST_HOG", "300")
	o := runSupervised(t, context.Background(), 100<<20, exe)
	if !o.rep.MemoryExceeded || o.rep.Peak <= 100<<20 {
		t.Fatalf("report %+v, want memory exceeded (stdout %q, err %v)", o.rep, o.stdout, o.err)
	}
	if strings.Contains(o.stdout, "allocated") {
		t.Errorf("the hog finished allocating 300 MiB under a 100 MiB limit")
	}
	// Under the limit it runs to its end, and the peak is known.
	t.Setenv("SANDBOX_TEST_HOG", "20")
	o = runSupervised(t, context.Background(), 100<<20, exe)
	if o.rep.MemoryExceeded || o.rep.Peak < 20<<20 || !strings.Contains(o.stdout, "allocated") {
		t.Fatalf("report %+v, stdout %q: want a peak of at least 20 MiB and no limit hit", o.rep, o.stdout)
	}
}

// The limit is on the whole tree: two processes under it each, over it
// together.
func TestMemoryLimitCountsTheTree(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("SANDBOX_TEST_HOG", "70")
	o := runSupervised(t, context.Background(), 100<<20, "sh", "-c", `"$0" & "$0" & wait`, exe)
	if !o.rep.MemoryExceeded {
		t.Fatalf("report %+v, want memory exceeded", o.rep)
	}
}

// When the process that made the call dies, the supervisor notices (its
// control pipe closes) and kills the tree.
func TestCallerDeathKillsTree(t *testing.T) {
	if !Available() {
		t.Skip("no /proc/self/exe")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(exe)
	parent.Env = append(os.Environ(), "SANDBOX_TEST_PARENT=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	var buf [128]byte
	var got string
	for strings.Count(got, "\n") < 2 {
		n, err := out.Read(buf[:])
		if err != nil {
			t.Fatalf("read %q: %v", got, err)
		}
		got += string(buf[:n])
	}
	ps := pids(t, got)
	_ = parent.Process.Kill()
	_ = parent.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for _, p := range ps {
		for !gone(p) {
			if time.Now().After(deadline) {
				_ = syscall.Kill(p, syscall.SIGKILL)
				t.Fatalf("pid %d outlived its caller", p)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
