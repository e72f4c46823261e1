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
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: parseonly DIR...")
		os.Exit(2)
	}
	files, err := spec.Collect(os.Args[1:]) // the very walk toolctl does
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
