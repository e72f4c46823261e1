//go:build !unix

package mcp

// pollable is the identity where the standard files cannot be made
// non-blocking (see pollable_unix.go).
func pollable[T any](v T) (T, func()) { return v, func() {} }
