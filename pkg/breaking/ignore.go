package breaking

import (
	"slices"

	"github.com/toolctl/toolctl/pkg/diag"
	"github.com/toolctl/toolctl/pkg/lint"
)

// InlineIgnores is an Options.Ignore that drops the findings inline
// ignore comments of the new side's YAML files suppress, with lint's
// syntax:
//
//	limit:   # toolctl:ignore constraint-tightened -- nobody sent more than 50
//	# toolctl:ignore-file param-removed -- v2 drops the legacy parameters
//
// A comment applies to its line (or, on a line of its own, to the next);
// a finding at the old side (a removal) is suppressed by a file-wide
// comment in the file that holds the tool now. A tool removed altogether
// has no file left: turn the rule off in .toolctl.yaml instead. A change
// ignored does not ask for a version bump either.
func InlineIgnores(newSide *Side) func(d diag.Diagnostic) bool {
	dirs := map[string][]lint.IgnoreDirective{}
	for _, f := range newSide.Files {
		if ds := lint.IgnoreDirectives(f); len(ds) > 0 {
			dirs[f.Path] = ds
		}
	}
	if len(dirs) == 0 {
		return nil
	}
	fileOf := map[string]string{}
	for _, t := range newSide.Tools {
		if _, dup := fileOf[t.Name]; !dup {
			fileOf[t.Name] = t.File
		}
	}
	isNew := map[string]bool{}
	for _, f := range newSide.Files {
		isNew[f.Path] = true
	}
	return func(d diag.Diagnostic) bool {
		file, line := d.File, d.Span.Start.Line
		if !isNew[file] {
			file, line = fileOf[d.Tool], -1 // only file-wide comments
		}
		for _, dir := range dirs[file] {
			if (dir.FileWide || (line > 0 && dir.Line == line)) && slices.Contains(dir.Rules, d.Rule) {
				return true
			}
		}
		return false
	}
}
