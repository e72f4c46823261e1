package lint

import (
	"strconv"
	"strings"

	"github.com/toolctl/toolctl/pkg/spec"
)

// checkTextList reports empty and repeated items of a list of strings;
// items for which skip (when not nil) is true are neither.
func checkTextList(r *Reporter, t *spec.Tool, field string, items []string, skip func(i int) bool) {
	seen := map[string]int{}
	for i, s := range items {
		if skip != nil && skip(i) {
			continue
		}
		ptr := "/" + field + "/" + strconv.Itoa(i)
		key := strings.ToLower(strings.Join(strings.Fields(s), " "))
		switch {
		case key == "":
			r.Report(t, ptr, "%s[%d] is empty; remove it or say something", field, i)
		case seen[key] > 0:
			r.Report(t, ptr, "%s[%d] repeats %s[%d]; remove one", field, i, field, seen[key]-1)
		default:
			seen[key] = i + 1
		}
	}
}
