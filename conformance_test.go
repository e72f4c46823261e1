package main

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// conformanceScenarios are the official MCP conformance suite's server
// scenarios toolctl serve --http passes: the protocol's and every tool
// scenario whose fixture tools testdata/conformance implements.
// tools-call-sampling and tools-call-elicitation are left out: their
// tools ask the client (sampling/createMessage, elicitation/create),
// which a stateless HTTP server cannot; so are the resources, prompts and
// completion scenarios (toolctl serves tools only).
var conformanceScenarios = []string{
	"server-initialize",
	"ping",
	"tools-list",
	"logging-set-level",
	"dns-rebinding-protection",
	"tools-call-simple-text",
	"tools-call-image",
	"tools-call-audio",
	"tools-call-embedded-resource",
	"tools-call-mixed-content",
	"tools-call-with-logging",
	"tools-call-error",
	"tools-call-with-progress",
	"json-schema-2020-12",
	"tools-call-sampling",
	"tools-call-elicitation",
	"elicitation-sep1034-defaults",
	"elicitation-sep1330-enums",
}

// TestConformanceSuite runs the official MCP conformance suite
// (@modelcontextprotocol/conformance, server mode) against toolctl serve
// --http of testdata/conformance. Tests reach no network but loopback,
// so the suite is not fetched here: set TOOLCTL_CONFORMANCE to a
// directory where it is installed with node 22, e.g.
//
//	mkdir /tmp/conf && cd /tmp/conf && npm i node@22 @modelcontextprotocol/conformance
//	TOOLCTL_CONFORMANCE=/tmp/conf go test -run TestConformanceSuite .
//
// (if npm did not run node@22's install script: cd
// node_modules/node && node installArchSpecificPackage). Without it, or
// without node 22 or later, the test is skipped.
func TestConformanceSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the conformance suite takes a while")
	}
	dir := os.Getenv("TOOLCTL_CONFORMANCE")
	if dir == "" {
		t.Skip("TOOLCTL_CONFORMANCE is not set: the MCP conformance suite is not run (see the test's comment to install it)")
	}
	bin := filepath.Join(dir, "node_modules", ".bin")
	suite := filepath.Join(bin, "conformance")
	if _, err := os.Stat(suite); err != nil {
		t.Skipf("no conformance suite in %s: %v; run npm i node@22 @modelcontextprotocol/conformance there", dir, err)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1", "FORCE_COLOR=0")
	nodeExe := filepath.Join(bin, "node")
	if _, err := os.Stat(nodeExe); err != nil {
		nodeExe = "node"
	}
	node := exec.Command(nodeExe, "--version")
	node.Env = env
	out, err := node.Output()
	major, _ := strconv.Atoi(strings.TrimPrefix(strings.SplitN(strings.TrimSpace(string(out)), ".", 2)[0], "v"))
	if err != nil || major < 22 {
		t.Skipf("the conformance suite needs node 22 or later (node --version: %q, %v); npm i node@22 in %s", strings.TrimSpace(string(out)), err, dir)
	}

	exe := filepath.Join(t.TempDir(), "toolctl")
	build := exec.Command("go", "build", "-o", exe, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	addr := freeLoopback(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serve := exec.CommandContext(ctx, exe, "serve", "--http", addr, filepath.Join("testdata", "conformance"))
	serve.Env = append(os.Environ(), "HOME="+t.TempDir())
	var serveLog strings.Builder
	serve.Stdout, serve.Stderr = &serveLog, &serveLog
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		_ = serve.Wait()
	}()
	waitListening(t, addr)

	url := "http://" + addr + "/mcp"
	passed := regexp.MustCompile(`Passed: (\d+)/(\d+), (\d+) failed`)
	for _, scenario := range conformanceScenarios {
		t.Run(scenario, func(t *testing.T) {
			sctx, scancel := context.WithTimeout(ctx, 2*time.Minute)
			defer scancel()
			c := exec.CommandContext(sctx, suite, "server", "--url", url, "--scenario", scenario)
			c.Env = env
			c.Dir = t.TempDir()
			out, err := c.CombinedOutput()
			m := passed.FindSubmatch(out)
			t.Logf("%s: %s", scenario, summary(out))
			if err != nil || m == nil || string(m[3]) != "0" || string(m[1]) != string(m[2]) {
				t.Errorf("scenario %s failed (%v):\n%s\nserver log:\n%s", scenario, err, out, serveLog.String())
			}
		})
	}
}

// summary is the suite's "Passed: n/m" line.
func summary(out []byte) string {
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "Passed:") {
			return sc.Text()
		}
	}
	return "no result line"
}

// freeLoopback is a loopback address nothing listens on.
func freeLoopback(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// waitListening waits until addr accepts connections.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("toolctl serve did not listen on %s within 30s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
