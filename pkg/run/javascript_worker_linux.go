package run

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// jsWorkerProc puts the worker in its own process group, out of reach of
// a terminal's ^C (toolctl ends the call itself).
func jsWorkerProc(cmd *exec.Cmd) { setpgid(cmd) }

// jsCapDataSegment caps the worker's address space (RLIMIT_AS) at what it
// uses now plus the limit and some room for the runtime's own growth
// (thread stacks, collector metadata): an allocation that would cross it
// fails with a fatal "out of memory" instead of taking the machine's
// memory. RLIMIT_AS rather than RLIMIT_DATA: the Go heap grows by mapping
// over address space it reserved earlier, which RLIMIT_DATA does not
// count.
func jsCapDataSegment(limit int64) {
	now := procStatus("VmSize:")
	if now <= 0 {
		return
	}
	capAt := uint64(now + limit + limit/4 + 64<<20)
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: capAt, Max: capAt})
}

// procStatus reads a size field of /proc/self/status ("VmSize:"), in
// bytes.
func procStatus(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
