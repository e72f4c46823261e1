package run

import (
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Helpers for MCP clients other than the mcp executor (toolctl import
// --from-server): the same command-line splitting and the same process
// handling (own process group, stderr tail, stdin-close shutdown).

// MCPProtocolVersion is the protocol version toolctl's MCP clients offer
// (see the note at the top of mcp.go).
const MCPProtocolVersion = mcpProtocolVersion

// SplitCommandLine splits a command line into argv the way entry.server
// is split: POSIX shell words and quotes, nothing else (no variables,
// globs, pipes or redirections).
func SplitCommandLine(s string) ([]string, error) { return splitCommandLine(s) }

// MCPServerProcess is a stdio MCP server started by StartMCPServer.
type MCPServerProcess struct {
	p    *mcpProc
	argv []string
}

// StartMCPServer starts argv in dir (the current directory when empty) as
// the leader of its own process group, forwarding its stderr to stderr
// (nil discards it). The group is killed when ctx ends or on Stop.
func StartMCPServer(ctx context.Context, argv []string, dir string, stderr io.Writer) (*MCPServerProcess, error) {
	p, err := startMCPServer(ctx, &Call{Dir: dir, Stderr: stderr}, argv)
	if err != nil {
		return nil, err
	}
	return &MCPServerProcess{p: p, argv: argv}, nil
}

// Transport returns the client transport over the server's stdin and
// stdout; wrap, when not nil, wraps the stdout reader (to observe the raw
// messages).
func (s *MCPServerProcess) Transport(wrap func(io.Reader) io.Reader) mcp.Transport {
	if wrap == nil {
		return s.p.transport()
	}
	// Closing the transport still closes the pipe, which ends a pending read.
	r := struct {
		io.Reader
		io.Closer
	}{wrap(s.p.stdoutR), s.p.stdoutR}
	return &mcp.IOTransport{Reader: r, Writer: s.p.stdinW}
}

// ExitError explains a failure of what (e.g. "tools/list") by the server
// having exited, with the end of its stderr; nil when it is still running.
func (s *MCPServerProcess) ExitError(what string, err error) error {
	if e := s.p.exitError(&mcpTarget{argv: s.argv}, what, err); e != nil {
		return e
	}
	return nil
}

// StderrTail returns the end of what the server wrote to stderr.
func (s *MCPServerProcess) StderrTail() string { return s.p.tail.String() }

// Stop closes the server's stdin, waits a moment for it to exit, then
// kills its process group.
func (s *MCPServerProcess) Stop() { s.p.stop() }
