package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Every command that writes files (lint reports, export, docs, fmt -w,
// new, import) stages the data in a temporary file beside the target and
// renames it into place, so a reader never sees half a file.

// stageFile writes data with mode perm to a new temporary file beside
// path and returns its name. On error nothing is left behind.
func stageFile(path string, data []byte, perm fs.FileMode) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(name, perm)); err != nil {
		_ = os.Remove(name)
		return "", err
	}
	return name, nil
}

// writeFileAtomic writes data to path (mode 0644) through stageFile.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := stageFile(path, data, 0o644)
	if err == nil {
		if err = os.Rename(tmp, path); err != nil {
			_ = os.Remove(tmp)
		}
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, unwrapPathError(err))
	}
	return nil
}

// commitFile moves a staged file into place. Without force a hard link
// does it, which fails rather than replace a file created meanwhile.
func commitFile(tmp, path string, force bool) error {
	if !force {
		err := os.Link(tmp, path)
		if err == nil {
			_ = os.Remove(tmp)
			return nil
		}
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s appeared while importing; pass --force to replace it", path)
		}
		// Some file systems have no hard links: check, then rename.
		if _, serr := os.Lstat(path); serr == nil {
			return fmt.Errorf("%s appeared while importing; pass --force to replace it", path)
		}
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, unwrapPathError(err))
	}
	return nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
