//go:build unix

package cmd

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runBounded is runIn that fails the test, rather than hang it, when the
// command does not finish in 30 seconds (opening a named pipe blocks until
// something writes to it).
func runBounded(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := runIn(t, dir, "", args...)
		done <- result{code, out, errOut}
	}()
	select {
	case r := <-done:
		return r.code, r.out + r.err
	case <-time.After(30 * time.Second):
		t.Fatalf("toolctl %s did not finish", strings.Join(args, " "))
		return 0, ""
	}
}

// Walks read regular files only: a named pipe or a socket with a tool
// file's name is reported as that file's error, without being opened; a
// symbolic link to a regular file is read; a symbolic link to the
// directory, given as the path, is followed with or without a slash.
func TestWalkSkipsWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	tools := filepath.Join(dir, "real")
	if err := os.MkdirAll(tools, 0o755); err != nil {
		t.Fatal(err)
	}
	good := "name: a\ndescription: Says hello. Use when a greeting is needed.\ncategory: custom\n"
	if err := os.WriteFile(filepath.Join(tools, "a.yaml"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(tools, "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A socket (a short path: socket names are limited to about 100 bytes).
	sockDir, err := os.MkdirTemp("", "sock")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(sockDir)
	l, err := net.Listen("unix", filepath.Join(sockDir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Symlink(filepath.Join(sockDir, "s.json"), filepath.Join(tools, "sock.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.yaml", filepath.Join(tools, "b.yml")); err != nil { // a link to a regular file
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(dir, "tools")); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"tools", "tools/"} {
		for _, args := range [][]string{
			{"lint", root},
			{"list", root},
			{"fmt", "-w", root},
			{"export", "--format", "openai", root},
			{"docs", "-o", "site", root},
		} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, out := runBounded(t, dir, args...)
				if code != ExitProblems {
					t.Errorf("exit %d, want %d", code, ExitProblems)
				}
				for _, want := range []string{
					"tools/pipe.yaml: error: skipped, not opened: it is a named pipe (FIFO), not a regular file",
					"tools/sock.json: error: skipped, not opened: it is a socket, not a regular file",
				} {
					if !strings.Contains(out, want) {
						t.Errorf("output lacks %q", want)
					}
				}
				if args[0] == "list" && (!strings.Contains(out, "tools/a.yaml") || !strings.Contains(out, "tools/b.yml")) {
					t.Errorf("the regular file and the link to it were not read")
				}
				if t.Failed() {
					t.Logf("output:\n%s", out)
				}
			})
		}
	}
	// Named on the command line: a usage error.
	for _, path := range []string{"real/pipe.yaml", "tools/sock.json"} {
		for _, cmd := range []string{"lint", "list", "fmt", "export", "docs", "show"} {
			args := []string{cmd, path}
			switch cmd {
			case "export":
				args = []string{cmd, "--format", "openai", path}
			case "show":
				args = []string{cmd, "a", path}
			case "docs":
				args = []string{cmd, "-o", "site", path}
			}
			code, out := runBounded(t, dir, args...)
			if code != ExitUsage || !strings.Contains(out, "toolctl: "+path+": a ") || !strings.Contains(out, ", not a regular file: toolctl reads tool files only from regular files") {
				t.Errorf("%s: exit %d, output:\n%s", strings.Join(args, " "), code, out)
			}
		}
	}
}

// A named pipe as the config file (found in the working directory or
// named) is an error, not a wait for a writer.
func TestConfigFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, ".toolctl.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"list"}, {"list", "--config", ".toolctl.yaml"}} {
		code, out := runBounded(t, dir, args...)
		if code != ExitUsage || !strings.Contains(out, "toolctl: config file .toolctl.yaml: a named pipe (FIFO), not a regular file") {
			t.Errorf("%s: exit %d\n%s", strings.Join(args, " "), code, out)
		}
	}
}

// Re-importing a Python function reads the existing tool file as a tool
// file: a named pipe in its place is refused, not opened.
func TestImportPythonReimportSkipsNamedPipe(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not available")
	}
	dir := t.TempDir()
	src := "def ping() -> str:\n    \"\"\"Answers pong. Use when checking the tool works.\"\"\"\n    return 'pong'\n"
	if err := os.WriteFile(filepath.Join(dir, "m.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "out", "ping.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := runBounded(t, dir, "import", "--from", "python", "m.py", "-o", "out/")
	if code != ExitUsage || !strings.Contains(out, "named pipe") {
		t.Errorf("exit %d: %s", code, out)
	}
}

// scan reads a .json file that is not a tool file with the importer, and
// verify and lint --baseline read the files they are given: all of them
// only from a regular file of bounded size, as lint reads tool files. A
// named pipe (or a link to /dev/zero) was read until it ended: scan, and
// verify on a committed toolctl.lock, waited forever or filled memory.
func TestScanAndLockReadRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools")
	if err := os.MkdirAll(tools, 0o755); err != nil {
		t.Fatal(err)
	}
	good := "name: a\ndescription: Says hello. Use when a greeting is needed.\ncategory: custom\n"
	if err := os.WriteFile(filepath.Join(tools, "a.yaml"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(tools, "pipe.json"), filepath.Join(dir, "pipe.lock")} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"scan", "tools"}, ExitProblems, "tools/pipe.json: error: skipped, not opened: it is a named pipe (FIFO), not a regular file"},
		{[]string{"verify", "--lock", "pipe.lock", "tools/a.yaml"}, ExitUsage, "toolctl: pipe.lock: cannot read the lock file: a named pipe (FIFO), not a regular file"},
		{[]string{"lint", "--baseline", "pipe.lock", "tools/a.yaml"}, ExitUsage, "toolctl: baseline pipe.lock: a named pipe (FIFO), not a regular file"},
	} {
		code, out := runBounded(t, dir, c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %d (want %d), output lacks %q:\n%s", strings.Join(c.args, " "), code, c.code, c.want, out)
		}
	}
}

// TestRunInputBounded: --input @FILE and --input - read at most a tool
// file's bound: a link to /dev/zero is refused with the reason, not read
// until the memory is gone.
func TestRunInputBounded(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tools", "calc.json"), []byte(`{"name": "calc", "description": "Evaluates arithmetic. Use when numbers must be computed.", "category": "custom", "entry": {"type": "builtin", "handler": "calculator"}, "parameters": {"type": "object", "properties": {"expression": {"type": "string", "description": "The expression."}}, "required": ["expression"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")); err != nil {
		t.Fatal(err)
	}
	code, out := runBounded(t, dir, "run", "calc", "--no-lint", "--input", "@zero.json")
	if code != ExitUsage || !strings.Contains(out, "--input @zero.json: larger than 16 MiB") {
		t.Errorf("--input @zero.json: exit %d, output:\n%s", code, out)
	}
	code, out, errOut := runIn(t, dir, `{"expression": "1+1"}`, "run", "calc", "--no-lint", "--input", "-")
	if code != 0 || !strings.Contains(out, "2") {
		t.Errorf("--input -: exit %d\n%s%s", code, out, errOut)
	}
}
