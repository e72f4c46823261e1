package main

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/toolctl/toolctl/cmd"
)

// TestMain lets the test binary act as the toolctl command: testscript puts
// a copy of it named "toolctl" on the scripts' PATH.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"toolctl": func() { os.Exit(cmd.Main()) },
	})
}

// TestScript runs the end-to-end scripts in testdata/script. Every script
// starts in an empty $WORK with:
//
//   - $WORK/bundled: a copy of the repository's tools directory;
//   - HOME=$WORK and no TOOLCTL_*, NO_COLOR or TERM variables;
//   - the extra commands exitcode, jsonvalid, utf16 and httpstub (see below).
func TestScript(t *testing.T) {
	bundled, err := filepath.Abs("tools")
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(bundled); err != nil || !info.IsDir() {
		t.Fatalf("the bundled tools directory %s is missing", bundled)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// testscript builds the environment from scratch, but be
			// explicit: nothing that changes toolctl's settings may leak in.
			vars := env.Vars[:0]
			for _, kv := range env.Vars {
				name, _, _ := strings.Cut(kv, "=")
				if strings.HasPrefix(name, "TOOLCTL_") || name == "NO_COLOR" || name == "TERM" {
					continue
				}
				vars = append(vars, kv)
			}
			env.Vars = vars
			env.Setenv("HOME", env.WorkDir)
			return copyDir(bundled, filepath.Join(env.WorkDir, "bundled"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":     cmdExitCode,
			"jsonvalid":    cmdJSONValid,
			"utf16":        cmdUTF16,
			"httpstub":     cmdHTTPStub,
			"httpstubstop": cmdHTTPStubStop,
			"freeport":     cmdFreePort,
			"waitport":     cmdWaitPort,
		},
	})
}

// cmdExitCode implements "exitcode N program [args...]": it runs program
// like exec, keeps its stdout and stderr for the next stdout/stderr/cmp
// commands, and fails unless the exit status is exactly N. Because a Go panic
// also exits with status 2, it fails too when stderr shows a panic.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode (give the expected code instead)")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %q is not a number", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if stderr := ts.ReadFile("stderr"); strings.HasPrefix(stderr, "panic:") || strings.Contains(stderr, "\ngoroutine ") {
		ts.Fatalf("%s panicked", args[1])
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// cmdJSONValid implements "jsonvalid file": the file (or stdout/stderr, as
// in cmp) must hold exactly one JSON value.
func cmdJSONValid(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: jsonvalid file")
	}
	data := ts.ReadFile(args[0])
	dec := json.NewDecoder(strings.NewReader(data))
	var v any
	err := dec.Decode(&v)
	if err == nil && dec.More() {
		err = fmt.Errorf("more than one JSON value")
	}
	switch {
	case err != nil && !neg:
		ts.Fatalf("%s is not valid JSON: %v", args[0], err)
	case err == nil && neg:
		ts.Fatalf("%s is valid JSON", args[0])
	}
}

// cmdUTF16 implements "utf16 src dst": dst is src in UTF-16LE with a BOM,
// the encoding Windows PowerShell redirections write.
func cmdUTF16(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: utf16 src dst")
	}
	units := utf16.Encode([]rune(ts.ReadFile(args[0])))
	out := []byte{0xFF, 0xFE}
	for _, u := range units {
		out = binary.LittleEndian.AppendUint16(out, u)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), out, 0o666))
}

// copyDir copies the regular files of a directory tree.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o777)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o666)
	})
}

// cmdHTTPStub implements "httpstub": it starts an HTTP server on 127.0.0.1
// for the rest of the script and sets $SERVER to its URL. Routes:
//
//	/echo        200, the request as JSON {method, path, query, headers, body}
//	/text        200, text/plain "hello"
//	/status/N    status N with a JSON error body naming the request URI;
//	             429 sends Retry-After: 1
//	/flaky       503 on the first request, then 200 {"ok": true}
//	/slow        answers after 5 s (or when the client goes away)
func cmdHTTPStub(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: httpstub")
	}
	var flaky atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		headers := map[string]string{}
		for k := range r.Header {
			headers[strings.ToLower(k)] = r.Header.Get(k)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "path": r.URL.Path, "query": r.URL.RawQuery, "headers": headers, "body": string(body)})
	})
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "hello")
	})
	mux.HandleFunc("/status/{code}", func(w http.ResponseWriter, r *http.Request) {
		code, err := strconv.Atoi(r.PathValue("code"))
		if err != nil {
			code = 400
		}
		if code == 429 {
			w.Header().Set("Retry-After", "1")
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		// the request in the message, as many APIs do
		json.NewEncoder(w).Encode(map[string]string{"error": fmt.Sprintf("status %d for %s", code, r.RequestURI)})
	})
	mux.HandleFunc("/flaky", func(w http.ResponseWriter, r *http.Request) {
		if flaky.Add(1) == 1 {
			http.Error(w, "warming up", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok": true}`)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	ts.Defer(srv.Close)
	ts.Setenv("SERVER", srv.URL)
	stubs.Store(srv.URL, srv)
}

// stubs are the running httpstub servers by URL, for httpstubstop.
var stubs sync.Map

// cmdHTTPStubStop implements "httpstubstop": it stops the server httpstub
// started ($SERVER keeps its URL, which nothing answers any more).
func cmdHTTPStubStop(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: httpstubstop")
	}
	srv, ok := stubs.LoadAndDelete(ts.Getenv("SERVER"))
	if !ok {
		ts.Fatalf("httpstubstop: no httpstub server is running")
	}
	srv.(*httptest.Server).Close()
}

// cmdFreePort implements "freeport VAR": it sets $VAR to a TCP port on
// 127.0.0.1 that was free a moment ago, for a server the script starts.
func cmdFreePort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport VAR")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := l.Addr().(*net.TCPAddr).Port
	ts.Check(l.Close())
	ts.Setenv(args[0], strconv.Itoa(port))
}

// cmdWaitPort implements "waitport PORT": it waits until a server accepts
// connections on 127.0.0.1:PORT, failing after 30 s (a hang, not a timing
// assertion).
func cmdWaitPort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitport PORT")
	}
	addr := net.JoinHostPort("127.0.0.1", args[0])
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitport: nothing accepts connections on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
