package spec

// The fields of a tool's sections in canonical order: the order ToMap
// writes, the file schema lists (schema/tool.schema.json) and toolctl fmt
// sorts them in. TestSectionFieldOrder holds the three to these lists.
var (
	EntryFields        = []string{"type", "handler", "url", "method", "headers", "query", "body", "code", "file", "module", "function", "path", "interpreter", "command", "server", "tool"}
	ExampleFields      = []string{"scenario", "params", "expected", "expect"}
	PrerequisiteFields = []string{"condition", "check_tool", "action_if_not_met"}
	RelatedToolFields  = []string{"name", "relation"}
	WorkflowFields     = []string{"name", "steps"}
	WorkflowStepFields = []string{"step", "action", "tool", "tools", "condition"}
	AnnotationFields   = []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
	RuntimeFields      = []string{"timeout", "memory", "retries", "retry_delay", "backoff", "max_delay", "retry_non_idempotent"}
	// MetadataFields are the SDK dialect's metadata section's.
	MetadataFields = []string{"category", "tags", "documentationUrl"}
)
