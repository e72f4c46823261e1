//go:build unix && !linux

package mcp

import "syscall"

// rawRead and rawWrite are plain system calls where the raw ones
// (rawio_linux.go) are not portable.
func rawRead(fd uintptr, p []byte) (int, error) {
	for {
		n, err := syscall.Read(int(fd), p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		return n, nil
	}
}

func rawWrite(fd uintptr, p []byte) (int, error) {
	for {
		n, err := syscall.Write(int(fd), p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		return n, nil
	}
}
