package lint

import (
	"sort"
	"strconv"

	"github.com/toolctl/toolctl/pkg/spec"
)

var _ = register(&Rule{
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
	Set: func(r *Reporter, tools []*spec.Tool) {
		names := map[string]bool{}
		for _, t := range tools {
			if t.Name != "" {
				names[t.Name] = true
			}
		}
		var all []string
		for n := range names {
			all = append(all, n)
		}
		sort.Strings(all)
		check := func(t *spec.Tool, ptr, what, name string) {
			if name == "" || names[name] {
				return
			}
			if s := spec.Suggest(name, all); s != "" {
				r.Report(t, ptr, "%s %q is not a tool in the linted set; did you mean %q?", what, name, s)
				return
			}
			r.Report(t, ptr, "%s %q is not a tool in the linted set; fix the name, or lint the directory that holds it", what, name)
		}
		for _, t := range tools {
			for i, rt := range t.RelatedTools {
				check(t, "/related_tools/"+strconv.Itoa(i)+"/name", "related tool", rt.Name)
			}
			if t.Workflow != nil {
				for i, st := range t.Workflow.Steps {
					base := "/workflow/steps/" + strconv.Itoa(i)
					check(t, base+"/tool", "workflow step tool", st.Tool)
					for j, name := range st.Tools {
						check(t, base+"/tools/"+strconv.Itoa(j), "workflow step tool", name)
					}
				}
			}
			for i, p := range t.Prerequisites {
				check(t, "/prerequisites/"+strconv.Itoa(i)+"/check_tool", "prerequisite check_tool", p.CheckTool)
			}
		}
	},
})
