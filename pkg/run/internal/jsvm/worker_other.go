//go:build !linux

package jsvm

// capAddressSpace: outside Linux the address-space limit is not enforced
// (macOS) or not there (Windows): the heap watch alone limits the worker.
func capAddressSpace(limit, now int64) {}

// vmSize: unknown.
func vmSize() int64 { return 0 }
