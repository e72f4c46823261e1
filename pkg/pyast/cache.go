package pyast

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
)

// ReadCached is Read, with what the reader made of a source kept in the
// user's cache directory (toolctl/pyast/, by a hash of the reader and the
// source): starting python3 costs 15-120 ms (a version manager's shim is
// most of that), and lint reads the same modules on every run. Without a
// usable cache directory it is Read. A cached answer is one a python3
// gave for the same source and reader; only a module the reader could
// read is cached.
func ReadCached(ctx context.Context, opts Options) (*Module, error) {
	path := cachePath(opts.Source)
	if path == "" {
		return Read(ctx, opts)
	}
	if mod := readCache(path); mod != nil {
		return mod, nil
	}
	mod, err := Read(ctx, opts)
	if err == nil && mod.Error == nil {
		writeCache(path, mod)
	}
	return mod, err
}

// cachePath is the cache file of a source, or "" without a cache
// directory.
func cachePath(source []byte) string {
	dir, err := os.UserCacheDir()
	if err != nil || dir == "" {
		return ""
	}
	h := sha256.New()
	io.WriteString(h, script) // a new reader makes new entries
	h.Write([]byte{0})
	h.Write(source)
	return filepath.Join(dir, "toolctl", "pyast", hex.EncodeToString(h.Sum(nil))+".json")
}

func readCache(path string) *Module {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > int64(MaxOutput) {
		return nil
	}
	var mod Module
	if err := json.NewDecoder(f).Decode(&mod); err != nil {
		return nil
	}
	return &mod
}

// writeCache stores mod at path (written whole, then renamed); failing to
// is no error.
func writeCache(path string, mod *Module) {
	data, err := json.Marshal(mod)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}
