// Research note: MCP protocol versions in github.com/modelcontextprotocol/go-sdk
// v1.8.0 (read from mcp/shared.go, client.go, server.go, streamable.go).
//
// The SDK knows five versions, newest first (mcp.SupportedProtocolVersions):
// 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05.
//
// Client, by default (ClientSessionOptions.ProtocolVersion empty): it offers
// the latest, 2026-07-28 (SEP-2575, stateless), by sending `server/discover`
// instead of `initialize`. If the server answers with
// CodeUnsupportedProtocolVersion and a list of versions, it retries discover
// with the newest common version >= 2026-07-28; on any other failure it falls
// back to the legacy `initialize` handshake offering 2025-11-25, and accepts
// whatever version of the five the server answers with (anything else fails
// with "unsupported protocol version"). Under 2026-07-28 every request
// carries _meta protocolVersion/clientInfo/clientCapabilities, there is no
// standalone GET SSE stream, and list_changed arrives only through
// `subscriptions/listen`. With ProtocolVersion set below 2026-07-28 the client
// skips discover and sends initialize with that version.
//
// Server: the legacy initialize answers with the client's version when it is
// supported and older than 2026-07-28, else with the newest supported legacy
// version (2025-11-25 when ServerOptions.SupportedProtocolVersions lists only
// 2026-07-28 or later). server/discover is served over stdio and over
// Streamable HTTP only when StreamableHTTPOptions.Stateless is set (a
// stateful HTTP transport serves the legacy versions only). An HTTP request
// without an MCP-Protocol-Version header is taken to be 2025-03-26; a header
// naming an unsupported legacy version gets 400.
//
// toolctl pins the client to 2025-11-25 (ProtocolVersion): one initialize
// round trip that every server generation answers, whereas discover is a
// method older servers do not know; a server that ignores unknown methods
// instead of answering with an error would hang the call until its timeout.
// A one-shot tools/call gains nothing from the stateless protocol.

// Package mcpclient is what toolctl's MCP clients share: the mcp executor
// (pkg/run) and import --from-server/--from-url (pkg/importer). It starts
// a stdio server guarded as run starts any subprocess, splits a command
// line as entry.server is split, and tells apart the ways a connection or
// a request fails.
package mcpclient

import (
	"errors"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	// ProtocolVersion is the version toolctl's clients offer in initialize
	// (see the note at the top of this file).
	ProtocolVersion = "2025-11-25"
	// StopGrace is how long a stdio server may take to exit once its stdin
	// is closed before its process group is killed.
	StopGrace = 2 * time.Second
)

// IsHTTPURL tells an MCP server URL (Streamable HTTP) from a command line.
func IsHTTPURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// CloseSession closes gracefully, but never lets a stuck close outlive
// the call: the stdio server is killed by Stop anyway.
func CloseSession(s *mcp.ClientSession) {
	done := make(chan struct{})
	go func() {
		_ = s.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(StopGrace):
	}
}

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

// SplitCommandLine splits a command line into argv the way a POSIX shell
// splits words, without running one: blanks separate words; '...' is
// literal; "..." is literal except for \" \\ \$ \` and \newline; outside
// quotes a backslash takes the next character literally. Nothing else is
// special: no variables (${ENV} is expanded afterwards, in every word,
// quoted or not), globs, pipes or redirections. On Windows, write paths
// with backslashes in the list form of entry.server.
func SplitCommandLine(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		case ch == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("the command line ends with a lone backslash")
			}
			i++
			if s[i] != '\n' { // backslash-newline continues the line
				cur.WriteByte(s[i])
				inWord = true
			}
		case ch == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated ' quote in the command line")
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case ch == '"':
			inWord = true
			closed := false
			for i++; i < len(s); i++ {
				c := s[i]
				if c == '"' {
					closed = true
					break
				}
				if c == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
					i++
					if s[i] != '\n' {
						cur.WriteByte(s[i])
					}
					continue
				}
				cur.WriteByte(c)
			}
			if !closed {
				return nil, errors.New(`unterminated " quote in the command line`)
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}
