package format

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// FuzzSource: whatever the input, no panic; what formats is idempotent
// and never trips verify's safety net.
func FuzzSource(f *testing.F) {
	files, _ := spec.Collect([]string{"../../tools"})
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data, strings.HasSuffix(p, ".json"), uint8(0))
		}
	}
	f.Add([]byte("name: a\ndescription: d\nparameters:\n  - {name: x, type: any}\n"), false, uint8(1))
	f.Add([]byte("- &a {name: a, description: d}\n- *a\n"), false, uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, isJSON bool, to uint8) {
		path := "f.yaml"
		if isJSON {
			path = "f.json"
		}
		opts := Options{To: []Target{Keep, Feagent, Schema}[to%3]}
		once, err := Source(path, data, opts)
		if err != nil {
			if strings.Contains(err.Error(), "please report") {
				t.Fatalf("safety net: %v\n%q", err, data)
			}
			return
		}
		twice, err := Source(path, once, opts)
		if err != nil || !bytes.Equal(once, twice) {
			t.Fatalf("not idempotent (%v):\n%q\n%q\n%q", err, data, once, twice)
		}
	})
}
