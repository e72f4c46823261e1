package lint

import (
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleReferenceUnknown = &Rule{
	ID:          "reference-unknown",
	Severity:    Error,
	Description: "related_tools, workflow steps and prerequisites' check_tool name tools in the linted set.",
	Explain: `A reference to a tool that does not exist sends the agent to a dead end (and
docs to a broken link). Lint the whole tools directory so every referenced
tool is in the set.

Bad:
  related_tools:
    - name: web_serch
      relation: use to find the URL first

Good:
  related_tools:
    - name: web_search
      relation: use to find the URL first`,
	SetPins: func(t *spec.Tool, pin func(string)) {
		references(t, func(ptr, _, name string) {
			if name != "" {
				pin(ptr)
			}
		})
	},
	Set: func(r *Reporter, tools []*spec.Tool) {
		names := make(map[string]bool, len(tools))
		for _, t := range tools {
			if t.Name != "" {
				names[t.Name] = true
			}
		}
		type dangling struct {
			t              *spec.Tool
			ptr, what, ref string
		}
		var found []dangling
		var distinct []string
		suggestion := map[string]string{}
		for _, t := range tools {
			references(t, func(ptr, what, ref string) {
				if ref == "" || names[ref] {
					return
				}
				found = append(found, dangling{t, ptr, what, ref})
				if _, dup := suggestion[ref]; !dup {
					suggestion[ref] = ""
					distinct = append(distinct, ref)
				}
			})
		}
		for ref, s := range suggestions(names, distinct) {
			suggestion[ref] = s
		}
		for _, d := range found {
			if s := suggestion[d.ref]; s != "" {
				r.Report(d.t, d.ptr, "%s %q is not a tool in the linted set; did you mean %q?", d.what, d.ref, s)
				continue
			}
			r.Report(d.t, d.ptr, "%s %q is not a tool in the linted set; fix the name, or lint the directory that holds it", d.what, d.ref)
		}
	},
}

// references calls fn with the pointer, kind and name of every tool t
// refers to by name: related tools, workflow step tools, prerequisites'
// check_tool. Empty names are passed too.
func references(t *spec.Tool, fn func(ptr, what, name string)) {
	for i, rt := range t.RelatedTools {
		fn("/related_tools/"+strconv.Itoa(i)+"/name", "related tool", rt.Name)
	}
	if t.Workflow != nil {
		for i, st := range t.Workflow.Steps {
			base := "/workflow/steps/" + strconv.Itoa(i)
			fn(base+"/tool", "workflow step tool", st.Tool)
			for j, name := range st.Tools {
				fn(base+"/tools/"+strconv.Itoa(j), "workflow step tool", name)
			}
		}
	}
	for i, p := range t.Prerequisites {
		fn("/prerequisites/"+strconv.Itoa(i)+"/check_tool", "prerequisite check_tool", p.CheckTool)
	}
}

// suggestions returns the did-you-mean (spec.Suggest over every name of
// the set, in order) of each dangling reference, on every CPU: on a large
// set each one compares with thousands of names.
func suggestions(names map[string]bool, refs []string) map[string]string {
	out := make(map[string]string, len(refs))
	if len(refs) == 0 {
		return out
	}
	all := make([]string, 0, len(names))
	for n := range names {
		all = append(all, n)
	}
	sort.Strings(all)
	s := spec.NewSuggester(all)
	got := make([]string, len(refs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(refs)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(refs); i = int(next.Add(1) - 1) {
				got[i] = s.Suggest(refs[i])
			}
		})
	}
	wg.Wait()
	for i, ref := range refs {
		out[ref] = got[i]
	}
	return out
}
