package mcp

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/toolctl/toolctl/pkg/spec"
)

// Reload reads the paths again and serves what they hold now (see
// Update). A path that cannot be read any more keeps its tools.
func (s *Server) Reload() (Summary, error) {
	s.updateMu.Lock()
	defer s.updateMu.Unlock()
	files, err := spec.Collect(s.opts.Paths)
	if err != nil {
		return Summary{}, err
	}
	set := spec.LoadFiles(files)
	var bad map[string]string
	if s.opts.Check != nil {
		bad = s.opts.Check(set)
	}
	return s.update(set, bad), nil
}

// Watch reloads the tools when a file under the paths changes, until ctx
// is done. Editors save in bursts (write a temporary file, rename it), so
// a reload waits for Debounce of quiet. A reload that changes the list
// makes the SDK send notifications/tools/list_changed to every session.
// ready, when not nil, is called once the watches are in place.
func (s *Server) Watch(ctx context.Context, ready func()) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	// fsnotify watches directories, not trees: add every directory under
	// the paths (and a file's own directory), and new ones as they appear.
	files := map[string]bool{} // paths given as files
	var dirs []string
	for _, p := range s.opts.Paths {
		info, err := os.Stat(p)
		if err != nil {
			return err
		}
		if !info.IsDir() {
			files[filepath.Clean(p)] = true
			if err := w.Add(filepath.Dir(p)); err != nil {
				return err
			}
			continue
		}
		if err := addTree(w, p); err != nil {
			return err
		}
		dirs = append(dirs, p)
	}
	if ready != nil {
		ready()
	}
	relevant := func(e fsnotify.Event) bool {
		name := filepath.Clean(e.Name)
		if e.Has(fsnotify.Chmod) && !e.Has(fsnotify.Write|fsnotify.Create|fsnotify.Remove|fsnotify.Rename) {
			return false
		}
		if files[name] {
			return true
		}
		if !under(name, dirs) {
			return false // a neighbour of a file given as a path
		}
		if strings.HasPrefix(filepath.Base(name), ".") {
			return false // hidden files and editors' temporary files
		}
		if e.Has(fsnotify.Create) {
			if info, err := os.Stat(name); err == nil && info.IsDir() {
				addTree(w, name)
				return true
			}
		}
		// A removed or renamed directory holds no tool file name.
		return spec.IsToolFile(name) || e.Has(fsnotify.Remove|fsnotify.Rename)
	}
	var timer *time.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return nil
		case e, ok := <-w.Events:
			if !ok {
				return nil
			}
			if !relevant(e) {
				continue
			}
			if timer == nil {
				timer = time.NewTimer(s.opts.Debounce)
			} else {
				timer.Reset(s.opts.Debounce)
			}
			fire = timer.C
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			s.log.printf("watching the tool files: %v", err)
		case <-fire:
			fire = nil
			sum, err := s.Reload()
			if err != nil {
				s.log.printf("reload: %v; still serving the tools loaded before", err)
				continue
			}
			if len(sum.Added)+len(sum.Changed)+len(sum.Removed) > 0 {
				s.log.printf("reloaded: %s (%d tools served)", sum, sum.Served)
			}
		}
	}
}

// under tells whether name is inside one of dirs.
func under(name string, dirs []string) bool {
	for _, d := range dirs {
		if rel, err := filepath.Rel(d, name); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// addTree watches dir and every directory below it, skipping hidden ones
// and following a symbolic link given as dir, as spec.Collect does.
func addTree(w *fsnotify.Watcher, dir string) error {
	return spec.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		return w.Add(p)
	})
}
