package lock

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/breaking"
	"github.com/toolctl/toolctl/pkg/importer"
	"github.com/toolctl/toolctl/pkg/spec"
)

// PinImported pins the server toolctl import --from-server/--from-url read:
// res as importer.ImportServer returned it (before any change to its
// tools). The identity is the one the tools' mcp entries name, so that the
// pin is the one toolctl lock --upstream makes for the written files; ok
// is false when the tools have no entry (--no-entry: nothing calls the
// server, and lock --upstream would not pin it).
func PinImported(res *importer.Result) (s Server, ok bool) {
	for _, it := range res.Tools {
		if e := it.Tool.Entry; e != nil && e.Kind() == spec.EntryMCP {
			id, _ := serverOf(e)
			return PinServer(Upstream{Server: id}, res), id != ""
		}
	}
	return Server{}, false
}

// Merge adds to old (an existing lock; nil for none) the pins of add:
// add's tools replace old's of the same name, its servers old's of the
// same identity, and its paths are recorded unless a path old records
// holds them already (both are relative to the same lock directory).
// Everything else old pins is kept as it is: a tool that changed since it
// was locked stays a finding of toolctl verify. The result is what
// toolctl lock --upstream writes for the same state.
func Merge(old, add *File) *File {
	if old == nil {
		return add
	}
	out := &File{Version: Version, Paths: slices.Clone(old.Paths)}
	for _, p := range add.Paths {
		if !slices.ContainsFunc(out.Paths, func(q string) bool { return within(p, q) }) {
			out.Paths = append(out.Paths, p)
		}
	}
	names := map[string]bool{}
	for _, e := range add.Tools {
		names[e.Name] = true
	}
	for _, e := range old.Tools {
		if !names[e.Name] {
			out.Tools = append(out.Tools, e)
		}
	}
	out.Tools = append(out.Tools, add.Tools...)
	slices.SortFunc(out.Tools, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	servers := map[string]bool{}
	for _, s := range add.Servers {
		servers[s.Server] = true
	}
	for _, s := range old.Servers {
		if !servers[s.Server] {
			out.Servers = append(out.Servers, s)
		}
	}
	out.Servers = append(out.Servers, add.Servers...)
	slices.SortFunc(out.Servers, func(a, b Server) int { return strings.Compare(a.Server, b.Server) })
	return out
}

// within tells whether path p (slash-separated, relative to the lock's
// directory) is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(filepath.FromSlash(dir), filepath.FromSlash(p))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// BuildImported pins the tool files toolctl import wrote (files, in dir)
// and the server it read (server, when ok), for a lock file in lockDir.
func BuildImported(files []string, dir, lockDir string, server Server, ok bool) (*File, error) {
	side, err := breaking.LoadPaths(files)
	if err != nil {
		return nil, err
	}
	f, err := Build(side, lockDir, []string{dir})
	if err != nil {
		return nil, err
	}
	if ok {
		f.Servers = []Server{server}
	}
	return f, nil
}
