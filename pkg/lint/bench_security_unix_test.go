//go:build unix

package lint

import (
	"runtime"
	"runtime/debug"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/toolctl/toolctl/pkg/spec"
)

// BenchmarkSecurityCost is RunFiles (toolctl lint) with and without the
// security pack, interleaved in every iteration so that a load change on a
// shared machine hits both alike, timed in process CPU time (user +
// system, GC included). It reports the medians, their overhead, and the
// median of each iteration's overhead:
//
//	TOOLCTL_BENCH_DIR=DIR go test ./pkg/lint -run - -bench SecurityCost -benchtime 10x
func BenchmarkSecurityCost(b *testing.B) {
	files, err := spec.Collect([]string{benchDir(b)})
	if err != nil {
		b.Fatal(err)
	}
	off := map[string]Severity{}
	for _, r := range Rules() {
		if r.Pack == PackSecurity {
			off[r.ID] = Off
		}
	}
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	measure := func(cfg Config) time.Duration {
		runtime.GC()
		start := cpu()
		RunFiles(files, cfg)
		runtime.GC() // the garbage of this run is this run's cost
		return cpu() - start
	}
	// toolctl lint runs with GOGC=300 (cmd/lint.go).
	defer debug.SetGCPercent(debug.SetGCPercent(300))
	var with, without []time.Duration
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			with = append(with, measure(Config{}))
			without = append(without, measure(Config{Severities: off}))
		} else {
			without = append(without, measure(Config{Severities: off}))
			with = append(with, measure(Config{}))
		}
	}
	// Each iteration's ratio: a load change during one iteration affects
	// both of its runs.
	ratios := make([]float64, len(with))
	for i := range with {
		ratios[i] = float64(with[i]) / float64(without[i])
	}
	slices.Sort(ratios)
	median := func(d []time.Duration) time.Duration {
		slices.Sort(d)
		return d[len(d)/2]
	}
	mw, mo := median(with), median(without)
	b.ReportMetric(100*(ratios[len(ratios)/2]-1), "paired-overhead-%")
	b.ReportMetric(float64(mw.Milliseconds()), "cpu-ms-with")
	b.ReportMetric(float64(mo.Milliseconds()), "cpu-ms-without")
	b.ReportMetric(100*(float64(mw)/float64(mo)-1), "overhead-%")
}
