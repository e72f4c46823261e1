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
	"errors"
	"fmt"
	"os"
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
		res.Findings = append(res.Findings, Imported(name, tools, false, cfg)...)
	}
	if len(toolFiles) > 0 {
		set, findings := lint.RunFiles(toolFiles, cfg)
		res.Set = set
		res.Findings = append(res.Findings, findings...)
		res.Inputs = append(res.Inputs, toolFiles...)
	} else {
		res.Set = &spec.Set{}
	}
	lint.Sort(res.Findings)
	return res, nil
}

// importedFile reads path with the importer when it is a JSON file that
// is no tool file of its own (a tools/list answer, a provider export).
func importedFile(path string) ([]*importer.Tool, string, bool) {
	if !strings.EqualFold(strings.TrimPrefix(extOf(path), "."), "json") {
		return nil, "", false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", false
	}
	if f := spec.ParseFile(path, data); len(f.Errors) == 0 && len(f.Tools) > 0 {
		return nil, "", false
	}
	res, err := importer.Import(data, importer.Options{Name: path})
	if err != nil || len(res.Tools) == 0 {
		return nil, "", false // the parse errors are lint's to report
	}
	return res.Tools, path, true
}

func extOf(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 && !strings.ContainsAny(path[i:], `/\`) {
		return path[i:]
	}
	return ""
}

// Server scans the tools of a live MCP server (opts as for import).
func Server(ctx context.Context, opts importer.ServerOptions, cfg lint.Config) (*Result, error) {
	opts.NoEntry = true
	res, err := importer.ImportServer(ctx, opts)
	if err != nil {
		var list importer.Errors
		if errors.As(err, &list) && res != nil && len(res.Tools) > 0 {
			err = nil // the tools that were read are still scanned
		} else {
			return nil, err
		}
	}
	name := opts.Command
	if name == "" {
		name = opts.URL
	}
	return &Result{Findings: Imported(name, res.Tools, true, Config(cfg)), Inputs: []string{name}, Set: &spec.Set{}}, nil
}

// Imported scans imported tools as the input name: each finding is at
// its tool's position in the input (none for a live server) and its
// message starts with the tool's name and the pointer of the value, in
// the tool (listed: in the tools/list answer, /tools/INDEX/...).
func Imported(name string, tools []*importer.Tool, listed bool, cfg lint.Config) []lint.Finding {
	list := make([]*spec.Tool, len(tools))
	byName := map[string]*importer.Tool{}
	for i, t := range tools {
		list[i] = t.Tool
		byName[t.Tool.Name] = t
	}
	findings := lint.RunTools(name, list, cfg)
	for i := range findings {
		f := &findings[i]
		f.File = name
		src, index := byName[f.Tool], -1
		for j, t := range tools {
			if t == src {
				index = j
			}
		}
		if src == nil {
			continue
		}
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
		f.Message = fmt.Sprintf("tool %q, %s: %s", src.SourceName, f.Pointer, f.Message)
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
