package run

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/spec"
)

// TestContentItemMediaType: an image item needs an image/* mimeType and
// an audio item an audio/* one (MCP ImageContent/AudioContent), whichever
// way the item is made: the JavaScript helpers, a result envelope, the
// command envelope on stdout, the Python helpers.
func TestContentItemMediaType(t *testing.T) {
	const htmlImage = `content item 0 (image) has mimeType "text/html"; an image item needs an image/* type (e.g. image/png)`
	for code, want := range map[string]string{
		`function execute() { return toolctl.image(new Uint8Array([1, 2, 3]), "text/html") }`:                          htmlImage,
		`function execute() { return toolctl.audio("AAAA", "image/png") }`:                                             `content item 0 (audio) has mimeType "image/png"; an audio item needs an audio/* type (e.g. audio/wav)`,
		`function execute() { return [toolctl.text("x"), toolctl.image("AAAA", "image")] }`:                            `content item 1 (image) has mimeType "image"`,
		`function execute() { return toolctl.result({content: [{type: "image", data: "AAAA", mimeType: "image/"}]}) }`: `content item 0 (image) has mimeType "image/"`,
	} {
		_, e, _, _ := richRun(t, jsTool(code), nil, nil)
		if e == nil || !strings.Contains(e.Message, want) {
			t.Errorf("%s: error %v, want one containing %q", code, e, want)
		}
	}

	doc := "name: rich\ndescription: A test tool.\nentry:\n  type: command\n  command: [./tool.sh]\n"
	sh := "#!/bin/sh\necho '{\"toolctl\": \"result\", \"content\": [{\"type\": \"image\", \"data\": \"AAAA\", \"mimeType\": \"text/html\"}]}'\n"
	if _, e, _, _ := richRun(t, doc, map[string]string{"tool.sh": sh}, nil); e == nil || !strings.Contains(e.Message, htmlImage) {
		t.Errorf("command envelope: error %v, want one containing %q", e, htmlImage)
	}

	// Case and parameters do not matter: these are image and audio types.
	for _, mt := range []string{`"IMAGE/PNG"`, `"image/svg+xml; charset=utf-8"`} {
		v, e, _, _ := richRun(t, jsTool(`function execute() { return toolctl.image("AAAA", `+mt+`) }`), nil, nil)
		if e != nil {
			t.Errorf("%s: %v", mt, e)
		} else if _, ok := v.(*MCPResult); !ok {
			t.Errorf("%s: result %T", mt, v)
		}
	}
}

func TestPythonContentItemMediaType(t *testing.T) {
	pyNeed(t)
	mod := "import toolctl\n\ndef run():\n    return toolctl.image(b\"\\x01\\x02\\x03\", \"text/html\")\n"
	doc := "name: rich\ndescription: A test tool.\nentry:\n  type: python\n  module: pic\n  function: run\n"
	_, e, _, _ := richRun(t, doc, map[string]string{"pic.py": mod}, nil)
	want := `content item 0 (image) has mimeType "text/html"; an image item needs an image/* type (e.g. image/png)`
	if e == nil || !strings.Contains(e.Message, want) {
		t.Errorf("error %v, want one containing %q", e, want)
	}
}

// TestMCPRelaysUpstreamItems: an mcp entry passes an upstream server's
// items on as the server sent them; toolctl checks the items a tool makes,
// not those it relays (MCPResult.Raw is byte for byte the server's).
func TestMCPRelaysUpstreamItems(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "odd", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "odd", Description: "An image typed text/html."}, func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte{1, 2, 3}, MIMEType: "text/html"}}}, nil, nil
	})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	c, _ := mcpTestCall(&spec.Entry{Server: ts.URL, Tool: "odd"}, nil, nil)
	m, err := mcpExecResult(t, context.Background(), c)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if got := string(m.Raw); !strings.Contains(got, `"mimeType":"text/html"`) {
		t.Errorf("relayed %s", got)
	}
}
