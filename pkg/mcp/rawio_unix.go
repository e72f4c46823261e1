//go:build unix && !linux

package mcp

import "syscall"

// rawRead and rawWrite are plain system calls where the raw ones
// (rawio_linux.go) are not portable.
func rawRead(fd uintptr, p []byte) (int, error)  { return retryEINTR(syscall.Read, fd, p) }
func rawWrite(fd uintptr, p []byte) (int, error) { return retryEINTR(syscall.Write, fd, p) }

func retryEINTR(f func(int, []byte) (int, error), fd uintptr, p []byte) (int, error) {
	for {
		n, err := f(int(fd), p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		return n, nil
	}
}
