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

// TestMCPNoticesBounded: an upstream server's notifications go through the
// call's notices as a local tool's do: at most maxNotices per call, each
// message cut at maxNoticeSize, secrets redacted; another progressToken's
// progress and anything after the result are dropped; drain waits for the
// notifications the tap counted.
func TestMCPNoticesBounded(t *testing.T) {
	rec := &noticeRecorder{}
	c := &Call{Secrets: &Secrets{}}
	c.Secrets.Add("s3cr3t-value")
	c.notices = &notices{to: rec, secrets: c.Secrets}
	n := &mcpNotices{c: c, changed: make(chan struct{}), started: true}
	ctx := context.Background()
	progress := func(token any, p float64, msg string) {
		n.progress(ctx, &mcp.ProgressNotificationClientRequest{Params: &mcp.ProgressNotificationParams{ProgressToken: token, Progress: p, Message: msg}})
	}
	logm := func(level string, data any) {
		n.log(ctx, &mcp.LoggingMessageRequest{Params: &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(level), Data: data}})
	}
	progress(mcpProgressToken, 1, "token s3cr3t-value "+strings.Repeat("x", maxNoticeSize))
	progress("someone-else", 2, "")
	logm("warning", "token s3cr3t-value")
	if len(rec.progress) != 1 || len(rec.progress[0].Message) > maxNoticeSize+len("…") || strings.Contains(rec.progress[0].Message, "s3cr3t") {
		t.Fatalf("progress %d: %.200v", len(rec.progress), rec.progress)
	}
	if len(rec.logs) != 1 || rec.logs[0].Level != "warning" || rec.logs[0].Data != "token ***" {
		t.Fatalf("logs %+v", rec.logs)
	}
	for i := range maxNotices + 10 {
		logm("info", i)
	}
	if got := len(rec.progress) + len(rec.logs); got != maxNotices {
		t.Errorf("%d notices reported, want at most %d", got, maxNotices)
	}

	// drain: returns once the handlers had what the tap counted
	n.seenOnWire(1)
	done := make(chan struct{})
	go func() { n.drain(ctx); close(done) }()
	logm("info", "late")
	<-done
	n.stop()
	before := len(rec.logs)
	n2 := &mcpNotices{c: &Call{notices: &notices{to: rec, secrets: &Secrets{}}}, changed: make(chan struct{}), started: true}
	n2.stop()
	n2.log(ctx, &mcp.LoggingMessageRequest{Params: &mcp.LoggingMessageParams{Level: "info", Data: "after the result"}})
	if len(rec.logs) != before {
		t.Errorf("a log message after the result was forwarded")
	}
}

// TestMCPHTTPNotices: over Streamable HTTP too, the server's progress (for
// the call's progressToken) and log messages (after the logging/setLevel
// the client sends when the server offers logging) reach the reporter.
func TestMCPHTTPNotices(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "toolctl-test", Version: "1.0.0"}, &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}}})
	mcp.AddTool(srv, &mcp.Tool{Name: "report", Description: "Reports."}, func(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "debug", Logger: "db", Data: "working"})
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1, Total: 2, Message: "half"})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	c, _ := mcpTestCall(&spec.Entry{Server: ts.URL, Tool: "report"}, nil, nil)
	rec := &noticeRecorder{}
	c.notices = &notices{to: rec, secrets: c.Secrets}
	if _, err := mcpExec(t, context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if len(rec.logs) != 1 || rec.logs[0].Level != "debug" || rec.logs[0].Logger != "db" || rec.logs[0].Data != "working" {
		t.Errorf("logs %+v", rec.logs)
	}
	if len(rec.progress) != 1 || rec.progress[0] != (Progress{Progress: 1, Total: 2, Message: "half"}) {
		t.Errorf("progress %+v", rec.progress)
	}
}
