package importer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Catalogues of MCP servers.
//
// A catalogue lists servers, each with the tools/list it answered
// (LiveMCPBench's tools.json is one, 70 servers and 527 tools):
//
//	[{name, description, category, web?, organization?,
//	  config: {mcpServers: {SERVER: {command, args, env?} | {url}}},
//	  tools: {SERVER: {server_name, version, tools: [TOOL, ...]}}}, ...]
//
// Every TOOL is read as an MCP tool. Tool names repeat across servers
// (search, fetch, read_file: 527 tools, 510 names), while a tools
// directory is one namespace (lint's name-unique runs over the whole tree,
// serve and export take it as one set), so each tool is named after its
// server: SERVER__TOOL in snake_case (bing-cn-mcp's bing_search is
// bing_cn_mcp__bing_search), two underscores between the two so that the
// split stays visible. The name the server publishes is what a call must
// use: it stays in the mcp entry written from the server's config
// (entry: {type: mcp, server: [command, args...], tool: bing_search}).
// The server records' own fields (name, description, category, web,
// organization, version) describe the server, not a tool, and are not kept.

// catalogueSep separates the server and the tool in an imported name.
const catalogueSep = "__"

// isCatalogueServer tells whether m is a server record of a catalogue: a
// name, and tools mapping each server to an object with a tools list. No
// tool of any format has a tools member of that shape.
func isCatalogueServer(m *spec.Map) bool {
	if !m.Has("name") {
		return false
	}
	servers, ok := m.GetMap("tools")
	if !ok || servers.Len() == 0 {
		return false
	}
	for i := range servers.Len() {
		_, v := servers.At(i)
		inner, ok := v.(*spec.Map)
		if !ok {
			return false
		}
		list, ok := inner.Get("tools")
		if _, isList := list.([]any); !ok || !isList {
			return false
		}
	}
	return true
}

// readCatalogueServer reads the tools of one server record.
func readCatalogueServer(r *reader, m *spec.Map, at loc) {
	record, _ := m.GetString("name")
	configs := catalogueConfigs(m)
	servers, _ := m.GetMap("tools")
	sat := at.key("tools")
	for i := range servers.Len() {
		server, v := servers.At(i)
		inner := v.(*spec.Map)
		list, _ := inner.Get("tools")
		first := len(r.tools)
		r.each(list.([]any), sat.key(server).key("tools"), "tool", mcpTool)
		if len(r.tools) == first {
			continue
		}
		entry := catalogueEntry(r, record, server, configs, at)
		for _, t := range r.tools[first:] {
			t.server = server
			if entry != nil {
				e := *entry
				e.Tool = t.SourceName
				t.Tool.Entry = &e
			}
		}
	}
}

// catalogueConfigs returns config.mcpServers of a server record, if any.
func catalogueConfigs(m *spec.Map) *spec.Map {
	cfg, ok := m.GetMap("config")
	if !ok {
		return nil
	}
	servers, _ := cfg.GetMap("mcpServers")
	return servers
}

// catalogueEntry is the mcp entry that calls the tools of server, from its
// config: a stdio command line (command and args, as a list: no quoting)
// or a URL. It returns nil, with a warning, when the config says neither.
func catalogueEntry(r *reader, record, server string, configs *spec.Map, at loc) *spec.Entry {
	cat := at.key("config").key("mcpServers").key(server)
	var cfg *spec.Map
	if configs != nil {
		cfg, _ = configs.GetMap(server)
	}
	if cfg == nil {
		r.warnf(RuleEntryMissing, at, "", "server %q (%s) has no config.mcpServers.%s: its tools are imported without an entry; add entry: {type: mcp, server: ..., tool: ...} to run them", server, record, server)
		return nil
	}
	if env, ok := cfg.GetMap("env"); ok && env.Len() > 0 {
		keys := env.Keys()
		sort.Strings(keys)
		r.warnf(RuleEnvDropped, cat.key("env"), "", "server %q sets %s in its environment; an mcp entry cannot, so set %s where toolctl runs",
			server, strings.Join(keys, ", "), map[bool]string{true: "it", false: "them"}[len(keys) == 1])
	}
	if url, _ := cfg.GetString("url"); url != "" {
		return &spec.Entry{Type: spec.EntryMCP, Server: url}
	}
	command, _ := cfg.GetString("command")
	if command == "" {
		r.warnf(RuleEntryMissing, cat, "", "server %q has neither command nor url in its config: its tools are imported without an entry", server)
		return nil
	}
	argv := []string{command}
	if args, ok := cfg.Get("args"); ok {
		list, _ := args.([]any)
		for j, a := range list {
			s, ok := a.(string)
			if !ok {
				r.warnf(RuleEntryMissing, cat.key("args").index(j), "", "server %q: args[%d] is %s, not a string: its tools are imported without an entry", server, j, kindOf(a))
				return nil
			}
			argv = append(argv, s)
		}
	}
	return &spec.Entry{Type: spec.EntryMCP, ServerArgs: argv}
}

// catalogueName is the toolctl name of tool of server: SERVER__TOOL, each
// part mapped as ToolName maps a name, at most maxNameLen characters.
func catalogueName(server, tool string) string {
	// The tool part need not start with a letter: map it behind one.
	name := ToolName(server) + catalogueSep + strings.TrimPrefix(ToolName("t_"+tool), "t_")
	if len(name) > maxNameLen {
		name = strings.TrimRight(name[:maxNameLen], "_")
	}
	return name
}

// catalogueSummary is the one warning that says how catalogue tools were
// named (instead of one per tool).
func catalogueSummary(r *reader) {
	servers := map[string]bool{}
	names := map[string]int{}
	var example *Tool
	for _, t := range r.tools {
		if t.server == "" {
			continue
		}
		if example == nil {
			example = t
		}
		servers[t.server] = true
		names[t.SourceName]++
	}
	if example == nil {
		return
	}
	shared := 0
	for _, n := range names {
		if n > 1 {
			shared++
		}
	}
	count := 0
	for _, n := range names {
		count += n
	}
	why := "so that names stay unique when more servers are added"
	if shared > 0 {
		why = fmt.Sprintf("as %s in more than one server", plural(shared, "name is", "names are"))
	}
	are := "are"
	if count == 1 {
		are = "is"
	}
	r.warnings = append(r.warnings, &Diagnostic{File: r.src.name, Rule: RuleNameMapped,
		Message: fmt.Sprintf("%s of %s %s named SERVER%sTOOL (%q is imported as %q), %s; each entry.tool keeps the name the server publishes",
			plural(count, "tool", "tools"), plural(len(servers), "server", "servers"), are, catalogueSep, example.SourceName, catalogueName(example.server, example.SourceName), why)})
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
