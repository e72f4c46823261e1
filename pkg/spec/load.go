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
// A panic in each does not stop the other files: the file gets an internal
// error instead of its tools, and each is called once more with the file
// as it is then (a second panic is not recovered).
func LoadFilesFunc(files []string, each func(i int, f *File)) *Set {
	set := &Set{Files: make([]*File, len(files))}
	workers := min(runtime.GOMAXPROCS(0), len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				set.Files[i] = ReadFile(files[i])
				if each != nil {
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
// and so is a panic (see ParseFile).
// (One open and one fstat per file: this runs for every file of a lint.)
func ReadFile(path string) (f *File) {
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
		return &File{Path: path, Errors: []*Error{{File: path, Msg: "cannot read the " + what + ": " + msg}}}
	}
	fh, err := os.Open(path)
	if err != nil {
		if st, serr := os.Stat(path); serr == nil && st.IsDir() {
			return readError(err, "directory") // an unreadable subdirectory
		}
		return readError(err, "file")
	}
	defer fh.Close()
	info, err := fh.Stat()
	if err != nil {
		return readError(err, "file")
	}
	if info.IsDir() {
		if _, err := fh.ReadDir(1); err != nil && !errors.Is(err, io.EOF) {
			return readError(err, "directory")
		}
		return &File{Path: path, Errors: []*Error{{File: path, Msg: "unreadable directory"}}}
	}
	if info.Size() > MaxFileSize {
		f := &File{Path: path}
		f.tooLarge(int(info.Size()))
		return f
	}
	// Read at most one byte past the limit: a file that grew since the
	// fstat is still caught.
	var buf bytes.Buffer
	buf.Grow(int(info.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(fh, MaxFileSize+1)); err != nil {
		return readError(err, "file")
	}
	if buf.Len() > MaxFileSize {
		f := &File{Path: path}
		f.tooLarge(buf.Len())
		return f
	}
	data := buf.Bytes()
	return ParseFile(path, data)
}

// Collect expands paths into the list of tool files to read, sorted and
// without duplicates.
func Collect(paths []string) ([]string, error) {
	var files []string
	seen := map[string]bool{}
	add := func(p string) {
		clean := filepath.Clean(p)
		if !seen[clean] {
			seen[clean] = true
			files = append(files, clean)
		}
	}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &PathError{root, errors.New("no such file or directory")}
			}
			return nil, &PathError{root, err}
		}
		if !info.IsDir() {
			if !IsToolFile(root) {
				return nil, &PathError{root, fmt.Errorf("not a tool file: toolctl reads .yaml, .yml and .json")}
			}
			add(root)
			continue
		}
		var found []string
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
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
			// them toolctl's own .toolctl.yaml and lint baselines.
			if IsToolFile(p) && !strings.HasPrefix(d.Name(), ".") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, &PathError{root, err}
		}
		sort.Strings(found)
		for _, f := range found {
			add(f)
		}
	}
	return files, nil
}
