package importer

// Rule IDs of import's warnings and of the problems --exec reports
// (diag.Diagnostic.Rule): stable names that --error-format json, sarif,
// github and junit carry, so that a script can filter them. README,
// "Tools from Python functions", lists them.
const (
	// RulePythonExecFailed: --exec could not import the module (it
	// raised, hung, printed too much, went over the memory limit).
	RulePythonExecFailed = "python-exec-failed"
	// RulePythonExecUnresolved: --exec imported the module, but a
	// function or an annotation could not be resolved at run time; the
	// static reading is used for it.
	RulePythonExecUnresolved = "python-exec-unresolved"
)
