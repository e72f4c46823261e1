//go:build unix

package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeForwardsUpstreamNotices: a tool with an mcp entry (here an
// upstream toolctl serve of a javascript tool that reports) passes the
// upstream server's progress and log messages of the call on to serve's
// client, as a local tool's ctx.progress and ctx.log: progress under the
// client's progressToken, log messages at the client's level.
func TestServeForwardsUpstreamNotices(t *testing.T) {
	upstream, relay := relayDirs(t, "reporter", `name: reporter
description: Logs and reports progress. Use when testing notifications.
category: custom
entry:
  type: javascript
  code: |
    function execute(input, ctx) {
      ctx.debug("fine detail");
      ctx.info("working", {step: 1});
      ctx.progress(1, 2, "half");
      ctx.progress(2, 2);
      return "done";
    }
`)
	// the same tool, local: what the relay forwards must be what it sends
	data, err := os.ReadFile(filepath.Join(upstream, "reporter.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(relay, "reporter.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}

	withLog := []string{
		`log info {"data":{"step":1},"message":"working"}`,
		`progress tok 1/2 "half"`,
		`progress tok 2/2 ""`,
	}
	// 2025-06-18: the direct path, log messages at the level set; the
	// SDK's latest revision: the SDK answers (whatever it sends for a
	// local tool, it sends for the relay).
	for _, protocol := range []string{"2025-06-18", ""} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			local := notices(t, relay, protocol, "reporter")
			relayed := notices(t, relay, protocol, "relay")
			if strings.Join(relayed, "\n") != strings.Join(local, "\n") {
				t.Errorf("relayed:\n%s\nlocal:\n%s", strings.Join(relayed, "\n"), strings.Join(local, "\n"))
			}
			if protocol != "" && strings.Join(relayed, "\n") != strings.Join(withLog, "\n") {
				t.Errorf("relayed:\n%s\nwant:\n%s", strings.Join(relayed, "\n"), strings.Join(withLog, "\n"))
			}
		})
	}
}

// notices calls tool on toolctl serve DIR (protocol: the revision the
// client asks for, "" the SDK's latest) with progressToken "tok" at log
// level info, and returns the notifications the client got.
func notices(t *testing.T, dir, protocol, tool string) []string {
	t.Helper()
	var mu sync.Mutex
	var got []string
	note := func(s string) {
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			p := r.Params
			note(fmt.Sprintf("progress %v %g/%g %q", p.ProgressToken, p.Progress, p.Total, p.Message))
		},
		LoggingMessageHandler: func(_ context.Context, r *sdk.LoggingMessageRequest) {
			data, _ := json.Marshal(r.Params.Data)
			note(fmt.Sprintf("log %s %s", r.Params.Level, data))
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, stderr := serveClient(ctx, t, dir, protocol, client)
	if err := cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	params := &sdk.CallToolParams{Name: tool, Arguments: map[string]any{}}
	params.SetProgressToken("tok")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatalf("call %s: %v\nstderr:\n%s", tool, err, stderr)
	}
	if res.IsError || resultText(res) != "done" {
		t.Fatalf("%s: %v %q\nstderr:\n%s", tool, res.IsError, resultText(res), stderr)
	}
	// The client's SDK hands notifications to its handlers on a goroutine
	// of their own, after the result perhaps: wait until the progress to
	// 2 of 2 came (a bound against a hang, not a timing).
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		done := len(got) > 0 && strings.HasPrefix(got[len(got)-1], "progress tok 2/2")
		mu.Unlock()
		if done {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(got)
}

// TestServeForwardsUpstreamAsks: a tool with an mcp entry passes the
// upstream server's requests to the client (sampling/createMessage,
// elicitation/create, which an upstream toolctl serve's javascript tool
// sends through ctx.sample and ctx.elicit) on to serve's own client and
// the answers back, on each protocol revision (from 2026-07-28 on, as
// multi round-trip requests between serve and its client).
func TestServeForwardsUpstreamAsks(t *testing.T) {
	_, relay := relayDirs(t, "asker", `name: asker
description: Asks the client's model and user. Use when testing forwarded requests.
category: custom
entry:
  type: javascript
  code: |
    async function execute(input, ctx) {
      const s = await ctx.sample("hi", { maxTokens: 5 });
      const e = await ctx.elicit("Who are you?", { type: "object", properties: { username: { type: "string" } } });
      return "model said " + s.content.text + "; user " + e.action + " " + e.content.username;
    }
`)
	for _, protocol := range []string{"2025-06-18", ""} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			var mu sync.Mutex
			var asked []string
			client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, &sdk.ClientOptions{
				CreateMessageHandler: func(_ context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
					mu.Lock()
					asked = append(asked, "sample")
					mu.Unlock()
					return &sdk.CreateMessageResult{Role: "assistant", Content: &sdk.TextContent{Text: "hello"}, Model: "m"}, nil
				},
				ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
					mu.Lock()
					asked = append(asked, "elicit "+req.Params.Message)
					mu.Unlock()
					return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada"}}, nil
				},
			})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cs, stderr := serveClient(ctx, t, relay, protocol, client)
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "relay", Arguments: map[string]any{}})
			if err != nil {
				t.Fatalf("call: %v\nstderr:\n%s", err, stderr)
			}
			if want := "model said hello; user accept ada"; res.IsError || resultText(res) != want {
				t.Errorf("result %v %q, want %q\nstderr:\n%s", res.IsError, resultText(res), want, stderr)
			}
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(asked, ",") != "sample,elicit Who are you?" {
				t.Errorf("the client was asked %q", asked)
			}
		})
	}
}

// relayDirs writes the tool file upstreamTool (of the tool named tool)
// into DIR/upstream and, into DIR/relay, relay.yaml: a tool with an mcp
// entry that calls it on toolctl serve of DIR/upstream (this test binary
// as toolctl: the environment that makes it one is inherited).
func relayDirs(t *testing.T, tool, upstreamTool string) (upstream, relay string) {
	t.Helper()
	dir := t.TempDir()
	upstream, relay = filepath.Join(dir, "upstream"), filepath.Join(dir, "relay")
	server, _ := json.Marshal([]string{os.Args[0], "serve", "--no-lint", upstream})
	files := map[string]string{
		filepath.Join(upstream, tool+".yaml"): upstreamTool,
		filepath.Join(relay, "relay.yaml"): fmt.Sprintf(`name: relay
description: Calls %s upstream. Use when testing what a relay forwards.
category: custom
input_schema: {type: object, properties: {}}
entry:
  type: mcp
  server: %s
  tool: %s
`, tool, server, tool),
	}
	for path, data := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return upstream, relay
}

// startServe starts toolctl serve with args, its stdin and stdout piped
// and its stderr in a buffer; the caller ends it.
func startServe(t *testing.T, args ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser, *lockedBuffer) {
	t.Helper()
	c := toolctl(append([]string{"serve"}, args...)...)
	stderr := &lockedBuffer{}
	c.Stderr = stderr
	stdin, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	return c, stdin, stdout, stderr
}

// serveClient starts toolctl serve --no-lint dir and connects client to
// it at protocol ("" the SDK's latest); both end with the test.
func serveClient(ctx context.Context, t *testing.T, dir, protocol string, client *sdk.Client) (*sdk.ClientSession, *lockedBuffer) {
	t.Helper()
	c, stdin, stdout, stderr := startServe(t, "--no-lint", dir)
	t.Cleanup(func() {
		c.Process.Kill()
		_ = c.Wait()
	})
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: stdout, Writer: stdin}, &sdk.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, stderr
}
