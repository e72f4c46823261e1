package run

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// TestMain lets more parallel tests run at once than there are CPUs
// (go test's default -parallel): the tests here that call t.Parallel
// spend their time waiting for a timeout to fire and for the processes it
// kills to go, not computing. An explicit -parallel is kept.
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		_ = flag.Set("test.parallel", strconv.Itoa(max(8, runtime.GOMAXPROCS(0))))
	}
	os.Exit(m.Run())
}
