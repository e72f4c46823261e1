package spec

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Files of toolctl's own that have a tool file's extension but are no tool
// files: a lint baseline (recognised by its first line, wherever it is and
// whatever its name) and the config file a command read (by its path).
// Walking a directory leaves them out of the tool set; named as a path,
// they are a usage error that says what they are.

// BaselineHeader starts every baseline toolctl lint --baseline-out writes.
const BaselineHeader = "# toolctl lint baseline:"

// NotToolFile says what data is when it is one of toolctl's own files
// rather than a tool file ("a toolctl lint baseline"), or "".
func NotToolFile(data []byte) string {
	if bytes.HasPrefix(bytes.TrimPrefix(data, bom), []byte(BaselineHeader)) {
		return "a toolctl lint baseline (written by toolctl lint --baseline-out)"
	}
	return ""
}

// configFiles are the config files of the running command (see
// SetConfigFiles).
var configFiles struct {
	sync.RWMutex
	files []configFile
}

type configFile struct {
	name string // base name: only a file of that name is stat'ed
	info fs.FileInfo
}

// SetConfigFiles names the config files the running command read (the
// default .toolctl.yaml, --config, TOOLCTL_CONFIG): Collect leaves them
// out of the directories it walks, and refuses them as tool files. Each
// call replaces the previous list; a path that cannot be stat'ed is left
// out.
func SetConfigFiles(paths ...string) {
	var files []configFile
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil {
			files = append(files, configFile{filepath.Base(p), info})
		}
	}
	configFiles.Lock()
	configFiles.files = files
	configFiles.Unlock()
}

// isConfigFile reports whether the file at path (named name) is one of
// SetConfigFiles': the same file, however it is reached.
func isConfigFile(path, name string) bool {
	configFiles.RLock()
	defer configFiles.RUnlock()
	for _, c := range configFiles.files {
		if c.name != name {
			continue
		}
		if info, err := os.Stat(path); err == nil && os.SameFile(info, c.info) {
			return true
		}
	}
	return false
}

// notToolPath says what a path named on the command line is when it is
// one of toolctl's own files, or "": the config file, or a baseline (its
// first bytes are read; only named paths are, a directory's files are
// recognised as they are parsed).
func notToolPath(path string) string {
	if isConfigFile(path, filepath.Base(path)) {
		return "toolctl's config file (its settings apply to every command)"
	}
	fh, err := openNonBlocking(path)
	if err != nil {
		return "" // ReadFile reports it
	}
	defer fh.Close()
	head := make([]byte, len(bom)+len(BaselineHeader))
	n, _ := io.ReadFull(fh, head)
	if what := NotToolFile(head[:n]); what != "" {
		return what + "; apply it with toolctl lint --baseline " + path
	}
	return ""
}
