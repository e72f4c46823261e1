package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
)

var ruleMCPName = &Rule{
	ID:          "mcp-name",
	Severity:    Warning,
	Target:      "mcp",
	Description: "The tool name follows MCP's tool-name format: 1 to 128 letters, digits, _ - or .",
	Explain: `The MCP specification (2025-11-25, SEP-986) says tool names SHOULD be 1 to
128 characters of A-Z, a-z, 0-9, _, - and ., with no spaces, commas or other
special characters, and are case-sensitive
(https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names).
The SDKs warn about other names, and clients may refuse them.

Bad:
  name: get weather
  name: files/search

Good:
  name: get_weather
  name: files.search`,
	Tool: targetName(compat.MCP),
}
