package importer

// Rule IDs of import's warnings and of the problems --exec reports
// (diag.Diagnostic.Rule): stable names that --error-format json, sarif,
// github and junit carry and the text format shows in brackets, so that a
// script can filter them. Rules lists them; README, "Tools from Python
// functions", documents each (a test keeps the two in step). Errors that
// no rule names (a syntax error, an unknown function, a name collision)
// have none.
const (
	// Every format.
	RuleNameMapped         = "import-name-mapped"
	RuleDescriptionMissing = "import-description-missing"
	RuleFieldDropped       = "import-field-dropped"
	RuleBuiltinSkipped     = "import-builtin-skipped"
	RuleTypeDropped        = "import-type-dropped"
	RuleEntryMissing       = "import-entry-missing"
	RuleEnvDropped         = "import-env-dropped"
	RuleKeyOrder           = "import-key-order-lost"

	// --from python.
	RulePythonAnnotation     = "python-annotation-unsupported"
	RulePythonVarargs        = "python-varargs-refused"
	RulePythonPositionalOnly = "python-positional-only-refused"
	RulePythonInstanceMethod = "python-instance-method-refused"
	RulePythonDefault        = "python-default-not-literal"
	RulePythonDocstringParam = "python-docstring-unknown-param"
	RulePythonTypeComment    = "python-type-comment-unused"
	RulePythonDictKeys       = "python-dict-keys-not-str"
	RulePythonMetadata       = "python-metadata-unread"
	RulePythonNoEntry        = "python-no-entry"
	// RulePythonExecFailed: --exec could not import the module (it
	// raised, hung, printed too much, went over the memory limit); an
	// error.
	RulePythonExecFailed = "python-exec-failed"
	// RulePythonExecUnresolved: --exec imported the module, but a
	// function or an annotation could not be resolved at run time; the
	// static reading is used for it.
	RulePythonExecUnresolved = "python-exec-unresolved"
)

// Rules is every rule ID import reports, in the README's order, with
// what it means.
var Rules = []struct{ ID, Summary string }{
	{RuleNameMapped, "a name toolctl does not accept is mapped to snake_case (and catalogue tools to SERVER__TOOL)"},
	{RuleDescriptionMissing, "the tool has no description (a function without a docstring summary)"},
	{RuleFieldDropped, "a field of the source format that toolctl does not keep"},
	{RuleBuiltinSkipped, "a provider's built-in tool (no schema to import) is skipped"},
	{RuleTypeDropped, "a BFCL type toolctl does not know is dropped"},
	{RuleEntryMissing, "a catalogue server without a usable command or url: its tools get no entry"},
	{RuleEnvDropped, "a catalogue server's environment, which an mcp entry cannot set"},
	{RuleKeyOrder, "a live server's raw answer could not be read: keys in alphabetical order"},
	{RulePythonAnnotation, "a type (annotation, type comment or docstring type) JSON Schema cannot express: the parameter is unconstrained"},
	{RulePythonVarargs, "a function with `*args` or `**kwargs` is skipped"},
	{RulePythonPositionalOnly, "a function with positional-only parameters is skipped"},
	{RulePythonInstanceMethod, "an instance method is skipped"},
	{RulePythonDefault, "a default that is not a literal is not written to the schema"},
	{RulePythonDocstringParam, "the docstring describes a parameter the signature does not have"},
	{RulePythonTypeComment, "a type comment that cannot be used"},
	{RulePythonDictKeys, "a dict whose keys are not str (JSON keys are strings)"},
	{RulePythonMetadata, "`Annotated` metadata or a `Field(...)` argument that is not read"},
	{RulePythonNoEntry, "a snippet imported without `--module`: the tools have no entry"},
	{RulePythonExecUnresolved, "`--exec`: a function or annotation that did not resolve at run time keeps its static reading"},
	{RulePythonExecFailed, "`--exec`: the module could not be imported (it raised, ran past `--timeout`, printed more than 1 MiB, went over `run.memory`); an error"},
}
