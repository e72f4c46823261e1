package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// marker is argv[0] of a supervisor process.
const marker = "toolctl-supervisor"

// Files the supervisor finds at fixed descriptors: the control pipe (EOF
// means stop: the call is over or its caller died) and the status pipe it
// reports on.
const (
	ctlFD    = 3
	statusFD = 4
)

func init() {
	if len(os.Args) >= 4 && os.Args[0] == marker {
		os.Exit(supervise(os.Args[1], os.Args[2], os.Args[3:]))
	}
}

var (
	availableOnce sync.Once
	available     bool
)

// Available tells whether programs can run under the supervisor here: the
// running binary must be reachable as /proc/self/exe.
func Available() bool {
	availableOnce.Do(func() {
		_, err := os.Stat("/proc/self/exe")
		available = err == nil
	})
	return available
}

// Supervised is a command prepared to run under a supervisor.
type Supervised struct {
	prog         string
	ctlR, ctlW   *os.File
	statR, statW *os.File
	stopOnce     sync.Once
}

// Prepare rewrites cmd (made by exec.CommandContext), whose Path and Args
// name the program, to start a supervisor that runs the program with the
// given memory limit in bytes (0: none). cmd must have no ExtraFiles and
// no SysProcAttr. Call Started after cmd.Start succeeds and Finish once
// cmd.Wait has returned (or Start failed).
//
// When cmd's context ends, the supervisor is told to kill the program and
// everything it started; if it has not exited Grace later, it is killed.
func Prepare(cmd *exec.Cmd, memory int64) (*Supervised, error) {
	if len(cmd.ExtraFiles) > 0 || cmd.SysProcAttr != nil {
		return nil, errors.New("sandbox: the command must have no ExtraFiles nor SysProcAttr")
	}
	s := &Supervised{prog: cmd.Path}
	var err error
	if s.ctlR, s.ctlW, err = os.Pipe(); err != nil {
		return nil, err
	}
	if s.statR, s.statW, err = os.Pipe(); err != nil {
		s.closeAll()
		return nil, err
	}
	args := make([]string, 0, len(cmd.Args)+3)
	args = append(args, marker, strconv.FormatInt(max(memory, 0), 10), cmd.Path)
	args = append(args, cmd.Args...)
	if len(cmd.Args) == 0 {
		args = append(args, cmd.Path)
	}
	cmd.Path = "/proc/self/exe"
	cmd.Args = args
	cmd.ExtraFiles = []*os.File{s.ctlR, s.statW}
	// Its own process group: a terminal's ^C goes to toolctl, which ends
	// the call, rather than straight to the tool.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		s.stop()
		return nil
	}
	cmd.WaitDelay = Grace
	return s, nil
}

// Started closes the supervisor's ends of the pipes in this process.
func (s *Supervised) Started() {
	_ = s.ctlR.Close()
	_ = s.statW.Close()
}

// stop tells the supervisor to kill the program and its descendants.
func (s *Supervised) stop() {
	s.stopOnce.Do(func() { _ = s.ctlW.Close() })
}

func (s *Supervised) closeAll() {
	for _, f := range []*os.File{s.ctlR, s.ctlW, s.statR, s.statW} {
		if f != nil {
			_ = f.Close()
		}
	}
}

// Finish reads the supervisor's report and releases the pipes. Call it
// once cmd.Wait has returned.
func (s *Supervised) Finish() Report {
	s.stop()
	_ = s.ctlR.Close()
	_ = s.statW.Close() // no-op after Started; needed when Start failed
	var r Report
	data, _ := readAll(s.statR)
	_ = s.statR.Close()
	for _, line := range strings.Split(string(data), "\n") {
		key, val, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			continue
		}
		switch key {
		case "start":
			r.StartErr = &fs.PathError{Op: "fork/exec", Path: s.prog, Err: syscall.Errno(n)}
		case "memory":
			r.MemoryExceeded = true
			r.Peak = max(r.Peak, n)
		case "peak":
			r.Peak = max(r.Peak, n)
		case "leftovers":
			r.Leftovers = int(n)
		}
	}
	return r
}

// readAll reads the status pipe: a few lines; the bound only guards
// against a bug.
func readAll(f *os.File) ([]byte, error) {
	return io.ReadAll(io.LimitReader(f, 4096))
}

// --- the supervisor --------------------------------------------------------

const prSetChildSubreaper = 36

// supervise runs in the supervisor process: it starts the program, waits
// for it (or for the caller to say stop, or for the memory to go over the
// limit), kills whatever it left, reports and exits the way the program
// did.
func supervise(limitArg, prog string, argv []string) int {
	syscall.CloseOnExec(ctlFD)
	syscall.CloseOnExec(statusFD)
	ctl := os.NewFile(ctlFD, "control")
	status := os.NewFile(statusFD, "status")
	limit, _ := strconv.ParseInt(limitArg, 10, 64)
	self := os.Getpid()

	// Orphans of the program (setsid, double fork) become our children
	// instead of init's, so that they can be found and killed.
	_, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0, 0, 0, 0)
	subreaper := e == 0

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)

	// This runs in an init function, on the main thread, which lives as
	// long as the process: Pdeathsig (sent when the forking thread dies)
	// kills the program if the supervisor itself is killed.
	pid, err := syscall.ForkExec(prog, argv, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true},
	})
	if err != nil {
		errno, _ := err.(syscall.Errno)
		if errno == 0 {
			errno = syscall.EINVAL
		}
		fmt.Fprintf(status, "start %d\n", int(errno))
		return 127
	}
	// The input on stdin is the program's: keep no copy open.
	if null, err := syscall.Open(os.DevNull, syscall.O_RDONLY, 0); err == nil {
		_ = syscall.Dup3(null, 0, 0)
		_ = syscall.Close(null)
	}

	exited := make(chan syscall.WaitStatus, 1)
	gone := make(chan struct{}) // closed once there are no children left
	go func() {
		for {
			var ws syscall.WaitStatus
			p, err := syscall.Wait4(-1, &ws, 0, nil)
			if err == syscall.EINTR {
				continue
			}
			if err != nil { // ECHILD: nothing left, and nothing can appear
				close(gone)
				return
			}
			if p == pid {
				exited <- ws
			}
		}
	}()
	stop := make(chan struct{})
	go func() {
		var b [64]byte
		for {
			if _, err := ctl.Read(b[:]); err != nil {
				close(stop)
				return
			}
		}
	}()

	var timerC <-chan time.Time
	var timer *time.Timer
	if limit > 0 {
		timer = time.NewTimer(pollInterval(limit, 0))
		timerC = timer.C
	}
	var (
		ws      syscall.WaitStatus
		haveWS  bool
		peak    int64
		overMem bool
	)
loop:
	for {
		select {
		case ws = <-exited:
			haveWS = true
			break loop
		case <-stop:
			break loop
		case <-sigs:
			break loop
		case <-timerC:
			used := treeMemory(self, limit)
			peak = max(peak, used)
			if used > limit {
				overMem = true
				break loop
			}
			timer.Reset(pollInterval(limit, used))
		}
	}
	leftovers := killTree(self, pid, gone, subreaper)
	if !haveWS {
		select {
		case ws = <-exited:
			haveWS = true
		default:
		}
	}
	var report strings.Builder
	if overMem {
		fmt.Fprintf(&report, "memory %d\n", peak)
	} else if peak > 0 {
		fmt.Fprintf(&report, "peak %d\n", peak)
	}
	if leftovers > 0 {
		fmt.Fprintf(&report, "leftovers %d\n", leftovers)
	}
	_, _ = status.WriteString(report.String())
	_ = status.Close()
	if !haveWS {
		ws = syscall.WaitStatus(syscall.SIGKILL) // killed before it was seen to exit
	}
	return exitLike(ws)
}

// pollRate is the fastest a tree is assumed to grow (bytes per second):
// the next measurement comes before it could have crossed the limit at
// that rate, between 2 ms and 100 ms from now.
const pollRate = 8 << 30

func pollInterval(limit, used int64) time.Duration {
	d := time.Duration(float64(limit-used) / pollRate * float64(time.Second))
	return min(max(d, 2*time.Millisecond), 100*time.Millisecond)
}

// killTree kills every descendant of self (the program too, if it still
// runs) until none is left, and returns how many it found alive other than
// the program.
func killTree(self, prog int, gone <-chan struct{}, subreaper bool) int {
	if !subreaper {
		// Orphans went to init: the program's process group is the best
		// that is left.
		_ = syscall.Kill(-prog, syscall.SIGKILL)
	}
	if !hasChildren() {
		<-gone
		return 0
	}
	seen := map[int]bool{}
	for {
		for _, p := range descendants(self) {
			if !seen[p] && p != prog && alive(p) {
				seen[p] = true
			}
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		select {
		case <-gone:
			return len(seen)
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// hasChildren asks the kernel, without reaping anything, whether this
// process has any child left (running or not yet reaped).
func hasChildren() bool {
	const pAll, wNoWait = 0, 0x1000000
	var info [128]byte // siginfo_t
	_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pAll, 0, uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOHANG|wNoWait, 0, 0)
	return e != syscall.ECHILD
}

// alive: not a zombie (already dead, waiting to be reaped).
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(data, ')')
	return i >= 0 && i+2 < len(data) && data[i+2] != 'Z' && data[i+2] != 'X'
}

// descendants lists every process below root, from the children files of
// its threads (/proc/PID/task/TID/children) or, when the kernel has none,
// from the parent of every process in /proc.
func descendants(root int) []int {
	if kids, ok := children(root); ok {
		var out []int
		for len(kids) > 0 {
			p := kids[len(kids)-1]
			kids = kids[:len(kids)-1]
			out = append(out, p)
			more, _ := children(p)
			kids = append(kids, more...)
		}
		return out
	}
	return scanDescendants(root)
}

var noChildrenFiles bool

func children(pid int) ([]int, bool) {
	if noChildrenFiles {
		return nil, false
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil, true // gone
	}
	var out []int
	for _, t := range tasks {
		data, err := os.ReadFile(dir + t.Name() + "/children")
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && pid == os.Getpid() {
				noChildrenFiles = true // CONFIG_PROC_CHILDREN is off
				return nil, false
			}
			continue
		}
		for _, f := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out, true
}

func scanDescendants(root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	kids := map[int][]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(data[i+1:]))
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		kids[ppid] = append(kids[ppid], pid)
	}
	var out []int
	todo := append([]int(nil), kids[root]...)
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		out = append(out, p)
		todo = append(todo, kids[p]...)
	}
	return out
}

// treeMemory is the memory of every process below self: the sum of their
// anonymous resident memory, which counts pages shared after a fork once
// per process; when that sum is over the limit, it is measured again with
// shared pages counted proportionally (PSS), so that forked workers are
// not charged several times for the same pages.
func treeMemory(self int, limit int64) int64 {
	pids := descendants(self)
	page := int64(os.Getpagesize())
	var rough int64
	for _, p := range pids {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/statm")
		if err != nil {
			continue
		}
		f := strings.Fields(string(data))
		if len(f) < 3 {
			continue
		}
		res, _ := strconv.ParseInt(f[1], 10, 64)
		shared, _ := strconv.ParseInt(f[2], 10, 64)
		rough += max(res-shared, 0) * page
	}
	if rough <= limit || len(pids) == 1 {
		return rough
	}
	var exact int64
	for _, p := range pids {
		v, ok := pssAnon(p)
		if !ok {
			return rough
		}
		exact += v
	}
	return exact
}

// pssAnon reads Pss_Anon (or, on kernels before 5.9, Pss) from
// /proc/PID/smaps_rollup.
func pssAnon(pid int) (int64, bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0, errors.Is(err, fs.ErrNotExist) && !procExists(pid)
	}
	defer f.Close()
	var pss int64 = -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		key, rest, ok := strings.Cut(line, ":")
		if !ok || (key != "Pss_Anon" && key != "Pss") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			continue
		}
		if key == "Pss_Anon" {
			return kb << 10, true
		}
		pss = kb << 10
	}
	return pss, pss >= 0
}

func procExists(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

// exitLike ends the supervisor the way the program ended: with its exit
// status, or killed by the same signal (without a core dump), so that the
// caller sees what it would have seen running the program directly.
func exitLike(ws syscall.WaitStatus) int {
	switch {
	case ws.Exited():
		return ws.ExitStatus()
	case ws.Signaled():
		sig := ws.Signal()
		_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
		signal.Reset()
		// SIG_DFL: an all-zero sigaction, whatever the architecture's layout.
		var act [4]uint64
		_, _, _ = syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act[0])), 0, 8, 0, 0)
		_ = syscall.Kill(os.Getpid(), sig)
		time.Sleep(time.Second)
		return 128 + int(sig)
	}
	return 1
}
