package lint

import (
	"strconv"

	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/tmpl"
)

var ruleCommandPlaceholderOption = &Rule{
	ID:          "command-placeholder-option",
	Severity:    Warning,
	Description: `A {param} that is a whole argument of entry.command comes after a "--" element, so that a value cannot be an option.`,
	Explain: `A program reads an argument that starts with "-" as an option: with
command: [du, -sk, "{path}"], the value --files0-from=/etc/shadow makes du
read a list of files to measure from any file. toolctl run therefore
refuses a value starting with "-" for a {param} that is a whole argument
(or follows only dashes, as in -{flag}, where the value picks the option)
unless a "--" element (git: --end-of-options) comes before it: then the
program reads everything after it as operands. A file named -x is then
passed as it is.

Alternatives: write the option and its value as one argument
(--name={value} or -n{count}), or list the allowed values in an enum.
Bound parameters are the file's own values and are not reported.

Bad:
  entry:
    type: command
    command: [du, -sk, "{path}"]

Good:
  entry:
    type: command
    command: [du, -sk, --, "{path}"]`,
	Tool: func(r *Reporter, t *spec.Tool) {
		e := t.Entry
		if e == nil || e.Kind() != spec.EntryCommand {
			return
		}
		for i := 1; i < len(e.Command); i++ {
			arg := e.Command[i]
			if tmpl.EndOfOptions(arg) {
				return
			}
			ref, dashed, ok := tmpl.OptionSlot(arg)
			if !ok || fixedParam(t, ref.Name) {
				continue
			}
			span := textSpan(t, "/entry/command/"+strconv.Itoa(i), arg, ref.Off, ref.End)
			if dashed {
				r.ReportSpan(t, span, "%q lets parameter %q choose which option %s gets; write the option in the tool file and the value after it (-n{%s}, --name={%s}), or list the allowed values in an enum", arg, ref.Name, e.Command[0], ref.Name, ref.Name)
				continue
			}
			r.ReportSpan(t, span, `{%s} is a whole argument before any "--": toolctl run refuses a value starting with "-", which %s would read as an option; put "--" before it in entry.command (git: --end-of-options), or write the option and value as one argument (--name={%s})`, ref.Name, e.Command[0], ref.Name)
		}
	},
}
