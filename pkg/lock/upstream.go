package lock

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolctl/toolctl/pkg/breaking"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Server pins an upstream MCP server that mcp entries call: its identity
// as the entries write it, its serverInfo and each tool it lists.
type Server struct {
	// Server is the command line or URL of the entries.
	Server string       `yaml:"server"`
	Info   ServerInfo   `yaml:"server_info"`
	Tools  []ServerTool `yaml:"tools"`
}

// ServerInfo is the server's initialize serverInfo.
type ServerInfo struct {
	Name    string `yaml:"name"`
	Version string `yaml:"version"`
}

// ServerTool pins one tool a server lists, by the name it lists it by:
// the SHA-256 of its canonical JSON, kept in Definition.
type ServerTool struct {
	Name       string `yaml:"name"`
	SHA256     string `yaml:"sha256"`
	Definition string `yaml:"definition"`
}

// Upstream is one server the tools' mcp entries call.
type Upstream struct {
	// Server is its identity (Server.Server).
	Server string
	// Options connect to it (the first entry's: command or URL, headers,
	// the tool file's directory).
	Options importer.ServerOptions
	// Tool is the first tool calling it: findings point at its
	// entry.server.
	Tool *breaking.Tool
}

// Upstreams are the servers the tools' mcp entries call, sorted by
// identity.
func Upstreams(side *breaking.Side) []Upstream {
	by := map[string]bool{}
	var out []Upstream
	for _, t := range side.Tools {
		e := (*spec.Entry)(nil)
		if t.Source != nil {
			e = t.Source.Entry
		}
		if e == nil || e.Kind() != spec.EntryMCP {
			continue
		}
		id, opts := serverOf(e)
		if id == "" || by[id] {
			continue
		}
		by[id] = true
		if t.Source.File != nil {
			opts.Dir = filepath.Dir(t.Source.File.Path)
		}
		out = append(out, Upstream{Server: id, Options: opts, Tool: t})
	}
	slices.SortFunc(out, func(a, b Upstream) int { return strings.Compare(a.Server, b.Server) })
	return out
}

// serverOf is an mcp entry's server identity and how to connect to it.
func serverOf(e *spec.Entry) (string, importer.ServerOptions) {
	server := strings.TrimSpace(e.Server)
	var opts importer.ServerOptions
	if strings.HasPrefix(server, "http://") || strings.HasPrefix(server, "https://") {
		opts.URL = server
		for i := 0; i < e.Headers.Len(); i++ {
			k, v := e.Headers.At(i)
			opts.Headers = append(opts.Headers, fmt.Sprintf("%s: %v", k, v))
		}
		return server, opts
	}
	argv := e.ServerArgs
	if server != "" && len(argv) > 0 {
		argv = append([]string{server}, argv...)
	}
	if len(argv) > 0 {
		q := make([]string, len(argv))
		for i, a := range argv {
			q[i] = a
			if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`") {
				q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
			}
		}
		server = strings.Join(q, " ")
	}
	opts.Command = server
	return server, opts
}

// Connect lists an upstream server's tools (this starts a stdio server).
func Connect(ctx context.Context, u Upstream, getenv func(string) string, timeout time.Duration) (*importer.Result, error) {
	opts := u.Options
	opts.Getenv, opts.Timeout, opts.NoEntry, opts.Flag, opts.URLFlag = getenv, timeout, true, "entry.server", "entry.server"
	return importer.ImportServer(ctx, opts)
}

// PinServer pins what a server listed.
func PinServer(u Upstream, res *importer.Result) Server {
	s := Server{Server: u.Server, Info: ServerInfo{res.ServerName, res.ServerVersion}}
	for _, it := range res.Tools {
		t := it.Tool
		if t.Entry != nil {
			// The mcp entry toolctl import adds (it calls the tool on
			// this server) is no part of what the server lists.
			c := *t
			c.Entry = nil
			t = &c
		}
		def := string(breaking.FromSpec(t).JSON())
		s.Tools = append(s.Tools, ServerTool{Name: listedName(it), SHA256: Hash([]byte(def)), Definition: def})
	}
	slices.SortFunc(s.Tools, func(a, b ServerTool) int { return strings.Compare(a.Name, b.Name) })
	return s
}

// sdkHints is t with readOnlyHint and idempotentHint false written as
// unset. listed (CheckUpstream) is the MCP SDK's encoding of the server's
// tool, which writes idempotentHint: false when the server sent none and
// drops readOnlyHint: false; false is the MCP default of both, so either
// way means the same.
func sdkHints(t *breaking.Tool) *breaking.Tool {
	c := *t
	for _, h := range []**bool{&c.Hints.ReadOnly, &c.Hints.Idempotent} {
		if *h != nil && !**h {
			*h = nil
		}
	}
	return &c
}

// Server rule IDs.
const (
	RuleUpstreamChanged = "lock-upstream-changed"
	RuleUpstreamAdded   = "lock-upstream-added"
	RuleUpstreamRemoved = "lock-upstream-removed"
)

// VerifyServer compares what an upstream server lists now with its pin
// (nil: not pinned). Findings point at the entry.server of the first tool
// calling it.
func VerifyServer(f *File, u Upstream, res *importer.Result) []diag.Diagnostic {
	file, at := u.Tool.File, u.Tool.Span("/entry/server")
	var pinned *Server
	for i := range f.Servers {
		if f.Servers[i].Server == u.Server {
			pinned = &f.Servers[i]
		}
	}
	mk := func(rule, format string, args ...any) diag.Diagnostic {
		return diag.Diagnostic{File: file, Span: at, Severity: diag.Error, Rule: rule, Tool: u.Tool.Name, Message: fmt.Sprintf(format, args...)}
	}
	if pinned == nil {
		return []diag.Diagnostic{mk(RuleUpstreamAdded, "upstream server %s is not pinned in %s: review its tools, then run toolctl lock --upstream", u.Server, f.path)}
	}
	var out []diag.Diagnostic
	now := PinServer(u, res)
	if now.Info != pinned.Info {
		out = append(out, mk(RuleUpstreamChanged, "upstream server %s now says it is %s %s, pinned as %s %s", u.Server, now.Info.Name, now.Info.Version, pinned.Info.Name, pinned.Info.Version))
	}
	locked := map[string]ServerTool{}
	for _, t := range pinned.Tools {
		locked[t.Name] = t
	}
	current := map[string]bool{}
	for i, t := range now.Tools {
		current[t.Name] = true
		l, ok := locked[t.Name]
		if !ok {
			out = append(out, mk(RuleUpstreamAdded, "upstream server %s lists tool %s, which %s does not pin", u.Server, t.Name, f.path))
			continue
		}
		if l.SHA256 == t.SHA256 {
			continue
		}
		prefix := fmt.Sprintf("upstream tool %s of %s differs from %s: ", t.Name, u.Server, f.path)
		var diffs []string
		if old, err := lockedTool(f.path, Entry{Name: l.Name, Definition: l.Definition}); err == nil {
			cur := breaking.FromSpec(res.Tools[indexOf(res, t.Name, i)].Tool)
			old.Lacks, cur.Lacks = breaking.MCPLacks, breaking.MCPLacks
			for _, d := range breaking.Compare([]*breaking.Tool{old}, []*breaking.Tool{cur}, breaking.Options{Additions: true, Severity: map[string]diag.Severity{"version": diag.Off}}) {
				diffs = append(diffs, d.Message+" ("+d.Rule+")")
			}
		}
		if len(diffs) == 0 {
			diffs = []string{"changed " + strings.Join(changedKeys(l.Definition, t.Definition, "", ""), ", ")}
		}
		for _, m := range diffs {
			out = append(out, mk(RuleUpstreamChanged, "%s%s", prefix, m))
		}
	}
	for _, l := range pinned.Tools {
		if !current[l.Name] {
			out = append(out, mk(RuleUpstreamRemoved, "upstream server %s no longer lists tool %s, pinned in %s", u.Server, l.Name, f.path))
		}
	}
	return out
}

// listedName is the name the server lists a tool by (which mcp entries
// call), not the one toolctl gives it (fs.read, imported as fs_read).
func listedName(it *importer.Tool) string {
	if it.SourceName != "" {
		return it.SourceName
	}
	return it.Tool.Name
}

func indexOf(res *importer.Result, name string, guess int) int {
	for i, it := range res.Tools {
		if listedName(it) == name {
			return i
		}
	}
	return guess
}

// CheckUpstream refuses a call of an mcp entry's tool whose live
// definition (listed: its tools/list entry as JSON, nil when the server
// does not list it) differs from the one the lock pins for the entry's
// server (toolctl run and serve --locked).
func (f *File) CheckUpstream(t *spec.Tool, listed []byte) error {
	if t.Entry == nil {
		return nil
	}
	id, _ := serverOf(t.Entry)
	name := t.Entry.Tool
	if name == "" {
		name = t.Name
	}
	var pinned *Server
	for i := range f.Servers {
		if f.Servers[i].Server == id {
			pinned = &f.Servers[i]
		}
	}
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("refusing to call %s on upstream server %s: %s", name, id, fmt.Sprintf(format, args...))
	}
	if pinned == nil {
		return refuse("%s does not pin this server; review it, then run toolctl lock --upstream", f.path)
	}
	var locked *ServerTool
	for i := range pinned.Tools {
		if pinned.Tools[i].Name == name {
			locked = &pinned.Tools[i]
		}
	}
	if locked == nil {
		return refuse("%s pins no tool %s for it; review it, then run toolctl lock --upstream", f.path, name)
	}
	if listed == nil {
		return refuse("the server no longer lists it (pinned in %s)", f.path)
	}
	res, err := importer.Import([]byte(`{"tools":[`+string(listed)+`]}`), importer.Options{From: importer.MCP, Name: id})
	if err != nil || len(res.Tools) != 1 {
		return refuse("its tools/list entry cannot be read (%v)", err)
	}
	cur := breaking.FromSpec(res.Tools[0].Tool)
	def := cur.JSON()
	if Hash(def) == locked.SHA256 {
		return nil
	}
	old, oldErr := lockedTool(f.path, Entry{Name: locked.Name, Definition: locked.Definition})
	if oldErr == nil && bytes.Equal(sdkHints(old).JSON(), sdkHints(cur).JSON()) {
		return nil
	}
	var diffs []string
	if oldErr == nil {
		old.Lacks, cur.Lacks = breaking.MCPLacks, breaking.MCPLacks
		for _, d := range breaking.Compare([]*breaking.Tool{old}, []*breaking.Tool{cur}, breaking.Options{Additions: true, Severity: map[string]diag.Severity{"version": diag.Off}}) {
			diags := d.Message + " (" + d.Rule + ")"
			diffs = append(diffs, diags)
		}
	}
	if len(diffs) == 0 {
		diffs = []string{"changed " + strings.Join(changedKeys(locked.Definition, string(def), "", ""), ", ")}
	}
	return refuse("its live definition differs from the one pinned in %s (sha256 %s, now %s): %s; review the change (toolctl verify --upstream), then run toolctl lock --upstream", f.path, locked.SHA256[:12], Hash(def)[:12], strings.Join(diffs, "; "))
}
