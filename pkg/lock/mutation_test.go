package lock

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/breaking"
	"github.com/toolctl/toolctl/pkg/spec"
	"gopkg.in/yaml.v3"
)

// bundled are the bundled tool files, each as a YAML tree.
func bundled(t *testing.T) map[string]*yaml.Node {
	t.Helper()
	paths, err := filepath.Glob("../../tools/*.*")
	if err != nil || len(paths) < 10 {
		t.Fatalf("bundled tools: %v (%d files)", err, len(paths))
	}
	out := map[string]*yaml.Node{}
	for _, p := range paths {
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".json" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var n yaml.Node
		if err := yaml.Unmarshal(data, &n); err != nil {
			t.Fatal(p, err)
		}
		out[filepath.Base(p)] = &n
	}
	return out
}

// side loads one file's text as a side (nil when it does not load).
func side(name string, data []byte) *breaking.Side {
	f := spec.ParseFile(name, data)
	if len(f.Errors) > 0 || len(f.Tools) == 0 {
		return nil
	}
	s := &breaking.Side{}
	for _, t := range f.Tools {
		s.Tools = append(s.Tools, breaking.FromSpec(t))
	}
	return s
}

func encode(t *testing.T, n *yaml.Node) []byte {
	t.Helper()
	b, err := yaml.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// leaves are the scalars of a tree (values and mapping keys) in document
// order, each with its path.
func leaves(n *yaml.Node, path string, out *[]*yaml.Node, paths *[]string) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			leaves(c, path, out, paths)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			p := path + "/" + k.Value
			*out, *paths = append(*out, k), append(*paths, p+" (key)")
			leaves(n.Content[i+1], p, out, paths)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			leaves(c, path+"/"+strconv.Itoa(i), out, paths)
		}
	case yaml.ScalarNode:
		*out, *paths = append(*out, n), append(*paths, path)
	}
}

// mutate changes one scalar: a string gets a letter more, a number one
// more, a boolean flips; false when it has nothing to change (null).
func mutate(n *yaml.Node) bool {
	switch n.Tag {
	case "!!str":
		n.Value += "q"
	case "!!int":
		v, err := strconv.ParseInt(n.Value, 0, 64)
		if err != nil {
			return false
		}
		n.Value = strconv.FormatInt(v+1, 10)
	case "!!float":
		v, err := strconv.ParseFloat(n.Value, 64)
		if err != nil {
			return false
		}
		n.Value = strconv.FormatFloat(v+1, 'g', -1, 64)
	case "!!bool":
		if n.Value == "true" {
			n.Value = "false"
		} else {
			n.Value = "true"
		}
	default:
		return false
	}
	return true
}

// TestMutations changes every scalar of every bundled tool file, one at
// a time (every value and every key: a parameter renamed, a bound
// moved, a hint flipped, a word added to a description, an entry's URL
// or command changed...): each change that leaves a loadable tool file
// must be a verify finding. Changes that make the file invalid are
// counted, not checked: lint and verify's loading refuse those.
func TestMutations(t *testing.T) {
	var checked, invalid int
	for name, root := range bundled(t) {
		base := encode(t, root)
		bs := side(name, base)
		if bs == nil {
			t.Fatalf("%s does not load as re-encoded", name)
		}
		lf, err := Build(bs, ".", nil)
		if err != nil {
			t.Fatal(err)
		}
		lf, err = Parse(FileName, lf.Marshal())
		if err != nil {
			t.Fatal(err)
		}
		var ls []*yaml.Node
		var paths []string
		leaves(root, "", &ls, &paths)
		for i, n := range ls {
			old := n.Value
			if !mutate(n) {
				continue
			}
			data := encode(t, root)
			n.Value = old
			ms := side(name, data)
			if ms == nil {
				invalid++
				continue
			}
			checked++
			if got := Verify(lf, ms); len(got) == 0 {
				t.Errorf("%s %s: %q changed, verify reports nothing", name, paths[i], old)
			}
		}
		// the tree is unchanged again
		if got := string(encode(t, root)); got != string(base) {
			t.Fatalf("%s: mutations not undone", name)
		}
	}
	t.Logf("%d single-field changes detected; %d more made the file invalid", checked, invalid)
	if checked < 500 {
		t.Errorf("only %d mutations checked: the bundled tools are not read", checked)
	}
}

// reverse reverses the key order of every mapping.
func reverse(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		for i, j := 0, len(n.Content)-2; i < j; i, j = i+2, j-2 {
			n.Content[i], n.Content[j] = n.Content[j], n.Content[i]
			n.Content[i+1], n.Content[j+1] = n.Content[j+1], n.Content[i+1]
		}
	}
	for _, c := range n.Content {
		reverse(c)
	}
}

// TestNoChange: key order, layout (flow or block, YAML or JSON) and
// comments are no changes: verify reports nothing and the lock is the
// same bytes.
func TestNoChange(t *testing.T) {
	for name, root := range bundled(t) {
		base := encode(t, root)
		bs := side(name, base)
		lf, err := Build(bs, ".", nil)
		if err != nil {
			t.Fatal(err)
		}
		want := lf.Marshal()
		lf, err = Parse(FileName, want)
		if err != nil {
			t.Fatal(err)
		}
		reverse(root)
		variants := map[string][]byte{"keys reversed": encode(t, root)}
		setStyle(root, yaml.FlowStyle)
		variants["flow style"] = encode(t, root)
		j := strings.TrimSuffix(name, filepath.Ext(name)) + ".json"
		for what, data := range variants {
			for _, file := range []string{name, j} {
				text := data
				if file == j {
					text = toJSON(t, data)
				}
				s := side(file, text)
				if s == nil {
					t.Fatalf("%s %s does not load", name, what)
				}
				for _, d := range Verify(lf, s) {
					t.Errorf("%s %s (%s): %s", name, what, file, d.Message)
				}
				got, err := Build(s, ".", nil)
				if err != nil {
					t.Fatal(err)
				}
				for i := range got.Tools {
					got.Tools[i].File = lf.Tools[i].File
				}
				if string(got.Marshal()) != string(want) {
					t.Errorf("%s %s: the lock is not the same bytes", name, what)
				}
			}
		}
	}
}

func setStyle(n *yaml.Node, s yaml.Style) {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style = s
	}
	for _, c := range n.Content {
		setStyle(c, s)
	}
}

// toJSON is YAML text as JSON (keys sorted).
func toJSON(t *testing.T, data []byte) []byte {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
