package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/tmpl"
)

var ruleCommandProgramPlaceholder = &Rule{
	ID:          "command-program-placeholder",
	Severity:    Error,
	Description: "entry.command[0], the program, takes no {param}: a caller could run any program.",
	Explain: `The first element of entry.command is the program to run. A {param} in it
lets whoever calls the tool choose the program (or, in ./scripts/{name}.sh,
any script reachable with ../), so toolctl run refuses it. Name the program
in the tool file and pass the value as a later argument. A bound parameter
or one limited to an enum is the file's own choice and is allowed.

Bad:
  entry:
    type: command
    command: ["{tool}", --version]

Good:
  entry:
    type: command
    command: [./scripts/report.sh, --, "{section}"]`,
	Tool: func(r *Reporter, t *spec.Tool) {
		e := t.Entry
		if e == nil || e.Kind() != spec.EntryCommand || len(e.Command) == 0 {
			return
		}
		arg := e.Command[0]
		for _, ref := range tmpl.Params(arg) {
			if fixedParam(t, ref.Name) {
				continue
			}
			r.ReportSpan(t, textSpan(t, "/entry/command/0", arg, ref.Off, ref.End),
				"entry.command[0] takes the program to run from parameter %q, so a caller could run any program (toolctl run refuses it); name the program in the tool file and pass the value as a later argument", ref.Name)
		}
	},
}
