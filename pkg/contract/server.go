package contract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolctl/toolctl/pkg/breaking"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/mcpclient"
	"github.com/toolctl/toolctl/pkg/run"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Server is a live MCP server under test (--server, --url): the tool
// files are the contract.
type Server struct {
	session *mcp.ClientSession
	proc    *mcpclient.Server
	limit   *mcpclient.ResponseLimit // http
	// goneMsg says how the stdio server went away, once a call saw it.
	goneMu  sync.Mutex
	goneMsg string
	// Tools are the server's tools/list, by name.
	Tools map[string]*mcp.Tool
	where string
	// calls: an example with client answers calls alone (write lock), so
	// that the server's requests during its call are its own; the others
	// share it. current holds that example's client.
	calls   sync.RWMutex
	current atomic.Pointer[cannedClient]
}

// ConnectTimeout bounds Connect's initialize handshake and tools/list
// (a server started with npx or uvx may first download itself).
var ConnectTimeout = time.Minute

// Connect starts the server (a command line) or connects to it (an http
// URL) and lists its tools.
func Connect(ctx context.Context, server string, stderr io.Writer) (*Server, error) {
	s := &Server{where: server}
	var transport mcp.Transport
	if mcpclient.IsHTTPURL(server) {
		// A response's messages are bounded as a stdio server's lines are.
		s.limit = mcpclient.LimitResponses(nil)
		transport = &mcp.StreamableClientTransport{Endpoint: server, HTTPClient: &http.Client{Transport: s.limit}, DisableStandaloneSSE: true}
	} else {
		argv, err := mcpclient.SplitCommandLine(server)
		if err != nil {
			return nil, fmt.Errorf("--server %q: %v", server, err)
		}
		if len(argv) == 0 {
			return nil, fmt.Errorf("--server is empty; give the server's command line")
		}
		p, err := mcpclient.Start(ctx, argv, "", stderr, 0)
		if err != nil {
			return nil, mcpclient.FlagError(err, "--server")
		}
		s.proc = p
		transport = p.Transport(nil)
	}
	// The server's sampling and elicitation requests get the answers of
	// the example whose call is running (expect.client).
	copts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{
		Sampling:    &mcp.SamplingCapabilities{},
		Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}},
	}}
	copts.CreateMessageWithToolsHandler = func(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
		var res mcp.CreateMessageWithToolsResult
		return &res, s.answer(ctx, run.MethodSample, &res)
	}
	copts.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		var res mcp.ElicitResult
		return &res, s.answer(ctx, run.MethodElicit, &res)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "toolctl-test", Version: "1"}, copts)
	// The handshake and tools/list are bounded on their own: ctx is the
	// whole run's, and the server lives as long as it.
	hctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	session, err := client.Connect(hctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: mcpclient.ProtocolVersion})
	if err != nil && ctx.Err() == nil && hctx.Err() != nil {
		s.Close()
		msg := fmt.Sprintf("the MCP server %s did not finish the initialize handshake within %s", server, ConnectTimeout)
		if s.proc != nil {
			msg += "; check that the command starts an MCP stdio server (nothing else may write to its stdout)"
		}
		return nil, errors.New(msg)
	}
	if err != nil {
		// A stdio server that exited (a program not found, a crash) says
		// why, not only "EOF".
		if s.proc != nil {
			if x := s.proc.ExitError("initialize", err); x != nil {
				s.Close()
				if x.Start != nil {
					return nil, mcpclient.FlagError(x, "--server")
				}
				return nil, fmt.Errorf("--server %q: %v", server, x)
			}
		}
		s.Close()
		return nil, fmt.Errorf("cannot connect to the MCP server %s: %v", server, mcpclient.RootCause(err))
	}
	s.session = session
	s.Tools = map[string]*mcp.Tool{}
	for tool, err := range session.Tools(hctx, nil) {
		if err != nil {
			s.Close()
			if ctx.Err() == nil && hctx.Err() != nil {
				return nil, fmt.Errorf("the MCP server %s did not answer tools/list within %s", server, ConnectTimeout)
			}
			return nil, fmt.Errorf("tools/list on %s: %v", server, err)
		}
		s.Tools[tool.Name] = tool
	}
	return s, nil
}

// answer answers a server's request with the running example's client
// answer, decoded into res.
func (s *Server) answer(ctx context.Context, method string, res any) error {
	c := s.current.Load()
	if c == nil {
		c = newCannedClient(nil)
	}
	raw, err := c.Ask(ctx, method, nil)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, res); err != nil {
		return fmt.Errorf("the example's answer to %s does not fit the MCP schema: %v", method, err)
	}
	return nil
}

// gone explains err, a failed request what, by the stdio server having
// exited (or written what the client cannot read); msg when it has not.
// The calls after the first that saw it say when it happened.
func (s *Server) gone(what string, err error, msg string) string {
	s.goneMu.Lock()
	defer s.goneMu.Unlock()
	if s.goneMsg != "" {
		return "the MCP server is no longer running: " + s.goneMsg
	}
	x := s.proc.ExitError(what, err)
	if x == nil {
		return msg
	}
	s.goneMsg = x.Error()
	return s.goneMsg
}

// Close ends the session and stops a started server.
func (s *Server) Close() {
	if s.session != nil {
		mcpclient.CloseSession(s.session)
	}
	if s.proc != nil {
		s.proc.Stop()
	}
}

// Definition is the server's definition of a tool as a tool file (its
// tools/list entry in the MCP dialect), nil when it lists none.
func (s *Server) Definition(name string) *spec.Tool {
	tool, ok := s.Tools[name]
	if !ok {
		return nil
	}
	data, err := json.Marshal(tool)
	if err != nil {
		return nil
	}
	f := spec.ParseFile(s.where+"#"+name+".json", data)
	if len(f.Tools) != 1 {
		return nil
	}
	return f.Tools[0]
}

// Call calls a tool on the server. The result is an *Answer whose value
// is its structuredContent when present, else its text parsed as JSON
// when it parses, else the text. An isError result is a
// ToolExecutionError (its Detail the *Answer), an invalid-params error a
// ValidationError.
func (s *Server) Call(ctx context.Context, t *spec.Tool, input map[string]any) (any, error) {
	return s.CallWithin(ctx, t, input, 0)
}

// CallWithin is Call with a timeout (none when 0): a call the server has
// not answered by then is a TimeoutError (and the SDK cancels it on the
// server).
func (s *Server) CallWithin(ctx context.Context, t *spec.Tool, input map[string]any, timeout time.Duration) (any, error) {
	if _, ok := s.Tools[t.Name]; !ok {
		return nil, &run.Error{Kind: run.NotFoundError, Tool: t.Name, Message: fmt.Sprintf("the server %s lists no tool %q", s.where, t.Name)}
	}
	if input == nil {
		input = map[string]any{}
	}
	if c, ok := run.AskerFrom(ctx).(*cannedClient); ok && c.answers != nil {
		s.calls.Lock()
		s.current.Store(c)
		defer func() {
			s.current.Store(nil)
			s.calls.Unlock()
		}()
	} else {
		s.calls.RLock()
		defer s.calls.RUnlock()
	}
	callCtx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	res, err := s.session.CallTool(callCtx, &mcp.CallToolParams{Name: t.Name, Arguments: input})
	if err != nil {
		var werr *jsonrpc.Error
		if errors.As(err, &werr) && werr.Code == jsonrpc.CodeInvalidParams {
			return nil, &run.Error{Kind: run.ValidationError, Tool: t.Name, Message: werr.Message}
		}
		if ctx.Err() == nil && callCtx.Err() != nil {
			return nil, &run.Error{Kind: run.TimeoutError, Tool: t.Name, Message: fmt.Sprintf("no result within the %s timeout: the MCP server %s did not answer tools/call %q; raise the tool's runtime.timeout if it needs longer", timeout, s.where, t.Name)}
		}
		msg := err.Error()
		switch werr := mcpclient.ServerRPCError(err); {
		case werr != nil:
			msg = fmt.Sprintf("the MCP server %s rejected tools/call %q: %s (JSON-RPC error %d)", s.where, t.Name, werr.Message, werr.Code)
		case s.limit.Exceeded():
			msg = fmt.Sprintf("the MCP server at %s sent a message larger than %d MiB (toolctl's limit) during tools/call %q", s.where, mcpclient.MaxMessage>>20, t.Name)
		case s.proc != nil && ctx.Err() == nil:
			msg = s.gone(fmt.Sprintf("tools/call %q", t.Name), err, msg)
		}
		return nil, &run.Error{Kind: run.ToolExecutionError, Tool: t.Name, Message: msg}
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	text := strings.Join(texts, "\n")
	if res.IsError {
		// toolctl serve (and servers like it) start the text with the kind
		kind := run.ToolExecutionError
		for _, k := range append(run.Kinds, run.DefinitionError) {
			if strings.HasPrefix(text, string(k)+":") || strings.HasPrefix(text, string(k)+" ") {
				kind = k
				text = strings.TrimPrefix(strings.TrimPrefix(text, string(k)+" in "+t.Name), string(k))
				text = strings.TrimSpace(strings.TrimPrefix(text, ":"))
			}
		}
		return nil, &run.Error{Kind: kind, Tool: t.Name, Message: text, Detail: sdkAnswer(res, text)}
	}
	if res.StructuredContent != nil {
		return sdkAnswer(res, res.StructuredContent), nil
	}
	if v, err := spec.DecodeJSON([]byte(text)); err == nil {
		return sdkAnswer(res, v), nil
	}
	return sdkAnswer(res, text), nil
}

// mcpValue is the value an mcp entry's result is compared as, the same as
// a --server call's: structuredContent when present, else the text content
// parsed as JSON when it parses, else the text.
func mcpValue(m *run.MCPResult) (any, error) {
	res := m.Result
	if res.StructuredContent != nil {
		return m.Value() // structuredContent as sent, numbers exact
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	if len(texts) == 0 {
		return m.Value() // the content items (images, resources), or nothing
	}
	text := strings.Join(texts, "\n")
	if v, err := spec.DecodeJSON([]byte(text)); err == nil {
		return v, nil
	}
	return text, nil
}

// SchemaProblems compares the input schema the server lists for t with
// the file's, as toolctl breaking does (file → server): every finding of
// the call category (a call the file documents that the server would
// reject or read otherwise) is a problem, positioned in the file.
func (s *Server) SchemaProblems(t *spec.Tool) []diag.Diagnostic {
	def := s.Definition(t.Name)
	if def == nil {
		return []diag.Diagnostic{{File: t.Path(), Span: t.Span(""), Severity: diag.Error, Rule: "tool-removed", Tool: t.Name,
			Message: fmt.Sprintf("the server %s lists no tool %s", s.where, t.Name)}}
	}
	var out []diag.Diagnostic
	for _, d := range breaking.Compare([]*breaking.Tool{breaking.FromSpec(t)}, []*breaking.Tool{breaking.FromSpec(def)}, breaking.Options{}) {
		if r, ok := breaking.Lookup(d.Rule); ok && r.Category == breaking.CatCall {
			// shown at the file's side: the file is the contract
			d.File, d.Span = t.Path(), t.Span(d.Pointer)
			out = append(out, d)
		}
	}
	return out
}
