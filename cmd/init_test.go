package cmd

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// TestPackageInitIsCheap: every command pays for the initialisation of
// every package, so toolctl's own packages do no work there that a command
// may not need (templates, regular expressions, schemas are built on first
// use). It runs this test binary again with GODEBUG=inittrace=1 and checks
// what each toolctl package's init allocates (internal/jsonschema, the JSON
// Schema library, compiles its meta-schemas on first use since it is ours).
func TestPackageInitIsCheap(t *testing.T) {
	if os.Getenv("TOOLCTL_INITTRACE_CHILD") != "" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPackageInitIsCheap$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "TOOLCTL_INITTRACE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	re := regexp.MustCompile(`(?m)^init (github\.com/toolctl/toolctl/\S+) @.* ([0-9]+) bytes, ([0-9]+) allocs$`)
	ms := re.FindAllSubmatch(out, -1)
	if len(ms) < 5 {
		t.Fatalf("found the init of %d toolctl packages in:\n%s", len(ms), out)
	}
	const maxBytes = 64 << 10
	for _, m := range ms {
		if n, _ := strconv.Atoi(string(m[2])); n > maxBytes {
			t.Errorf("package %s allocates %d bytes (%s allocs) at init, more than %d: build what it needs on first use", m[1], n, m[3], maxBytes)
		}
	}
}
