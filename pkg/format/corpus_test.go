package format

import (
	"math/rand/v2"

	"bytes"
	"errors"
	"gopkg.in/yaml.v3"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolctl/toolctl/pkg/spec"
)

// corpusDir is the shared corpus of real tool files, beside the repository.
const corpusDir = "../../../shared/corpora"

// formatTwice formats a file and its result: the second pass must change
// nothing (fmt is idempotent), and neither may hit verify's safety net.
func formatTwice(t *testing.T, path string, data []byte, opts Options) ([]byte, error) {
	t.Helper()
	once, err := Source(path, data, opts)
	if err != nil {
		if strings.Contains(err.Error(), "please report") {
			t.Errorf("%v", err)
		}
		return nil, err
	}
	twice, err := Source(path, once, opts)
	if err != nil {
		t.Errorf("%s: formatting the result failed: %v\n%s", path, err, once)
		return once, nil
	}
	if !bytes.Equal(once, twice) {
		t.Errorf("%s: not idempotent:\n--- once\n%s\n--- twice\n%s", path, once, twice)
	}
	return once, nil
}

func TestBundledTools(t *testing.T) {
	files, err := spec.Collect([]string{"../../tools"})
	if err != nil || len(files) < 10 {
		t.Fatalf("bundled tools: %v %v", files, err)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, to := range []Target{Keep, Feagent, Schema} {
			if _, err := formatTwice(t, p, data, Options{To: to}); err != nil && (to == Keep || !isRefusal(err)) {
				t.Errorf("%s (--to %q): %v", p, to, err)
			}
		}
	}
}

func isRefusal(err error) bool {
	var es Errors
	return errors.As(err, &es) && strings.Contains(es[0].Message, "cannot convert")
}

// Every corpus file: formatted (idempotently) when the parser reads tools
// from it without errors, reported with a position when not (no tools, or
// any error lint reports as parse-error); --to converts or refuses with a
// reason, never loses anything.
func TestCorpora(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpora is not present")
	}
	files, err := spec.Collect([]string{corpusDir})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("read %d files from %s", len(files), corpusDir)
	counts := map[string]int{}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		parsed := spec.ParseFile(p, data)
		for _, to := range []Target{Keep, Feagent, Schema} {
			_, err := formatTwice(t, p, data, Options{To: to})
			rel, _ := filepath.Rel(corpusDir, p)
			switch {
			case len(parsed.Tools) == 0 || len(parsed.Errors) > 0:
				if len(parsed.Tools) == 0 {
					counts[string(to)+" not a tool"]++
				} else {
					counts[string(to)+" parse errors"]++
				}
				var es Errors
				if err == nil {
					t.Errorf("%s (--to %q): formatted despite %d parse errors", rel, to, len(parsed.Errors))
				} else if !errors.As(err, &es) || !es[0].Span.Start.IsValid() {
					t.Errorf("%s: unpositioned error %v", rel, err)
				}
			case err == nil:
				counts[string(to)+" ok"]++
			case to != Keep && isRefusal(err):
				counts[string(to)+" refused"]++
			default:
				t.Errorf("%s (--to %q): %v", rel, to, err)
			}
		}
	}
	t.Logf("%v", counts)
}

// Shuffled fields: the bundled tools with their top-level fields (and the
// comments on them) in random orders still format to the same file.
func TestShuffledBundledTools(t *testing.T) {
	files, err := spec.Collect([]string{"../../tools"})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range files {
		if IsJSON(p) {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Source(p, data, Options{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for range 5 {
			var doc yaml.Node
			if err := yaml.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			root := doc.Content[0]
			// keep the file header on top, as a person would
			header := root.Content[0].HeadComment
			root.Content[0].HeadComment = ""
			n := len(root.Content) / 2
			perm := rng.Perm(n)
			content := make([]*yaml.Node, 0, len(root.Content))
			for _, i := range perm {
				content = append(content, root.Content[2*i], root.Content[2*i+1])
			}
			root.Content = content
			doc.HeadComment = joinComments(header, doc.HeadComment)
			shuffled, err := yaml.Marshal(&doc)
			if err != nil {
				t.Fatal(err)
			}
			got, err := formatTwice(t, p, shuffled, Options{})
			if err != nil {
				t.Fatalf("%s shuffled: %v\n%s", p, err, shuffled)
			}
			// the same but for blank lines (the shuffle dropped them)
			if g, w := noBlankLines(got), noBlankLines(want); g != w {
				t.Errorf("%s shuffled:\n%s\nformats to\n%s\nwant\n%s", p, shuffled, got, want)
				break
			}
		}
	}
}

func noBlankLines(b []byte) string {
	s := string(b)
	for strings.Contains(s, "\n\n") {
		s = strings.ReplaceAll(s, "\n\n", "\n")
	}
	return s
}
