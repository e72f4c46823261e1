package spec

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestLoadFilesStreamWhole: of the files of at least Stream.Min bytes, the
// lists (at the root, in a container, in a stream of documents) are read a
// tool at a time, and Whole is called, once and before its tools are
// known, for every other one: a tool, a flow list in YAML, a JSON object
// that is no container.
func TestLoadFilesStreamWhole(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"list.json":       `[{"name":"a","description":"Returns a thing."},{"name":"b","description":"Returns a thing."}]`,
		"container.json":  `{"tools":[{"name":"c","description":"Returns a thing."}]}`,
		"list.yaml":       "- name: d\n  description: Returns a thing.\n",
		"docs.yaml":       "name: e\ndescription: Returns a thing.\n---\nname: f\ndescription: Returns a thing.\n",
		"tool.json":       `{"name":"g","description":"Returns a thing."}`,
		"tool.yaml":       "name: h\ndescription: Returns a thing.\n",
		"flow.yaml":       `[{name: i, description: Returns a thing.}]`,
		"with_name.json":  `{"tools":[{"name":"j"}],"name":"k","description":"Returns a thing."}`,
		"anchor_doc.yaml": "name: l\ndescription: &d Returns a thing.\n---\nname: m\ndescription: *d\n",
	}
	wantWhole := map[string]bool{"tool.json": true, "tool.yaml": true, "flow.yaml": true, "with_name.json": true, "anchor_doc.yaml": true}
	var paths []string
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var mu sync.Mutex
	whole := map[string]int{}
	streamed := map[string]bool{}
	set := LoadFilesStream(paths, Stream{Min: 1,
		Tool: func(i int, _ *Tool) {
			mu.Lock()
			defer mu.Unlock()
			streamed[filepath.Base(paths[i])] = true
			if whole[filepath.Base(paths[i])] > 0 {
				t.Errorf("%s: read a tool at a time after Whole", paths[i])
			}
		},
		Whole: func(i int, size int) {
			mu.Lock()
			defer mu.Unlock()
			whole[filepath.Base(paths[i])]++
			if size != len(files[filepath.Base(paths[i])]) {
				t.Errorf("%s: Whole(%d), want its size %d", paths[i], size, len(files[filepath.Base(paths[i])]))
			}
		}}, nil)
	for _, f := range set.Files {
		name := filepath.Base(f.Path)
		if len(f.Errors) > 0 {
			t.Errorf("%s: %v", name, f.Errors)
		}
		switch {
		case wantWhole[name] && whole[name] != 1:
			t.Errorf("%s: Whole called %d times, want once", name, whole[name])
		case !wantWhole[name] && (whole[name] != 0 || !streamed[name]):
			t.Errorf("%s: Whole called %d times, streamed %v; want it read a tool at a time", name, whole[name], streamed[name])
		}
	}
}
