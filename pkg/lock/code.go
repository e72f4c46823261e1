package lock

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolctl/toolctl/pkg/breaking"
	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/spec"
)

// CodeFile pins a file an entry runs that lives beside the tool file: a
// javascript entry's file, a python entry's module (when it is a file
// under the entry's path, not an installed module), a command entry's
// script. The tool file names it without its content, so without the pin
// a changed script would pass verify.
type CodeFile struct {
	// File is relative to the lock file's directory, with forward slashes.
	File   string `yaml:"file"`
	SHA256 string `yaml:"sha256"`
	// ptr is the entry field that names the file (not written).
	ptr string
}

// codeFiles are the files t's entry runs (see CodeFile), with the pointer
// of the field naming each, as paths relative to the working directory;
// a file that is not there (yet) is listed with an empty hash.
func codeFiles(t *breaking.Tool) []CodeFile {
	if t.Source == nil || t.Source.Entry == nil || t.Source.Path() == "" {
		return nil
	}
	e, dir := t.Source.Entry, filepath.Dir(t.Source.Path())
	rel := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	var out []CodeFile
	add := func(p, ptr string, must bool) {
		h, err := fileHash(p)
		if err != nil && !must {
			return
		}
		out = append(out, CodeFile{File: p, SHA256: h, ptr: ptr})
	}
	switch t.EntryKind {
	case "javascript":
		if e.Code == "" && e.File != "" {
			add(rel(e.File), "/entry/file", true)
		}
	case "python":
		if e.Module != "" {
			base := dir
			if e.Path != "" {
				base = rel(e.Path)
			}
			mod := filepath.FromSlash(strings.ReplaceAll(e.Module, ".", "/"))
			for _, p := range []string{filepath.Join(base, mod+".py"), filepath.Join(base, mod, "__init__.py")} {
				if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
					add(p, "/entry/module", false)
					break
				}
			}
		}
	case "command":
		for i, arg := range e.Command {
			// A script beside the tool file (./add.sh, scripts/x.py), not a
			// program of the system (/usr/bin/python3), which an upgrade
			// changes.
			if arg == "" || strings.ContainsAny(arg, "{}$") || !strings.ContainsAny(arg, `/\`) || filepath.IsAbs(arg) || strings.HasPrefix(arg, "/") {
				continue
			}
			if fi, err := os.Stat(rel(arg)); err == nil && fi.Mode().IsRegular() {
				add(rel(arg), fmt.Sprintf("/entry/command/%d", i), false)
			}
		}
	}
	return out
}

// fileHash is the hex SHA-256 of a file's content: a regular file of at
// most spec.MaxFileSize (a link to /dev/zero or a named pipe is an
// error, not an endless read).
func fileHash(p string) (string, error) {
	data, err := spec.ReadToolFile(p)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:]), nil
}

// pinCode is the Code of a lock entry: t's code files relative to dir,
// sorted.
func pinCode(t *breaking.Tool, dir string) []CodeFile {
	files := codeFiles(t)
	for i := range files {
		files[i].File = relTo(dir, files[i].File)
	}
	slices.SortFunc(files, func(a, b CodeFile) int { return strings.Compare(a.File, b.File) })
	return slices.CompactFunc(files, func(a, b CodeFile) bool { return a.File == b.File })
}

// verifyCode reports each code file of t that differs from its pin in e,
// is gone, or is not pinned.
func verifyCode(f *File, e Entry, t *breaking.Tool) []diag.Diagnostic {
	now := pinCode(t, filepath.Dir(f.path))
	var out []diag.Diagnostic
	report := func(ptr, format string, args ...any) {
		at := t.Span("/name")
		if t.Source != nil && t.Source.Has(ptr) {
			at = t.Span(ptr)
		}
		out = append(out, diag.Diagnostic{File: t.File, Span: at, Severity: diag.Error, Rule: RuleChanged, Tool: t.Name,
			Message: fmt.Sprintf("tool %s differs from %s: ", t.Name, f.path) + fmt.Sprintf(format, args...) + "; review it, then run toolctl lock again"})
	}
	for _, c := range now {
		i := slices.IndexFunc(e.Code, func(p CodeFile) bool { return p.File == c.File })
		switch {
		case i < 0:
			report(c.ptr, "it runs %s, which the lock does not pin", c.File)
		case c.SHA256 == e.Code[i].SHA256:
		case c.SHA256 == "":
			report(c.ptr, "%s, which it runs, is gone or unreadable (pinned sha256 %s)", c.File, short(e.Code[i].SHA256))
		default:
			report(c.ptr, "%s, which it runs, changed (sha256 %s, now %s)", c.File, short(e.Code[i].SHA256), short(c.SHA256))
		}
	}
	for _, p := range e.Code {
		if !slices.ContainsFunc(now, func(c CodeFile) bool { return c.File == p.File }) {
			report("/entry", "it no longer runs %s, pinned in the lock", p.File)
		}
	}
	return out
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	if h == "" {
		return "none"
	}
	return h
}
