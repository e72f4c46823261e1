package lint

import (
	"sort"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleNameCategoryPrefix = &Rule{
	ID:          "name-category-prefix",
	Severity:    Info,
	Description: "Tools of one category share a name prefix when most of them already do.",
	Explain: `A shared prefix (file_read, file_write, file_list) groups related tools in a
model's tool list and in completion. When most tools of a category use one,
the others probably should too.

Bad:
  # category: file
  file_read, file_write, list_directory

Good:
  file_read, file_write, file_list`,
	SetPins: pinName,
	Set: func(r *Reporter, tools []*spec.Tool) {
		byCategory := map[string][]*spec.Tool{}
		for _, t := range tools {
			if t.Category != "" && t.Name != "" {
				byCategory[strings.ToLower(t.Category)] = append(byCategory[strings.ToLower(t.Category)], t)
			}
		}
		cats := make([]string, 0, len(byCategory))
		for c := range byCategory {
			cats = append(cats, c)
		}
		sort.Strings(cats)
		for _, c := range cats {
			group := byCategory[c]
			if len(group) < 3 {
				continue
			}
			count := map[string]int{}
			for _, t := range group {
				count[namePrefix(t.Name)]++
			}
			best, n := "", 0
			for p, k := range count {
				if p != "" && (k > n || k == n && p < best) {
					best, n = p, k
				}
			}
			// A clear majority, not a tie between conventions.
			if n*2 <= len(group) || n == len(group) {
				continue
			}
			for _, t := range group {
				if namePrefix(t.Name) != best {
					r.Report(t, "/name", "%d of the %d %q tools start with %q; consider %s_%s", n, len(group), t.Category, best+"_", best, t.Name)
				}
			}
		}
	},
}

func namePrefix(name string) string {
	if i := strings.IndexByte(name, '_'); i > 0 {
		return name[:i]
	}
	return ""
}
