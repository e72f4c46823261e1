package run

import (
	"io"
	"path/filepath"
)

// MCPServer is the server an mcp call connects to, as its entry resolves
// (${ENV} expanded).
type MCPServer struct {
	// URL is the Streamable HTTP endpoint, or "" for a stdio server.
	URL string
	// Command is the stdio server's command line when URL is "".
	Command []string
	// Tool is the tool's name on the server.
	Tool string
}

// MCPWire sees or replaces the JSON-RPC messages of mcp calls: toolctl
// test records them in a cassette and replays them from it. It works at
// the client, below the SDK's session: the executor is the same with or
// without it.
type MCPWire interface {
	// Session is asked once per connection, before anything starts. It
	// returns a stand-in for the server (the client writes its JSON-RPC
	// messages to it, one a line, and reads the answers, one a line), or
	// nil to connect to s for real; and observe, which is told each
	// message (or batch) the client sends (sent true) to and receives
	// from the server, as on the wire (nil: none).
	Session(s MCPServer) (standIn io.ReadWriteCloser, observe func(sent bool, data []byte))
	// Replaying tells whether calls are answered by stand-ins: the
	// servers' programs need not exist.
	Replaying() bool
}

// absProgram is argv with a relative program path (one resolved against
// the tool file's directory, e.g. tools/server.sh) made absolute: the
// server runs in that directory, where the relative path would be
// resolved again.
func absProgram(argv []string) []string {
	if !hasDir(argv[0]) || filepath.IsAbs(argv[0]) {
		return argv
	}
	abs, err := filepath.Abs(argv[0])
	if err != nil {
		return argv
	}
	return append([]string{abs}, argv[1:]...)
}

// HTTPMaxBody is the most the http executor reads of a successful
// response; a longer one fails the call (toolctl test bounds what a
// cassette records by it).
const HTTPMaxBody = httpMaxBody
