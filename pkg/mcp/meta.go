package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/export"
	"github.com/toolctl/toolctl/pkg/spec"
)

// metaToolName is the Level 2 tool of progressive disclosure (README,
// "Serving tools over MCP", --meta-tools): detail, examples and schema of
// one tool, on request.
const metaToolName = "get_tool_info"

const metaToolSchema = `{"type":"object","properties":{"tool_name":{"type":"string","description":"Name of the tool to describe, as tools/list gives it."}},"required":["tool_name"],"additionalProperties":false}`

// addMetaTools registers get_tool_info: the Level 2 text of a served tool
// (detail, triggers, parameters, examples, warnings, related tools), for
// agents that keep only names and descriptions in their prompt.
func (s *Server) addMetaTools() {
	f := false
	s.sdk.AddTool(&sdk.Tool{
		Name:        metaToolName,
		Title:       "Tool information",
		Description: "Returns the full usage notes of one tool: details, when to use it, parameters, examples, warnings and related tools. Use when a tool's description is not enough to call it correctly.",
		InputSchema: json.RawMessage(metaToolSchema),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &f},
	}, s.toolInfo)
}

func (s *Server) toolInfo(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	args, msg := decodeArguments(req.Params.Arguments)
	if msg != "" {
		return errorResult("ValidationError in get_tool_info: " + msg), nil
	}
	name, ok := args["tool_name"].(string)
	if !ok || name == "" {
		return errorResult(`ValidationError in get_tool_info: missing required parameter "tool_name" (string): the name of a tool from tools/list`), nil
	}
	s.mu.RLock()
	t := s.tools[name]
	var names []string
	if t == nil {
		for n := range s.tools {
			names = append(names, n)
		}
	}
	s.mu.RUnlock()
	if t == nil {
		sort.Strings(names)
		msg := fmt.Sprintf("NotFoundError in get_tool_info: no tool named %q", name)
		if sug := spec.Suggest(name, names); sug != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", sug)
		}
		msg += "; the tools are: " + strings.Join(names, ", ")
		return errorResult(msg), nil
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: export.ToolInfo(t.spec)}}}, nil
}
