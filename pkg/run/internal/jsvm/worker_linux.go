package jsvm

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// capAddressSpace caps the worker's address space (RLIMIT_AS) at what it
// uses now (now: VmSize, 0 if unknown) plus the limit and some room for the runtime's own growth
// (thread stacks, collector metadata): an allocation that would cross it
// fails with a fatal "out of memory" instead of taking the machine's
// memory. RLIMIT_AS rather than RLIMIT_DATA: the Go heap grows by mapping
// over address space it reserved earlier, which RLIMIT_DATA does not
// count.
//
// Only the soft limit is set, so that the next call (limit 0: none) can
// lift it: the code a worker runs has no way to call setrlimit.
func capAddressSpace(limit, now int64) {
	if raceEnabled {
		return
	}
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) != nil {
		return
	}
	rl.Cur = rl.Max
	if limit > 0 && now > 0 {
		rl.Cur = min(uint64(now+limit+limit/4+64<<20), rl.Max)
	}
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &rl)
}

// vmSize is VmSize from /proc/self/status, in bytes.
func vmSize() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmSize:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
