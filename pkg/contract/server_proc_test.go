package contract

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

const helperMode = "TOOLCTL_TEST_CONTRACT_SERVER"

// TestServerHelperProcess is a stdio MCP server when helperMode is set:
// "hang" never answers (whatever the client cancels), "die" exits.
func TestServerHelperProcess(t *testing.T) {
	switch os.Getenv(helperMode) {
	case "":
		t.Skip("helper process for the --server tests")
	case "silent":
		time.Sleep(time.Hour) // not an MCP server: never answers
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "helper", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object"}`)
	srv.AddTool(&mcp.Tool{Name: "hang", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {}
	})
	srv.AddTool(&mcp.Tool{Name: "die", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		os.Exit(3)
		return nil, nil
	})
	srv.AddTool(&mcp.Tool{Name: "ok", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	_ = srv.Run(context.Background(), &mcp.StdioTransport{})
	os.Exit(0)
}

func helperServer(t *testing.T) *Server {
	t.Helper()
	t.Setenv(helperMode, "1")
	// The server lives as long as Connect's context.
	s, err := Connect(context.Background(), os.Args[0]+" -test.run=^TestServerHelperProcess$", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func helperTool(t *testing.T, src string) *spec.Tool {
	t.Helper()
	f := spec.ParseFile("tool.yaml", []byte(src))
	if len(f.Tools) != 1 {
		t.Fatalf("parse: %v", f.Errors)
	}
	return f.Tools[0]
}

// TestServerCallTimeout: with --server each call keeps its tool's
// runtime.timeout, as toolctl run's calls do: a server that never answers
// fails the example instead of holding up the whole run.
func TestServerCallTimeout(t *testing.T) {
	s := helperServer(t)
	tool := helperTool(t, `name: hang
description: Never answers. Use when testing timeouts.
runtime: {timeout: 300ms}
examples:
  - scenario: waits
    params: {}
    expected: "x"
`)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := Run(ctx, []*spec.Tool{tool}, Options{Server: s, Runner: &run.Runner{}, Parallel: 1})
	if len(res) != 1 || len(res[0].Outcomes) != 1 {
		t.Fatalf("results: %+v", res)
	}
	o := res[0].Outcomes[0]
	if o.Status != Fail || !strings.Contains(o.Reason, "TimeoutError") || !strings.Contains(o.Reason, "no result within the 300ms timeout") || !strings.Contains(o.Reason, `tools/call "hang"`) {
		t.Errorf("status %v, reason %q; want a TimeoutError after 300ms", o.Status, o.Reason)
	}
}

// TestServerExits: a stdio server that exits during a call is reported
// as such, with its exit status, and so are the calls after it.
func TestServerExits(t *testing.T) {
	s := helperServer(t)
	ctx := context.Background()
	_, err := s.Call(ctx, helperTool(t, "name: die\ndescription: Exits. Use when testing crashes.\n"), nil)
	var e *run.Error
	if !errors.As(err, &e) || e.Kind != run.ToolExecutionError || !strings.Contains(e.Message, `exited (exit status 3) during tools/call "die"`) {
		t.Errorf("the call that killed it: %v", err)
	}
	_, err = s.Call(ctx, helperTool(t, "name: ok\ndescription: Answers ok. Use when testing calls.\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "no longer running") || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("a call after it: %v", err)
	}
}

// TestServerConnectTimeout: a server that never answers the handshake
// fails the run after ConnectTimeout, not after the whole run's --timeout.
func TestServerConnectTimeout(t *testing.T) {
	defer func(d time.Duration) { ConnectTimeout = d }(ConnectTimeout)
	ConnectTimeout = 300 * time.Millisecond
	t.Setenv(helperMode, "silent")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Connect(ctx, os.Args[0]+" -test.run=^TestServerHelperProcess$", nil)
	if err == nil {
		s.Close()
		t.Fatal("connected to a server that never answers")
	}
	if !strings.Contains(err.Error(), "did not finish the initialize handshake within 300ms") {
		t.Errorf("got %v", err)
	}
}
