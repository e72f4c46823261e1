// Command gencorpus writes a synthetic corpus of tool files for
// benchmarking `toolctl lint`:
//
//	go run ./bench/gencorpus -n 10000 [-seed 1] [-dangling 5] DIR
//
// The files are realistic (every dialect toolctl parses, YAML and JSON,
// 1–4 KB with some near 10 KB, nested schemas, CJK text) and clean under the
// default lint rules, so a benchmark measures checking, not printing. With
// -dangling PCT, that share of the files refers to a tool that is not in
// the set, as in real repositories (see dangle.go): lint reports exactly
// those, and looks for a did-you-mean for each. The same options always
// give the same bytes, and -dangling changes only the files it marks.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type stats struct {
	files, bytes, dirs int
	largest            int
	byDialect          map[string]int
	json, cjk, big     int
	dangling           dangleStats
}

func (s stats) String() string {
	var ds []string
	for d, n := range s.byDialect {
		ds = append(ds, fmt.Sprintf("%s=%d", d, n))
	}
	sort.Strings(ds)
	out := fmt.Sprintf("%d files in %d directories, %.1f MB (mean %.1f KB, largest %.1f KB); %s; json=%d cjk=%d big=%d",
		s.files, s.dirs, float64(s.bytes)/1e6, float64(s.bytes)/float64(max(1, s.files))/1e3, float64(s.largest)/1e3,
		strings.Join(ds, " "), s.json, s.cjk, s.big)
	if d := s.dangling; d.files > 0 {
		out += fmt.Sprintf("; dangling=%d (typo=%d renamed=%d foreign=%d)", d.files, d.typo, d.renamed, d.foreign)
	}
	return out
}

// generate writes n tool files under dir, which must be empty or missing:
// a leftover file from a bigger corpus would skew the benchmark.
func generate(dir string, n int, seed uint64, perDir int, dangling float64) (stats, error) {
	st := stats{byDialect: map[string]int{}}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return st, fmt.Errorf("%s is not empty; remove it or choose another directory", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, err
	}
	p := newPlan(n, seed, perDir, dangling)
	dirs := map[string]bool{}
	for _, t := range p.tools {
		data := p.render(t)
		sub := filepath.Join(dir, filepath.FromSlash(t.dir))
		if !dirs[sub] {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return st, err
			}
			dirs[sub] = true
		}
		if err := os.WriteFile(filepath.Join(sub, t.name+t.ext), data, 0o644); err != nil {
			return st, err
		}
		st.files++
		st.bytes += len(data)
		st.largest = max(st.largest, len(data))
		st.byDialect[t.dialect]++
		st.json += b2i(t.json)
		st.cjk += b2i(t.cjk)
		st.big += b2i(t.big)
	}
	st.dirs = len(dirs)
	st.dangling = p.dangled
	opts := ""
	if dangling > 0 {
		opts = fmt.Sprintf(" -dangling %g", dangling)
	}
	readme := fmt.Sprintf("Synthetic tool files for benchmarks: go run ./bench/gencorpus -n %d -seed %d -per-dir %d%s DIR\n", n, seed, perDir, opts)
	return st, os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func main() {
	n := flag.Int("n", 10000, "number of tool files")
	seed := flag.Uint64("seed", 1, "random seed; the same seed gives the same files")
	perDir := flag.Int("per-dir", 100, "files per directory")
	dangling := flag.Float64("dangling", 0, "percentage of files with a related tool that names no tool of the set (lint reports each)")
	quiet := flag.Bool("q", false, "do not print the summary")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: gencorpus [-n N] [-seed S] [-per-dir K] [-dangling PCT] DIR\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *n < 1 || *perDir < 1 || *dangling < 0 || *dangling > 100 {
		flag.Usage()
		os.Exit(2)
	}
	st, err := generate(flag.Arg(0), *n, *seed, *perDir, *dangling)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
	if !*quiet {
		fmt.Fprintln(os.Stderr, "gencorpus: wrote", st)
	}
}
