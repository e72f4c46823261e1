// Command parseonly is the floor for `toolctl lint`: it finds tool files the
// way toolctl does (recursive, hidden directories skipped, .yaml/.yml/.json),
// reads each and parses it with yaml.v3 into a yaml.Node on GOMAXPROCS
// workers, as pkg/spec.Load does, and prints the number of files. Nothing is
// checked, so lint time minus this is the cost of the model and the rules.
//
//	go run ./bench/parseonly DIR...
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"gopkg.in/yaml.v3"
)

func isToolFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// collect mirrors spec.Collect: sorted, hidden directories below a root
// skipped; files given directly are taken as they are.
func collect(roots []string) ([]string, error) {
	var files []string
	for _, root := range roots {
		var found []string
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != root && strings.HasPrefix(d.Name(), ".") {
					return fs.SkipDir
				}
				return nil
			}
			if p == root || isToolFile(p) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: parseonly DIR...")
		os.Exit(2)
	}
	files, err := collect(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "parseonly:", err)
		os.Exit(2)
	}
	var failed atomic.Int64
	next := make(chan string)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(files))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range next {
				data, err := os.ReadFile(path)
				if err == nil {
					var doc yaml.Node
					err = yaml.Unmarshal(data, &doc)
				}
				if err != nil {
					failed.Add(1)
					fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
				}
			}
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	fmt.Println(len(files))
	if failed.Load() > 0 {
		os.Exit(1)
	}
}
