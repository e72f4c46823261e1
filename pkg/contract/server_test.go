package contract

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolctl/toolctl/pkg/mcpclient"
	"github.com/toolctl/toolctl/pkg/spec"
)

type greetIn struct {
	Name string `json:"name"`
}

type greetOut struct {
	Greeting string `json:"greeting"`
}

// TestServerURL: --url tests a Streamable HTTP server: the tool files are
// the contract, results come from structuredContent, isError fails.
func TestServerURL(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "stub", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "greet", Description: "Greets."}, func(ctx context.Context, req *mcp.CallToolRequest, in greetIn) (*mcp.CallToolResult, greetOut, error) {
		if in.Name == "" {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "name is empty"}}}, greetOut{}, nil
		}
		return nil, greetOut{Greeting: "Hi, " + in.Name}, nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()

	f := spec.ParseFile("greet.yaml", []byte(`name: greet
description: Greets a person. Use when a greeting is needed.
input_schema:
  type: object
  properties:
    name: {type: string, description: who}
  required: [name]
  additionalProperties: false
examples:
  - scenario: Hello
    params: {name: Ada}
    expected: {greeting: "Hello, Ada"}
  - scenario: Hi
    params: {name: Ada}
    expected: {greeting: "Hi, Ada"}
  - scenario: Empty
    params: {name: ""}
    expect: {error: {type: ToolExecutionError, message: empty}}
`))
	if len(f.Tools) != 1 {
		t.Fatalf("parse: %v", f.Errors)
	}
	ctx := context.Background()
	s, err := Connect(ctx, hs.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res := Run(ctx, f.Tools, Options{Server: s, Parallel: 1})
	if len(res) != 1 || len(res[0].Outcomes) != 3 {
		t.Fatalf("results: %+v", res)
	}
	got := []Status{res[0].Outcomes[0].Status, res[0].Outcomes[1].Status, res[0].Outcomes[2].Status}
	if got[0] != Fail || got[1] != Pass || got[2] != Pass {
		t.Errorf("statuses %v, want FAIL ok ok (%s; %s)", got, res[0].Outcomes[0].Reason, res[0].Outcomes[2].Reason)
	}
	if d := res[0].Outcomes[0].Diffs; len(d) != 1 || d[0].Path != "$.greeting" || d[0].Got != `"Hi, Ada"` {
		t.Errorf("diffs %v", d)
	}
	// the SDK infers the schema from greetIn: name is required there too,
	// and additionalProperties false: no call-category difference
	if len(res[0].Problems) != 0 {
		t.Errorf("schema problems: %v", res[0].Problems)
	}
	if _, err := Connect(ctx, "http://127.0.0.1:1/mcp", nil); err == nil || !strings.Contains(err.Error(), "cannot connect") {
		t.Errorf("unreachable server: %v", err)
	}
}

// TestServerURLResultTooLarge: --url bounds a message from the server as
// a stdio server's line is bounded, and says so.
func TestServerURLResultTooLarge(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "stub", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "big", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", mcpclient.MaxMessage+1)}}}, nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()
	f := spec.ParseFile("big.yaml", []byte("name: big\ndescription: Returns a lot. Use when testing limits.\n"))
	if len(f.Tools) != 1 {
		t.Fatalf("parse: %v", f.Errors)
	}
	ctx := context.Background()
	s, err := Connect(ctx, hs.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Call(ctx, f.Tools[0], nil)
	if err == nil || !strings.Contains(err.Error(), "sent a message larger than 16 MiB") {
		t.Errorf("got %v, want the limit named", err)
	}
}
