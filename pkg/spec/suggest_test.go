package spec

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// referenceSuggest is Suggest as it was before the indexed search (every
// candidate, the full distance, fresh []rune and rows each time): the new
// Suggest and Suggester must give exactly its answers.
func referenceSuggest(word string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		d := referenceEditDistance(word, c)
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := max(1, len([]rune(word))/3)
	if bestDist < 0 || bestDist > limit {
		return ""
	}
	return best
}

func referenceEditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// checkSuggest compares Suggest and a Suggester with the reference for
// every word, and returns how many words got a suggestion.
func checkSuggest(t *testing.T, what string, words, candidates []string) int {
	t.Helper()
	s := NewSuggester(candidates)
	hits, bad := 0, 0
	for _, w := range words {
		want := referenceSuggest(w, candidates)
		if want != "" {
			hits++
		}
		got, gotIndexed := Suggest(w, candidates), s.Suggest(w)
		if got != want || gotIndexed != want {
			bad++
			if bad <= 10 {
				t.Errorf("%s: word %q: Suggest = %q, Suggester = %q, reference = %q", what, w, got, gotIndexed, want)
			}
		}
	}
	if bad > 10 {
		t.Errorf("%s: %d words differ in all", what, bad)
	}
	return hits
}

func TestSuggestMatchesReferenceCases(t *testing.T) {
	cands := []string{"name", "description", "detail", "category", "parameters", "naem", "mane", "", "名称", "описание", "ab", "ba", "abc", "ca", "NAME"}
	words := []string{
		"descripton", "catgory", "nmae", "paramters", "zzzzzz", "parms", "", "a", "n", "na", "nam", "name", "names",
		"名", "名称s", "описаниe", "ac", "cab", "acb", "bca", "CA", "Name", "NAEM", "detial", "\xff\xfe", "na\xffme",
		"parameters_extra_long_word", strings.Repeat("a", 40),
	}
	checkSuggest(t, "cases", words, cands)
	checkSuggest(t, "no candidates", words, nil)
	checkSuggest(t, "duplicates", words, []string{"nmae", "name", "nmae", "name", "category", "category"})
}

// TestSuggestMatchesReferenceRandom: words and candidates over a small
// alphabet, so that ties, transpositions and distances at the limit are
// common.
func TestSuggestMatchesReferenceRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("ab_cé")
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	for round := range 300 {
		// A third of the rounds have words longer than the 64 runes of
		// the bit-parallel distance.
		short, long := 12, 0
		if round%3 == 2 {
			short, long = 20, 55
		}
		var cands, words []string
		for range 1 + r.IntN(60) {
			cands = append(cands, word(long+r.IntN(short)))
		}
		for range 40 {
			w := word(long + r.IntN(short+2))
			if r.IntN(3) == 0 && len(cands) > 0 {
				w = mutate(r, cands[r.IntN(len(cands))])
			}
			words = append(words, w)
		}
		checkSuggest(t, fmt.Sprintf("round %d", round), words, cands)
	}
}

// mutate makes one or two typos in s.
func mutate(r *rand.Rand, s string) string {
	rs := []rune(s)
	for range 1 + r.IntN(2) {
		if len(rs) < 2 {
			rs = append(rs, 'x')
			continue
		}
		i := r.IntN(len(rs) - 1)
		switch r.IntN(4) {
		case 0:
			rs[i], rs[i+1] = rs[i+1], rs[i]
		case 1:
			rs = slices.Delete(rs, i, i+1)
		case 2:
			rs = slices.Insert(rs, i, 'q')
		default:
			rs[i] = 'z'
		}
	}
	return string(rs)
}

// TestSuggestMatchesReferenceCorpora: every tool name and reference of the
// bundled tools, the test fixtures and each corpus of ../shared/corpora,
// and typos of every name, against that set's names (as reference-unknown
// asks), and every top-level key against ToolFields (as field-unknown
// asks).
func TestSuggestMatchesReferenceCorpora(t *testing.T) {
	sets := map[string][]string{
		"tools":    {"../../tools"},
		"fixtures": {"../../testdata", "testdata", "../lint", "../mcp/testdata"},
	}
	corpora := "../../../shared/corpora"
	if entries, err := os.ReadDir(corpora); err == nil {
		for _, e := range entries {
			if e.IsDir() {
				sets[e.Name()] = []string{filepath.Join(corpora, e.Name())}
			}
		}
	} else {
		t.Log("../shared/corpora is not present: fixtures only")
	}
	// Names of the other sets are references to tools outside the set:
	// mostly no suggestion, every candidate compared.
	loaded := map[string]*Set{}
	var everyName []string
	for name, paths := range sets {
		var existing []string
		for _, p := range paths {
			if _, err := os.Stat(p); err == nil {
				existing = append(existing, p)
			}
		}
		set, err := Load(existing)
		if err != nil {
			t.Fatal(err)
		}
		loaded[name] = set
		names := toolNames(set)
		if len(names) == 0 {
			// BFCL's JSON Lines are not tool files: their names still
			// make a realistic name list.
			names = jsonNames(t, existing)
		}
		everyName = append(everyName, names...)
	}
	for name, set := range loaded {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, 4))
			names := toolNames(set)
			var words, keys []string
			if len(names) == 0 {
				names = jsonNames(t, sets[name])
			}
			for _, n := range names {
				words = append(words, n, mutate(r, n))
			}
			for _, tl := range set.Tools() {
				for _, rt := range tl.RelatedTools {
					words = append(words, rt.Name)
				}
				if tl.Workflow != nil {
					for _, st := range tl.Workflow.Steps {
						words = append(words, st.Tool)
						words = append(words, st.Tools...)
					}
				}
				for _, p := range tl.Prerequisites {
					words = append(words, p.CheckTool)
				}
				if n := tl.Node(); n != nil {
					for i := 0; i+1 < len(n.Content); i += 2 {
						keys = append(keys, n.Content[i].Value)
					}
				}
			}
			for range 300 {
				words = append(words, everyName[r.IntN(len(everyName))])
			}
			if len(names) == 0 {
				t.Fatal("no tool names loaded")
			}
			hits := checkSuggest(t, "tool names", words, names)
			checkSuggest(t, "fields", keys, ToolFields)
			t.Logf("%d names, %d words (%d with a suggestion), %d keys", len(names), len(words), hits, len(keys))
		})
	}
}

// toolNames returns the set's distinct tool names, sorted, as
// reference-unknown lists them.
func toolNames(set *Set) []string {
	seen := map[string]bool{}
	var names []string
	for _, tl := range set.Tools() {
		if tl.Name != "" && !seen[tl.Name] {
			seen[tl.Name] = true
			names = append(names, tl.Name)
		}
	}
	slices.Sort(names)
	return names
}

// jsonNames returns the distinct "name" values of the JSON files under
// paths, sorted.
func jsonNames(t *testing.T, paths []string) []string {
	re := regexp.MustCompile(`"name":\s*"([^"\\]+)"`)
	seen := map[string]bool{}
	var names []string
	for _, root := range paths {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range re.FindAllSubmatch(data, -1) {
				if n := string(m[1]); !seen[n] {
					seen[n] = true
					names = append(names, n)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(names)
	return names
}

// BenchmarkSuggester: dangling references against 20,000 tool names, the
// worst case of reference-unknown on a big set (a typo, and names near
// none of the set).
func BenchmarkSuggester(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	parts := []string{"http", "db", "crm", "get", "list", "sync", "create", "user", "invoice", "order", "report", "salesforce", "hubspot", "postgres", "file", "upload", "batch", "v2"}
	var names []string
	seen := map[string]bool{}
	for len(names) < 20000 {
		var ps []string
		for range 3 + r.IntN(3) {
			ps = append(ps, parts[r.IntN(len(parts))])
		}
		n := strings.Join(ps, "_")
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	slices.Sort(names)
	words := []string{mutate(r, names[100]), mutate(r, names[15000]), "crm_quartz_mango_kestrel", "notify_zephyr_lumen", names[7000] + "_old"}
	b.Run("indexed", func(b *testing.B) {
		s := NewSuggester(names)
		for b.Loop() {
			for _, w := range words {
				s.Suggest(w)
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			for _, w := range words {
				Suggest(w, names)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			for _, w := range words {
				referenceSuggest(w, names)
			}
		}
	})
}
