// Package scan runs the security pack of lint (lint.PackSecurity) on tool
// definitions wherever they are: tool files, a saved tools/list answer or
// provider export (read by pkg/importer), or a live MCP server. Tool files
// give positions; imported tools have none of their own, so their
// findings name the tool and the JSON pointer of the value in the input's
// own terms (inputSchema for MCP) and sit at the tool's position in the
// input, if it has one.
package scan

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
)

// Result is what a scan found.
type Result struct {
	Findings []lint.Finding
	// Inputs names what was read: tool files, imported files, servers.
	Inputs []string
	// Set holds the tool files read (for source excerpts).
	Set *spec.Set
	// Tools is how many tools were scanned.
	Tools int
}

// Config is lint's configuration restricted to the security pack.
func Config(cfg lint.Config) lint.Config {
	cfg.Pack = lint.PackSecurity
	return cfg
}

// Files scans paths (files and directories, as spec.Collect lists them).
// A file that is no tool file but an export or tools/list answer the
// importer reads is scanned as imported tools.
func Files(files []string, cfg lint.Config) (*Result, error) {
	cfg = Config(cfg)
	res := &Result{}
	var toolFiles []string
	for _, path := range files {
		tools, name, ok := importedFile(path)
		if !ok {
			toolFiles = append(toolFiles, path)
			continue
		}
		res.Inputs = append(res.Inputs, name)
		res.Tools += len(tools)
		res.Findings = append(res.Findings, Imported(name, tools, false, cfg)...)
	}
	if len(toolFiles) > 0 {
		set, findings := lint.RunFiles(toolFiles, cfg)
		res.Set = set
		res.Tools += len(set.Tools())
		res.Findings = append(res.Findings, findings...)
		res.Inputs = append(res.Inputs, toolFiles...)
	} else {
		res.Set = &spec.Set{}
	}
	lint.Sort(res.Findings)
	return res, nil
}

// Collect lists the files to scan in paths: the tool files spec.Collect
// lists, and the JSON Lines files (.jsonl: BFCL's function docs) the
// importer reads, named or in the directories.
func Collect(paths []string) ([]string, error) {
	var files, rest []string
	for _, p := range paths {
		if isJSONL(p) {
			if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
				files = append(files, filepath.Clean(p))
				continue
			}
		}
		rest = append(rest, p)
	}
	if len(rest) > 0 {
		found, err := spec.Collect(rest)
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	for _, p := range rest {
		if info, err := os.Stat(p); err != nil || !info.IsDir() {
			continue
		}
		_ = spec.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && isJSONL(path) && d.Type().IsRegular() {
				files = append(files, path)
			}
			return nil
		})
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}

func isJSONL(path string) bool { return strings.EqualFold(filepath.Ext(path), ".jsonl") }

// importedFile reads path with the importer when it is a JSON file that
// is no tool file of its own (a tools/list answer, a provider export).
func importedFile(path string) ([]*importer.Tool, string, bool) {
	if !strings.EqualFold(filepath.Ext(path), ".json") && !isJSONL(path) {
		return nil, "", false
	}
	// a regular file of at most spec.MaxFileSize, as lint reads it (a
	// named pipe or /dev/zero named x.json is lint's error, not a hang)
	data, err := spec.ReadToolFile(path)
	if err != nil {
		return nil, "", false
	}
	// The file as toolctl reads it: its tools and errors only. A large
	// list is read a tool at a time (its trees dropped), and the result is
	// not alive while the importer decodes the text: a 10 MB list peaked
	// at 420 MB with both whole, as lint then reads the file once more.
	var errs, defined int
	if set := spec.LoadFilesStream([]string{path}, spec.Stream{Min: 1 << 20, Tool: func(int, *spec.Tool) {}}, nil); len(set.Files) == 1 {
		errs, defined = len(set.Files[0].Errors), len(set.Files[0].Tools)
	}
	var tools []*importer.Tool
	res, err := importer.Import(data, importer.Options{Name: path})
	switch {
	case err == nil:
		tools = res.Tools
	case errs > 0:
		// JSON Lines whose tools the importer refuses as a whole (two
		// with one name, as in BFCL's samples): scanning needs no unique
		// names, so each line is read on its own.
		tools = importLines(path, data)
	}
	if len(tools) == 0 {
		return nil, "", false // a tool file, or parse errors for lint to report
	}
	if errs == 0 && defined >= len(tools) {
		return nil, "", false // a tool file: lint gives exact positions
	}
	// Not a tool file, or one whose tools hold more tools (a catalogue
	// of servers with their tools/list answers).
	return tools, path, true
}

// importLines imports each line of JSON Lines data on its own; nil unless
// every non-empty line is imported.
func importLines(path string, data []byte) []*importer.Tool {
	var tools []*importer.Tool
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		res, err := importer.Import([]byte(line), importer.Options{Name: path})
		if err != nil {
			return nil
		}
		for _, t := range res.Tools {
			t.Pos.Line += i
			tools = append(tools, t)
		}
	}
	return tools
}

// Server scans the tools of a live MCP server (opts as for import).
func Server(ctx context.Context, opts importer.ServerOptions, cfg lint.Config) (*Result, error) {
	opts.NoEntry = true
	// A server whose tools the importer refuses (two with one name) is
	// an error here too: its Result has no tools.
	res, err := importer.ImportServer(ctx, opts)
	if err != nil {
		return nil, err
	}
	name := opts.Command
	if name == "" {
		name = opts.URL
	}
	return &Result{Findings: Imported(name, res.Tools, true, Config(cfg)), Inputs: []string{name}, Set: &spec.Set{}, Tools: len(res.Tools)}, nil
}

// Imported scans imported tools as the input name: each finding is at
// its tool's position in the input (none for a live server) and its
// message starts with the tool's name and the pointer of the value, in
// the tool (listed: in the tools/list answer, /tools/INDEX/...).
func Imported(name string, tools []*importer.Tool, listed bool, cfg lint.Config) []lint.Finding {
	// Each tool gets a file of its own for the run, so that a finding
	// tells which tool it is about even where two share a name.
	list := make([]*spec.Tool, len(tools))
	for i, t := range tools {
		list[i] = t.Tool
		t.Tool.File = &spec.File{Path: "\x00" + strconv.Itoa(i)}
	}
	findings := lint.RunTools(name, list, cfg)
	for _, t := range tools {
		t.Tool.File = nil
	}
	for i := range findings {
		f := &findings[i]
		index, err := strconv.Atoi(strings.TrimPrefix(f.File, "\x00"))
		f.File = name
		if err != nil || index < 0 || index >= len(tools) {
			continue
		}
		src := tools[index]
		ptr := sourcePointer(f.Pointer)
		f.Pointer = ptr
		if listed {
			f.Pointer = fmt.Sprintf("/tools/%d%s", index, ptr)
		}
		f.Span = diag.Span{}
		if src.Pos.IsValid() {
			f.Span = diag.At(src.Pos)
		}
		f.Tool = src.SourceName
		who := fmt.Sprintf("tool %q", src.SourceName)
		if src.Tool.Name != src.SourceName && strings.Contains(src.Tool.Name, "__") {
			who = fmt.Sprintf("tool %q (%s)", src.SourceName, src.Tool.Name) // a catalogue's SERVER__TOOL
		}
		f.Message = fmt.Sprintf("%s, %s: %s", who, f.Pointer, f.Message)
	}
	lint.Sort(findings)
	return findings
}

// sourcePointer writes a canonical pointer in MCP's terms (the importer
// reads every format into the canonical model; MCP is what servers and
// most exports write).
func sourcePointer(ptr string) string {
	for canon, src := range map[string]string{"/input_schema": "/inputSchema", "/output_schema": "/outputSchema"} {
		if ptr == canon || strings.HasPrefix(ptr, canon+"/") {
			return src + ptr[len(canon):]
		}
	}
	return ptr
}

// Against lists the tools of other servers (lint and scan --against-server,
// --against-url), as lint.Config.KnownTools: their names (as the server
// lists them, and as toolctl names them when that differs) and the server.
// Each server is read as Server reads one (importer.ImportServer: its
// limits, opts.Timeout); its tools are not scanned.
func Against(ctx context.Context, servers []importer.ServerOptions) (map[string]string, error) {
	known := map[string]string{}
	for _, opts := range servers {
		opts.NoEntry = true
		name := opts.Command
		if name == "" {
			name = opts.URL
		}
		res, err := importer.ImportServer(ctx, opts)
		if err != nil {
			return nil, err
		}
		for _, t := range res.Tools {
			for _, n := range []string{t.SourceName, t.Tool.Name} {
				if _, seen := known[n]; !seen && n != "" {
					known[n] = name
				}
			}
		}
	}
	return known, nil
}
