package run

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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
func (s *MCPServerProcess) StderrTail() string { return s.p.tail.raw() }

// Stop closes the server's stdin, waits a moment for it to exit, then
// kills its process group.
func (s *MCPServerProcess) Stop() { s.p.stop() }

// codeRejected is the SDK's own "rejected by transport" error (jsonrpc2's
// ErrRejected), which wraps a request that never reached the server.
const codeRejected = -32005

// ServerRPCError finds the JSON-RPC error the server answered with in
// err's tree, skipping the SDK's codeRejected wrapper.
func ServerRPCError(err error) *jsonrpc.Error {
	if err == nil {
		return nil
	}
	if w, ok := err.(*jsonrpc.Error); ok && w.Code != codeRejected {
		return w
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return ServerRPCError(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if w := ServerRPCError(e); w != nil {
				return w
			}
		}
	}
	return nil
}

// IsNetworkError tells a connection failure (refused, reset, DNS).
func IsNetworkError(err error) bool {
	var op *net.OpError
	var dns *net.DNSError
	return errors.As(err, &op) || errors.As(err, &dns) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}

// RootCause is the innermost error: "dial tcp 127.0.0.1:1: connect:
// connection refused" rather than the SDK's whole chain.
func RootCause(err error) error {
	var op *net.OpError
	if errors.As(err, &op) {
		return op
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return dns
	}
	return err
}
