package importer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// pyMeasure is what importing real code gives (issue 17, "Tests and
// measures"): functions imported and skipped, parameters, how many got a
// description and a type, and the warnings by rule.
type pyMeasure struct {
	Imported, Skipped, Params, Described, Typed int
	Warnings                                    map[string]int
}

func (m pyMeasure) String() string {
	rules := make([]string, 0, len(m.Warnings))
	for r := range m.Warnings {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	var w []string
	for _, r := range rules {
		w = append(w, fmt.Sprintf("%s=%d", r, m.Warnings[r]))
	}
	return fmt.Sprintf("imported=%d skipped=%d params=%d described=%d typed=%d warnings: %s", m.Imported, m.Skipped, m.Params, m.Described, m.Typed, strings.Join(w, " "))
}

// measurePython imports every public function of file and counts.
func measurePython(t *testing.T, file string, execMode bool) pyMeasure {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ImportPython(context.Background(), PythonOptions{Name: file, Source: src, ToolDir: t.TempDir(), Exec: execMode})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	m := pyMeasure{Warnings: map[string]int{}}
	m.Imported = len(res.Tools)
	for _, w := range res.Warnings {
		m.Warnings[w.Rule]++
		switch w.Rule {
		case RulePythonVarargs, RulePythonPositionalOnly, RulePythonInstanceMethod:
			m.Skipped++
		}
	}
	for _, tool := range res.Tools {
		props, _ := tool.Tool.InputSchema.Get("properties")
		pm, _ := props.(*spec.Map)
		for i := range pm.Len() {
			_, v := pm.At(i)
			s := v.(*spec.Map)
			m.Params++
			if _, ok := s.Get("description"); ok {
				m.Described++
			}
			for _, k := range []string{"type", "enum", "anyOf", "oneOf", "const"} {
				if _, ok := s.Get(k); ok {
					m.Typed++
					break
				}
			}
		}
	}
	return m
}

// pinnedMeasures are the counts per Python version (the standard library
// changes between versions); a version without counts logs them only.
var pinnedMeasures = map[string]map[string]string{
	"3.11": {
		"static textwrap.py":   "imported=2 skipped=3 params=4 described=0 typed=0 warnings: python-varargs-refused=3",
		"static statistics.py": "imported=15 skipped=3 params=24 described=0 typed=0 warnings: python-positional-only-refused=3",
		"static slugify.py":    "imported=1 skipped=0 params=3 described=0 typed=0 warnings: import-description-missing=1",
		"exec textwrap.py":     "imported=2 skipped=3 params=4 described=0 typed=0 warnings: python-varargs-refused=3",
		"exec statistics.py":   "imported=15 skipped=3 params=24 described=0 typed=0 warnings: python-positional-only-refused=3",
		"exec slugify.py":      "imported=1 skipped=0 params=3 described=0 typed=0 warnings: import-description-missing=1",
	},
}

// TestPythonMeasure imports real code: two pure-Python modules of the
// machine's standard library (textwrap, statistics) and the bundled
// tools/scripts/*.py, statically and with --exec, logs what it got and
// compares with the pinned counts (go test ./pkg/importer -run
// TestPythonMeasure -v prints them).
func TestPythonMeasure(t *testing.T) {
	needPython(t)
	out, err := exec.Command("python3", "-I", "-c", "import sys, textwrap, statistics; print('%d.%d' % sys.version_info[:2]); print(textwrap.__file__); print(statistics.__file__)").Output()
	if err != nil {
		t.Skipf("python3 cannot import textwrap and statistics: %v", err)
	}
	lines := strings.Fields(string(out))
	version, files := lines[0], lines[1:]
	scripts, _ := filepath.Glob(filepath.Join("..", "..", "tools", "scripts", "*.py"))
	files = append(files, scripts...)
	pinned := pinnedMeasures[version]
	total := map[bool]pyMeasure{false: {Warnings: map[string]int{}}, true: {Warnings: map[string]int{}}}
	for _, execMode := range []bool{false, true} {
		mode := map[bool]string{false: "static", true: "exec"}[execMode]
		for _, f := range files {
			m := measurePython(t, f, execMode)
			key := mode + " " + filepath.Base(f)
			t.Logf("%s: %s", key, m)
			if want, ok := pinned[key]; ok && want != m.String() {
				t.Errorf("%s (Python %s):\n got %s\nwant %s", key, version, m, want)
			}
			tm := total[execMode]
			tm.Imported += m.Imported
			tm.Skipped += m.Skipped
			tm.Params += m.Params
			tm.Described += m.Described
			tm.Typed += m.Typed
			for r, n := range m.Warnings {
				tm.Warnings[r] += n
			}
			total[execMode] = tm
		}
		t.Logf("%s total: %s", mode, total[execMode])
	}
	if pinned == nil {
		t.Logf("no pinned counts for Python %s", version)
	}
}
