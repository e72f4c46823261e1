//go:build !unix

package spec

import "os"

// openNonBlocking opens path for reading (named pipes are no file system
// objects here).
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
