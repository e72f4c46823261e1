package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/toolctl/toolctl/"

// layering lists, for each package of the module, the packages of the
// module it may import (README, "Development"). Dependencies flow one way:
// cmd on top, the domain packages below it, pkg/spec under them and
// pkg/diag at the bottom. A new package, or a new import between
// packages, is a decision: make it here and in the README.
var layering = map[string][]string{
	// layer 0, leaves: no package of the module
	"pkg/diag":              {},
	"pkg/tmpl":              {},
	"internal/testhook":     {},
	"internal/jsonschema":   {},
	"pkg/internal/sandbox":  {},
	"pkg/run/internal/jsvm": {},
	"pkg/internal/proc":     {"pkg/internal/sandbox"},
	// layer 1, the model: tool files read with positions
	"pkg/spec":                   {"pkg/diag", "internal/testhook", "pkg/spec/internal/fastnode"},
	"pkg/spec/internal/fastnode": {},
	// layer 2, on the model: values, provider rules, settings, clients
	"pkg/validate":  {"internal/jsonschema", "pkg/spec"},
	"pkg/compat":    {"pkg/spec"},
	"pkg/config":    {"pkg/spec"},
	"pkg/report":    {"pkg/diag", "pkg/spec"},
	"pkg/mcpclient": {"pkg/internal/proc"},
	"pkg/pyast":     {"pkg/internal/proc", "pkg/spec"},
	// layer 3, each command's engine
	"pkg/lint":     {"internal/jsonschema", "pkg/compat", "pkg/diag", "pkg/pyast", "pkg/spec", "pkg/tmpl", "pkg/validate"},
	"pkg/export":   {"pkg/compat", "pkg/diag", "pkg/spec", "pkg/validate"},
	"pkg/format":   {"internal/testhook", "pkg/diag", "pkg/spec"},
	"pkg/importer": {"internal/testhook", "pkg/compat", "pkg/diag", "pkg/mcpclient", "pkg/pyast", "pkg/spec"},
	"pkg/run":      {"internal/jsonschema", "pkg/internal/proc", "pkg/mcpclient", "pkg/run/internal/jsvm", "pkg/spec", "pkg/tmpl", "pkg/validate"},
	"pkg/scaffold": {"pkg/format", "pkg/spec"},
	"pkg/docs":     {"pkg/diag", "pkg/export", "pkg/spec"},
	"pkg/breaking": {"pkg/compat", "pkg/diag", "pkg/importer", "pkg/lint", "pkg/spec"},
	// layer 4, built on engines: the builtin handlers run through the
	// runner, serve runs and exports
	"pkg/run/builtin": {"internal/jsonschema", "pkg/run", "pkg/spec"},
	"pkg/mcp":         {"internal/jsonschema", "pkg/export", "pkg/run", "pkg/spec", "pkg/validate"},
	"pkg/scan":        {"pkg/diag", "pkg/importer", "pkg/lint", "pkg/spec"},
	"pkg/contract":    {"internal/jsonschema", "pkg/breaking", "pkg/diag", "pkg/mcpclient", "pkg/run", "pkg/spec", "pkg/validate"},
	"pkg/lock":        {"pkg/breaking", "pkg/diag", "pkg/importer", "pkg/spec"},
	"pkg/lsp":         {"internal/testhook", "pkg/config", "pkg/diag", "pkg/format", "pkg/lint", "pkg/spec"},
	"pkg/tokens":      {"pkg/export", "pkg/spec"},
	// layer 5, the commands: flags, wiring, output; anything below
	"cmd":             {"*"},
	"internal/genman": {"cmd"},
	".":               {"cmd"},
	// benchmarks' helpers
	"bench/gencorpus": {},
	"bench/httpfloor": {},
	"bench/mcpload":   {},
	"bench/parseonly": {"pkg/spec"},
}

// forbiddenDeps are modules a package must not reach, even through other
// packages: the importer reads definitions and has no business with the
// JavaScript engine or the calculator's expression language.
var forbiddenDeps = map[string][]string{
	"pkg/importer": {"github.com/dop251/goja", "github.com/expr-lang/expr"},
	"pkg/spec":     {"github.com/dop251/goja", "github.com/expr-lang/expr", "github.com/modelcontextprotocol/go-sdk"},
}

// TestLayering fails when a package imports a package of the module its
// layer may not, or reaches a forbidden dependency.
func TestLayering(t *testing.T) {
	imports := moduleImports(t)
	for pkg, deps := range imports {
		allowed, ok := layering[pkg]
		if !ok {
			t.Errorf("package %s is not placed in the layering table (layering_test.go) and the README's Development section", pkg)
			continue
		}
		if slices.Contains(allowed, "*") {
			continue
		}
		for _, d := range deps {
			if strings.HasPrefix(d, module) && !slices.Contains(allowed, strings.TrimPrefix(d, module)) {
				t.Errorf("%s imports %s, which its layer may not (layering_test.go, README \"Development\")", pkg, strings.TrimPrefix(d, module))
			}
		}
	}
	for pkg, banned := range forbiddenDeps {
		reach := map[string]bool{}
		var walk func(p string)
		walk = func(p string) {
			for _, d := range imports[p] {
				if reach[d] {
					continue
				}
				reach[d] = true
				if strings.HasPrefix(d, module) {
					walk(strings.TrimPrefix(d, module))
				}
			}
		}
		walk(pkg)
		for d := range reach {
			for _, b := range banned {
				if d == b || strings.HasPrefix(d, b+"/") {
					t.Errorf("%s reaches %s; it must not", pkg, d)
				}
			}
		}
	}
}

// moduleImports maps each package of the module (its directory, "." for
// the root) to the imports of its non-test files.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(out[pkg], p) {
				out[pkg] = append(out[pkg], p)
			}
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, deps := range out {
		sort.Strings(deps)
	}
	if _, err := os.Stat("go.mod"); err != nil {
		t.Fatal("run from the module root:", err)
	}
	return out
}
