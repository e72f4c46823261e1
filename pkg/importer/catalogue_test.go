package importer

import (
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// A catalogue of three servers (LiveMCPBench's shape): two publish a tool
// named search, one is reached by URL, one sets env, one has no config.
const catalogueInput = `[
  {"name": "Web Search MCP", "description": "Searches the web.", "category": "Discovery", "web": "https://example.org",
   "config": {"mcpServers": {"web-search": {"command": "npx", "args": ["-y", "web-search-mcp"], "env": {"API_REGION": "eu"}}}},
   "tools": {"web-search": {"server_name": "web-search", "version": "1.0.0", "tools": [
     {"name": "search", "description": "Searches the web for a query.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}, "annotations": null},
     {"name": "fetchPage", "description": "Fetches a page.", "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}}}
   ], "model_config": {}}}},
  {"name": "Papers", "organization": "someone", "description": "Paper search.", "category": "Discovery",
   "config": {"mcpServers": {"Papers Server": {"url": "https://papers.example.org/mcp"}}},
   "tools": {"Papers Server": {"server_name": "Papers Server", "tools": [
     {"name": "search", "description": "Searches papers.", "inputSchema": {"type": "object", "properties": {}}}
   ]}}},
  {"name": "Orphan", "description": "No config.", "category": "Code",
   "tools": {"12306-mcp": {"tools": [{"name": "1st_train", "description": "The first train.", "inputSchema": {"type": "object"}}]}}}
]`

func TestCatalogue(t *testing.T) {
	res := mustImport(t, Auto, catalogueInput)
	if res.Format != MCP || !strings.Contains(res.Detected, "catalogue of MCP servers") {
		t.Errorf("detected %q (%s), want mcp as a catalogue", res.Format, res.Detected)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Tool.Name)
	}
	want := []string{"web_search__search", "web_search__fetch_page", "papers_server__search", "tool_12306_mcp__1st_train"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("names %v, want %v", names, want)
	}
	// The entry calls the name the server publishes, on the server's
	// command line (a list: no quoting) or URL.
	yamlEq(t, canonical(t, res.Tools[1]), `
		name: web_search__fetch_page
		description: Fetches a page.
		entry:
		  type: mcp
		  server:
		    - npx
		    - -y
		    - web-search-mcp
		  tool: fetchPage
		input_schema:
		  type: object
		  properties:
		    url:
		      type: string
		`)
	if e := res.Tools[2].Tool.Entry; e == nil || e.Server != "https://papers.example.org/mcp" || e.Tool != "search" {
		t.Errorf("papers entry = %+v", e)
	}
	if e := res.Tools[3].Tool.Entry; e != nil {
		t.Errorf("a server without config got entry %+v", e)
	}
	if res.Tools[0].SourceName != "search" || res.Tools[0].Pos.Line != 5 {
		t.Errorf("first tool: source name %q at line %d, want search at line 5", res.Tools[0].SourceName, res.Tools[0].Pos.Line)
	}
	wantContains(t, warningsText(res),
		`in.json: 4 tools of 3 servers are named SERVER__TOOL ("search" is imported as "web_search__search"), as 1 name is in more than one server; each entry.tool keeps the name the server publishes`,
		`in.json:3:104: server "web-search" sets API_REGION in its environment; an mcp entry cannot, so set it where toolctl runs`,
		`in.json:13:3: server "12306-mcp" (Orphan) has no config.mcpServers.12306-mcp: its tools are imported without an entry`,
		`in.json:6:6: tool "fetchPage" is imported as "web_search__fetch_page": toolctl names are snake_case`,
	)
	// Server records are no tools: nothing is named after one.
	if strings.Contains(warningsText(res), `"Web Search MCP"`) {
		t.Errorf("a server record was read as a tool:\n%s", warningsText(res))
	}
}

// Explicit --from mcp reads a catalogue too, and one server record alone.
func TestCatalogueOneServer(t *testing.T) {
	res := mustImport(t, MCP, `{"name": "time", "config": {"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}},
	  "tools": {"time": {"tools": [{"name": "get_current_time", "inputSchema": {"type": "object"}}]}}}`)
	if len(res.Tools) != 1 || res.Tools[0].Tool.Name != "time__get_current_time" || res.Tools[0].Tool.Entry.Tool != "get_current_time" {
		t.Fatalf("got %+v", res.Tools)
	}
	wantContains(t, warningsText(res), `in.json: 1 tool of 1 server is named SERVER__TOOL ("get_current_time" is imported as "time__get_current_time"), so that names stay unique when more servers are added`)
}

// Shapes close to a catalogue that are not one stay what they were.
func TestCatalogueLookalikes(t *testing.T) {
	for _, in := range []string{
		// A tool with a tools property in its schema.
		`{"name": "f", "inputSchema": {"type": "object", "properties": {"tools": {"type": "array"}}}}`,
		// tools as a list (a request body with a name).
		`{"name": "f", "tools": [{"name": "g", "inputSchema": {}}]}`,
		// tools as an object whose members have no tools list.
		`{"name": "f", "inputSchema": {}, "tools": {"a": {"x": 1}}}`,
	} {
		src, err := decodeSource("in.json", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if isCatalogueServer(src.docs[0].(*spec.Map)) {
			t.Errorf("%s read as a catalogue server", in)
		}
	}
}

// A name longer than 64 characters once prefixed is cut to 64.
func TestCatalogueNameLength(t *testing.T) {
	got := catalogueName("a-rather-long-server-name-for-testing", "and_a_rather_long_tool_name_as_well_here")
	if len(got) > maxNameLen || !strings.HasPrefix(got, "a_rather_long_server_name_for_testing__and_a_rather") || strings.HasSuffix(got, "_") {
		t.Errorf("catalogueName = %q (%d characters)", got, len(got))
	}
}
