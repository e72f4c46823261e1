package lint

import (
	"github.com/toolctl/toolctl/pkg/compat"
	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleMCPOutputSchema = &Rule{
	ID:          "mcp-output-schema",
	Severity:    Warning,
	Target:      "mcp",
	Description: "The output schema has type object, as MCP's outputSchema must (structuredContent is a JSON object).",
	Explain: `MCP sends a tool's structured result as structuredContent, a JSON object, and
its outputSchema describes that object
(https://modelcontextprotocol.io/specification/2025-06-18/server/tools#output-schema).
An output schema of another type cannot be sent: toolctl export --format mcp
leaves it out (with a warning), and clients get no schema for the result.

Bad:
  returns: string

Good:
  returns:
    text: string`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if p, ok := compat.MCPOutputSchemaProblem(t.OutputSchema); ok {
			r.Report(t, "/output_schema"+p.Pointer, "%s", p.Message)
		}
	},
}
