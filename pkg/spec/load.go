package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Set is the result of loading paths: every file read, in a stable order,
// with the tools and errors of each.
type Set struct {
	Files []*File
}

// Tools returns every tool, in file order.
func (s *Set) Tools() []*Tool {
	var out []*Tool
	for _, f := range s.Files {
		out = append(out, f.Tools...)
	}
	return out
}

// Errors returns every per-file error, in file order.
func (s *Set) Errors() []*Error {
	var out []*Error
	for _, f := range s.Files {
		out = append(out, f.Errors...)
	}
	return out
}

// Lookup returns the tools named name.
func (s *Set) Lookup(name string) []*Tool {
	var out []*Tool
	for _, f := range s.Files {
		for _, t := range f.Tools {
			if t.Name == name {
				out = append(out, t)
			}
		}
	}
	return out
}

// IsToolFile reports whether a path has a tool file extension.
func IsToolFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// PathError is a path given by the user that cannot be used at all (it does
// not exist, or is not a tool file). It is a usage error, not a file problem.
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *PathError) Unwrap() error { return e.Err }

// Load reads every tool file under paths: files as given, directories
// walked recursively for .yaml, .yml and .json (hidden directories skipped).
// Files are parsed concurrently; a broken file yields errors in its File and
// never stops the others. The error is non-nil only for unusable paths.
func Load(paths []string) (*Set, error) {
	files, err := Collect(paths)
	if err != nil {
		return nil, err
	}
	return LoadFiles(files), nil
}

// LoadFiles reads and parses files (as listed by Collect) concurrently.
func LoadFiles(files []string) *Set { return LoadFilesFunc(files, nil) }

// LoadFilesFunc is LoadFiles calling each (when not nil) on every file in
// the worker that parsed it, as soon as it is parsed: work per file (say,
// checks, then File.Release) overlaps with parsing the rest.
//
// A file that is one of toolctl's own (File.NotTool: a lint baseline) is
// left out of the set, and each is not called on it.
//
// A panic in each does not stop the other files: the file gets an internal
// error instead of its tools, and each is called once more with the file
// as it is then (a second panic is not recovered).
func LoadFilesFunc(files []string, each func(i int, f *File)) *Set {
	return loadFiles(files, nil, each)
}

// loadFiles is LoadFilesFunc, reading file i with stream(i) when stream is
// not nil (LoadFilesStream).
func loadFiles(files []string, stream func(i int) *streamer, each func(i int, f *File)) *Set {
	set := &Set{Files: make([]*File, len(files))}
	workers := min(runtime.GOMAXPROCS(0), len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var s *streamer
				if stream != nil {
					s = stream(i)
				}
				set.Files[i] = readFile(files[i], s)
				if each != nil && set.Files[i].NotTool == "" {
					callEach(each, i, set.Files[i])
				}
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	set.Files = slices.DeleteFunc(set.Files, func(f *File) bool { return f.NotTool != "" })
	return set
}

// callEach is each(i, f), retried once without the file's tools when it
// panics.
func callEach(each func(i int, f *File), i int, f *File) {
	defer func() {
		if p := recover(); p != nil {
			f.Tools = nil
			f.Errors = append(f.Errors, f.internalError(p))
			each(i, f)
		}
	}()
	each(i, f)
}

// ReadFile reads and parses one file; a read failure is an Error of the File,
// and so is a panic (see ParseFile). A path that is not a regular file (a
// named pipe, a socket, a device) is an Error without being opened.
// (One stat, one open and one fstat per file: this runs for every file of
// a lint.)
func ReadFile(path string) *File { return readFile(path, nil) }

// readFile is ReadFile, parsing with parseFile(path, data, stream).
func readFile(path string, stream *streamer) (f *File) {
	defer func() {
		if p := recover(); p != nil {
			f = &File{Path: path}
			f.Errors = []*Error{f.internalError(p)}
		}
	}()
	readError := func(err error, what string) *File {
		msg := err.Error()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			msg = pe.Err.Error()
		}
		return &File{Path: path, Errors: []*Error{{File: path, Message: "cannot read the " + what + ": " + msg}}}
	}
	data, err := ReadToolFile(path)
	var notRegular *NotRegularError
	var tooLarge *TooLargeError
	switch {
	case err == nil:
		return parseFile(path, data, stream)
	case errors.As(err, &tooLarge):
		f := &File{Path: path}
		f.tooLarge(tooLarge.Size)
		return f
	case errors.As(err, &notRegular) && notRegular.Mode.IsDir():
		// An unreadable subdirectory (Collect lists those).
		fh, err := os.Open(path)
		if err != nil {
			return readError(err, "directory")
		}
		defer fh.Close()
		if _, err := fh.ReadDir(1); err != nil && !errors.Is(err, io.EOF) {
			return readError(err, "directory")
		}
		return &File{Path: path, Errors: []*Error{{File: path, Message: "unreadable directory"}}}
	case errors.As(err, &notRegular):
		return &File{Path: path, Errors: []*Error{{File: path, Message: "skipped, not opened: it is " + notRegular.Error() +
			"; toolctl reads tool files only from regular files (a symbolic link to one is fine): remove it or move it out of the directory"}}}
	}
	return readError(err, "file")
}

// NotRegularError is a path that is not a regular file: a directory, a
// named pipe, a socket, a device. ReadToolFile never opens one (opening a
// named pipe waits for a writer, a device may do anything).
type NotRegularError struct {
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	what := "not a regular file"
	switch t := e.Mode.Type(); {
	case t&fs.ModeDir != 0:
		return "a directory, " + what
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO), " + what
	case t&fs.ModeSocket != 0:
		return "a socket, " + what
	case t&fs.ModeCharDevice != 0:
		return "a character device, " + what
	case t&fs.ModeDevice != 0:
		return "a device, " + what
	}
	return what
}

// TooLargeError is a file over MaxFileSize.
type TooLargeError struct {
	Size int
}

func (e *TooLargeError) Error() string { return TooLargeMsg(e.Size) }

// ReadToolFile reads the file at path as a tool file: a regular file (a
// symbolic link to one is fine) of at most MaxFileSize bytes. Anything
// else is a *NotRegularError and is not opened; a larger file is a
// *TooLargeError, read no further than one byte past the limit.
func ReadToolFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{info.Mode()}
	}
	if info.Size() > MaxFileSize {
		return nil, &TooLargeError{int(info.Size())}
	}
	// Opened so that a named pipe put in its place since the stat does not
	// block; the fstat then refuses it.
	fh, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if info, err = fh.Stat(); err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{info.Mode()}
	}
	// Read at most one byte past the limit: a file that grew since the
	// fstat is still caught.
	var buf bytes.Buffer
	buf.Grow(int(info.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(fh, MaxFileSize+1)); err != nil {
		return nil, err
	}
	if buf.Len() > MaxFileSize {
		return nil, &TooLargeError{buf.Len()}
	}
	return buf.Bytes(), nil
}

// WalkDir is filepath.WalkDir, except that a symbolic link given as root
// is followed, as "root/" is (filepath.WalkDir reports the link itself);
// links below root are not followed. fn sees root as given.
func WalkDir(root string, fn fs.WalkDirFunc) error {
	walkRoot := root
	if info, err := os.Lstat(root); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		walkRoot = root + string(filepath.Separator)
	}
	return filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
		if p == walkRoot {
			p = root
		}
		return fn(p, d, err)
	})
}

// CassetteSuffix ends the name of toolctl test's cassette files, which a
// directory walk leaves out.
const CassetteSuffix = ".cassette.yaml"

// Collect expands paths into the list of tool files to read, sorted and
// without duplicates: a file reached through two spellings of a path
// (tools and tools/, ./tools, its absolute path, a symbolic link to the
// directory) or through a directory and as a file is read once, under
// the first spelling.
func Collect(paths []string) ([]string, error) {
	files, _, err := collect(paths)
	return files, err
}

// Roots is paths without those that add nothing to what Collect finds
// through the others: a second spelling of a path given before, or a file
// that a directory in paths holds (as Collect walks it). The rest keep
// their order and spelling. A directory without tool files is kept.
func Roots(paths []string) ([]string, error) {
	_, roots, err := collect(paths)
	return roots, err
}

func collect(paths []string) (files, roots []string, err error) {
	seen := map[string]bool{}   // the keys of the files added
	walked := map[string]bool{} // the keys of the files directories hold
	given := map[string]bool{}  // the keys of the roots
	type keptRoot struct {
		i     int    // in paths
		key   string // the file's key or the directory's real path
		isDir bool
	}
	var kept []keptRoot
	add := func(p, key string) {
		if !seen[key] {
			seen[key] = true
			files = append(files, filepath.Clean(p))
		}
	}
	for i, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil, &PathError{root, errors.New("no such file or directory")}
			}
			return nil, nil, &PathError{root, err}
		}
		if !info.IsDir() {
			if !info.Mode().IsRegular() {
				return nil, nil, &PathError{root, fmt.Errorf("%v: toolctl reads tool files only from regular files (a symbolic link to one is fine) and directories", &NotRegularError{info.Mode()})}
			}
			if !IsToolFile(root) {
				return nil, nil, &PathError{root, fmt.Errorf("not a tool file: toolctl reads .yaml, .yml and .json")}
			}
			if what := notToolPath(root); what != "" {
				return nil, nil, &PathError{root, fmt.Errorf("not a tool file: it is %s", what)}
			}
			key := filepath.Join(realDir(filepath.Dir(root)), filepath.Base(root))
			if !given[key] {
				given[key] = true
				kept = append(kept, keptRoot{i, key, false})
			}
			add(root, key)
			continue
		}
		real := realDir(root)
		if given[real] {
			continue // walked already
		}
		given[real] = true
		kept = append(kept, keptRoot{i, real, true})
		var found []string
		err = WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root {
					return err
				}
				// An unreadable subdirectory is reported as a file problem.
				found = append(found, p)
				return fs.SkipDir
			}
			if d.IsDir() {
				if p != root && strings.HasPrefix(d.Name(), ".") {
					return fs.SkipDir
				}
				return nil
			}
			// Hidden files are skipped as hidden directories are: among
			// them toolctl's own .toolctl.yaml and lint baselines. So is
			// the config file the command read, whatever its name (a
			// baseline is recognised as it is parsed). Named pipes,
			// sockets and devices are listed too, for ReadFile to report
			// without opening them.
			// toolctl test's cassettes (testdata/NAME.cassette.yaml) are
			// recorded HTTP exchanges, not tools.
			if IsToolFile(p) && !strings.HasPrefix(d.Name(), ".") && !isConfigFile(p, d.Name()) && !strings.HasSuffix(d.Name(), CassetteSuffix) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, nil, &PathError{root, err}
		}
		sort.Strings(found)
		for _, f := range found {
			key := real
			if rel, err := filepath.Rel(root, f); err == nil {
				key = filepath.Join(real, rel)
			}
			walked[key] = true
			add(f, key)
		}
	}
	for _, r := range kept {
		if !r.isDir && walked[r.key] {
			continue // a directory given holds it
		}
		if r.isDir && slices.ContainsFunc(kept, func(o keptRoot) bool { return o.isDir && walks(o.key, r.key) }) {
			continue // a directory given walks it
		}
		roots = append(roots, paths[r.i])
	}
	return files, roots, nil
}

// walks tells whether walking directory dir (a real path) goes through
// directory sub (another): sub is below dir and no directory on the way
// is hidden.
func walks(dir, sub string) bool {
	rel, err := filepath.Rel(dir, sub)
	if err != nil || rel == "." {
		return false
	}
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		if c == ".." || strings.HasPrefix(c, ".") {
			return false
		}
	}
	return true
}

// realDir is directory dir as an absolute path without symbolic links,
// what identifies it however it is spelled; dir made absolute when that
// cannot be found.
func realDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}
