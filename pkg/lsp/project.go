package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolctl/toolctl/pkg/config"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/lint"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// project is what a document is linted with: the settings of the
// .toolctl.yaml found upward from it, and the tool files it is linted
// together with (the tools directory when the document is in it, as
// toolctl lint with no paths; the document alone otherwise, as toolctl
// lint FILE).
type project struct {
	// key groups the documents linted together: the tools directory, or
	// the document's own path.
	key      string
	toolsDir string // "" when the document is outside it
	config   string // the config file's path, "" for none
	cfg      lint.Config
	ignore   []string
	// cfgErr is a config file that could not be read: every document
	// gets it as its one diagnostic, as toolctl lint exits 2 on it.
	cfgErr *diag.Diagnostic
}

// findConfig is the .toolctl.yaml in dir or the nearest directory above
// it, "" when there is none.
func findConfig(dir string) string {
	for {
		p := filepath.Join(dir, config.DefaultFile)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// projectOf resolves the project of the document at path. root is the
// workspace folder holding it ("" when none): without a config file, its
// tools directory is root's tools/.
func (s *Server) projectOf(path string, onDisk bool) *project {
	if !onDisk {
		return &project{key: path}
	}
	dir := filepath.Dir(path)
	p := &project{key: path}
	p.config = findConfig(dir)
	base := s.rootOf(path)
	toolsDir := "tools"
	if p.config != "" {
		base = filepath.Dir(p.config)
		f, err := s.loadConfig(p.config)
		if err != nil {
			p.cfgErr = configDiagnostic(p.config, err)
			return p
		}
		if v, ok := f.Lookup("tools_dir"); ok {
			if str, ok := v.(string); ok && str != "" {
				toolsDir = str
			}
		}
		l, err := config.Get[config.Lint](f)
		if err == nil {
			p.cfg, p.ignore, err = lint.ParseConfig(l.File, l.Dir, l.Node)
		}
		if err == nil && s.opts.LintConfig != nil {
			err = s.opts.LintConfig(&p.cfg, l.File)
		}
		if err != nil {
			p.cfgErr = configDiagnostic(p.config, err)
			return p
		}
		if rs, rerr := config.Get[config.Run](f); rerr == nil {
			// entry-python-drift runs it (python_ast.py, reading modules
			// statically) as soon as a file is opened, with no command
			// typed: only a command found on PATH, never a path a cloned
			// repository's config names (run.python: ./bin/python)
			p.cfg.Python = rs.ReaderPython()
		}
	}
	if base == "" {
		return p
	}
	if !filepath.IsAbs(toolsDir) {
		toolsDir = filepath.Join(base, toolsDir)
	}
	toolsDir = filepath.Clean(toolsDir)
	if within(toolsDir, path) {
		p.toolsDir = toolsDir
		p.key = toolsDir
	}
	return p
}

// within tells whether path is dir or under it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// rootOf is the workspace folder holding path (the deepest), or "".
func (s *Server) rootOf(path string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	best := ""
	for _, r := range s.roots {
		if within(r, path) && len(r) > len(best) {
			best = r
		}
	}
	return best
}

func configDiagnostic(path string, err error) *diag.Diagnostic {
	return &diag.Diagnostic{File: path, Severity: diag.Error, Message: err.Error() + " (toolctl lint does not run with this config file; fix it)"}
}

// cachedFile is a tool file read from disk, kept while it does not change.
type cachedFile struct {
	mod  time.Time
	size int64
	file *spec.File
}

// cachedConfig is a config file read from disk.
type cachedConfig struct {
	mod  time.Time
	size int64
	file *config.File
	err  error
}

func (s *Server) loadConfig(path string) (*config.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if c, ok := s.configs[path]; ok && c.mod.Equal(info.ModTime()) && c.size == info.Size() {
		return c.file, c.err
	}
	f, err := config.Load(path)
	s.configs[path] = cachedConfig{mod: info.ModTime(), size: info.Size(), file: f, err: err}
	return f, err
}

// diskFile parses a tool file of the tools directory, from the cache when
// it did not change since.
func (s *Server) diskFile(path string) *spec.File {
	info, err := os.Stat(path)
	if err != nil {
		return spec.ReadFile(path)
	}
	s.cacheMu.Lock()
	c, ok := s.files[path]
	s.cacheMu.Unlock()
	if ok && c.mod.Equal(info.ModTime()) && c.size == info.Size() {
		return c.file
	}
	f := spec.ReadFile(path)
	s.cacheMu.Lock()
	s.files[path] = cachedFile{mod: info.ModTime(), size: info.Size(), file: f}
	s.cacheMu.Unlock()
	return f
}

// set builds the files p lints: the tools directory's, each open
// document's buffer instead of its file, the open documents that are not
// saved yet, less lint.ignore's. docs are the open documents of p.
func (s *Server) set(p *project, docs []*document) *spec.Set {
	set := &spec.Set{}
	if p.toolsDir == "" {
		for _, d := range docs {
			f := d.parsed()
			s.remember(d, f)
			set.Files = append(set.Files, f)
		}
		return set
	}
	open := map[string]*document{}
	for _, d := range docs {
		open[d.path] = d
	}
	files, _ := spec.Collect([]string{p.toolsDir})
	for path := range open {
		if !slices.Contains(files, path) {
			files = append(files, path)
		}
	}
	slices.Sort(files)
	for _, path := range files {
		if s.ignored(p, path) {
			continue
		}
		var f *spec.File
		if d, ok := open[path]; ok {
			f = d.parsed()
			s.remember(d, f)
		} else {
			f = s.diskFile(path)
		}
		if f.NotTool == "" {
			set.Files = append(set.Files, f)
		}
	}
	return set
}

// ignored tells whether lint.ignore excludes path.
func (s *Server) ignored(p *project, path string) bool {
	if len(p.ignore) == 0 {
		return false
	}
	root := "."
	if p.config != "" {
		root = filepath.Dir(p.config)
	}
	return lint.Override{Files: p.ignore, Root: root}.Matches(path)
}

// lintProject lints p's set and returns the findings of each open
// document of p, by path (an entry, maybe empty, for each of docs).
func (s *Server) lintProject(p *project, docs []*document) map[string][]diag.Diagnostic {
	out := make(map[string][]diag.Diagnostic, len(docs))
	for _, d := range docs {
		out[d.path] = nil
	}
	if p.cfgErr != nil {
		for _, d := range docs {
			e := *p.cfgErr
			e.File = d.path
			out[d.path] = []diag.Diagnostic{e}
		}
		return out
	}
	set := s.set(p, docs)
	for _, f := range lint.Run(set, p.cfg) {
		if _, ok := out[f.File]; ok {
			out[f.File] = append(out[f.File], f)
		}
	}
	return out
}

// remember keeps the last parse of d that read tools: completion while
// the text does not parse offers the parameter names it had.
func (s *Server) remember(d *document, f *spec.File) {
	if len(f.Tools) == 0 {
		return
	}
	s.mu.Lock()
	s.lastGood[d.uri] = f
	s.mu.Unlock()
}

// toolsOf is d's parsed file, or the last one that read tools when d
// does not parse now.
func (s *Server) toolsOf(d *document) *spec.File {
	f := d.parsed()
	if len(f.Tools) > 0 {
		s.remember(d, f)
		return f
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if last, ok := s.lastGood[d.uri]; ok {
		return last
	}
	return f
}

// lintable tells whether d is linted: any file of the tools directory
// but the config file; elsewhere (an editor sends every YAML and JSON
// file: workflows, compose files, package.json) only a file that reads as
// tool definitions.
func (s *Server) lintable(d *document, p *project) bool {
	if filepath.Base(d.path) == config.DefaultFile || (p.config != "" && d.path == p.config) {
		return false
	}
	if p.toolsDir != "" {
		return true
	}
	is, parsed := looksLikeTools(d)
	if !parsed {
		// while it does not parse: a tool file if it was one
		s.mu.Lock()
		_, was := s.lastGood[d.uri]
		s.mu.Unlock()
		return was
	}
	return is
}

// toolKeys are top-level keys only a tool definition has with name.
var toolKeys = []string{"description", "entry", "parameters", "input_schema", "inputSchema", "arguments", "function"}

// looksLikeTools tells whether text is a tool file by its content: the
// toolctl schema named (modeline or $schema), a mapping with name and a
// key of a tool, {tools: [...]}, or a list whose first item is a tool.
// parsed is false when text does not parse.
func looksLikeTools(d *document) (is, parsed bool) {
	if strings.Contains(d.text, "tool.schema.json") {
		return true, true
	}
	root := d.tree()
	if root == nil {
		return false, false
	}
	isTool := func(n *yaml.Node) bool {
		if n == nil || n.Kind != yaml.MappingNode {
			return false
		}
		if mapValue(n, "type") == "function" && hasKey(n, "function") {
			return true
		}
		if !hasKey(n, "name") {
			return false
		}
		for _, k := range toolKeys {
			if hasKey(n, k) {
				return true
			}
		}
		return false
	}
	switch root.Kind {
	case yaml.MappingNode:
		if seq := spec.ContainerTools(root); seq != nil && len(seq.Content) > 0 {
			return isTool(seq.Content[0]), true
		}
		return isTool(root), true
	case yaml.SequenceNode:
		return len(root.Content) > 0 && isTool(root.Content[0]), true
	}
	return false, true
}

func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}
